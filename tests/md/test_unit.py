# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The boot unit systemd/svmram@.service: its keys, what `make
install-linux` fills in, and `systemd-analyze verify`."""

import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from svmram.commands import stop
from svmram.md import record
from svmram.md.host import WAIT_DISKS_SECONDS

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
UNIT = os.path.join(TOP, "systemd", "svmram@.service")
COPY = os.path.join(TOP, "systemd", "svmram-copy@.service")


def unit(path=UNIT):
    entries = {}
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            if "=" in line and not line.startswith("#"):
                key, _, value = line.rstrip("\n").partition("=")
                entries.setdefault(key, []).append(value)
    return entries


def test_the_unit_is_a_oneshot_that_stays_and_runs_early():
    u = unit()
    assert u["Type"] == ["oneshot"] and u["RemainAfterExit"] == ["yes"]
    assert u["DefaultDependencies"] == ["no"]
    assert u["Conflicts"] == ["shutdown.target"]
    assert "systemd-udev-trigger.service" in u["After"][0]
    assert u["ConditionPathExists"] == [record.RECORD_DIR + "/%i.json"]


def test_the_unit_holds_up_nothing_the_boot_needs():
    """A mount of /dev/mdN waits for the array's device, which md makes
    ready without the RAM member (udev's assembly, or the restore's run of
    an inactive array): the unit is before no target and no mount (issue
    28: before blockdev@dev-mdN.target, it made the array's mount wait
    for Python's start-up at every boot; before local-fs-pre.target, every
    local mount, issue 21).  Before mdmonitor, for the shutdown (next
    test); at boot mdmonitor waits for svmram-copy@ anyway.  Before
    mdcheck's two services (next test), which nothing in the boot needs."""
    u = unit()
    assert set(" ".join(u["Before"]).split()) == {
        "shutdown.target", "mdmonitor.service"} | MDCHECK
    assert u["Wants"] == ["svmram-copy@%i.service"]
    assert "WantedBy" in u and u["WantedBy"] == ["sysinit.target"]
    # and it yields the CPU to the rest of the boot
    assert u["Nice"] == ["19"]


def test_mdmonitor_starts_once_md_has_copied_the_array_into_ram():
    """mdadm's monitor reports DegradedArray when its first look finds a
    member missing (Monitor.c check_array: a '_' in /proc/mdstat's
    pattern), which a RAM member still recovering is: svmram-copy@ waits
    for the recovery (mdadm --wait, again while a RAM member is not yet
    in sync; at most 30 minutes, next tests) and mdmonitor is
    ordered after it; so is mdadm 4.4's daily reminder
    mdmonitor-oneshot.service (Debian 13), when it starts during a
    copy."""
    c = unit(COPY)
    assert c["DefaultDependencies"] == ["no"]
    assert c["After"] == ["svmram@%i.service"]
    assert set(" ".join(c["Before"]).split()) == {
        "mdmonitor.service", "mdmonitor-oneshot.service",
        "shutdown.target"} | MDCHECK
    assert c["Conflicts"] == ["shutdown.target"]
    assert c["Type"] == ["oneshot"] and "RemainAfterExit" not in c
    assert c["ExecStart"] == [COPY_WAIT, AFTER_COPY]
    assert int(c["TimeoutStartSec"][0]) > 1800
    assert c["ConditionPathExists"] == [record.RECORD_DIR + "/%i.json"]
    assert "WantedBy" not in c      # pulled in by svmram@, never enabled


COPY_WAIT = ("-/usr/bin/timeout 1800 /bin/sh -c 'while grep -qsxE"
             " \"clean|active|active-idle|write-pending\""
             " /sys/block/%i/md/array_state && ! grep -qsx frozen"
             " /sys/block/%i/md/sync_action && { /sbin/mdadm --wait /dev/%i"
             " || grep -qsw spare /sys/block/%i/md/dev-ram*/state; };"
             " do sleep 1; done'")

AFTER_COPY = "-@SBINDIR@/svmram restore --after-copy --deadline 60 %i"


def test_the_copy_unit_puts_back_the_limit_raised_for_the_copy():
    """The restore raises md0's recovery speed limit for the copy into
    RAM; once the wait has ended, svmram puts back the system's (restore
    --after-copy, test_speed_limit.py), before mdcheck's check and
    mdmonitor start (the unit is before them): before, the limit stayed
    raised until the next stop, and Debian's check ran under it.  Both
    commands fit in the unit's start timeout, and svmram, like the boot
    unit's, does not wait for the kernel's random pool."""
    c = unit(COPY)
    assert c["ExecStart"][-1] == AFTER_COPY
    wait = int(c["ExecStart"][0].split()[1])
    deadline = int(AFTER_COPY.split("--deadline ")[1].split()[0])
    assert wait + deadline < int(c["TimeoutStartSec"][0])
    assert c["Environment"] == ["PYTHONHASHSEED=0"]


# A stand-in for mdadm --wait: each call takes the next line of
# ANSWERS ("EXIT STATE": its exit status, and what md/dev-ram0/state says
# when it returns; "-": no RAM member), and notes the call in CALLS.
FAKE_MDADM = """#!/bin/sh
n=$(( $(cat "$DIR/calls" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$DIR/calls"
set -- $(sed -n "${n}p" "$DIR/answers")
if [ "$2" = - ]; then rm -rf "$DIR/sys/md0/md/dev-ram0"
else mkdir -p "$DIR/sys/md0/md/dev-ram0"; echo "$2" > "$DIR/sys/md0/md/dev-ram0/state"
fi
exit "$1"
"""


def run_copy_wait(tmp_path, answers, ram_state, array_state="clean",
                  sync_action="idle"):
    """svmram-copy@md0's ExecStart against the stand-in mdadm and a
    sysfs tree of our own; the number of mdadm --wait calls it made."""
    (tmp_path / "sys/md0/md").mkdir(parents=True)
    (tmp_path / "sys/md0/md/array_state").write_text(array_state + "\n")
    (tmp_path / "sys/md0/md/sync_action").write_text(sync_action + "\n")
    fake = tmp_path / "mdadm"
    fake.write_text(FAKE_MDADM)
    fake.chmod(0o755)
    (tmp_path / "answers").write_text("".join(a + "\n" for a in answers))
    if ram_state is not None:
        (tmp_path / "sys/md0/md/dev-ram0").mkdir(parents=True)
        (tmp_path / "sys/md0/md/dev-ram0/state").write_text(ram_state + "\n")
    start = unit(COPY)["ExecStart"][0].lstrip("-")
    start = start.replace("%i", "md0").replace(
        "/sbin/mdadm", str(fake)).replace("/sys/block", str(tmp_path / "sys"))
    argv = shlex.split(start)
    assert argv[:2] == ["/usr/bin/timeout", "1800"]
    # ("-": its exit status does not matter)
    subprocess.run(["timeout", "60"] + argv[2:], check=False,
                   env=dict(os.environ, DIR=str(tmp_path)), timeout=90)
    calls = tmp_path / "calls"
    return int(calls.read_text()) if calls.exists() else 0


def test_the_copy_unit_waits_through_a_resync_and_then_the_recovery(
        tmp_path):
    """After a power cut during the copy into RAM the array is not clean:
    md resyncs the disks, then recovers the RAM member (the Debian 13
    guest's kernel log: "resync of RAID array md0", "md0: resync done.",
    "recover of RAID array md0").  One mdadm --wait returned at the end
    of the resync, or found nothing running between the two, and
    mdadm's monitor then looked during the recovery: DegradedArray,
    RebuildStarted and a mail (issue 37, section 4).  The unit waits
    again while the last wait waited, and while the RAM member is a
    spare (a copy to come)."""
    calls = run_copy_wait(tmp_path, [
        "0 spare",      # waited for the resync; the recovery not started
        "1 spare",      # nothing running yet: the gap between the two
        "0 in_sync",    # waited for the recovery into RAM
        "1 in_sync",    # nothing running, the RAM member in sync
    ], "spare")
    assert calls == 4


def test_the_copy_unit_stops_at_once_without_a_ram_member_to_copy(tmp_path):
    """A disk missing at boot: the restore adds no RAM member and the
    monitor must report the array degraded without delay; a faulty RAM
    member is no copy to come either."""
    assert run_copy_wait(tmp_path, ["1 -"], None) == 1
    assert run_copy_wait(tmp_path / "f", ["1 faulty"], "faulty") == 1
    assert run_copy_wait(tmp_path / "s", ["0 in_sync", "1 in_sync"],
                         "spare") == 2
    # md copies nothing into a spare of a frozen or read-only array
    assert run_copy_wait(tmp_path / "z", ["1 spare"], "spare",
                         sync_action="frozen") == 0
    assert run_copy_wait(tmp_path / "r", ["1 spare"], "spare",
                         array_state="read-auto") == 0


# Debian's scrub (mdadm 4.4: mdcheck_start.timer monthly,
# mdcheck_continue.timer daily, both Persistent=true)
MDCHECK = {"mdcheck_start.service", "mdcheck_continue.service"}


def test_debian_s_scrub_waits_for_the_copy_into_ram_and_stops_first():
    """mdcheck skips an array that is not idle ("This array is busy":
    the month's check dropped during the copy into RAM) and a check that
    starts first holds md's copy into RAM back for hours (md runs one
    sync action at a time; issue 37, 1).  Both mdcheck services start
    after the copy (svmram-copy@ is before them, and after svmram@) and
    stop before svmram@'s stop fails the RAM member, which would end the
    check under a running mdcheck: it would take that for the check's
    end and remove its marker."""
    for path in (UNIT, COPY):
        before = set(" ".join(unit(path)["Before"]).split())
        assert MDCHECK <= before, path
    assert unit(COPY)["After"] == ["svmram@%i.service"]


def test_mdmonitor_stops_at_shutdown_before_the_stop_fails_the_ram_member():
    """mdadm's mdmonitor.service has no Conflicts=shutdown.target, so it
    ran until systemd's final kill and reported the stop's failing of the
    RAM member as a Fail event (a PROGRAM call, a mail) at every clean
    reboot.  The drop-in makes it stop at shutdown; svmram@ is ordered
    before it at start, so its stop comes after the monitor's."""
    d = unit(os.path.join(TOP, "systemd", "mdmonitor-svmram.conf"))
    assert d == {"Conflicts": ["shutdown.target"],
                 "Before": ["shutdown.target"]}
    assert "mdmonitor.service" in " ".join(unit()["Before"]).split()


PAUSE_MONITOR = ("-/bin/sh -c 'if systemctl -q is-active mdmonitor.service;"
                 " then touch /run/svmram-mdmonitor-%i && systemctl stop"
                 " mdmonitor.service; fi'")
RESUME_MONITOR = ("-/bin/sh -c 'if [ -e /run/svmram-mdmonitor-%i ]; then"
                  " rm -f /run/svmram-mdmonitor-%i; systemctl start"
                  " --no-block mdmonitor.service; fi'")


def test_the_unit_runs_the_svmram_command_s_restore_and_stop():
    u = unit()
    assert u["ExecStart"] == ["@SBINDIR@/svmram restore --deadline 100 %i"]
    assert u["ExecStop"][-1] == "@SBINDIR@/svmram stop %i"
    # restore's wait for the disks fits well inside its deadline, and the
    # deadline inside the start timeout, so svmram says what happened
    assert WAIT_DISKS_SECONDS * 3 <= 100 < int(u["TimeoutStartSec"][0])
    assert stop.LOCK_WAIT < int(u["TimeoutStopSec"][0])


def test_a_stop_or_restart_by_hand_pauses_a_running_mdmonitor():
    """`systemctl restart svmram@md0.service` with mdmonitor running made
    it report the stop's failing of the RAM member as a Fail event (a
    mail).  The stop stops a running monitor first and starts it again
    after (then it waits for svmram-copy@, as at boot); a monitor that
    was not running (at shutdown: the drop-in stopped it) stays so."""
    u = unit()
    assert u["ExecStop"] == [PAUSE_MONITOR, "@SBINDIR@/svmram stop %i"]
    assert u["ExecStopPost"] == [RESUME_MONITOR]


def test_make_install_linux_fills_in_the_paths(tmp_path):
    subprocess.run(["make", "-s", "install-linux", "DESTDIR=%s" % tmp_path,
                    "PREFIX=/opt/sv", "PYTHON=%s" % sys.executable],
                   cwd=TOP, check=True, capture_output=True)
    installed = tmp_path / "opt/sv/lib/systemd/system/svmram@.service"
    text = installed.read_text()
    assert re.findall(r"@[A-Z]+@", text) == []
    assert "ExecStart=/opt/sv/sbin/svmram restore --deadline 100 %i\n" \
        in text
    assert "ExecStop=/opt/sv/sbin/svmram stop %i\n" in text
    assert unit(str(installed))["Environment"] == ["PYTHONHASHSEED=0"]
    with open(COPY, encoding="utf-8") as stream:
        assert (tmp_path / "opt/sv/lib/systemd/system/svmram-copy@.service"
                ).read_text() == stream.read().replace("@SBINDIR@",
                                                       "/opt/sv/sbin")
    with open(os.path.join(TOP, "systemd", "mdmonitor-svmram.conf"),
              encoding="utf-8") as stream:
        assert (tmp_path / "opt/sv/lib/systemd/system/mdmonitor.service.d/"
                "svmram.conf").read_text() == stream.read()
    with open(tmp_path / "opt/sv/sbin/svmram", encoding="utf-8") as stream:
        assert stream.readline() == "#!/usr/bin/python3\n"
    assert (tmp_path / "opt/sv/lib/svmram/svmram/md/host.py").exists()
    assert not (tmp_path / "lib/svc").exists()


def test_systemd_analyze_verify_finds_nothing_to_say_about_the_unit(
        tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    with open(UNIT, encoding="utf-8") as stream:
        # systemd-analyze checks that the command exists: the tree's own.
        text = stream.read().replace("@SBINDIR@", os.path.abspath(
            os.path.join(TOP, "sbin")))
    (tmp_path / "svmram@.service").write_text(text)
    with open(COPY, encoding="utf-8") as stream:
        (tmp_path / "svmram-copy@.service").write_text(
            stream.read().replace("@SBINDIR@", os.path.abspath(
                os.path.join(TOP, "sbin"))))
    proc = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "svmram@md0.service",
         "svmram-copy@md0.service"],
        cwd=str(tmp_path), capture_output=True, text=True, check=False,
        env=dict(os.environ, SYSTEMD_UNIT_PATH="%s:" % tmp_path))
    assert proc.returncode == 0
    assert "svmram@" not in proc.stdout + proc.stderr


def test_the_man_page_gives_the_shutdown_line_filters_the_guest_tests():
    """The logcheck rule and the rsyslog filter for the kernel's lines of
    every clean shutdown (md's "Disk failure on ram0"): svmram.8 gives
    them as tests/vm/guest-debian-check.sh applies them to a real
    shutdown's journal (roff writes a backslash as \\e)."""
    with open(os.path.join(TOP, "tests", "vm", "guest-debian-check.sh"),
              encoding="utf-8") as stream:
        guest = stream.read()
    with open(os.path.join(TOP, "docs", "svmram.8"),
              encoding="utf-8") as stream:
        page = stream.read().splitlines()
    for name in ("LOGCHECK_RULE", "RSYSLOG_FILTER"):
        line = re.search(r"^%s='(.*)'$" % name, guest, re.M).group(1)
        assert line.replace("\\", "\\e") in page, name
