# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The Debian package: `make deb` builds svmram_VERSION_all.deb, with the
files, control fields and maintainer scripts debian/ says, and lintian
reports neither error nor warning on it.  What removal does while arrays
are set up (svmram(8), "Debian package") is tested by running the
package's own maintainer scripts against a stand-in root (DPKG_ROOT) with
stand-ins for deb-systemd-invoke and py3compile/py3clean; the real
removal under systemd is the Debian guest's (tests/vm).

Skipped, saying why, where dpkg-buildpackage, debhelper or dh-python are
missing (tests/install-deps installs them)."""

import os
import re
import shutil
import subprocess

import pytest

from svmram import __version__

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
DEB = "svmram_%s_all.deb" % __version__
NEEDED = {"dpkg-buildpackage": "dpkg-dev", "dh": "debhelper",
          "dh_python3": "dh-python", "make": "make"}
# lintian warnings kept, with the reason (none so far); errors never.
KEPT_WARNINGS = {}


def _why_not():
    for tool, package in sorted(NEEDED.items()):
        if shutil.which(tool) is None:
            return "%s is not installed (apt-get install %s)" % (tool,
                                                                 package)
    return None


# One worker (make test-suite: --dist loadgroup) builds the package, once.
pytestmark = [pytest.mark.skipif(_why_not() is not None,
                                 reason=_why_not() or ""),
              pytest.mark.xdist_group("deb")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    top = tmp_path_factory.mktemp("deb")
    dist, work = top / "dist", top / "build"
    done = subprocess.run(["make", "-s", "deb", "DISTDIR=%s" % dist,
                           "DEBBUILDDIR=%s" % work], cwd=REPO,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    deb = dist / DEB
    assert deb.is_file(), (sorted(os.listdir(dist)), done.stdout[-2000:])
    root = top / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    control = top / "control"
    subprocess.run(["dpkg-deb", "-e", str(deb), str(control)], check=True)
    return deb, root, control


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], check=True,
                          capture_output=True, text=True).stdout.strip()


def test_the_version_is_the_command_s(built):
    deb, _, _ = built
    assert field(deb, "Version") == __version__
    assert field(deb, "Architecture") == "all"
    changelog = subprocess.run(
        ["dpkg-parsechangelog", "-l", os.path.join(REPO, "debian",
                                                   "changelog"),
         "-S", "Version"], check=True, capture_output=True, text=True)
    assert changelog.stdout.strip() == __version__


def test_it_depends_on_python3_mdadm_and_kmod(built):
    deb, _, _ = built
    depends = [d.strip() for d in field(deb, "Depends").split(",")]
    for want in ("python3 (>= 3.9)", "mdadm", "kmod"):
        assert want in depends, depends


def test_it_installs_the_command_library_units_man_page_and_completion(
        built):
    deb, root, _ = built
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], check=True,
                             capture_output=True, text=True).stdout
    files = sorted(line.split()[-1][2:] for line in listing.splitlines()
                   if line.startswith("-"))
    modules = sorted(
        "usr/lib/svmram/" + os.path.relpath(os.path.join(d, f),
                                            os.path.join(REPO, "lib"))
        for d, _, names in os.walk(os.path.join(REPO, "lib", "svmram"))
        for f in names if f.endswith(".py"))
    assert sorted(f for f in files if f.startswith("usr/lib/svmram/")) == \
        modules
    assert not [f for f in files if f.endswith(".pyc")
                or "__pycache__" in f]
    for want in ("usr/sbin/svmram", "lib/systemd/system/svmram@.service",
                 "lib/systemd/system/svmram-copy@.service",
                 "lib/systemd/system/mdmonitor.service.d/svmram.conf",
                 "usr/share/man/man8/svmram.8.gz",
                 "usr/share/bash-completion/completions/svmram",
                 "usr/share/doc/svmram/copyright"):
        assert want in files, want
    # Where svmram(8) MONITORING points, uncompressed and as in docs/.
    for name in ("prometheus-alerts.yml",
                 "check_raid-mdstat-write-mostly.patch"):
        with open(root / "usr/share/doc/svmram" / name, "rb") as shipped, \
                open(os.path.join(REPO, "docs", name), "rb") as source:
            assert shipped.read() == source.read(), name
    mode = [line.split()[0] for line in listing.splitlines()
            if line.endswith("./usr/sbin/svmram")]
    assert mode == ["-rwxr-xr-x"]
    with open(root / "usr/sbin/svmram", encoding="utf-8") as command:
        assert command.readline() == "#!/usr/bin/python3\n"
    # The unit runs the installed command.
    with open(root / "lib/systemd/system/svmram@.service",
              encoding="utf-8") as unit:
        text = unit.read()
    assert "ExecStart=/usr/sbin/svmram restore --deadline 100 %i" in text
    assert "@SBINDIR@" not in text and "@PKGLIBDIR@" not in text


def test_the_command_runs_from_the_package_s_tree(built):
    _, root, _ = built
    done = subprocess.run(["python3", str(root / "usr/sbin/svmram"),
                           "--version"], capture_output=True, text=True)
    assert done.stdout == "svmram %s\n" % __version__, done.stderr


def test_the_copyright_carries_the_licence(built):
    _, root, _ = built
    with open(root / "usr/share/doc/svmram/copyright",
              encoding="utf-8") as stream:
        copyright = stream.read()
    text = copyright.split("\nLicense: CDDL-1.0\n")[-1]
    lines = [line[1:] for line in text.splitlines()]
    lines = ["" if line == "." else line for line in lines]
    with open(os.path.join(REPO, "LICENSE"), encoding="utf-8") as stream:
        licence = [line.rstrip() for line in
                   stream.read().rstrip("\n").splitlines()]
    assert lines == licence


def test_the_package_byte_compiles_at_install_and_enables_nothing(built):
    """dh_python3 compiles the private library at postinst and cleans it
    at prerm; no maintainer script enables, starts or restarts a unit of
    its own (the template svmram@ has no instance until setup)."""
    _, _, control = built
    scripts = {}
    for name in ("postinst", "prerm", "postrm"):
        with open(control / name, encoding="utf-8") as stream:
            scripts[name] = stream.read()
    assert "py3compile -p svmram /usr/lib/svmram" in scripts["postinst"]
    assert "py3clean -p svmram" in scripts["prerm"]
    joined = "\n".join(scripts.values())
    assert "deb-systemd-helper" not in joined
    assert not re.search(r"^\s*systemctl\b(?!.*daemon-reload)", joined,
                         re.M)
    assert not os.path.exists(control / "conffiles")


def lintian_tags(deb):
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed (apt-get install lintian)")
    done = subprocess.run(["lintian", "--no-tag-display-limit", str(deb)],
                          capture_output=True, text=True, timeout=600)
    return [line for line in done.stdout.splitlines()
            if re.match(r"^[EWIPXO]: ", line)]


def test_lintian_reports_no_error_and_no_warning(built):
    deb, _, _ = built
    tags = lintian_tags(deb)
    errors = [t for t in tags if t.startswith("E: ")]
    warnings = [t for t in tags if t.startswith("W: ")
                and t.split()[2] not in KEPT_WARNINGS]
    assert errors == [] and warnings == [], tags


# -- removal while arrays are set up: the maintainer scripts --------------

STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$DPKG_ROOT/calls"
case "$(basename "$0") $1" in
"deb-systemd-invoke stop")
	# the unit's stop: the RAM member leaves the array (unless the test
	# says it stays)
	array=${2#svmram@}
	[ -f "$DPKG_ROOT/stop-fails" ] ||
		rm -rf "$DPKG_ROOT/sys/block/${array%.service}"
	;;
esac
exit 0
"""
# svmram's listing (tests/md/test_cli.py pins the real command's lines):
# each record's array, its unit and its RAM member's state, "-" when the
# member is out; status exits 4 then.  A file status-fails makes it fail.
SVMRAM_STUB = """#!/bin/sh
echo "svmram $*" >> "$DPKG_ROOT/calls"
if [ -f "$DPKG_ROOT/status-fails" ]; then
	echo "svmram: cannot read /proc/mdstat" >&2
	exit 1
fi
[ "$1 $2 $3" = "status -H -o" ] || exit 2
rc=0
for record in "$DPKG_ROOT"/etc/svmram/md/*.json; do
	[ -f "$record" ] || continue
	array=$(basename "$record" .json)
	ram=-
	if [ -e "$DPKG_ROOT/sys/block/$array/md/dev-ram0" ]; then
		ram=in_sync
	else
		rc=4
	fi
	case $4 in
	mirror,unit,ramstate)
		printf '%s\tsvmram@%s.service\t%s\n' "$array" "$array" "$ram" ;;
	mirror,unit) printf '%s\tsvmram@%s.service\n' "$array" "$array" ;;
	*) exit 2 ;;
	esac
done
exit $rc
"""


