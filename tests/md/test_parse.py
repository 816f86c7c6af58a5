# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md parsers on real outputs (fixtures/, captured on Debian's 6.1
kernel by tests/vm; fixtures/README.md names each source) and on the
formats the kernel and mdadm sources print; anything else is refused."""

import pytest

from svmram.errors import ParseError
from svmram.md import parse

from faketree import fixture


# --- sysfs attributes --------------------------------------------------------

@pytest.mark.parametrize("function, text, value", [
    (parse.level, "raid1\n", "raid1"),
    (parse.level, "", ""),
    (parse.level, "1\n", "raid1"),
    (parse.raid_disks, "", (0, None)),
    (parse.raid_disks, "3\n", (3, None)),
    (parse.raid_disks, "2 (3)\n", (2, 3)),
    (parse.array_state, "read-auto\n", "read-auto"),
    (parse.array_state, "inactive\n", "inactive"),
    (parse.sync_action, "recover\n", "recover"),
    (parse.sync_completed, "none\n", None),
    (parse.sync_rate, "none\n", None),
    (parse.sync_rate, "1843200\n", 1843200),
    (parse.sync_completed, "delayed\n", "delayed"),
    (parse.sync_completed, "130560 / 261120\n", (130560, 261120)),
    (parse.metadata_version, "1.2\n", "1.2"),
    (parse.metadata_version, "external:imsm\n", "external:imsm"),
    (parse.member_state, "in_sync,write_mostly\n",
     {"in_sync", "write_mostly"}),
    (parse.member_state, "\n", frozenset()),
    (parse.member_state, "faulty,write_error\n", {"faulty", "write_error"}),
    (parse.slot, "none\n", None),
    (parse.slot, "2\n", 2),
    (parse.slot, "journal\n", "journal"),
    (parse.bitmap_location, "+8\n", "+8"),
    (parse.bitmap_location, "none\n", "none"),
    (parse.bitmap_location, "file\n", "file"),
    # md.c bitmap_type_show: "none", then each kind, the array's bracketed
    (parse.bitmap_type, "none [bitmap] llbitmap \n", "bitmap"),
    (parse.bitmap_type, "none bitmap [llbitmap] \n", "llbitmap"),
    (parse.bitmap_type, "[none] bitmap llbitmap \n", "none"),
    (parse.kernel_release, "6.1.0-56-cloud-amd64\n",
     (6, 1, 0, "6.1.0-56-cloud-amd64")),
    (parse.kernel_release, "6.10.14-200.fc40.x86_64\n",
     (6, 10, 14, "6.10.14-200.fc40.x86_64")),
])
def test_sysfs_values(function, text, value):
    assert function(text) == value


def test_sysfs_values_with_a_name():
    assert parse.sync_speed("1000 (system)\n", "x") == (1000, False)
    assert parse.sync_speed("2000000 (local)\n", "x") == (2000000, True)
    assert parse.none_or_uint("none\n", "x") is None
    assert parse.none_or_uint("260992\n", "x") == 260992
    assert parse.uint_attr("262144\n", "brd rd_size") == 262144


@pytest.mark.parametrize("function, text", [
    (parse.level, "raid7\n"), (parse.level, "raid1"), (parse.level, "\n"),
    (parse.raid_disks, "3 (x)\n"), (parse.raid_disks, "-1\n"),
    (parse.array_state, "clean \n"), (parse.array_state, "clean\nclean\n"),
    (parse.sync_action, "rebuild\n"),
    (parse.sync_rate, "12 K/sec\n"), (parse.sync_rate, "-1\n"),
    (parse.sync_completed, "3 / 2\n"), (parse.sync_completed, "1/2\n"),
    (parse.metadata_version, "1.x\n"),
    (parse.member_state, "in_sync,,spare\n"),
    (parse.member_state, "in_sync,in_sync\n"),
    (parse.member_state, "in-sync\n"),
    (parse.slot, "-1\n"), (parse.slot, "01\n"),
    (parse.bitmap_location, "8\n"), (parse.bitmap_location, "+\n"),
    (parse.bitmap_type, "none bitmap llbitmap\n"),
    (parse.bitmap_type, "[bitmap] [llbitmap]\n"), (parse.bitmap_type, "\n"),
    (parse.bitmap_type, "bitmap [llbitmap]\n"),
    (parse.kernel_release, "Linux\n"),
])
def test_unknown_sysfs_values_are_refused(function, text):
    with pytest.raises(ParseError, match="cannot parse"):
        function(text)


def test_meminfo():
    values = parse.meminfo("MemTotal:        995344 kB\nMemFree:   1 kB\n"
                           "MemAvailable:   900000 kB\nActive(anon):  2 kB\n"
                           "HugePages_Total:       0\n")
    assert values["MemTotal"] == 995344 and values["Active(anon)"] == 2
    for bad in ("MemTotal: 1 kB\n", "MemTotal: 1 kB\nMemAvailable: x kB\n",
                "MemTotal: 1 kB\nMemTotal: 1 kB\nMemAvailable: 1 kB\n"):
        with pytest.raises(ParseError):
            parse.meminfo(bad)


# --- /proc/mdstat ------------------------------------------------------------

def test_mdstat_of_the_new_array():
    got = parse.mdstat(fixture("vm-after-setup-new.mdstat.txt"))
    md0 = got["md0"]
    assert md0["active"] and md0["level"] == "raid1" and md0["bitmap"]
    assert md0["members"] == {"vdb": {"number": 2, "flags": "W"},
                              "vda": {"number": 1, "flags": "W"},
                              "ram0": {"number": 0, "flags": ""}}
    assert md0["raid"] == (3, 3, "UUU") and md0["super"] == "1.2"


def test_mdstat_of_an_inactive_array():
    md0 = parse.mdstat(fixture("vm-inactive.mdstat.txt"))["md0"]
    assert not md0["active"] and md0["level"] is None
    assert {f["flags"] for f in md0["members"].values()} == {"S"}


def test_mdstat_without_arrays():
    assert parse.mdstat(fixture("vm-before.mdstat.txt")) == {}


def test_mdstat_lines_from_the_research():
    """research/linux-md.md 2b: the degraded array after the last-resort
    --run, and a recovery line."""
    text = ("Personalities : [raid1] \n"
            "md0 : active (auto-read-only) raid1 vdb[2](W) vda[1](W)\n"
            "      261120 blocks super 1.2 [3/2] [_UU]\n"
            "      [=========>...........]  recovery = 49.9% (130560/261120)"
            " finish=0.3min speed=12345K/sec\n"
            "      bitmap: 0/1 pages [0KB], 65536KB chunk\n\n"
            "unused devices: <none>\n")
    md0 = parse.mdstat(text)["md0"]
    assert md0["readonly"] == "auto-read-only"
    assert md0["raid"] == (3, 2, "_UU")
    assert md0["progress"] == ("recovery", 130560, 261120)


@pytest.mark.parametrize("text", [
    "", "Personalities : [raid1] \nunused devices: <none>",
    "Personalities : [raid1] \nmd0 : active raid1 vda[0]\n",
    "Personalities : [raid1] \nmd0 : active raid1 vda[0]\n"
    "      100 blocks super 1.2 [2/2] [U_]\n      \nunused devices: <none>\n",
    "Personalities : [raid1] \nmd0 : active vda[0]\n"
    "      100 blocks super 1.2\n      \nunused devices: <none>\n",
    "Personalities : [raid1] \nunused devices: <none>\nmd0 : active\n",
    "Personalities : [raid1] \nmd0 : resyncing raid1 vda[0]\n"])
def test_unknown_mdstat_is_refused(text):
    with pytest.raises(ParseError):
        parse.mdstat(text)
