# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Packaging: the SMF manifest against the DTD, the method's syntax, and
the file tree `make install` creates and `make uninstall` removes."""

import os
import re
import shutil
import subprocess
import sys

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
        text = source.read()
    assert ' timeout_seconds="300"' in text
    broken.write_text(text.replace(' timeout_seconds="300"', ""))
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


LIB_MODULES = [os.path.relpath(os.path.join(d, f), os.path.join(REPO, "lib"))
               for d, _, files in os.walk(os.path.join(REPO, "lib", "svmram"))
               for f in files if f.endswith(".py")]
EXPECTED_TREE = sorted([
    "lib/svc/manifest/system/svmram.xml",
    "lib/svc/method/svmram",
    "usr/sbin/svmram",
    "usr/share/doc/svmram/LICENSE",
    "usr/share/doc/svmram/check_raid-mdstat-write-mostly.patch",
    "usr/share/doc/svmram/prometheus-alerts.yml",
    "usr/share/doc/svmram/status-json.md",
    "usr/share/man/man8/svmram.8",
] + ["usr/lib/svmram/" + m for m in LIB_MODULES])
MODES = {"usr/sbin/svmram": 0o555, "lib/svc/method/svmram": 0o555}


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files)


def install(dest, *variables):
    require("make")
    done = subprocess.run(["make", "-s", "install", "DESTDIR=" + str(dest)]
                          + list(variables), cwd=REPO, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return str(dest)


def test_make_install_and_uninstall(tmp_path):
    dest = install(tmp_path / "root")
    installed = files_under(dest)
    assert [f for f in installed if not f.endswith(".pyc")] == EXPECTED_TREE
    # Every module is byte-compiled, and nothing else is.
    assert sorted(f for f in installed if f.endswith(".pyc")) == sorted(
        os.path.join(os.path.dirname("usr/lib/svmram/" + m), "__pycache__",
                     os.path.basename(m)[:-3] + ".%s.pyc"
                     % sys.implementation.cache_tag) for m in LIB_MODULES)
    for path in installed:
        want = MODES.get(path, 0o444)
        assert os.stat(os.path.join(dest, path)).st_mode & 0o777 == want, path
    # The installed command runs from where it was installed.
    version = subprocess.run([os.path.join(dest, "usr/sbin/svmram"),
                              "--version"], capture_output=True, text=True)
    assert version.stdout == "svmram 0.1.0\n"
    uninstall = subprocess.run(["make", "-s", "uninstall", "DESTDIR=" + dest],
                               cwd=REPO, capture_output=True, text=True)
    assert uninstall.returncode == 0, uninstall.stderr
    assert files_under(dest) == []


def test_the_installed_command_names_a_versioned_interpreter(tmp_path):
    dest = install(tmp_path / "root")
    with open(os.path.join(dest, "usr/sbin/svmram")) as command:
        first = command.readline()
    assert first == "#!%s\n" % os.path.realpath(sys.executable)
    assert re.search(r"/python3\.\d+$", first.strip())


def test_install_linux_names_the_distribution_s_python3(tmp_path):
    """Linux: the #! line is /usr/bin/python3, what Debian's python3
    package provides, never the build host's interpreter (PYTHON only
    byte-compiles); LINUX_PYTHON names another."""
    def first_line(*variables):
        dest = tmp_path / str(len(variables))
        done = subprocess.run(
            ["make", "-s", "install-linux", "DESTDIR=%s" % dest,
             "PYTHON=%s" % sys.executable] + list(variables), cwd=REPO,
            capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        with open(dest / "usr/sbin/svmram", encoding="utf-8") as command:
            return command.readline()
    assert first_line() == "#!/usr/bin/python3\n"
    assert first_line("LINUX_PYTHON=/opt/py/bin/python3.12") == \
        "#!/opt/py/bin/python3.12\n"


def test_a_run_writes_no_bytecode_into_the_installed_tree(tmp_path):
    dest = install(tmp_path / "root")
    before = files_under(dest)
    os.remove(os.path.join(dest, "usr/lib/svmram/svmram/__pycache__",
                           "errors.%s.pyc" % sys.implementation.cache_tag))
    # As root runs it: with Python free to write bytecode.
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONDONTWRITEBYTECODE"}
    for args in (["--help"], ["status", "--help"], ["setup", "--help"]):
        run = subprocess.run([os.path.join(dest, "usr/sbin/svmram")] + args,
                             capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
    # The module whose .pyc was removed is not compiled back into the tree.
    assert len(files_under(dest)) == len(before) - 1


def test_install_under_another_prefix_points_method_and_manifest_there(
        tmp_path):
    dest = install(tmp_path / "root", "PREFIX=/opt/svmram")
    assert os.path.isfile(os.path.join(dest, "opt/svmram/sbin/svmram"))
    with open(os.path.join(dest, "lib/svc/method/svmram")) as method:
        text = method.read()
    assert "SVMRAM=${ROOT}/opt/svmram/sbin/svmram\n" in text
    assert "/usr/sbin/svmram" not in text
    with open(os.path.join(dest, "lib/svc/manifest/system/svmram.xml")) as xml:
        manifest = xml.read()
    assert 'manpath="/opt/svmram/share/man"' in manifest
    version = subprocess.run([os.path.join(dest, "opt/svmram/sbin/svmram"),
                              "--version"], capture_output=True, text=True)
    assert version.stdout == "svmram 0.1.0\n"