@pytest.fixture
def host(tmp_path, built):
    """A stand-in root with systemd running, md0 set up by svmram (its
    record, its enabled unit, /dev/ram0 in the array), and the package's
    maintainer scripts."""
    _, _, control = built
    root = tmp_path / "root"
    for d in ("run/systemd/system", "etc/svmram/md",
              "sys/block/md0/md/dev-ram0", "sys/block/md0/md/dev-vda",
              "etc/systemd/system/sysinit.target.wants", "var/svmram"):
        (root / d).mkdir(parents=True)
    (root / "etc/svmram/md/md0.json").write_text("{}\n")
    os.symlink("/lib/systemd/system/svmram@.service",
               root / "etc/systemd/system/sysinit.target.wants"
               / "svmram@md0.service")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for tool in ("deb-systemd-invoke", "py3compile", "py3clean",
                 "pypy3compile", "systemctl"):
        (bindir / tool).write_text(STUB)
        (bindir / tool).chmod(0o755)
    (bindir / "svmram").write_text(SVMRAM_STUB)
    (bindir / "svmram").chmod(0o755)

    def script(name, *args):
        env = dict(os.environ, DPKG_ROOT=str(root),
                   PATH="%s:%s" % (bindir, os.environ["PATH"]))
        return subprocess.run(["sh", "-e", str(control / name)] + list(args),
                              env=env, capture_output=True, text=True)

    def calls():
        path = root / "calls"
        return path.read_text().splitlines() if path.exists() else []
    return root, script, calls


