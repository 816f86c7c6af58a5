# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status for scripts and monitoring: -H and -o fields, -p exact
numbers, -x problems only, -q the exit status alone, -j, the Nagios mode
(--nagios: one line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN) in each
state a mirror goes through, and the host read once however many mirrors
there are (the same processes for one mirror and for three)."""

import json

import pytest

from hosts import EmulatedHost, LockHolder, clone

FMRI = "svc:/system/svmram:d10"
USAGE, NOT_SERVING, DEGRADED, ONLY_COPY_IN_RAM = 2, 4, 5, 6
NAGIOS_OK, NAGIOS_WARNING, NAGIOS_CRITICAL, NAGIOS_UNKNOWN = 0, 1, 2, 3
FIELDS = ("mirror,verdict,health,serving,ram,ramstate,resync,rate,left,"
          "ramdisk,ramdiskstate,size,disks,current,redundancy,service,unit,"
          "method")
SIZE_BYTES = 465885 * 512


def _disk(number):
    return {"nhead": 15, "nsect": 63, "slices": {"0": 465885},
            "devid": "id1,cmdk@AQEMU_HARDDISK=QM000%02d" % number}


# The article's host with two more mirrors like d10: d20 and d30.
THREE_MIRRORS_HOST = {
    "nodename": "myhost", "physmem": 4 * 1024 ** 3,
    "disks": dict({"c0d0": {"nhead": 16, "nsect": 63,
                            "slices": {"0": 8388608, "7": 65520},
                            "devid": "id1,cmdk@AQEMU_HARDDISK=QM00001"}},
                  **{"c%dd0" % n: _disk(n + 2) for n in range(1, 7)}),
    "mounts": {"c0d0s0": "/"},
    "replicas": [{"slice": "c0d0s7", "count": 3}],
    "data": {"c1d0s0": 1, "c2d0s0": 1, "c3d0s0": 2, "c4d0s0": 2,
             "c5d0s0": 3, "c6d0s0": 3},
    "metadevices": ["d11 1 1 c1d0s0", "d12 1 1 c2d0s0", "d10 -m d11 d12",
                    "d21 1 1 c3d0s0", "d22 1 1 c4d0s0", "d20 -m d21 d22",
                    "d31 1 1 c5d0s0", "d32 1 1 c6d0s0", "d30 -m d31 d32"],
    "vfstab": {},
}


@pytest.fixture(scope="module")
def three_template(tmp_path_factory):
    directory = tmp_path_factory.mktemp("three")
    path = directory / "three.json"
    path.write_text(json.dumps(THREE_MIRRORS_HOST))
    host = EmulatedHost(directory / "host", host_file=str(path))
    for mirror in ("d10", "d20", "d30"):
        result = host.svmram("setup", "-y", mirror)
        assert result.returncode == 0, result.stderr
    return host


@pytest.fixture
def one(base_hosts, tmp_path):
    """A copy of the session's article host set up by `svmram setup -y
    d10` (which exited 0)."""
    return base_hosts.copy(tmp_path / "host", "article", None,
                           [("svmram", "setup", "-y", "d10")])


@pytest.fixture
def three(three_template, tmp_path):
    return clone(three_template, tmp_path / "three")


def run(host, *args):
    result = host.svmram("status", *args)
    assert "Traceback" not in result.stderr
    return result.returncode, result.stdout.splitlines()


def nagios(host, *args):
    result = host.svmram("status", "--nagios", *args)
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1       # one line, always
    return result.returncode, result.stdout.rstrip("\n")


def restore_resyncing(host):
    """The state a boot leaves once `svmram restore` has started the copy
    into RAM: d13 resyncing, 30 % done."""
    assert host.reboot().returncode == 0
    assert host.sim("freeze").returncode == 0
    assert host.svmram("restore", "d10").returncode == 0
    assert host.sim("tick", "3").returncode == 0


# --- -H, -o, -p ------------------------------------------------------------

def test_scripted_fields_after_setup(one):
    assert run(one, "-H") == (0, [
        "d10\tserving\tOK\td13\tOkay\t-\tsvmram_d10\tonline"])
    assert run(one, "-H", "-o", FIELDS) == (0, [
        "d10\tserving\tOK\tyes\td13\tOkay\t-\t-\t-\tsvmram_d10\tpresent\t"
        "227M\t"
        "d11,d12\td11,d12\tfull\tonline\t%s\trotate" % FMRI])
    assert run(one, "-Hp", "-o", "size,mirror") == (0, [
        "%d\td10" % SIZE_BYTES])


def test_columns_with_a_header(one):
    assert run(one, "-o", "mirror,verdict,size,service") == (0, [
        "MIRROR  VERDICT  SIZE  SERVICE",
        "d10     serving  227M  online"])
    assert run(one, "-p") == (0, [
        "MIRROR  VERDICT  HEALTH  RAM  RAMSTATE  RESYNC  RAMDISK     SERVICE",
        "d10     serving  OK      d13  Okay      -       svmram_d10  online"])


@pytest.mark.emulator_only("reboots and freezes the resync")
def test_resync_percent_plain_and_exact(one):
    restore_resyncing(one)
    fields = "mirror,verdict,health,ramstate,resync,ramdiskstate"
    assert run(one, "-H", "-o", fields) == (NOT_SERVING, [
        "d10\tnot_serving\tWARNING\tResyncing\t30%\tpresent"])
    # metastat shows the percentage only: no rate, no time left on SVM
    assert run(one, "-H", "-o", "resync,rate,left") == (NOT_SERVING, [
        "30%\t-\t-"])
    assert run(one, "-Hp", "-o", fields) == (NOT_SERVING, [
        "d10\tnot_serving\tWARNING\tResyncing\t30\tpresent"])


def test_a_mirror_that_is_not_configured_has_dashes(host):
    assert run(host, "-H", "-o", FIELDS, "d10") == (NOT_SERVING, [
        "d10\tnot_serving\tCRITICAL\tno" + "\t-" * 14])


def test_unknown_fields_are_a_usage_error_naming_the_valid_ones(one):
    result = one.svmram("status", "-H", "-o", "mirror,colour,state")
    assert (result.returncode, result.stdout) == (USAGE, "")
    assert result.stderr == (
        "svmram: -o: unknown fields 'colour', 'state'; the fields are "
        "%s\n" % FIELDS)
    result = one.svmram("status", "-o", "")
    assert result.returncode == USAGE
    assert "unknown field ''" in result.stderr


@pytest.mark.parametrize("args", [
    ("--nagios", "-H"), ("--nagios", "-x"), ("--nagios", "-j"),
    ("-j", "-o", "mirror"), ("--json", "-p")])
def test_output_modes_that_do_not_go_together(one, args):
    result = one.svmram("status", *args)
    assert (result.returncode, result.stdout) == (USAGE, "")
    assert result.stderr.startswith("svmram: ")


# --- -x, -q, -j ------------------------------------------------------------

def test_problems_only_when_all_serve(one):
    assert run(one, "-x") == (0, ["d10 serves reads from RAM"])
    assert run(one, "-x", "-H") == (0, [])
    assert run(one, "-x", "-o", "mirror") == (0, ["d10 serves reads from RAM"])


def test_problems_only_with_no_mirror_set_up(host):
    assert run(host, "-x") == (0, ["No mirror is set up for reads from RAM."])


# The tests with three mirrors go to one worker (make test-suite:
# --dist loadgroup), which builds three_template once.
THREE = pytest.mark.xdist_group("three-mirrors")


@THREE
@pytest.mark.emulator_only("builds a host with three mirrors")
def test_problems_only_shows_the_mirrors_that_are_not_serving(three):
    assert run(three, "-x") == (0, ["all 3 mirrors serve reads from RAM"])
    assert three.cmd("metaoffline", "d20", "d21").returncode == 0
    code, lines = run(three, "-x")
    assert code == DEGRADED
    assert [line for line in lines if not line.startswith(" ")] == [
        "d20: DEGRADED: only 1 of 2 disk submirrors holds current data "
        "(d21 is offline).",
        "d20: metaonline d20 d21.",
        "d20: serving reads from RAM (d23 in slot 0, read option first)"]
    assert run(three, "-xH", "-o", "mirror,verdict,health,current") == (
        DEGRADED, ["d20\tdegraded\tCRITICAL\td22"])
    code, lines = run(three, "-x", "-j")
    assert code == DEGRADED
    assert [m["target"] for m in json.loads("\n".join(lines))["targets"]] \
        == ["d20"]
    assert run(three, "-H", "-o", "mirror,redundancy") == (DEGRADED, [
        "d20\tdegraded", "d10\tfull", "d30\tfull"])


def test_quiet_prints_nothing_and_keeps_the_exit_status(one):
    assert run(one, "-q") == (0, [])
    assert one.cmd("metaoffline", "d10", "d12").returncode == 0
    assert run(one, "-q") == (DEGRADED, [])
    assert run(one, "-q", "-H", "-o", "mirror") == (DEGRADED, [])
    assert run(one, "-q", "--nagios") == (NAGIOS_CRITICAL, [])


def test_j_is_json(one):
    short, long = one.svmram("status", "-j"), one.svmram("status", "--json")
    assert (short.returncode, short.stdout) == (long.returncode, long.stdout)
    assert json.loads(short.stdout)["format"] == 2


# --- --nagios ----------------------------------------------------------------

def test_nagios_serving_is_ok(one):
    assert nagios(one) == (NAGIOS_OK, "SVMRAM OK - d10 serves reads from RAM "
                           "| serving=1;;;0;1 d10_disks_current=2;;;0;2")
    assert nagios(one, "d10") == nagios(one)


@pytest.mark.emulator_only("reboots and freezes the resync")
def test_nagios_copy_into_ram_after_boot_is_a_warning(one):
    restore_resyncing(one)
    assert nagios(one) == (
        NAGIOS_WARNING, "SVMRAM WARNING - d10: copying into RAM: d13 is "
        "resyncing, 30 % done | serving=0;;;0;1 d10_disks_current=2;;;0;2 "
        "d10_resync=30%;;;0;100")
    assert one.sim("tick").returncode == 0
    assert nagios(one)[0] == NAGIOS_OK


@pytest.mark.emulator_only("boots the emulated host only part way")
def test_nagios_before_the_boot_service_ran_is_a_warning(one):
    # Early in a boot: the SVM services and svmram's instance are not up
    # yet; the RAM submirror is erred and the ramdisk gone, as after
    # every boot, and the disks wait for their optimized resync.
    assert one.reboot("--before-metasync").returncode == 0
    assert nagios(one) == (
        NAGIOS_WARNING, "SVMRAM WARNING - d10: d13 needs maintenance, the "
        "ramdisk svmram_d10 does not exist, %s is offline: svmram restore "
        "has not finished since boot, disk redundancy degraded (d11 needs "
        "maintenance, d12 needs maintenance) | serving=0;;;0;1 "
        "d10_disks_current=0;;;0;2" % FMRI)


@pytest.mark.emulator_only("reboots the emulated host")
def test_nagios_missing_ramdisk_once_the_boot_service_is_online(one):
    # The emulated boot has no start method installed here: the instance
    # is online and nothing will restore the ramdisk.
    assert one.reboot().returncode == 0
    assert nagios(one) == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: d13 needs maintenance, the "
        "ramdisk svmram_d10 does not exist | serving=0;;;0;1 "
        "d10_disks_current=2;;;0;2")


def test_nagios_only_copy_in_ram_is_critical(one):
    for disk in ("d11", "d12"):
        assert one.cmd("metaoffline", "d10", disk).returncode == 0
    assert nagios(one) == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: DATA AT RISK: the ramdisk "
        "svmram_d10 holds the only current copy (d11 is offline, d12 is "
        "offline) | serving=1;;;0;1 d10_disks_current=0;;;0;2")


def test_nagios_lost_disk_redundancy_is_critical(one):
    assert one.cmd("metaoffline", "d10", "d12").returncode == 0
    assert nagios(one) == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: disk redundancy degraded "
        "(d12 is offline) | serving=1;;;0;1 d10_disks_current=1;;;0;2")


@pytest.mark.emulator_only("freezes the resync")
def test_nagios_a_disk_resync_is_a_warning(one):
    assert one.sim("freeze").returncode == 0
    assert one.cmd("metadetach", "d10", "d12").returncode == 0
    assert one.cmd("metattach", "d10", "d12").returncode == 0
    assert one.sim("tick", "3").returncode == 0
    assert nagios(one) == (
        NAGIOS_WARNING, "SVMRAM WARNING - d10: disk redundancy degraded "
        "(d12 is resyncing) | serving=1;;;0;1 d10_disks_current=1;;;0;2 "
        "d10_resync=30%;;;0;100")


def test_nagios_maintenance_is_critical(one):
    assert one.cmd("svcadm", "mark", "maintenance", FMRI).returncode == 0
    assert nagios(one) == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: %s is in maintenance (svcs "
        "-x svmram:d10 says why) | serving=0;;;0;1 "
        "d10_disks_current=2;;;0;2" % FMRI)


def test_nagios_a_damaged_record_is_critical(one):
    # What a setup killed between `svccfg add` and `addpg` leaves behind.
    assert one.cmd("svccfg", "-s", "svc:/system/svmram", "add",
                   "d20").returncode == 0
    assert nagios(one) == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d20: svc:/system/svmram:d20 does "
        "not hold a complete svmram record ('mirror'); d10 serves reads "
        "from RAM | serving=1;;;0;2 d10_disks_current=2;;;0;2")


@pytest.mark.emulator_only("injects metastat output")
def test_nagios_output_svmram_cannot_read_is_unknown(one):
    assert one.sim("faults", "add", "metastat", "--nth", "2", "--exit", "0",
                   "--stdout", "d10: Mirror\n    Pass: 11\n").returncode == 0
    assert nagios(one) == (
        NAGIOS_UNKNOWN, "SVMRAM UNKNOWN - cannot parse metastat output: "
        "line 2: bad pass number '11': ' Pass: 11'")


def test_nagios_with_no_mirror_set_up_is_unknown(host):
    assert nagios(host) == (
        NAGIOS_UNKNOWN, "SVMRAM UNKNOWN - no mirror is set up for reads "
        "from RAM")
    assert nagios(host, "d10") == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: %s does not exist | "
        "serving=0;;;0;1" % FMRI)


@pytest.mark.emulator_only("kills setup with a wrapped command")
def test_nagios_a_setup_in_progress_is_a_warning(host):
    result = host.svmram_killed("metattach", 1, "setup", "-y", "d10")
    assert result.returncode == -9           # killed, its journal left
    # While another svmram holds the host lock, the setup is running.
    with LockHolder(host) as held:
        assert nagios(host, "d10") == (
            NAGIOS_WARNING, "SVMRAM WARNING - d10: a setup of d10 is "
            "running | serving=0;;;0;1")
    assert not held.holding
    assert nagios(host, "d10") == (
        NAGIOS_CRITICAL, "SVMRAM CRITICAL - d10: %s does not exist, a setup "
        "of d10 has not finished (svmram setup d10 finishes it) | "
        "serving=0;;;0;1" % FMRI)


# --- the host read once -------------------------------------------------------

def status_argvs(host, *args):
    host.clear_trace()
    assert host.svmram("status", *args).returncode == 0
    return host.trace(changes_only=False)


@THREE
@pytest.mark.emulator_only("builds a host with three mirrors")
def test_the_same_processes_for_one_mirror_and_for_three(one, three):
    argvs = status_argvs(three)
    assert argvs == [
        ["svcs", "-H", "-o", "inst,state", "svc:/system/svmram:*"],
        ["svcprop", "-f", "-p", "svmram", "svc:/system/svmram:*"],
        ["metastat", "-p"], ["metastat", "d10", "d20", "d30"],
        ["ramdiskadm"]]
    assert len(status_argvs(one)) == len(argvs)
    assert status_argvs(one)[3] == ["metastat", "d10"]
    for args in (("--nagios",), ("-H",), ("-j",)):
        assert len(status_argvs(three, *args)) == len(argvs)


def test_one_named_mirror_is_read_with_the_same_commands(one):
    assert status_argvs(one, "d10") == [
        ["svcs", "-H", "-o", "inst,state", FMRI],
        ["svcprop", "-f", "-p", "svmram", FMRI],
        ["metastat", "-p"], ["metastat", "d10"], ["ramdiskadm"]]


def test_nagios_a_bug_in_svmram_is_unknown_not_warning(monkeypatch, capsys):
    # Exit 1, svmram's usual status for an internal error, would read as
    # WARNING; in this mode it is UNKNOWN (run in this process).
    import argparse
    from svmram.commands import status

    def broken(target=None):
        raise TypeError("unsupported operand")
    monkeypatch.setattr(status, "read_statuses", broken)
    args = argparse.Namespace(target=None, json=False, scripted=False,
                              fields=None, parsable=False, problems=False,
                              quiet=False, nagios=True, prometheus=False)
    assert status.run(args) == NAGIOS_UNKNOWN
    assert capsys.readouterr().out == (
        "SVMRAM UNKNOWN - internal error: TypeError: unsupported operand (a "
        "bug in svmram; run 'svmram status' for the report)\n")


def test_the_service_and_record_readers_take_what_svcs_and_svcprop_print():
    from svmram.errors import ParseError
    from svmram.svm.smf import parse_records, parse_services
    # svcs.c sprint_state: "-" for an instance without a state yet, "*"
    # for one in transition; the column is padded with blanks.
    assert parse_services("d10            online\nd20 offline*\nd30 -\n\n") \
        == {"d10": "online", "d20": "offline*", "d30": "-"}
    for bad in ("d10 d11\n", "d10\n", "d10 online extra\n"):
        with pytest.raises(ParseError):
            parse_services(bad)
    # svcprop.c display_prop with -f: scf_property_to_fmri, type, values.
    assert parse_records(
        "svc:/system/svmram:d10/:properties/svmram/mirror astring d10\n"
        "svc:/system/svmram:d10/:properties/svmram/size_bytes count 2048\n"
        "svc:/system/svmram:d20/:properties/svmram/link astring a\\ b\n") \
        == {"d10": {"mirror": "d10", "size_bytes": "2048"},
            "d20": {"link": "a\\ b"}}
    for bad in ("svmram/mirror astring d10\n",
                "svc:/system/other:d10/:properties/svmram/mirror astring d\n",
                "svc:/system/svmram:d10/:properties/general/enabled boolean "
                "true\n",
                "svc:/system/svmram:d10/:properties/svmram/mirror\n"):
        with pytest.raises(ParseError):
            parse_records(bad)
