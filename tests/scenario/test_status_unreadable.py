# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status never fails open (issue 27, 4.1 and 4.2): what it cannot
read (SMF's repository, a failing svcprop) is never "no mirror is set
up"; every format says what could not be read and exits non-zero (1, or
3 UNKNOWN for --nagios; --prometheus prints svmram_up 0).  Without state
database replicas, status says so, and still sees the ramdisk that
ramdiskadm lists."""

import json
import os

import pytest

from hosts import EmulatedHost

pytestmark = pytest.mark.emulator_only("stops SMF's repository server or "
                                       "deletes the state database")

SVCS_DOWN = ("svcs: Could not bind to repository server: repository server "
             "unavailable.  Exiting.")
SVCPROP_DOWN = ("svcprop: Could not connect to configuration repository: "
                "repository server unavailable.")
EXIT_FAILED, UNKNOWN = 1, 3
FORMATS = [(), ("-H",), ("-o", "mirror,verdict"), ("-p",), ("-x",),
           ("-q",)]


@pytest.fixture
def set_up(base_hosts, tmp_path):
    return base_hosts.copy(tmp_path / "host", "article", None,
                           [("svmram", "setup", "-y", "d10")])


def triple(result):
    return result.returncode, result.stdout, result.stderr


def smf_error(line):
    return ("svmram: cannot read the svmram service's instances and "
            "records from SMF: %s\n"
            "svmram: SMF's repository server (svc.configd) answers svcs "
            "and svcprop; svmram works again once "
            "'svcs svc:/system/svmram' does.\n" % line)


def test_the_emulator_fails_as_svcs_and_svcprop_do_without_svc_configd(
        tmp_path):
    host = EmulatedHost(tmp_path / "host")
    assert host.sim("smf", "down").returncode == 0
    assert triple(host.cmd("svcs", "-H", "svc:/system/svmram:*")) == (
        1, "", SVCS_DOWN + "\n")
    assert triple(host.cmd(
        "svcprop", "-p", "svmram", "svc:/system/svmram:*")) == (
        1, "", SVCPROP_DOWN + "\n")
    assert triple(host.cmd(
        "svcadm", "enable", "svc:/system/svmram:d10")) == (
        1, "", "svcadm: Couldn't bind to configuration repository: "
        "repository server unavailable.\n")
    assert host.sim("smf", "up").returncode == 0
    assert host.cmd("svcs", "-H", "-o", "state", "svc:/system/filesystem/"
                    "local").stdout == "online\n"


@pytest.mark.parametrize("options", FORMATS, ids=" ".join)
def test_svcs_that_cannot_bind_is_no_empty_host(set_up, options):
    host = set_up
    assert host.sim("smf", "down").returncode == 0
    result = host.svmram("status", *options)
    assert (result.returncode, result.stdout, result.stderr) == (
        EXIT_FAILED, "", smf_error(SVCS_DOWN))


def test_json_says_what_could_not_be_read(set_up):
    """--json prints an object with the error and no "targets", which a
    reader could take for nothing set up; exit 1, the error on stderr."""
    host = set_up
    assert host.sim("smf", "down").returncode == 0
    result = host.svmram("status", "--json")
    assert (result.returncode, result.stderr) == (
        EXIT_FAILED, smf_error(SVCS_DOWN))
    assert json.loads(result.stdout) == {"format": 2, "error": {
        "message": "cannot read the svmram service's instances and records "
        "from SMF: " + SVCS_DOWN,
        "advice": "SMF's repository server (svc.configd) answers svcs and "
        "svcprop; svmram works again once 'svcs svc:/system/svmram' does.",
        "exit_status": EXIT_FAILED}}
    # -q prints nothing, whatever the format.
    result = host.svmram("status", "--json", "-q")
    assert triple(result) == (EXIT_FAILED, "", smf_error(SVCS_DOWN))


def test_json_says_so_when_metastat_fails(set_up):
    host = set_up
    assert host.sim("faults", "add", "metastat", "--nth", "1", "--exit", "1",
                    "--svm-error", "stale databases").returncode == 0
    result = host.svmram("status", "-j", "d10")
    assert result.returncode == EXIT_FAILED
    assert json.loads(result.stdout) == {"format": 2, "error": {
        "message": "metastat -p failed: metastat: myhost: stale databases",
        "advice": "Check SVM with metastat and svcs -x metainit metasync.",
        "exit_status": EXIT_FAILED}}


def test_nagios_is_unknown_when_svcs_cannot_bind(set_up):
    host = set_up
    assert host.sim("smf", "down").returncode == 0
    result = host.svmram("status", "--nagios")
    assert (result.returncode, result.stderr) == (UNKNOWN, "")
    assert result.stdout == (
        "SVMRAM UNKNOWN - cannot read the svmram service's instances and "
        "records from SMF: %s\n" % " ".join(SVCS_DOWN.split()))


def test_prometheus_says_svmram_up_0_and_fails_when_svcs_cannot_bind(
        set_up):
    """A reader of the output sees svmram_up 0 and no target."""
    host = set_up
    assert host.sim("smf", "down").returncode == 0
    result = host.svmram("status", "--prometheus")
    assert (result.returncode, result.stderr) == (
        EXIT_FAILED, smf_error(SVCS_DOWN))
    samples = [line for line in result.stdout.splitlines()
               if not line.startswith("#")]
    assert samples == ['svmram_build_info{version="0.1.0"} 1',
                       "svmram_up 0"]
    # What could not be read, in a comment line the format ignores.
    assert result.stdout.splitlines()[-1] == (
        "# svmram: cannot read the svmram service's instances and records "
        "from SMF: %s" % " ".join(SVCS_DOWN.split()))


def test_prometheus_output_publishes_svmram_up_0_when_svcs_cannot_bind(
        set_up, tmp_path):
    """--output FILE (issue 38, 2): the good metrics, then svmram_up 0
    when SMF is out of reach, each replacing FILE whole (the cron line
    svmram(8) gave kept the old file and left svmram.prom.PID behind)."""
    host = set_up
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    prom = textfile / "svmram.prom"
    printed = host.svmram("status", "--prometheus").stdout
    result = host.svmram("status", "--prometheus", "--output", str(prom))
    assert triple(result) == (0, "", "")
    assert prom.read_text() == printed and "svmram_up 1\n" in printed
    assert host.sim("smf", "down").returncode == 0
    printed = host.svmram("status", "--prometheus").stdout
    result = host.svmram("status", "--prometheus", "--output", str(prom))
    assert triple(result) == (EXIT_FAILED, "", smf_error(SVCS_DOWN))
    assert prom.read_text() == printed and "svmram_up 0\n" in printed
    assert sorted(os.listdir(textfile)) == ["svmram.prom"]


def test_a_failing_svcprop_is_no_unfinished_record(set_up):
    host = set_up
    assert host.sim("faults", "add", "svcprop", "--nth", "1", "--exit", "1",
                    "--message", SVCPROP_DOWN).returncode == 0
    result = host.svmram("status", "--prometheus")
    assert (result.returncode, result.stderr) == (
        EXIT_FAILED, smf_error(SVCPROP_DOWN))
    assert "svmram_up 0" in result.stdout.splitlines()
    assert "svmram_serving_from_ram{" not in result.stdout
    # The same svcprop once it works again.
    result = host.svmram("status", "--prometheus")
    assert (result.returncode, result.stderr) == (0, "")
    assert "svmram_up 1" in result.stdout.splitlines()


def test_without_replicas_nothing_set_up_says_why(host):
    assert host.cmd("metadb", "-d", "-f", "c0d0s7").returncode == 0
    result = triple(host.svmram("status", "--nagios"))
    assert result == (UNKNOWN, "SVMRAM UNKNOWN - no mirror is set up for "
                      "reads from RAM: SVM has no state database replicas "
                      "(metadb shows none)\n", "")
    result = triple(host.svmram("status"))
    assert result == (0, "No mirror is set up for reads from RAM: SVM has "
                      "no state database replicas (metadb shows none).\n",
                      "")


def test_replicas_lost_after_setup_the_ramdisk_is_still_seen(set_up):
    host = set_up
    assert "svmram_d10" in host.ramdisks()
    assert host.cmd("metadb", "-d", "-f", "c0d0s7").returncode == 0
    result = host.svmram("status")
    assert result.returncode == 4
    assert result.stdout.splitlines()[:2] == [
        "d10: NOT serving reads from RAM: there are no state database "
        "replicas",
        "    ramdisk:    svmram_d10, present, device 250,1"]
    result = host.svmram("status", "--nagios")
    assert result.stdout == ("SVMRAM CRITICAL - d10: there are no state "
                             "database replicas | serving=0;;;0;1\n")
    result = host.svmram("status", "-H", "-o", "ramdiskstate")
    assert result.stdout == "present\n"
    result = host.svmram("status", "--prometheus")
    assert result.returncode == 0
    assert 'svmram_disks{target="d10",device="d10"} 2' in \
        result.stdout.splitlines()


def test_prometheus_says_svmram_up_0_when_metastat_fails(set_up):
    host = set_up
    assert host.sim("faults", "add", "metastat", "--nth", "1", "--exit", "1",
                    "--svm-error", "stale databases").returncode == 0
    result = host.svmram("status", "--prometheus")
    assert result.returncode == EXIT_FAILED
    assert result.stderr.startswith("svmram: metastat -p failed: ")
    samples = [line for line in result.stdout.splitlines()
               if not line.startswith("#")]
    assert samples == ['svmram_build_info{version="0.1.0"} 1',
                       "svmram_up 0"]


# The other subcommands read the same record and service state: an SMF
# they cannot read is never "no instance" either, and nothing changes.
@pytest.mark.parametrize("argv", [
    ("teardown", "-y", "d10"), ("setup", "-y", "d10"), ("restore", "d10"),
    ("check", "d10")], ids=" ".join)
def test_no_subcommand_reads_an_unreadable_smf_as_no_instance(set_up, argv):
    host = set_up
    before = host.metastat_p()
    assert host.sim("smf", "down").returncode == 0
    result = host.svmram(*argv)
    assert result.returncode in (EXIT_FAILED, 3), result.stderr
    assert "cannot read the svmram service's instances and records from " \
        "SMF: " in result.stderr, result.stderr
    assert "svmram works again once 'svcs svc:/system/svmram' does." \
        in result.stderr
    assert host.sim("smf", "up").returncode == 0
    assert host.metastat_p() == before
    assert host.cmd("svcprop", "-p", "svmram/method",
                    "svc:/system/svmram:d10").returncode == 0
