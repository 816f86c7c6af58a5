# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: the --json schema of docs/status-json.md with its values,
the text lines, and the exit status (0 serving, 4 not, 5 disk redundancy
degraded, 6 the ramdisk holds the only current copy), after setup, after
a reboot, during a resync, with the service disabled, with disk
submirrors offlined, erred or detached, and for a mirror that is not
configured."""

import json

import pytest

from hosts import EmulatedHost

FMRI = "svc:/system/svmram:d10"
NOT_SERVING = 4
DEGRADED = 5
ONLY_COPY_IN_RAM = 6

SUBMIRRORS = [
    {"slot": 0, "name": "d13", "state": "Okay", "ram": True},
    {"slot": 1, "name": "d11", "state": "Okay", "ram": False},
    {"slot": 2, "name": "d12", "state": "Okay", "ram": False},
]

SERVING = {
    "target": "d10",
    "configured": True,
    "verdict": "serving",
    "serving_from_ram": True,
    "reasons": [],
    "disk_redundancy": {"state": "full", "current": ["d11", "d12"],
                        "reasons": [], "fixes": []},
    "ram_copy": "d13",
    "method": "rotate",
    "read_policy": "first",
    "size_blocks": 465885,
    "sync_percent": None,
    # SVM's metastat shows a percentage only: no rate, no time left
    "sync_bytes_per_second": None,
    "sync_seconds_left": None,
    "scrub": None,
    # md's alone: SVM's resync has no speed limit svmram raises
    "raised_speed_limit": None,
    "copies": SUBMIRRORS,
    "ramdisk": {"name": "svmram_d10", "present": True,
                "size_bytes": 228 * 1024 * 1024, "device": "250,1",
                "recorded_device": "250,1", "device_matches": True},
    "boot_service": {"name": FMRI, "state": "online"},
}


@pytest.fixture
def set_up(base_hosts, tmp_path):
    """A copy of the session's article host set up by `svmram setup -y
    d10` (which exited 0)."""
    return base_hosts.copy(tmp_path / "host", "article", None,
                           [("svmram", "setup", "-y", "d10")])


def status_json(host, *args):
    result = host.svmram("status", "--json", *args)
    assert result.stderr == ""
    return result.returncode, json.loads(result.stdout)


def test_json_after_setup(set_up):
    for args in ((), ("d10",)):
        assert status_json(set_up, *args) == (
            0, {"format": 2, "left_out": [], "targets": [SERVING]})


def test_text_after_setup(set_up):
    result = set_up.svmram("status")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "d10: serving reads from RAM (d13 in slot 0, read option first)",
        "    submirrors: d13 Okay (RAM), d11 Okay, d12 Okay",
        "    ramdisk:    svmram_d10, present, device 250,1",
        "    service:    %s online" % FMRI,
    ]


def test_after_a_reboot_the_ram_submirror_is_not_serving(set_up):
    host = set_up
    assert host.reboot().returncode == 0
    code, status = status_json(host, "d10")
    assert code == NOT_SERVING
    failed = dict(SUBMIRRORS[0], state="Needs maintenance")
    assert status == {"format": 2, "left_out": [], "targets": [dict(
        SERVING, serving_from_ram=False, verdict="not_serving",
        reasons=["d13 needs maintenance",
                 "the ramdisk svmram_d10 does not exist"],
        copies=[failed] + SUBMIRRORS[1:],
        ramdisk=dict(SERVING["ramdisk"], present=False, device=None,
                     device_matches=False))]}
    result = host.svmram("status")
    assert result.returncode == NOT_SERVING
    assert result.stdout.splitlines() == [
        "d10: NOT serving reads from RAM: d13 needs maintenance; the "
        "ramdisk svmram_d10 does not exist",
        "    submirrors: d13 Needs maintenance (RAM), d11 Okay, d12 Okay",
        "    ramdisk:    svmram_d10, missing",
        "    service:    %s online" % FMRI,
    ]


def test_a_disk_resync_is_reported_while_reads_stay_on_ram(set_up):
    host = set_up
    assert host.sim("freeze").returncode == 0
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    assert host.cmd("metattach", "d10", "d12").returncode == 0
    assert host.sim("tick", "3").returncode == 0
    code, status = status_json(host, "d10")
    # d12 is the resync's target: until it ends only d11 is a current copy.
    assert code == DEGRADED
    resyncing = dict(SUBMIRRORS[2], state="Resyncing")
    assert status["targets"] == [dict(
        SERVING, sync_percent=30, verdict="degraded",
        disk_redundancy={"state": "degraded", "current": ["d11"],
                         "reasons": ["d12 is resyncing"],
                         "fixes": ["let the resync of d12 finish"]},
        copies=SUBMIRRORS[:2] + [resyncing])]
    lines = host.svmram("status").stdout.splitlines()
    assert lines[:2] == [
        "d10: DEGRADED: only 1 of 2 disk submirrors holds current data "
        "(d12 is resyncing).",
        "d10: let the resync of d12 finish."]
    assert lines[2:5] == [
        "d10: serving reads from RAM (d13 in slot 0, read option first)",
        "    submirrors: d13 Okay (RAM), d11 Okay, d12 Resyncing",
        "    resync:     30 % done"]


def test_a_disabled_service_is_not_serving(set_up):
    host = set_up
    assert host.cmd("svcadm", "disable", FMRI).returncode == 0
    code, status = status_json(host)
    assert code == NOT_SERVING
    assert status["targets"] == [dict(
        SERVING, serving_from_ram=False, verdict="not_serving",
        reasons=["%s is disabled" % FMRI],
        boot_service={"name": FMRI, "state": "disabled"})]


def test_a_mirror_that_is_not_configured(host):
    code, status = status_json(host, "d10")
    assert code == NOT_SERVING
    assert status == {"format": 2, "left_out": [], "targets": [{
        "target": "d10", "configured": False, "serving_from_ram": False,
        "verdict": "not_serving",
        "reasons": ["%s does not exist" % FMRI]}]}
    result = host.svmram("status", "d10")
    assert (result.returncode, result.stdout) == (
        NOT_SERVING, "d10: NOT serving reads from RAM: %s does not exist\n"
        % FMRI)
    assert status_json(host) == (0, {"format": 2, "left_out": [],
                                     "targets": []})


def test_an_unfinished_record_is_reported_not_configured(host):
    # What a setup killed between `svccfg add` and `addpg` leaves behind.
    assert host.cmd("svccfg", "-s", "svc:/system/svmram", "add",
                    "d10").returncode == 0
    code, status = status_json(host)
    assert code == NOT_SERVING
    assert status == {"format": 2, "left_out": [], "targets": [{
        "target": "d10", "configured": False, "serving_from_ram": False,
        "verdict": "not_serving",
        "reasons": ["%s does not hold a complete svmram record ('mirror')"
                    % FMRI]}]}


# --- lost or degraded disk redundancy ------------------------------------

ONLY_COPY_ADVICE = ("d10: do not reboot or power off; bring a disk "
                    "submirror back now: %s.")
ONLINE = "metaonline d10 %s"
REPLACE = "metareplace d10 %s NEWDISK, or metareplace -e d10 %s once it is " \
          "repaired"
DETACHED_FIX = "metattach d10 d12 (unless it was split off on purpose)"


def only_copy_line(why):
    return ("d10: DATA AT RISK: the ramdisk svmram_d10 holds the only "
            "current copy of d10; no disk submirror is current (%s).  A "
            "power loss or reboot now loses data." % why)


def assert_only_copy_in_ram(host, why, advice, submirrors):
    code, status = status_json(host, "d10")
    assert code == ONLY_COPY_IN_RAM
    assert status["targets"] == [dict(
        SERVING, verdict="only_copy_in_ram", copies=submirrors,
        disk_redundancy={"state": "lost", "current": [],
                         "reasons": why.split("; "),
                         "fixes": advice.split("; ")})]
    result = host.svmram("status")
    assert (result.returncode, result.stderr) == (ONLY_COPY_IN_RAM, "")
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        only_copy_line(why), ONLY_COPY_ADVICE % advice,
        "d10: serving reads from RAM (d13 in slot 0, read option first)"]


def test_both_disks_offline_the_ramdisk_holds_the_only_copy(set_up):
    host = set_up
    for disk in ("d11", "d12"):
        assert host.cmd("metaoffline", "d10", disk).returncode == 0
    assert_only_copy_in_ram(
        host, "d11 is offline; d12 is offline",
        "%s; %s" % (ONLINE % "d11", ONLINE % "d12"),
        SUBMIRRORS[:1] + [dict(s, state="Needs maintenance")
                          for s in SUBMIRRORS[1:]])


def test_one_disk_offline_one_detached_the_ramdisk_holds_the_only_copy(
        set_up):
    host = set_up
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    assert host.cmd("metaoffline", "d10", "d11").returncode == 0
    assert_only_copy_in_ram(
        host, "d11 is offline; d12 is not in d10",
        "%s; %s" % (ONLINE % "d11", DETACHED_FIX),
        [SUBMIRRORS[0], dict(SUBMIRRORS[1], state="Needs maintenance")])


def test_one_disk_offline_is_degraded(set_up):
    host = set_up
    assert host.cmd("metaoffline", "d10", "d12").returncode == 0
    code, status = status_json(host)
    assert code == DEGRADED
    assert status["targets"][0]["verdict"] == "degraded"
    assert status["targets"][0]["disk_redundancy"] == {
        "state": "degraded", "current": ["d11"],
        "reasons": ["d12 is offline"], "fixes": [ONLINE % "d12"]}
    lines = host.svmram("status").stdout.splitlines()
    assert lines[:3] == [
        "d10: DEGRADED: only 1 of 2 disk submirrors holds current data "
        "(d12 is offline).",
        "d10: %s." % (ONLINE % "d12"),
        "d10: serving reads from RAM (d13 in slot 0, read option first)"]


def test_a_recorded_disk_no_longer_in_the_mirror_is_degraded(set_up):
    host = set_up
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    code, status = status_json(host)
    assert code == DEGRADED
    assert status["targets"] == [dict(
        SERVING, verdict="degraded", copies=SUBMIRRORS[:2],
        disk_redundancy={"state": "degraded", "current": ["d11"],
                         "reasons": ["d12 is not in d10"],
                         "fixes": [DETACHED_FIX]})]
    result = host.svmram("status", "d10")
    assert result.returncode == DEGRADED
    assert result.stdout.splitlines()[:2] == [
        "d10: DEGRADED: only 1 of 2 disk submirrors holds current data "
        "(d12 is not in d10).",
        "d10: %s." % DETACHED_FIX]


def erred(report, slot, disk, component):
    """`metastat d10` as SVM prints it once `component` of `disk` erred."""
    report = report.replace(
        "    Submirror %d: %s\n      State: Okay         \n" % (slot, disk),
        "    Submirror %d: %s\n      State: Needs maintenance \n" % (
            slot, disk))
    report = report.replace(
        "%s: Submirror of d10\n    State: Okay         \n" % disk,
        "%s: Submirror of d10\n    State: Needs maintenance \n"
        "    Invoke: metareplace d10 %s <new device>\n" % (disk, component))
    return report.replace(
        "\t%s          0     No            Okay   Yes \n" % component,
        "\t%s          0     No     Maintenance   Yes \n" % component)


@pytest.mark.emulator_only("injects metastat output")
def test_both_disks_erred_the_ramdisk_holds_the_only_copy(set_up):
    host = set_up
    report = host.cmd("metastat", "d10").stdout
    report = erred(erred(report, 1, "d11", "c0d1s0"), 2, "d12", "c1d0s0")
    assert report.count("Maintenance ") == 2
    # Each status reads `metastat -p`, then `metastat d10`; it runs twice.
    for nth in ("2", "4"):
        assert host.sim("faults", "add", "metastat", "--nth", nth, "--exit",
                        "0", "--stdout", report).returncode == 0
    assert_only_copy_in_ram(
        host, "d11 needs maintenance; d12 needs maintenance",
        "%s; %s" % (REPLACE % ("c0d1s0", "c0d1s0"),
                    REPLACE % ("c1d0s0", "c1d0s0")),
        SUBMIRRORS[:1] + [dict(s, state="Needs maintenance")
                          for s in SUBMIRRORS[1:]])


@pytest.mark.emulator_only("injects metastat output")
def test_a_submirror_state_status_does_not_know_is_never_okay(set_up):
    host = set_up
    report = host.cmd("metastat", "d10").stdout.replace(
        "d12: Submirror of d10\n    State: Okay         \n",
        "d12: Submirror of d10\n    State: Offline      \n")
    assert host.sim("faults", "add", "metastat", "--nth", "2", "--exit",
                    "0", "--stdout", report).returncode == 0
    result = host.svmram("status", "d10")
    assert result.returncode not in (0, NOT_SERVING)
    assert result.stdout == ""
    assert "Offline" in result.stderr


def _disk(number):
    return {"nhead": 15, "nsect": 63, "slices": {"0": 465885},
            "devid": "id1,cmdk@AQEMU_HARDDISK=QM0000%d" % number}


TWO_MIRRORS_HOST = {
    "nodename": "myhost", "physmem": 4 * 1024 ** 3,
    "disks": {
        "c0d0": {"nhead": 16, "nsect": 63, "slices": {"0": 8388608, "7": 65520},
                 "devid": "id1,cmdk@AQEMU_HARDDISK=QM00001"},
        "c0d1": _disk(2), "c1d0": _disk(3), "c2d0": _disk(4),
        "c3d0": _disk(5)},
    "mounts": {"c0d0s0": "/"},
    "replicas": [{"slice": "c0d0s7", "count": 3}],
    "data": {"c0d1s0": 1, "c1d0s0": 1, "c2d0s0": 2, "c3d0s0": 2},
    "metadevices": ["d11 1 1 c0d1s0", "d12 1 1 c1d0s0", "d10 -m d11 d12",
                    "d21 1 1 c2d0s0", "d22 1 1 c3d0s0", "d20 -m d21 d22"],
    "vfstab": {},
}


@pytest.mark.emulator_only("builds a host with two mirrors")
def test_the_worst_mirror_comes_first_and_sets_the_exit_status(tmp_path):
    path = tmp_path / "two.json"
    path.write_text(json.dumps(TWO_MIRRORS_HOST))
    host = EmulatedHost(tmp_path / "host", host_file=str(path))
    for mirror in ("d10", "d20"):
        assert host.svmram("setup", "-y", mirror).returncode == 0
    assert host.cmd("metaoffline", "d20", "d21").returncode == 0
    result = host.svmram("status")
    assert result.returncode == DEGRADED
    assert [line for line in result.stdout.splitlines()
            if line.startswith("d")] == [
        "d20: DEGRADED: only 1 of 2 disk submirrors holds current data "
        "(d21 is offline).",
        "d20: metaonline d20 d21.",
        "d20: serving reads from RAM (d23 in slot 0, read option first)",
        "d10: serving reads from RAM (d13 in slot 0, read option first)"]
    assert host.cmd("metaoffline", "d10", "d11").returncode == 0
    assert host.cmd("metaoffline", "d10", "d12").returncode == 0
    code, status = status_json(host)
    assert code == ONLY_COPY_IN_RAM
    assert [(m["target"], m["verdict"]) for m in status["targets"]] == [
        ("d10", "only_copy_in_ram"), ("d20", "degraded")]


def test_an_offline_ram_submirror_is_not_serving(set_up):
    host = set_up
    assert host.cmd("metaoffline", "d10", "d13").returncode == 0
    result = host.svmram("status", "d10")
    assert result.returncode == NOT_SERVING
    assert result.stdout.splitlines()[:2] == [
        "d10: NOT serving reads from RAM: d13 is offline",
        "    submirrors: d13 Needs maintenance (RAM), d11 Okay, d12 Okay"]


@pytest.mark.emulator_only("injects metastat output")
@pytest.mark.parametrize("state", ["Unavailable", "Last Erred",
                                   "Resync cancelled"])
def test_disks_in_any_state_but_okay_are_not_current(set_up, state):
    host = set_up
    report = host.cmd("metastat", "d10").stdout
    for slot, disk in ((1, "d11"), (2, "d12")):
        report = report.replace(
            "    Submirror %d: %s\n      State: Okay         \n" % (slot, disk),
            "    Submirror %d: %s\n      State: %-12s \n" % (slot, disk, state))
    assert report.count(state) == 2
    assert host.sim("faults", "add", "metastat", "--nth", "2", "--exit", "0",
                    "--stdout", report).returncode == 0
    code, status = status_json(host, "d10")
    assert code == ONLY_COPY_IN_RAM
    assert status["targets"][0]["disk_redundancy"]["reasons"] == [
        "d11 is %s" % state.lower(), "d12 is %s" % state.lower()]


PROMETHEUS_HELP = (
    ("svmram_serving_from_ram",
     "1 when the target serves its reads from RAM, else 0."),
    ("svmram_ram_copy_sync_ratio",
     "How much of the RAM copy holds current data, 0 to 1: 1 once it is "
     "current, the copy's progress while it is filled, 0 without one."),
    ("svmram_ram_copy_sync_bytes_per_second",
     "The rate of the copy into the RAM copy while it runs, as the system "
     "reports it (md/sync_speed); no sample when none runs or the system "
     "reports no rate (SVM)."),
    ("svmram_ram_copy_sync_seconds_left",
     "The seconds the running copy into the RAM copy still needs at that "
     "rate; no sample when none runs or no rate is known."),
    ("svmram_disks_current",
     "The recorded disk copies known to hold current data (0 when their "
     "state cannot be read)."),
    ("svmram_disks", "The disk copies setup recorded."),
    ("svmram_scrub_ratio",
     "How far the system's own check of every copy (a scrub: a check or "
     "repair in md/sync_action) has read the target while it runs, 0 to "
     "1; no sample when none runs, its progress is not shown or the "
     "system has no scrub (SVM)."),
)


UP_HEADER = [
    "# HELP svmram_build_info The version of svmram that wrote these "
    "metrics; always 1.",
    "# TYPE svmram_build_info gauge",
    'svmram_build_info{version="0.1.0"} 1',
    "# HELP svmram_up 1 when svmram status read everything it needs; 0 "
    "when it could not (its error is on stderr, its exit status not 0), and "
    "no target follows.",
    "# TYPE svmram_up gauge", "svmram_up 1"]


def prometheus(serving, ratio, current, disks, target="d10"):
    """SVM's metrics: no sample of the copy's rate and time left (None),
    which metastat does not give, nor of a scrub, which SVM has not."""
    lines = list(UP_HEADER)
    for (name, text), value in zip(PROMETHEUS_HELP,
                                   (serving, ratio, None, None, current,
                                    disks, None)):
        lines += ["# HELP %s %s" % (name, text), "# TYPE %s gauge" % name]
        if value is not None:
            lines.append('%s{target="%s",device="%s"} %s' % (
                name, target, target, value))
    return "\n".join(lines) + "\n"


def test_prometheus_metrics_after_setup_a_reboot_and_a_disk_resync(set_up):
    """status --prometheus (node_exporter's textfile collector): the
    same metrics as on md, exit 0 whatever they say."""
    host = set_up
    result = host.svmram("status", "--prometheus")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == prometheus(1, 1, 2, 2)
    assert host.sim("freeze").returncode == 0
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    assert host.cmd("metattach", "d10", "d12").returncode == 0
    assert host.sim("tick", "3").returncode == 0
    result = host.svmram("status", "--prometheus", "d10")
    assert (result.returncode, result.stderr) == (0, "")
    # The RAM submirror stays current while d12 resyncs.
    assert result.stdout == prometheus(1, 1, 1, 2)


def test_prometheus_after_a_reboot(set_up):
    host = set_up
    assert host.reboot().returncode == 0
    result = host.svmram("status", "--prometheus")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == prometheus(0, 0, 2, 2)
