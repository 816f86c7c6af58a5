# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""md's check (a scrub: Debian's mdcheck, issue 37, 1) on md's fake
kernel: status says it runs and what it is, not a copy into RAM; setup
and restore add no RAM member that would wait hours for it; svmram's
waits do not wait for a check that starts after md's recovery."""

import pytest

from svmram.md.host import MdHost

import faketree
from faketree import fixture
from mdcli import SETUP_ARGVS, Host, set_up, stopped_by_the_unit

TOTAL = 260096          # md0's sectors in the fixtures


def checking(root, done, total=TOTAL, array="md0"):
    """md checking `array` (echo check > md/sync_action, as mdcheck
    does), `done` of `total` sectors read: md.c action_show says "check",
    sync_completed_show "done / total"."""
    md = "/sys/block/%s/md/" % array
    faketree.write(root, md + "sync_action", "check")
    faketree.write(root, md + "sync_completed", "%d / %d" % (done, total))


def spare_ram(root, array="md0"):
    """ram0 added while md checks: a spare that md recovers only after
    the check (md_check_recovery starts nothing while a sync runs)."""
    md = "/sys/block/%s/md/" % array
    faketree.write(root, md + "dev-ram0/state", "spare")
    faketree.write(root, md + "dev-ram0/slot", "none")
    faketree.write(root, md + "degraded", "1")


@pytest.fixture
def scrubbed(tmp_path):
    """md0 set up (ram0 in sync), and md's check of it 40 % done."""
    host = Host(tmp_path)
    set_up(host)
    checking(host.root, 104040)     # 40.0 %
    return host


def test_status_text_says_md_s_check_runs_and_the_ram_member_serves(
        scrubbed):
    rc, out, err, _ = scrubbed.svmram("status", "/dev/md0")
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("md0: serving reads from RAM")
    assert "    scrub:      md's check (scrub) running, 40 % done" in lines
    # not the copy into RAM's line, and nothing degraded
    assert not [line for line in lines if "recovery:" in line]
    assert "DEGRADED" not in out and "submirror" not in out


def test_status_json_keeps_the_check_apart_from_the_copy(scrubbed):
    import json
    rc, out, err, _ = scrubbed.svmram("status", "--json", "/dev/md0")
    assert rc == 0, err
    entry = json.loads(out)["targets"][0]
    assert entry["verdict"] == "serving" and entry["sync_percent"] is None
    assert entry["scrub"] == {"action": "check", "percent": 40}
    assert entry["disk_redundancy"]["state"] == "full"


def test_prometheus_and_nagios_during_a_check(scrubbed):
    """The check in every format: Prometheus' svmram_scrub_ratio beside
    the RAM copy's ratio (1: the check is no copy into RAM); Nagios says
    it and gives its percentage, and stays OK."""
    rc, out, err, _ = scrubbed.svmram("status", "--prometheus")
    assert rc == 0, err
    lines = out.splitlines()
    assert 'svmram_ram_copy_sync_ratio{target="md0",device="md0"} 1' in lines
    assert 'svmram_scrub_ratio{target="md0",device="md0"} 0.4' in lines
    rc, out, err, _ = scrubbed.svmram("status", "--nagios")
    assert (rc, err) == (0, "")
    assert out == (
        "SVMRAM OK - md0 serves reads from RAM; md's check (scrub) of md0 "
        "running, 40 % done | serving=1;;;0;1 md0_disks_current=2;;;0;2 "
        "md0_scrub=40%;;;0;100\n")


def test_a_repair_without_progress_and_no_scrub(scrubbed):
    """md's repair whose progress md does not show: said without a
    percentage, no sample and no perfdata figure (never a made-up 0);
    once md is idle again, neither."""
    faketree.write(scrubbed.root, "/sys/block/md0/md/sync_action", "repair")
    faketree.write(scrubbed.root, "/sys/block/md0/md/sync_completed", "none")
    rc, out, err, _ = scrubbed.svmram("status", "--nagios")
    assert (rc, err) == (0, "")
    assert out == (
        "SVMRAM OK - md0 serves reads from RAM; md's repair (scrub) of md0 "
        "running | serving=1;;;0;1 md0_disks_current=2;;;0;2\n")
    rc, out, err, _ = scrubbed.svmram("status", "--prometheus")
    assert "svmram_scrub_ratio{" not in out
    faketree.write(scrubbed.root, "/sys/block/md0/md/sync_action", "idle")
    rc, out, err, _ = scrubbed.svmram("status", "--nagios")
    assert out == ("SVMRAM OK - md0 serves reads from RAM | "
                   "serving=1;;;0;1 md0_disks_current=2;;;0;2\n")
    rc, out, err, _ = scrubbed.svmram("status", "--prometheus")
    assert "# TYPE svmram_scrub_ratio gauge" in out.splitlines()
    assert "svmram_scrub_ratio{" not in out