def test_removal_takes_the_ram_member_out_and_keeps_the_record(host):
    root, script, calls = host
    done = script("prerm", "remove")
    assert done.returncode == 0, done.stderr
    assert calls()[:2] == [
        "svmram status -H -o mirror,unit,ramstate",
        "deb-systemd-invoke stop svmram@md0.service"]
    assert not (root / "sys/block/md0").exists()
    assert (root / "var/lib/svmram/stopped-by-removal").read_text() == \
        "md0\tsvmram@md0.service\n"
    done = script("postrm", "remove")
    assert done.returncode == 0, done.stderr
    assert (root / "etc/svmram/md/md0.json").exists()
    assert (root / "etc/systemd/system/sysinit.target.wants"
            / "svmram@md0.service").is_symlink()


def test_removal_is_refused_while_a_ram_member_stays(host):
    root, script, calls = host
    (root / "stop-fails").write_text("")
    done = script("prerm", "remove")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "svmram: md0 still has its RAM copy (journalctl -u "
        "svmram@md0.service says why); run 'svmram teardown md0', or "
        "'svmram stop md0', then remove svmram again")
    assert (root / "etc/svmram/md/md0.json").exists()


def test_removal_is_refused_when_svmram_cannot_say(host):
    """Status fails closed: what svmram cannot read is never taken for
    "no RAM copy"; no unit is stopped."""
    root, script, calls = host
    (root / "status-fails").write_text("")
    done = script("prerm", "remove")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "svmram: 'svmram status' failed (exit 1), so the removal cannot "
        "tell which targets still have a RAM copy; run 'svmram status' to "
        "see why, then remove svmram again")
    assert not [c for c in calls() if c.startswith("deb-systemd-invoke")]
    assert (root / "sys/block/md0/md/dev-ram0").exists()


