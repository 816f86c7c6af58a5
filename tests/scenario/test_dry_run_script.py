# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The -n script and the real run come from the same step descriptions
(issue 13, section 2; issue 19, section 3): the printed script of setup
and of teardown, run by ksh93 on the emulator, leaves the host as svmram
itself does (metastat -p, ramdiskadm, the /dev links, the SMF record and
its service), and its test of the slot behaviour runs the commands
svmram's own test runs."""

import os
import shlex

import pytest

import releases

from faultmatrix import dev_links
from hosts import clone, run_script

pytestmark = pytest.mark.emulator_only

FMRI = "svc:/system/svmram:d10"


def end_state(host):
    record = host.cmd("svcprop", "-p", "svmram", FMRI)
    return {"metastat -p": host.metastat_p(),
            "ramdiskadm": host.ramdisks(), "links": dev_links(host),
            "record": (record.returncode, record.stdout),
            "service": host.cmd("svcs", "-H", "-o", "state", FMRI).stdout,
            "journal": os.path.exists(os.path.join(
                host.root, "var", "svmram", "d10.journal"))}


def fast_resyncs(host):
    # One metastat finishes a resync, so the script's wait_resync does not
    # sleep; the same on both hosts.
    assert host.sim("thaw", "--step", "100").returncode == 0


SLOT_TEST = "\n# 0. Test on a scratch mirror d127 of two 1 MiB ramdisks " \
    "whether metadetach leaves a hole in the slots.\n"


def stopped(operation):
    return ("svmram: metadetach leaves a hole in the slots here, and this "
            "script assumes it does not; nothing of d10 was changed.  Run "
            "'svmram %s d10' instead: it tests this first and plans for "
            "it.\n" % operation)


def test_the_setup_and_teardown_scripts_do_what_svmram_does(host, tmp_path):
    if releases.release(host) == releases.SOLARIS10:
        pytest.skip("where metadetach leaves a hole the script stops: "
                    "test_where_detach_leaves_a_hole_the_script_stops")
    fast_resyncs(host)
    by_script = clone(host, tmp_path / "by-script")

    script = by_script.svmram("setup", "-n", "d10")
    assert script.returncode == 0, script.stderr
    assert "ln -s /dev/ramdisk/svmram_d10 %s/dev/dsk/c90t0d0s0\n" % (
        by_script.root) in script.stdout
    assert "ramdisk_dev=$(/usr/bin/ls -lL %s/dev/ramdisk/svmram_d10 | " \
        "/usr/bin/awk '{print $5 $6}')\n" % by_script.root in script.stdout
    # Where the slot behaviour is not known, the script tests it first,
    # as svmram does.
    assert (SLOT_TEST in script.stdout) == (
        releases.release(host) != releases.ILLUMOS)
    ran = run_script(by_script, script.stdout)
    assert ran.returncode == 0, ran.stderr
    assert host.svmram("setup", "-y", "d10").returncode == 0
    assert end_state(by_script) == end_state(host)
    assert end_state(host)["service"] == "online\n"
    assert "ramdisk_dev" in end_state(host)["record"][1]

    script = by_script.svmram("teardown", "-n", "d10")
    assert script.returncode == 0, script.stderr
    assert "/usr/bin/rm -f %s/dev/dsk/c90t0d0s0\n" % by_script.root \
        in script.stdout
    ran = run_script(by_script, script.stdout)
    assert ran.returncode == 0, ran.stderr
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert end_state(by_script) == end_state(host)
    assert end_state(host)["record"][0] != 0
    assert by_script.violations() == [] and host.violations() == []


@pytest.mark.parametrize("release", [releases.SOLARIS10])
def test_where_detach_leaves_a_hole_the_script_stops(host_factory):
    """The script assumes metadetach compacts (it says so); where the
    test it runs first shows a hole, it stops before d10 changes, with
    the scratch mirror removed, and says to run svmram itself."""
    host = host_factory("article")
    original = host.metastat_p()
    fast_resyncs(host)
    for operation in ("setup", "teardown"):
        before = end_state(host)
        script = host.svmram(operation, "-n", "d10")
        assert script.returncode == 0, script.stderr
        assert SLOT_TEST in script.stdout
        ran = run_script(host, script.stdout)
        assert (ran.returncode, ran.stderr.splitlines(True)[-1]) == (
            1, stopped(operation))
        assert end_state(host) == before
        # svmram itself tests first and fills the hole.
        assert host.svmram(operation, "-y", "d10").returncode == 0
        assert host.violations() == []
    assert host.metastat_p() == original


@pytest.mark.parametrize("release", [releases.SOLARIS11])
def test_the_scripts_slot_test_is_the_one_svmram_runs(host_factory, tmp_path):
    """The -n script's step 0 and svmram's own test of the slot behaviour
    are one plan (svm/probe.py): the commands the script prints for it
    are, in order, the ones svmram runs (reads included), and run by
    ksh93 on a copy of the host it leaves nothing behind."""
    host = host_factory("article")
    by_script = clone(host, tmp_path / "by-script")
    original = end_state(host)
    script = by_script.svmram("setup", "-n", "d10")
    assert script.returncode == 0, script.stderr
    # Up to the journal the script keeps from its step 1 on.
    test = script.stdout[:script.stdout.index("\n# svmram's journal")] + \
        "\n"
    bindir = by_script.env["SVMRAM_BINDIR"] + "/"
    printed = [shlex.split(line.partition("$(")[2].rstrip(")") or line)
               for line in test.partition(SLOT_TEST)[2].splitlines()
               if line.startswith(bindir) or
               line.startswith("slots=$(" + bindir)]
    printed = [[argv[0][len(bindir):]] + argv[1:] for argv in printed]
    ran = run_script(by_script, test)
    assert ran.returncode == 0, ran.stderr
    assert end_state(by_script) == original

    host.clear_trace()
    assert host.svmram("setup", "-y", "d10").returncode == 0
    trace = host.trace(changes_only=False)
    start = trace.index(["ramdiskadm", "-a", "svmram_probe0", "1m"])
    end = trace.index(["ramdiskadm", "-d", "svmram_probe0"])
    assert printed == trace[start:end + 1]
    assert printed[6] == ["metastat", "d127"]
    assert [argv for argv in printed if argv[0] != "metastat"] == \
        releases.slot_test(90)