def test_a_check_of_a_degraded_array_is_critical_for_the_disk(scrubbed):
    """The check grades nothing: a failed disk during it is CRITICAL as
    at any time, the check said beside it."""
    faketree.write(scrubbed.root, "/sys/block/md0/md/dev-vdb/state",
                   "faulty,write_mostly")
    faketree.write(scrubbed.root, "/sys/block/md0/md/dev-vdb/slot", "none")
    faketree.write(scrubbed.root, "/sys/block/md0/md/degraded", "1")
    rc, out, err, _ = scrubbed.svmram("status", "--nagios")
    assert rc == 2, out
    assert out.startswith("SVMRAM CRITICAL - md0: disk redundancy "
                          "degraded (vdb is faulty)"), out
    assert "; md's check (scrub) of md0 running, 40 % done | " in out
    assert out.rstrip("\n").endswith(" md0_scrub=40%;;;0;100")


def test_a_ram_member_waiting_for_the_check_says_so(scrubbed):
    """ram0 added during a check: md copies into it only after the
    check; status names the check and its progress, and gives the copy
    no percent of the check's."""
    import json
    spare_ram(scrubbed.root)
    rc, out, err, _ = scrubbed.svmram("status", "--json", "/dev/md0")
    entry = json.loads(out)["targets"][0]
    assert entry["reasons"] == [
        "ram0 waits for the end of md's check (scrub) of md0 (40 % done): "
        "md copies into it only then, and the disks serve reads meanwhile"]
    assert entry["sync_percent"] is None
    rc, out, err, _ = scrubbed.svmram("status", "--prometheus")
    assert 'svmram_ram_copy_sync_ratio{target="md0",device="md0"} 0' in out.splitlines()


def test_setup_adds_no_ram_member_during_a_check(host):
    checking(host.root, 1000)
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert rc == 3
    assert [a for a in argvs if a[:2] != SETUP_ARGVS[0][:2]] == []
    assert "svmram: md's check (scrub) of md0 (0 % done) is running; md " \
        "would copy into a RAM member only after it, so setup adds none " \
        "now" in err
    assert "Let it end (cat /sys/block/md0/md/sync_action says idle " \
        "then), and run svmram setup again." in err
    assert host.sysfs() == before


def test_restore_adds_no_ram_member_during_a_check(host):
    """The boot's check waits for the restore (the units' order); one
    running anyway (an administrator's) gets the restore's refusal, with
    the unit's restart as the way on."""
    stopped_by_the_unit(host)
    checking(host.root, TOTAL // 2)
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert rc == 3
    assert [a for a in argvs if a[0] in ("mdadm", "modprobe")] == []
    assert "md's check (scrub) of md0 (50 % done) is running; md would " \
        "copy into a RAM member only after it, so restore adds none now" \
        in err
    assert "run systemctl restart svmram@md0.service." in err


def resync_tree(tmp_path):
    root = faketree.build(str(tmp_path / "root"),
                          fixture("vm-after-setup-new.sysfs.txt"))
    return root


def test_the_wait_ends_when_a_check_follows_the_recovery(tmp_path):
    """md's recovery into ram0 ended and a check began at once (mdcheck
    waits for it): svmram's wait is over; it counted the check as its
    recovery and waited hours."""
    root = resync_tree(tmp_path)
    checking(root, 1000)
    status = MdHost("md0", root=root).resync_status("md0")
    assert (status.active, status.problem) == (False, None)


def test_a_recovery_held_back_by_a_check_is_a_problem(tmp_path):
    root = resync_tree(tmp_path)
    checking(root, TOTAL // 4)
    spare_ram(root)
    status = MdHost("md0", root=root).resync_status("md0")
    assert status.active is False
    assert status.problem.startswith(
        "md's check (scrub) of md0 (25 % done) is running and md recovers "
        "md0 only after it")


def test_a_check_of_one_disk_and_the_ram_member(tmp_path):
    """md0 with vdb missing (one disk and ram0 in sync) checked: status
    says degraded for the missing disk, as without a check, and the
    check beside it; neither a copy in progress nor the RAM member as
    the only copy (the check reads vda, which holds current data)."""
    from dataclasses import replace

    from svmram.md import status
    from svmram.md.intent import Intent
    root = resync_tree(tmp_path)
    snap = MdHost("md0", root=root).observe()
    a = replace(snap.array.without_member("vdb"), degraded=1,
                sync_action="check", mdstat_percent=12,
                sync_completed=(31232, TOTAL))
    it = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)
    found, problems = status.array_status(snap.evolve(array=a), it,
                                          "active")
    entry = found.to_json()
    assert entry["verdict"] == "degraded"
    assert entry["disk_redundancy"]["current"] == ["vda"]
    assert entry["reasons"] == [] and entry["serving_from_ram"]
    assert (entry["sync_percent"], entry["scrub"]) == (
        None, {"action": "check", "percent": 12})
    assert problems.critical == [
        "disk redundancy degraded (vdb is not in md0)"]
