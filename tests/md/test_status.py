# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""md status entries from the states captured on a real kernel
(fixtures/vm-*) and from the failures a status must name."""

import json
import os
from dataclasses import replace

import pytest

from svmram.md import status
from svmram.md.host import MdHost
from svmram.md.intent import Intent
from svmram.md.model import Brd, Member

import fakekernel
import faketree
from faketree import fixture

CREATED = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)


def observe(tmp_path, name):
    root = faketree.build(str(tmp_path), fixture(name))
    return MdHost("md0", root=root).observe()


def report(snap, it=CREATED, service="active"):
    """The neutral Status of `snap` (its Problems aside), as JSON."""
    return status.array_status(snap, it, service)[0].to_json()


def test_a_set_up_array_serves_from_ram(tmp_path):
    entry = report(observe(tmp_path, "vm-after-setup-new.sysfs.txt"))
    assert entry["verdict"] == "serving" and entry["serving_from_ram"]
    assert entry["reasons"] == []
    assert entry["disk_redundancy"] == {"state": "full",
                                        "current": ["vda", "vdb"],
                                        "reasons": [], "fixes": []}
    assert entry["copies"] == [
        {"slot": 0, "name": "ram0", "state": "in_sync", "ram": True,
         "write_mostly": False},
        {"slot": 1, "name": "vda", "state": "in_sync", "ram": False,
         "write_mostly": True},
        {"slot": 2, "name": "vdb", "state": "in_sync", "ram": False,
         "write_mostly": True}]
    assert entry["ramdisk"]["device_matches"]
    assert entry["sync_percent"] is None and entry["method"] == "create"


def test_while_restoring_the_disks_still_serve_some_reads(tmp_path):
    entry = report(observe(tmp_path, "vm-restoring.sysfs.txt"))
    assert entry["verdict"] == "not_serving"
    assert entry["reasons"] == ["ram0 is recovering; the disks serve reads "
                                "ahead of the recovery"]
    assert entry["disk_redundancy"]["state"] == "full"


def test_after_teardown_nothing_serves_from_ram(tmp_path):
    entry = report(observe(tmp_path, "vm-after-teardown.sysfs.txt"))
    assert entry["reasons"] == ["ram0 is not in md0",
                                "vda is not write-mostly, so it serves "
                                "reads too",
                                "vdb is not write-mostly, so it serves "
                                "reads too", "brd is not loaded"]


def test_the_boot_unit_s_state_is_a_reason_too(tmp_path):
    snap = observe(tmp_path, "vm-after-setup-new.sysfs.txt")
    entry = report(snap, service="failed")
    assert (entry["verdict"], entry["reasons"]) == ("not_serving", [
        "its boot unit svmram@md0.service is failed (journalctl -b -u "
        "svmram@md0.service says why and what to do)"])
    assert report(snap, service=None)["reasons"] == [
        "its boot unit svmram@md0.service is missing"]


def test_recovery_percent_and_an_inactive_array(tmp_path):
    snap = observe(tmp_path, "vm-after-setup-new.sysfs.txt")
    a = replace(snap.array, sync_action="recover",
                sync_completed=(65024, 260096), degraded=1).with_member(
                    Member("ram0", 0, frozenset(["spare"])))
    entry = report(snap.evolve(array=a))
    assert entry["sync_percent"] == 25
    assert "ram0 is recovering (25% done)" in entry["reasons"][0]
    inactive = report(snap.evolve(array=replace(
        snap.array, state="inactive")))
    assert inactive["reasons"][0] == "md0 is inactive"
    gone = report(snap.evolve(array=None))
    assert gone["verdict"] == "not_serving" and gone["reasons"] == [
        "md0 is not assembled"]
    assert (gone["disk_redundancy"], gone["copies"],
            gone["size_blocks"]) == (None, [], None)


def test_a_failed_disk_is_degraded_and_no_disk_is_the_only_copy(tmp_path):
    snap = observe(tmp_path, "vm-after-setup-new.sysfs.txt")
    a = snap.array.with_member(Member("vdb", None, frozenset(
        ["faulty", "write_mostly"])))
    entry = report(snap.evolve(array=a))
    assert entry["verdict"] == "degraded"
    assert entry["disk_redundancy"] == {
        "state": "degraded", "current": ["vda"],
        "reasons": ["vdb is faulty"],
        "fixes": ["mdadm /dev/md0 --remove /dev/vdb, then --add it (or a "
                  "replacement)"]}
    a = a.without_member("vda")
    entry = report(snap.evolve(array=a, brd=Brd()))
    assert entry["verdict"] == "only_copy_in_ram"
    assert entry["disk_redundancy"]["fixes"][0] == "mdadm /dev/md0 --add " \
                                                   "/dev/vda"


# --- status --prometheus on md, through the command (test_cli.py's fake
# kernel) ------------------------------------------------------------------

PROMETHEUS_HELP = {
    "svmram_serving_from_ram":
        "1 when the target serves its reads from RAM, else 0.",
    "svmram_ram_copy_sync_ratio":
        "How much of the RAM copy holds current data, 0 to 1: 1 once it "
        "is current, the copy's progress while it is filled, 0 without "
        "one.",
    "svmram_ram_copy_sync_bytes_per_second":
        "The rate of the copy into the RAM copy while it runs, as the "
        "system reports it (md/sync_speed); no sample when none runs or "
        "the system reports no rate (SVM).",
    "svmram_ram_copy_sync_seconds_left":
        "The seconds the running copy into the RAM copy still needs at "
        "that rate; no sample when none runs or no rate is known.",
    "svmram_disks_current":
        "The recorded disk copies known to hold current data (0 when "
        "their state cannot be read).",
    "svmram_disks": "The disk copies setup recorded.",
    "svmram_scrub_ratio":
        "How far the system's own check of every copy (a scrub: a check "
        "or repair in md/sync_action) has read the target while it runs, "
        "0 to 1; no sample when none runs, its progress is not shown or "
        "the system has no scrub (SVM).",
}


UP_HEADER = [
    "# HELP svmram_build_info The version of svmram that wrote these "
    "metrics; always 1.",
    "# TYPE svmram_build_info gauge",
    'svmram_build_info{version="0.1.0"} 1',
    "# HELP svmram_up 1 when svmram status read everything it needs; 0 "
    "when it could not (its error is on stderr, its exit status not 0), and "
    "no target follows.",
    "# TYPE svmram_up gauge", "svmram_up 1"]


def sample(name, value, target="md0"):
    return '%s{target="%s",device="%s"} %s' % (name, target, target, value)


def prometheus(samples):
    """The exposition text for {metric: [sample line, ...]}."""
    lines = list(UP_HEADER)
    for name, text in PROMETHEUS_HELP.items():
        lines += ["# HELP %s %s" % (name, text), "# TYPE %s gauge" % name]
        lines += samples.get(name, [])
    return "\n".join(lines) + "\n"


def test_prometheus_metrics_of_a_set_up_array(tmp_path):
    from mdcli import Host, set_up
    host = Host(tmp_path)
    rc, out, err, _ = host.svmram("status", "--prometheus")
    assert (rc, out, err) == (0, prometheus({}), "")
    set_up(host)
    rc, out, err, _ = host.svmram("status", "--prometheus")
    assert (rc, err) == (0, "")
    assert out == prometheus({
        "svmram_serving_from_ram": [sample("svmram_serving_from_ram", "1")],
        "svmram_ram_copy_sync_ratio": [
            sample("svmram_ram_copy_sync_ratio", "1")],
        "svmram_disks_current": [sample("svmram_disks_current", "2")],
        "svmram_disks": [sample("svmram_disks", "2")]})
    # After the unit's stop: no RAM member, exit 0 all the same (status
    # itself exits 4).
    rc, _, err, _ = host.svmram("stop", "md0")
    assert rc == 0, err
    rc, out, err, _ = host.svmram("status", "--prometheus", "/dev/md0")
    assert (rc, err) == (0, "")
    assert out == prometheus({
        "svmram_serving_from_ram": [sample("svmram_serving_from_ram", "0")],
        "svmram_ram_copy_sync_ratio": [
            sample("svmram_ram_copy_sync_ratio", "0")],
        "svmram_disks_current": [sample("svmram_disks_current", "2")],
        "svmram_disks": [sample("svmram_disks", "2")]})
    rc, out, err, _ = host.svmram("status", "--prometheus", "/dev/md1")
    assert (rc, err) == (0, "")
    assert out == prometheus({"svmram_serving_from_ram": [
        sample("svmram_serving_from_ram", "0", "md1")]})
    rc, out, err, _ = host.svmram("status", "--prometheus", "--json")
    assert rc == 2 and out == ""


def test_prometheus_while_md_recovers_the_ram_member(tmp_path):
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    faketree.recovering(host.root, 65024)
    rc, out, err, _ = host.svmram("status", "--prometheus")
    assert (rc, err) == (0, "")
    assert out == prometheus({
        "svmram_serving_from_ram": [sample("svmram_serving_from_ram", "0")],
        "svmram_ram_copy_sync_ratio": [
            sample("svmram_ram_copy_sync_ratio", "0.25")],
        "svmram_disks_current": [sample("svmram_disks_current", "2")],
        "svmram_disks": [sample("svmram_disks", "2")]})


def test_the_copy_s_rate_and_time_left_in_every_format(tmp_path):
    """issue 37, 3: while md copies into the RAM member, status says its
    rate (md/sync_speed, KiB/s) and the time left (md/sync_completed's
    sectors left at that rate): 195072 sectors (97536 KiB) at 1024
    KiB/s are 95.25 s, 96 rounded up."""
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    faketree.recovering(host.root, 65024, rate_kib=1024)
    rc, out, err, _ = host.svmram("status", "--json")
    [entry] = json.loads(out)["targets"]
    assert (rc, err) == (4, "")
    assert (entry["sync_percent"], entry["sync_bytes_per_second"],
            entry["sync_seconds_left"]) == (25, 1048576, 96)
    assert entry["reasons"] == [
        "ram0 is recovering (25% done, 1.0 MiB/s, about 1 min 36 s left); "
        "the disks serve reads ahead of the recovery"]
    rc, out, err, _ = host.svmram("status", "md0")
    assert rc == 4 and "    recovery:   25 % done, 1.0 MiB/s, about 1 min " \
        "36 s left\n" in out, out
    rc, out, err, _ = host.svmram("status", "-H", "-p", "-o",
                                  "mirror,resync,rate,left")
    assert (rc, out) == (4, "md0\t25\t1048576\t96\n")
    rc, out, err, _ = host.svmram("status", "-o", "rate,left")
    assert out == "RATE       LEFT\n1.0 MiB/s  1 min 36 s\n", out
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert rc == 1 and out.startswith(
        "SVMRAM WARNING - md0: ram0 is recovering (25% done, 1.0 MiB/s, "
        "about 1 min 36 s left)"), out
    rc, out, err, _ = host.svmram("status", "--prometheus")
    assert (rc, err) == (0, "")
    assert out == prometheus({
        "svmram_serving_from_ram": [sample("svmram_serving_from_ram", "0")],
        "svmram_ram_copy_sync_ratio": [
            sample("svmram_ram_copy_sync_ratio", "0.25")],
        "svmram_ram_copy_sync_bytes_per_second": [
            sample("svmram_ram_copy_sync_bytes_per_second", "1048576")],
        "svmram_ram_copy_sync_seconds_left": [
            sample("svmram_ram_copy_sync_seconds_left", "96")],
        "svmram_disks_current": [sample("svmram_disks_current", "2")],
        "svmram_disks": [sample("svmram_disks", "2")]})
    # md's rate 0 (a stalled copy): the rate, no time left
    faketree.recovering(host.root, 65024, rate_kib=0)
    rc, out, err, _ = host.svmram("status", "--json")
    [entry] = json.loads(out)["targets"]
    assert (entry["sync_bytes_per_second"], entry["sync_seconds_left"]) \
        == (0, None)
    assert entry["reasons"][0].startswith(
        "ram0 is recovering (25% done, 0.0 MiB/s); ")


@pytest.mark.parametrize("action, completed, rate, expected", [
    ("recover", (0, 2048), 512, (524288, 2)),
    ("resync", (1024, 2048), 1, (1024, 512)),
    ("recover", "delayed", 512, (None, None)),
    ("recover", None, 512, (None, None)),
    ("check", (0, 2048), 512, (None, None)),
    ("idle", None, None, (None, None)),
    ("recover", (0, 2048), None, (None, None)),
])
def test_recovery_rate_from_md_s_figures(action, completed, rate,
                                         expected):
    from svmram.md.model import Array
    a = Array("md0", "raid1", 2, "clean", sync_action=action,
              sync_completed=completed, sync_rate_kib=rate)
    assert status.recovery_rate(a) == expected


def test_nagios_while_md_recovers_the_ram_member_is_a_warning(tmp_path):
    """svmram.8 (LINUX MD, after a power cut): while md copies into the
    RAM member, --nagios says WARNING, in md's words, with the percentage,
    where generic monitors see a degraded array."""
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    faketree.recovering(host.root, 65024)
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, err) == (1, "")
    assert out.startswith("SVMRAM WARNING - md0: ram0 is recovering"), out
    assert "25%" in out and "submirror" not in out and "resync" not in out


# --- issue 28, 3: a failed or missing disk reaches the admin ---------------

def test_nagios_names_a_failed_write_mostly_disk_critical(tmp_path):
    """`mdadm --fail` of a write-mostly disk: CRITICAL with the disk and
    what to do; the perfdata count the disks that are current (reads
    still come from RAM, so serving stays 1)."""
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb"])
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, out, err) == (
        2, "SVMRAM CRITICAL - md0: disk redundancy degraded (vdb is "
        "faulty) | serving=1;;;0;1 md0_disks_current=1;;;0;2\n", "")
    rc, out, err, _ = host.svmram("status")
    assert rc == 5 and err == ""
    assert out.splitlines()[0] == (
        "md0: DEGRADED: only 1 of 2 disks holds current data (vdb is "
        "faulty).")


def test_nagios_names_a_missing_disk_critical(tmp_path):
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb", "--remove",
                   "/dev/vdb"])
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, out, err) == (
        2, "SVMRAM CRITICAL - md0: disk redundancy degraded (vdb is not in "
        "md0) | serving=1;;;0;1 md0_disks_current=1;;;0;2\n", "")


def test_nagios_both_disks_failed_is_data_at_risk(tmp_path):
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb"])
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vda"])
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, err) == (2, "")
    assert out == (
        "SVMRAM CRITICAL - md0: DATA AT RISK: ram0 holds the only current "
        "copy (vda is faulty, vdb is faulty) | serving=1;;;0;1 "
        "md0_disks_current=0;;;0;2\n")
    # the text says so in md's words: a RAM disk, no ramdisk
    rc, out, err, _ = host.svmram("status")
    assert rc == 6 and err == ""
    assert out.splitlines()[0] == (
        "md0: DATA AT RISK: the RAM disk ram0 holds the only current copy "
        "of md0; no disk is current (vda is faulty; vdb is faulty).  A "
        "power loss or reboot now loses data.")
    assert "    RAM disk:   ram0, present" in out.splitlines()


# --- issue 28, 4: what status cannot read is never a state -----------------

@pytest.mark.parametrize("verb", ["is-enabled", "is-active"])
def test_a_systemctl_that_fails_is_no_missing_unit(tmp_path, verb):
    """systemctl that cannot answer (no bus) is not "the unit is
    missing", nor "enabled" (issue 37, 4: only is-enabled was checked):
    every format fails, --prometheus after svmram_up 0."""
    from mdcli import Host, set_up
    host = Host(tmp_path)
    set_up(host)
    error = ("svmram: cannot read the state of svmram@md0.service from "
             "systemd: systemctl: injected failure\n"
             "svmram: svmram status needs systemctl is-enabled and "
             "is-active to answer; it works again once "
             "'systemctl status svmram@md0.service' does.\n")
    for options, code in (((), 1), (("--json",), 1), (("-H",), 1),
                          (("-q",), 1), (("--prometheus",), 1)):
        faketree.write(host.root, "/" + fakekernel.FAIL,
                       "systemctl " + verb)
        rc, out, err, _ = host.svmram("status", *options)
        assert (rc, err) == (code, error), options
        if options == ("--prometheus",):
            assert [line for line in out.splitlines()
                    if not line.startswith("#")] == [
                        'svmram_build_info{version="0.1.0"} 1',
                        "svmram_up 0"]
        elif options == ("--json",):
            assert json.loads(out) == {"format": 2, "error": {
                "message": "cannot read the state of svmram@md0.service "
                "from systemd: systemctl: injected failure",
                "advice": "svmram status needs systemctl is-enabled and "
                "is-active to answer; it works again once 'systemctl "
                "status svmram@md0.service' does.",
                "exit_status": 1}}
        else:
            assert out == ""
    faketree.write(host.root, "/" + fakekernel.FAIL, "systemctl " + verb)
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert (rc, out, err) == (
        3, "SVMRAM UNKNOWN - cannot read the state of svmram@md0.service "
        "from systemd: systemctl: injected failure\n", "")


def test_an_inactive_array_after_a_power_cut_is_critical(tmp_path):
    """md0 inactive, its disks spares (fixtures/vm-inactive): check_raid
    reads OK and node-mixin never fires (svmram.8, MONITORING); status
    is CRITICAL, and its advice starts the array, which works on an
    inactive one (a --grow does not)."""
    from svmram.commands.status import health
    from svmram.md.backend import MdBackend
    snap = observe(tmp_path / "root", "vm-inactive.sysfs.txt")
    found, problems = status.array_status(snap, CREATED, "active")
    grade, words = health(found, problems, MdBackend(str(tmp_path)))
    assert (grade, found.verdict) == (2, "degraded")
    assert words.startswith("md0: md0 is inactive, ram0 is not in md0")
    assert found.disk_redundancy["fixes"] == ["mdadm --run /dev/md0"]


# --- issue 38, 2: --output publishes what status knows, failure included ----

def test_prometheus_output_replaces_the_file_atomically(tmp_path):
    """--output FILE holds what --prometheus prints; when systemd does not
    answer, svmram_up 0 replaces the old file (the cron line of svmram(8)
    kept the old one and left svmram.prom.PID behind), and the exit
    status and stderr are --prometheus's."""
    from mdcli import set_up_with_a_textfile_directory
    host, textfile = set_up_with_a_textfile_directory(tmp_path)
    prom = str(textfile / "svmram.prom")
    rc, printed, err, _ = host.svmram("status", "--prometheus")
    assert (rc, err) == (0, "")
    rc, out, err, _ = host.svmram("status", "--prometheus", "--output", prom)
    assert (rc, out, err) == (0, "", "")
    with open(prom) as stream:
        assert stream.read() == printed
    assert "svmram_up 1\n" in printed
    assert os.stat(prom).st_mode & 0o777 == 0o644
    faketree.write(host.root, "/" + fakekernel.FAIL, "systemctl is-active")
    rc, failed, err, _ = host.svmram("status", "--prometheus")
    for _ in range(2):
        faketree.write(host.root, "/" + fakekernel.FAIL,
                       "systemctl is-active")
        rc2, out, err2, _ = host.svmram("status", "--prometheus", "--output",
                                        prom)
        assert (rc2, out, err2) == (rc, "", err)
        assert rc == 1 and err.startswith("svmram: cannot read the state")
        with open(prom) as stream:
            assert stream.read() == failed
        assert "svmram_up 0\n" in failed
        assert sorted(os.listdir(textfile)) == ["svmram.prom"]


