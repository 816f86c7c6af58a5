# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""md's words (issue 19, section 2): what the neutral commands print on
md, when restore, teardown, stop and the journal fail, and in the help,
is worded for an md administrator: members, disks, the unit, mdadm;
never SVM's submirrors, metastat or SMF.  Driven as test_cli.py drives
the command, on the fake kernel (mdcli.py)."""

import json

import pytest

import fakekernel
import faketree
from mdcli import Host, set_up, stopped_by_the_unit

from svmram import run
from svmram.md import programs
from svmram.errors import SvmramError

SVM_WORDS = ("submirror", "metastat", "metadevice", "metattach", "SMF",
             "svcs", "svcadm", "ramdisk submirror", "SVM", "ksh")


def no_svm_words(text):
    return [word for word in SVM_WORDS if word in text]


def test_a_failed_restore_step_says_disks_and_the_unit(host):
    stopped_by_the_unit(host)
    faketree.write(host.root, "/" + fakekernel.FAIL, "mdadm --grow")
    rc, out, err, _ = host.svmram("restore", "/dev/md0")
    assert rc == 1
    assert err.splitlines()[-1] == (
        "svmram: md0 keeps serving reads from its disks.  Fix the cause, "
        "then run 'systemctl restart svmram@md0.service' (or 'svmram "
        "restore md0'); it continues from the state it finds.")
    assert no_svm_words(err) == []


def test_restore_past_its_deadline_says_mdadm_and_recovery(host):
    stopped_by_the_unit(host)
    rc, out, err, argvs = host.svmram("restore", "--deadline", "0",
                                      "/dev/md0")
    assert (rc, argvs) == (7, [])
    lines = err.splitlines()
    assert lines[0] == (
        "svmram: restore of md0 stopped at its deadline (--deadline 0 "
        "seconds) before the step: Load brd with one RAM disk of 131072 "
        "KiB (/dev/ram0).")
    assert lines[-1] == (
        "svmram: Nothing is lost: md0 serves reads from its disks.  Once "
        "'mdadm --detail /dev/md0' shows no recovery in progress, run "
        "'systemctl restart svmram@md0.service' (or 'svmram restore md0'); "
        "it continues from the state it finds.")
    assert no_svm_words(err) == []


def test_restore_refused_for_an_unfinished_setup_says_member_and_disks(
        host):
    set_up(host)
    faketree.write(host.root, "/var/svmram/md0.journal", json.dumps({
        "format": 1, "operation": "teardown", "completed": [],
        "failed": None, "intent": {"array": "md0"}}))
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (3, [])
    assert err.splitlines() == [
        "svmram: a teardown of md0 has not finished (%s); the RAM member "
        "is not restored meanwhile" % host.path("/var/svmram/md0.journal"),
        "svmram: Run 'svmram teardown md0' to finish it; the disks serve "
        "reads meanwhile."]


@pytest.mark.parametrize("command", [("restore",), ("teardown", "-y"),
                                     ("setup", "-y"), ("stop",)])
def test_a_damaged_journal_is_checked_with_mdadm(host, command):
    set_up(host)
    faketree.write(host.root, "/var/svmram/md0.journal", "garbage")
    rc, out, err, argvs = host.svmram(*command, "/dev/md0")
    assert rc == 3
    assert err.splitlines()[-1] == (
        "svmram: Check it by hand; remove it only once 'mdadm --detail "
        "/dev/md0' shows md0 in a state you understand.")


def test_a_failed_teardown_and_stop_say_nothing_of_svm(host):
    set_up(host)
    faketree.write(host.root, "/" + fakekernel.FAIL, "rmmod")
    rc, out, err, _ = host.svmram("stop", "/dev/md0")
    assert rc == 1 and no_svm_words(err) == [], err
    faketree.write(host.root, "/" + fakekernel.FAIL, "rmmod")
    rc, out, err, _ = host.svmram("teardown", "-y", "/dev/md0")
    assert rc == 1 and no_svm_words(err) == [], err


def test_status_of_a_degraded_array_says_disks(host):
    set_up(host)
    faketree.remove(host.root, "/sys/block/md0/md/dev-vdb")
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert rc == 5
    assert out.splitlines()[0] == (
        "md0: DEGRADED: only 1 of 2 disks holds current data (vdb is not "
        "in md0).")
    assert no_svm_words(out) == []


def test_the_help_names_arrays_on_md_and_no_svm_command(host):
    rc, out, err, _ = host.svmram("--help")
    assert rc == 0 and no_svm_words(out) == [], out
    for command in ("setup", "teardown", "restore", "stop", "status",
                    "check"):
        rc, out, err, _ = host.svmram(command, "/dev/md0", "--help")
        assert rc == 0 and no_svm_words(out) == [], out
    rc, out, err, _ = host.svmram("restore", "/dev/md0", "--help")
    assert "the array, e.g. /dev/md0" in out
    # -n prints md's script, which is POSIX sh, not ksh (issue 29 §2).
    for command in ("setup", "teardown", "restore", "stop"):
        rc, out, err, _ = host.svmram(command, "/dev/md0", "--help")
        assert " ".join(out.split()).count(
            "print the plan as a POSIX sh script; change nothing") == 1, out
    rc, out, err, _ = host.svmram("status", "--help")
    assert "only this array" in out and "only the arrays that" in out, out
    rc, out, err, _ = host.svmram("check", "--help")
    assert "only this array (default: every array)" in out, out


def test_a_hung_mdadm_is_looked_for_with_md_s_tools(tmp_path, monkeypatch):
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    (tmp_path / "mdadm").write_text("#!/bin/sh\nexec sleep 30\n")
    (tmp_path / "mdadm").chmod(0o755)
    monkeypatch.setenv("SVMRAM_BINDIR", str(tmp_path))
    monkeypatch.delenv("SVMRAM_TRACE", raising=False)
    monkeypatch.setattr(run, "COMMAND_TIMEOUT", 1)
    md = MdBackend(str(tmp_path))
    SvmBackend(str(tmp_path))       # constructed last, not used: no effect
    with pytest.raises(SvmramError) as raised:
        md.runner("mdadm", ["--detail", "/dev/md0"])
    assert raised.value.advice == (
        "Look for what holds it up (dmesg, cat /proc/mdstat, the console), "
        "then run svmram again; it continues from the state it finds.")


def test_md_s_commands_are_refused_in_md_s_words_whatever_was_constructed(
        tmp_path, monkeypatch):
    """The md backend's Programs words its commands' failures: no backend
    constructed before (SVM's, last) changes them, and the core's own
    command-less refusal stays neutral."""
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    monkeypatch.setenv("SVMRAM_BINDIR", str(tmp_path))
    MdBackend(str(tmp_path))
    SvmBackend(str(tmp_path))
    with pytest.raises(SvmramError) as raised:
        programs.run_command("mdadm", ["--detail", "/dev/md0"])
    assert "no Solaris Volume Manager" not in raised.value.message
    assert raised.value.message.startswith("this system has no mdadm")
    with pytest.raises(SvmramError) as raised:
        MdBackend(str(tmp_path)).runner("mdadm", ["--detail", "/dev/md0"])
    assert raised.value.message.startswith("this system has no mdadm")
    with pytest.raises(SvmramError) as raised:
        run.run("mdadm", "/sbin/mdadm", ["--detail"])
    assert raised.value.advice == (
        "svmram needs this command from the base system; check that it is "
        "installed.")


# --- issue 21: neutral texts in md's words, md's recovery called so ----------

def test_nothing_set_up_is_said_of_arrays(tmp_path):
    host = Host(tmp_path, dump="vm-before.sysfs.txt")
    rc, out, err, _ = host.svmram("check")
    assert out.splitlines()[-1] == "There is no array to check.", out
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, out) == (3, "SVMRAM UNKNOWN - no array is set up for reads "
                            "from RAM\n")


def test_a_bug_on_md_points_at_the_state_of_the_arrays(host, monkeypatch,
                                                       capsys):
    """An internal error on md: the advice names arrays (errors.py's
    BUG_ADVICE said mirrors to everyone)."""
    from svmram import cli
    from svmram.md.backend import MdBackend
    monkeypatch.setenv("SVMRAM_ROOT", host.root)
    monkeypatch.delenv("SVMRAM_DEBUG", raising=False)

    def broken(self, target=None):
        raise TypeError("unsupported operand")
    monkeypatch.setattr(MdBackend, "statuses", broken)
    assert cli.main(["status", "/dev/md0"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "svmram: this is a bug in svmram; please report it with this "
        "output.  'svmram status' shows the state of the arrays; "
        "SVMRAM_DEBUG=1 prints the traceback.")


def test_md_s_recovery_is_called_recovery_and_stopped_when_it_stops(host):
    """Setup waits for md's recovery into RAM: the progress says
    recovery (never resync), and 'done'; a stop that fails the RAM
    member while md recovers it waits until md has stopped the recovery,
    and says stopped, not done."""
    rc, out, err, _ = host.svmram("setup", "-y", "/dev/md0")
    assert rc == 0, err
    assert "md0 recovery: done" in err.splitlines(), err
    assert "resync" not in out + err
    faketree.recovering(host.root, 65024)
    write_mdstat(host, MDSTAT_RECOVERING)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert rc == 0, err
    assert "md0 recovery: stopped" in err.splitlines(), err
    assert "md0 recovery: done" not in err
    assert "resync" not in out + err


def write_mdstat(host, text):
    with open(host.path("/proc/mdstat"), "w") as stream:
        stream.write(text)


MDSTAT_RECOVERING = """\
Personalities : [raid1] 
md0 : active raid1 ram0[3] vdb[2](W) vda[1](W)
      130048 blocks super 1.2 [3/2] [_UU]
      [====>................]  recovery = 23.1% (30592/130048) finish=0.0min speed=30592K/sec
      bitmap: 0/1 pages [0KB], 65536KB chunk

unused devices: <none>
"""


def test_status_s_recovery_percent_is_proc_mdstat_s(host):
    """md's sync_completed moves in steps of a sixteenth of the array
    (md.c md_do_sync updates curr_resync_completed so), so status showed
    0 % while /proc/mdstat showed 3-5 %: the percent is mdstat's."""
    set_up(host)
    faketree.recovering(host.root, 0)
    write_mdstat(host, MDSTAT_RECOVERING)
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert "    recovery:   23 % done" in out.splitlines(), out
    assert "ram0 is recovering (23% done)" in out
    rc, out, err, _ = host.svmram("status", "--json", "/dev/md0")
    assert json.loads(out)["targets"][0]["sync_percent"] == 23
