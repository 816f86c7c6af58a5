# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The project's real SMF method (smf/svmram) run by the emulated
svc.startd, from the tree `make install DESTDIR=$SVMSIM_ROOT` installs.

The full restore behaviour (every boot case) is tested through this path in
tests/scenario/test_boot_service.py; here: the method runs, gets SMF_FMRI,
and its exit status is mapped as svc.startd maps it.
"""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from bootsim import KSH, LIB, REPO, Host, needs_ksh

pytestmark = [needs_ksh, pytest.mark.skipif(shutil.which("make") is None,
                                            reason="no make installed")]

FMRI = "svc:/system/svmram:d10"
SVMRAM = os.path.join(REPO, "sbin", "svmram")


def make_install(host):
    p = subprocess.run(["make", "-s", "install", "DESTDIR=" + host.root],
                       cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def svmram(host, *args, env=None):
    return subprocess.run([sys.executable, SVMRAM] + list(args),
                          env=dict(host.env, **(env or {})),
                          capture_output=True, text=True, timeout=600)


def reboot(host, env):
    """`python3 -m svmsim reboot DIR` as a process, with ``env``."""
    return subprocess.run(
        [sys.executable, "-m", "svmsim", "reboot", host.dir],
        env=dict(host.env, PYTHONPATH=LIB, **env), capture_output=True,
        text=True, timeout=600)


def test_installed_svmram_method_runs_at_reboot(host, tmp_path):
    host.ok("svccfg", "import", os.path.join(REPO, "manifests",
                                             "svmram.xml"))
    setup = svmram(host, "setup", "-y", "d10",
                   env={"SVMRAM_POLL_SECONDS": "0"})
    assert setup.returncode == 0, setup.stderr
    assert host.state(FMRI) == "online"       # method not installed yet
    make_install(host)
    for path in ("/lib/svc/method/svmram", "/usr/sbin/svmram",
                 "/lib/svc/manifest/system/svmram.xml",
                 "/lib/svc/share/smf_include.sh"):
        assert os.path.isfile(host.path(path)), path

    trace = str(tmp_path / "trace")
    p = reboot(host, {"SVMRAM_POLL_SECONDS": "0", "SVMRAM_TRACE": trace})
    assert p.returncode == 0, p.stderr

    log = host.log(FMRI)
    assert '[ Nov 14 22:13:20 Executing start method ("/lib/svc/method/' \
        'svmram start"). ]\n' in log
    # The method got SMF_FMRI: it did not refuse to run outside SMF, and
    # the installed svmram read the instance named by it.
    assert "this method runs under SMF" not in log
    with open(trace) as f:
        argvs = [json.loads(line) for line in f]
    assert ["svcprop", "-p", "svmram", FMRI] in argvs
    # Its exit status was mapped as svc.startd maps it.
    status = int(re.findall(r'Method "start" exited with status (\d+)\.',
                            log)[-1])
    if status == 0:
        assert host.state(FMRI) == "online"
    else:
        assert status in (95, 96)              # what smf/svmram exits with
        assert (host.state(FMRI), host.aux(FMRI)) == ("maintenance",
                                                      "method_failed")


def test_setup_after_install_leaves_the_instance_online(host):
    """setup enables the instance only after releasing the host lock, so
    the start method's `svmram restore` runs, finds nothing to do, and the
    instance comes online."""
    make_install(host)
    host.ok("svccfg", "import",
            host.path("/lib/svc/manifest/system/svmram.xml"))
    setup = svmram(host, "setup", "-y", "d10",
                   env={"SVMRAM_POLL_SECONDS": "0"})
    assert setup.returncode == 0, setup.stderr
    assert host.state(FMRI) == "online", host.log(FMRI)
    assert "d10: nothing to do: d13 is Okay.\n" in host.log(FMRI)


NOSMF = ("svmram: this is the SMF method of svc:/system/svmram:MIRROR and "
         "runs only under SMF; to restore by hand, run 'svmram restore "
         "MIRROR'.\n")


def run_method(host, env):
    return subprocess.run(
        [KSH, host.path("/lib/svc/method/svmram"), "start"],
        env=dict({"PATH": host.bindir + ":/usr/bin:/bin",
                  "SVMRAM_ROOT": host.root}, **env),
        capture_output=True, text=True, timeout=600)


def test_run_outside_smf_it_exits_smf_exit_err_nosmf(host):
    """As illumos methods do: not started by svc.startd (no SMF_FMRI, or
    smf_present false: no repository door) -> $SMF_EXIT_ERR_NOSMF (99),
    with one line saying what to run instead, and nothing done."""
    make_install(host)
    p = run_method(host, {})
    assert (p.returncode, p.stdout, p.stderr) == (99, "", NOSMF)
    os.rmdir(host.path("/etc/svc/volatile/repository_door"))
    p = run_method(host, {"SMF_FMRI": FMRI, "SMF_METHOD": "start"})
    assert (p.returncode, p.stdout, p.stderr) == (99, "", NOSMF)
    assert not os.path.exists(host.path("/dev/msglog"))


def test_an_fmri_without_instance_is_a_configuration_error(host):
    make_install(host)
    p = run_method(host, {"SMF_FMRI": "svc:/system/svmram"})
    assert (p.returncode, p.stdout, p.stderr) == (
        96, "", "svmram: svc:/system/svmram is not an instance "
        "svc:/system/svmram:MIRROR.\n")


# --- the method's exit status and console line, with a stand-in svmram ----

FAKE_SVMRAM = r"""#!/bin/sh
# Stand-in for the installed svmram: records its arguments and answers as
# the files in $SVMRAM_ROOT/etc/fake-svmram say.
fake=$SVMRAM_ROOT/etc/fake-svmram
echo "$*" >> $fake/argv
case $1 in
restore)
	echo "d10: restore output"
	echo "restore d10: step 1 of 1: a progress line" >&2
	code=`cat $fake/restore`
	[ "$code" = kill ] && kill -KILL $$
	if [ "$code" != 0 ]; then
		echo "svmram: the reason." >&2
		echo "svmram: the advice." >&2
	fi
	exit $code ;;
