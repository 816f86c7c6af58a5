"""Packaging: the SMF manifest against the DTD, the method's syntax, and
the file tree `make install` creates and `make uninstall` removes."""

import os
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
# The DTD: $SVMRAM_DTD if set; else the project's shared copy beside the
# checkout; else where illumos installs it.
DTD_PLACES = [os.environ.get("SVMRAM_DTD", ""),
              os.path.join(os.path.dirname(REPO), "shared", "dtd",
                           "service_bundle.dtd.1"),
              "/work/shared/dtd/service_bundle.dtd.1",
              "/usr/share/lib/xml/dtd/service_bundle.dtd.1"]
DTD = next((p for p in DTD_PLACES if p and os.path.exists(p)), None)
MANIFEST = os.path.join(REPO, "manifests", "svmram.xml")
METHOD = os.path.join(REPO, "smf", "svmram")


def require(tool):
    if shutil.which(tool) is None:
        pytest.fail("%s is not installed; .ci/run installs it" % tool)


def test_manifest_is_valid_against_the_service_bundle_dtd():
    require("xmllint")
    if DTD is None:
        pytest.skip("no service_bundle.dtd.1 (set SVMRAM_DTD); looked in "
                    + ", ".join(p for p in DTD_PLACES if p))
    result = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid",
                             DTD, MANIFEST], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    errors = [line for line in result.stderr.splitlines()
              if "failed to load external entity" not in line
              and line.strip() and not line.strip().startswith(("<!DOCTYPE",
                                                                "^"))]
    assert errors == []


def test_an_invalid_manifest_is_caught(tmp_path):
    """The validation above can fail: a manifest without the required
    exec_method attributes does not validate."""
    require("xmllint")
    if DTD is None:
        pytest.skip("no service_bundle.dtd.1 (set SVMRAM_DTD); looked in "
                    + ", ".join(p for p in DTD_PLACES if p))
    broken = tmp_path / "broken.xml"
    with open(MANIFEST) as source:
        broken.write_text(source.read().replace(' timeout_seconds="1800"', ""))
    result = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid",
                             DTD, str(broken)], capture_output=True, text=True)
    assert result.returncode != 0
    assert "timeout_seconds" in result.stderr


def test_method_passes_ksh_syntax_check():
    require("ksh")
    result = subprocess.run(["ksh", "-n", METHOD], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    with open(METHOD) as method:
        assert method.readline() == "#!/usr/bin/ksh93\n"


EXPECTED_TREE = sorted([
    "lib/svc/manifest/system/svmram.xml",
    "lib/svc/method/svmram",
    "usr/sbin/svmram",
    "usr/share/man/man8/svmram.8",
] + ["usr/lib/svmram/" + os.path.relpath(os.path.join(d, f),
                                         os.path.join(REPO, "lib"))
     for d, _, files in os.walk(os.path.join(REPO, "lib", "svmram"))
     for f in files if f.endswith(".py")])


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files)


def test_make_install_and_uninstall(tmp_path):
    require("make")
    dest = str(tmp_path / "root")
    install = subprocess.run(["make", "-s", "install", "DESTDIR=" + dest],
                             cwd=REPO, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    assert files_under(dest) == EXPECTED_TREE
    for path, mode in (("usr/sbin/svmram", 0o555),
                       ("lib/svc/method/svmram", 0o555),
                       ("lib/svc/manifest/system/svmram.xml", 0o444)):
        assert os.stat(os.path.join(dest, path)).st_mode & 0o777 == mode
    # The installed command runs from where it was installed.
    version = subprocess.run([os.path.join(dest, "usr/sbin/svmram"),
                              "--version"], capture_output=True, text=True)
    assert version.stdout == "svmram 0.1.0\n"
    uninstall = subprocess.run(["make", "-s", "uninstall", "DESTDIR=" + dest],
                               cwd=REPO, capture_output=True, text=True)
    assert uninstall.returncode == 0, uninstall.stderr
    assert files_under(dest) == []