def test_prometheus_output_refusals(tmp_path):
    from mdcli import set_up_with_a_textfile_directory
    host, textfile = set_up_with_a_textfile_directory(tmp_path)
    missing = str(tmp_path / "none" / "svmram.prom")
    rc, out, err, argvs = host.svmram("status", "--prometheus", "--output",
                                      missing)
    assert (rc, out, argvs) == (1, "", [])
    assert err == (
        "svmram: cannot write the metrics to %s: there is no directory "
        "%s\nsvmram: Name a file ending in .prom in node_exporter's "
        "textfile directory (its --collector.textfile.directory).\n" % (
            missing, os.path.dirname(missing)))
    assert not os.path.exists(os.path.dirname(missing))
    rc, out, err, _ = host.svmram("status", "--output", missing)
    assert (rc, out) == (2, "")
    assert "--output names the file for --prometheus's metrics; give " \
        "--prometheus too" in err
    # a temporary file svmram cannot create beside FILE (its name, FILE's
    # with ".", ".svmram-" and the pid more, is too long): the error,
    # nothing left
    name = "s" * 245 + ".prom"
    rc, out, err, _ = host.svmram("status", "--prometheus", "--output",
                                  str(textfile / name))
    assert (rc, out) == (1, "")
    assert err == (
        "svmram: cannot write the metrics to %s: File name too long\n"
        "svmram: Name a shorter file: svmram writes .%s.svmram-PID "
        "beside %s first and renames it over %s.\n" % (
            textfile / name, name, name, name))
    assert os.listdir(textfile) == []