status)
	cat $fake/status.json
	exit `cat $fake/status` ;;
esac
exit 2
"""

STATUS_JSON = '{\n  "targets": [\n    {\n      "disk_redundancy": {\n' \
    '        "state": "%s"\n      },\n      "boot_service": {\n' \
    '        "state": "offline"\n      }\n    }\n  ]\n}\n'


def fake_host(tmp_path, release=None, restore="0", status=4,
              redundancy="full"):
    host = Host(tmp_path / "host", release=release)
    make_install(host)
    host.install("/usr/sbin/svmram", FAKE_SVMRAM)
    fake = host.path("/etc/fake-svmram")
    os.makedirs(fake)
    for name, text in (("restore", restore), ("status", str(status)),
                       ("status.json", STATUS_JSON % redundancy)):
        with open(os.path.join(fake, name), "w") as f:
            f.write(text + "\n")
    host.ok("svccfg", "import",
            host.path("/lib/svc/manifest/system/svmram.xml"))
    host.ok("svccfg", "-s", "svc:/system/svmram", "add", "d10")
    return host


def calls(host):
    with open(host.path("/etc/fake-svmram/argv")) as f:
        return f.read().splitlines()


def console(host):
    try:
        with open(host.path("/dev/msglog")) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def test_success_waits_the_timeout_less_60_seconds(tmp_path):
    host = fake_host(tmp_path)
    host.ok("svcadm", "enable", FMRI)
    assert host.state(FMRI) == "online"
    assert calls(host) == ["restore --wait 240 d10"]
    assert console(host) == ""
    assert "d10: restore output\nrestore d10: step 1 of 1: a progress " \
        "line\n" in host.log(FMRI)
    # An infinite timeout (0): restore's own default.
    host.ok("svccfg", "-s", "svc:/system/svmram", "setprop",
            "start/timeout_seconds", "=", "count:", "0")
    host.ok("svcadm", "refresh", FMRI)
    host.ok("svcadm", "restart", FMRI)
    assert calls(host)[-1] == "restore d10"


MAINTENANCE_LINE = ("svmram: svc:/system/svmram:d10 goes to maintenance: %s.  "
                    "See 'svcs -x svmram:d10'.\n")


@pytest.mark.parametrize("restore, code, reason", [
    ("3", 96, "the reason"), ("1", 95, "the reason"),
    ("kill", 95, "'svmram restore d10' was killed (signal 9)")])
def test_failures_go_to_maintenance_with_a_console_line(tmp_path, restore,
                                                        code, reason):
    host = fake_host(tmp_path, restore=restore)
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(FMRI), host.aux(FMRI)) == ("maintenance",
                                                  "method_failed")
    log = host.log(FMRI)
    assert 'Method "start" exited with status %d.' % code in log
    assert console(host) == MAINTENANCE_LINE % reason
    assert MAINTENANCE_LINE % reason in log
    # Without SMF_EXIT_DEGRADED (illumos) the disks are not even asked.
    assert calls(host) == ["restore --wait 240 d10"]


DEGRADED_LINE = ("svmram: svc:/system/svmram:d10 is degraded: d10 reads from "
                 "its disk submirrors, not RAM: the reason.  See 'svcs -x "
                 "svmram:d10'.\n")


@pytest.mark.parametrize("restore", ["3", "1"])
def test_solaris11_degraded_when_the_disks_are_current(tmp_path, restore):
    host = fake_host(tmp_path, release="solaris11", restore=restore)
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(FMRI), host.aux(FMRI)) == ("degraded",
                                                  "method_degraded")
    assert 'Method "start" exited with status 103.' in host.log(FMRI)
    assert console(host) == DEGRADED_LINE
    assert calls(host) == ["restore --wait 240 d10", "status --json d10"]


@pytest.mark.parametrize("status, redundancy", [
    (5, "degraded"), (6, "lost"), (4, "degraded"), (3, "full"),
    (0, "full")])
def test_solaris11_maintenance_unless_the_disks_are_current(
        tmp_path, status, redundancy):
    host = fake_host(tmp_path, release="solaris11", restore="3",
                     status=status, redundancy=redundancy)
    host.ok("svcadm", "enable", FMRI)
    assert host.state(FMRI) == "maintenance"
    assert 'Method "start" exited with status 96.' in host.log(FMRI)
    assert console(host) == MAINTENANCE_LINE % "the reason"
