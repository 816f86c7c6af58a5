"""svmram status: the --json schema of docs/status-json.md with its values,
the text lines, and the exit status (0 serving, 4 not), after setup, after
a reboot, during a resync, with the service disabled, and for a mirror
that is not configured."""

import json

import pytest

from hosts import EmulatedHost, clone

FMRI = "svc:/system/svmram:d10"
NOT_SERVING = 4

SUBMIRRORS = [
    {"slot": 0, "name": "d13", "state": "Okay", "ram": True},
    {"slot": 1, "name": "d11", "state": "Okay", "ram": False},
    {"slot": 2, "name": "d12", "state": "Okay", "ram": False},
]

SERVING = {
    "mirror": "d10",
    "configured": True,
    "serving_from_ram": True,
    "reasons": [],
    "ram_submirror": "d13",
    "method": "rotate",
    "read_option": "first",
    "size_blocks": 465885,
    "resync_percent": None,
    "submirrors": SUBMIRRORS,
    "ramdisk": {"name": "svmram_d10", "present": True,
                "size_bytes": 228 * 1024 * 1024, "device": "250,1",
                "recorded_device": "250,1", "device_matches": True},
    "service": {"fmri": FMRI, "state": "online"},
}


@pytest.fixture(scope="module")
def set_up_template(tmp_path_factory):
    host = EmulatedHost(tmp_path_factory.mktemp("status") / "host")
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    return host


@pytest.fixture
def set_up(set_up_template, tmp_path):
    return clone(set_up_template, tmp_path / "host")


def status_json(host, *args):
    result = host.svmram("status", "--json", *args)
    assert result.stderr == ""
    return result.returncode, json.loads(result.stdout)


def test_json_after_setup(set_up):
    for args in ((), ("d10",)):
        assert status_json(set_up, *args) == (
            0, {"format": 1, "mirrors": [SERVING]})


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
    assert status == {"format": 1, "mirrors": [dict(
        SERVING, serving_from_ram=False,
        reasons=["d13 needs maintenance",
                 "the ramdisk svmram_d10 does not exist"],
        submirrors=[failed] + SUBMIRRORS[1:],
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
    assert code == 0
    resyncing = dict(SUBMIRRORS[2], state="Resyncing")
    assert status["mirrors"] == [dict(
        SERVING, resync_percent=30,
        submirrors=SUBMIRRORS[:2] + [resyncing])]
    lines = host.svmram("status").stdout.splitlines()
    assert lines[1:3] == [
        "    submirrors: d13 Okay (RAM), d11 Okay, d12 Resyncing",
        "    resync:     30 % done"]


def test_a_disabled_service_is_not_serving(set_up):
    host = set_up
    assert host.cmd("svcadm", "disable", FMRI).returncode == 0
    code, status = status_json(host)
    assert code == NOT_SERVING
    assert status["mirrors"] == [dict(
        SERVING, serving_from_ram=False,
        reasons=["%s is disabled" % FMRI],
        service={"fmri": FMRI, "state": "disabled"})]


def test_a_mirror_that_is_not_configured(host):
    code, status = status_json(host, "d10")
    assert code == NOT_SERVING
    assert status == {"format": 1, "mirrors": [{
        "mirror": "d10", "configured": False, "serving_from_ram": False,
        "reasons": ["%s does not exist" % FMRI]}]}
    result = host.svmram("status", "d10")
    assert (result.returncode, result.stdout) == (
        NOT_SERVING, "d10: NOT serving reads from RAM: %s does not exist\n"
        % FMRI)
    assert status_json(host) == (0, {"format": 1, "mirrors": []})


def test_an_unfinished_record_is_reported_not_configured(host):
    # What a setup killed between `svccfg add` and `addpg` leaves behind.
    assert host.cmd("svccfg", "-s", "svc:/system/svmram", "add",
                    "d10").returncode == 0
    code, status = status_json(host)
    assert code == NOT_SERVING
    assert status == {"format": 1, "mirrors": [{
        "mirror": "d10", "configured": False, "serving_from_ram": False,
        "reasons": ["%s does not hold a complete svmram record ('mirror')"
                    % FMRI]}]}