def test_prometheus_output_leaves_a_file_named_file_new_alone(tmp_path):
    """--output FILE writes through a temporary file it made itself: the
    administrator's FILE.new in node_exporter's directory, and what a
    link there points at, stay as they were."""
    from mdcli import set_up_with_a_textfile_directory
    host, textfile = set_up_with_a_textfile_directory(tmp_path)
    (textfile / "svmram.prom.new").write_text("the administrator's\n")
    (textfile / "other").write_text("not svmram's\n")
    os.symlink("other", str(textfile / "svmram.prom.tmp"))
    rc, out, err, _ = host.svmram("status", "--prometheus", "--output",
                                  str(textfile / "svmram.prom"))
    assert (rc, out, err) == (0, "", "")
    assert "svmram_up 1\n" in (textfile / "svmram.prom").read_text()
    assert (textfile / "svmram.prom.new").read_text() == \
        "the administrator's\n"
    assert (textfile / "other").read_text() == "not svmram's\n"
    assert sorted(os.listdir(textfile)) == [
        "other", "svmram.prom", "svmram.prom.new", "svmram.prom.tmp"]


# --- issue 38, 2: the boot window is WARNING on md as on SVM ----------------

def test_nagios_the_boot_window_is_warning_and_what_stays_is_critical(
        tmp_path):
    """Between boot and the restore's --add (the unit activating) the RAM
    member is missing, as at every boot: WARNING, as SVM's offline
    instance.  systemd ends the window (TimeoutStartSec): a failed unit,
    or an enabled one that does not run, leaves it missing: CRITICAL."""
    from mdcli import Host, stopped_by_the_unit
    host = Host(tmp_path)
    stopped_by_the_unit(host)
    perf = " | serving=0;;;0;1 md0_disks_current=2;;;0;2\n"
    for active, grade in (("activating", "WARNING"),
                          ("inactive", "CRITICAL"), ("failed", "CRITICAL")):
        host.set_unit("enabled", active)
        rc, out, err, _ = host.svmram("status", "--nagios")
        unit = {"activating": "is activating",
                "inactive": "is enabled",
                "failed": "is failed (journalctl -b -u svmram@md0.service "
                          "says why and what to do)"}[active]
        assert (rc, err) == (("OK", "WARNING", "CRITICAL").index(grade), "")
        assert out == (
            "SVMRAM %s - md0: ram0 is not in md0, brd is not loaded, its "
            "boot unit svmram@md0.service %s%s" % (grade, unit, perf)), out
    # a disk that fails during the window is CRITICAL all the same
    host.set_unit("enabled", "activating")
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb"])
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert rc == 2 and out.startswith(
        "SVMRAM CRITICAL - md0: disk redundancy degraded (vdb is faulty), "
        "ram0 is not in md0"), out