def test_an_upgrade_stops_nothing(host):
    root, script, calls = host
    assert script("prerm", "upgrade", "0.2.0").returncode == 0
    assert not [c for c in calls() if c.startswith("deb-systemd-invoke")]
    assert (root / "sys/block/md0/md/dev-ram0").exists()
    done = script("postinst", "configure", __version__)
    assert done.returncode == 0, done.stderr
    assert not [c for c in calls() if c.startswith("deb-systemd-invoke")]


def test_a_reinstall_starts_what_the_removal_stopped(host):
    root, script, calls = host
    assert script("prerm", "remove").returncode == 0
    assert script("postrm", "remove").returncode == 0
    done = script("postinst", "configure", __version__)
    assert done.returncode == 0, done.stderr
    assert "deb-systemd-invoke start svmram@md0.service" in calls()
    assert not (root / "var/lib/svmram").exists()


def test_a_reinstall_reads_the_list_an_older_prerm_wrote(host):
    """An older prerm listed the arrays alone; the units come from
    svmram."""
    root, script, calls = host
    (root / "var/lib/svmram").mkdir(parents=True)
    (root / "var/lib/svmram/stopped-by-removal").write_text("md0\nmd9\n")
    done = script("postinst", "configure", __version__)
    assert done.returncode == 0, done.stderr
    assert [c for c in calls() if "py3" not in c] == [
        "svmram status -H -o mirror,unit",
        "deb-systemd-invoke start svmram@md0.service"]


def test_purge_deletes_the_records_and_the_unit_links(host):
    root, script, calls = host
    assert script("prerm", "remove").returncode == 0
    assert script("postrm", "remove").returncode == 0
    done = script("postrm", "purge")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        "svmram: deleting the record of md0; its disks stay as the removal "
        "left them (svmram(8), \"Debian package\")")
    assert not (root / "etc/svmram").exists()
    assert not (root / "var/svmram").exists()
    assert not (root / "var/lib/svmram").exists()
    assert os.listdir(root / "etc/systemd/system/sysinit.target.wants") \
        == []
    assert not [c for c in calls() if c.startswith("systemctl")]


def test_without_systemd_removal_touches_no_unit(host):
    root, script, calls = host
    shutil.rmtree(root / "run/systemd")
    assert script("prerm", "remove").returncode == 0
    assert calls() == [] or all(c.startswith("py3clean") for c in calls())
    assert (root / "sys/block/md0/md/dev-ram0").exists()


def test_purge_keeps_a_link_to_another_package_s_unit(host):
    """Only links to the package's units go (svmram* in the system's unit
    directories): an administrator's own unit of that name in /etc, and
    any other link, stay."""
    root, script, calls = host
    wants = root / "etc/systemd/system/sysinit.target.wants"
    os.symlink("/usr/lib/systemd/system/svmram-copy@.service",
               wants / "svmram-copy@md0.service")
    os.symlink("/etc/systemd/system/svmram-mine.service",
               wants / "svmram-mine.service")
    os.symlink("/lib/systemd/system/other.service", wants / "other.service")
    assert script("prerm", "remove").returncode == 0
    done = script("postrm", "purge")
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(wants)) == ["other.service",
                                         "svmram-mine.service"]


def test_the_maintainer_scripts_name_no_backend_s_file():
    """They ask svmram for the targets and units (issue 37 section 5): a
    second Linux backend edits none of them."""
    for name in ("prerm", "postinst", "postrm"):
        with open(os.path.join(REPO, "debian", "svmram." + name)) as stream:
            text = stream.read()
        for word in ("/md", "md0", "svmram@", "dev-ram", "mdstat", "array",
                     "mdadm", ".json"):
            assert word not in text, (name, word)
