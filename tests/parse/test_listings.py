# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metaparam, metadb and ramdiskadm listings."""

import pytest

from svmram.errors import ParseError
from svmram.svm import listings

FLAG_TEMPLATE = "RSFDMaWm  pc luo tBr"      # metadb.c MDDB_FLAGS_STRING


def metadb_row(flags, first, count, device):
    """A row printed the way metadb.c prints it."""
    field = "".join(c if c != " " and c in flags else " "
                    for c in FLAG_TEMPLATE)
    if first is None:
        numbers = "\t%7.7s\t\t%7.7s\t" % ("unknown", "unknown")
    else:
        numbers = "\t%d\t\t%d\t" % (first, count)
    return field + numbers + "\t%s\n" % device


METADB_HEADER = "\t%5.5s\t\t%9.9s\t%11.11s\n" % ("flags", "first blk",
                                                 "block count")


@pytest.mark.parametrize("name, read_option", [
    ("article_metaparam_roundrobin.txt", "roundrobin"),
    ("article_metaparam_first.txt", "first"),
])
def test_metaparam_article(fixture_text, name, read_option):
    params = listings.parse_metaparam(fixture_text(name))
    assert (params.name, params.pass_num, params.read_option,
            params.write_option) == ("d10", 1, read_option, "parallel")
    assert params.to_json() == {
        "name": "d10", "pass": 1, "read_option": read_option,
        "write_option": "parallel", "resync_option": None}


def test_metaparam_all_options_and_multi_owner():
    params = listings.parse_metaparam(
        "blue/d20: Mirror current parameters are:\n    Pass: 0\n"
        "    Read option: geometric (-g)\n    Write option: serial (-S)\n"
        "    Resync option: optimized resync\n")
    assert (params.name, params.pass_num, params.read_option,
            params.write_option, params.resync_option) == (
        "blue/d20", 0, "geometric", "serial", "optimized resync")


def test_metadb_exact_format_with_unknown_and_legend():
    text = (METADB_HEADER
            + metadb_row("ampluo", 16, 8192, "/dev/dsk/c0d0s7")
            + metadb_row("apluo", 8208, 8192, "/dev/dsk/c0d0s7")
            + metadb_row("FM", None, None, "/dev/dsk/c1d0s7")
            + " r - replica does not have device relocation information\n"
            + " o - replica active prior to last mddb configuration change\n"
            + " c - replica's location was in /etc/lvm/mddb.cf\n"
            + " B - tagged data associated with the replica is not valid\n")
    assert text.split("\n")[1] == ("     a m  p  luo    "
                                   "\t16\t\t8192\t\t/dev/dsk/c0d0s7")
    replicas = listings.parse_metadb(text)
    assert [r.to_json() for r in replicas] == [
        {"flags": "ampluo", "first_block": 16, "block_count": 8192,
         "device": "c0d0s7"},
        {"flags": "apluo", "first_block": 8208, "block_count": 8192,
         "device": "c0d0s7"},
        {"flags": "FM", "first_block": None, "block_count": None,
         "device": "c1d0s7"}]


@pytest.mark.parametrize("name", ["solaris11_metadb.txt",
                                  "solaris11_metadb_i.txt"])
def test_metadb_solaris11(fixture_text, name):
    replicas = listings.parse_metadb(fixture_text(name))
    assert [(r.flags, r.first_block, r.block_count, r.device)
            for r in replicas] == [("au", 16, 8192, "c1t0d0s6"),
                                   ("au", 8208, 8192, "c1t0d0s6"),
                                   ("au", 16400, 8192, "c1t0d0s6")]


def test_metadb_without_replicas_prints_nothing():
    assert listings.parse_metadb("") == []


def test_ramdiskadm_man_page(fixture_text):
    ramdisks = listings.parse_ramdiskadm(fixture_text(
        "illumos_man_ramdiskadm.txt"))
    assert [r.to_json() for r in ramdisks] == [
        {"name": "miniroot", "device": "/dev/ramdisk/miniroot",
         "size_bytes": 134217728, "removable": False},
        {"name": "certfs", "device": "/dev/ramdisk/certfs",
         "size_bytes": 1048576, "removable": False},
        {"name": "mydisk", "device": "/dev/ramdisk/mydisk",
         "size_bytes": 2097152, "removable": True}]


def test_ramdiskadm_exact_format():
    text = ("%-*.*s %20s  %-10s\n" % (45, 45, "Block Device", "Size",
                                      "Removable")
            + "%-*.*s %20d    %s\n" % (45, 45, "/dev/ramdisk/svmram0",
                                       2147483648, "Yes"))
    assert text.startswith("Block Device" + " " * 34)
    (ramdisk,) = listings.parse_ramdiskadm(text)
    assert (ramdisk.name, ramdisk.device, ramdisk.size_bytes,
            ramdisk.removable) == ("svmram0", "/dev/ramdisk/svmram0",
                                   2147483648, True)


def test_no_ramdisks_prints_nothing():
    assert listings.parse_ramdiskadm("") == []


def test_disksuite_lower_case_metaparam_header_is_accepted():
    """DiskSuite prints 'dN: mirror current parameters are:' (issue 9)."""
    from svmram.errors import ParseError
    text = ("d10: mirror current parameters are:\n"
            "    Pass: 1\n"
            "    Read option: first (-r)\n"
            "    Write option: parallel (default)\n")
    params = listings.parse_metaparam(text)
    assert (params.name, params.pass_num, params.read_option) == (
        "d10", 1, "first")
    with pytest.raises(ParseError):
        listings.parse_metaparam(text.replace("mirror current", "mirrors"))


# --- fuser (usr/src/cmd/fuser/fuser.c: pids on stdout, the rest on stderr)

@pytest.mark.parametrize("stdout, stderr, holders", [
    ("", "/dev/md/rdsk/d10: \n", ()),
    ("    1001", "/dev/md/rdsk/d10: o\n", ("process 1001",)),
    ("    1234    5678", "/dev/md/rdsk/d10: oo\n",
     ("process 1234", "process 5678")),
    ("    1234", "/dev/md/rdsk/d10: co(root)\n", ("process 1234",)),
    ("", "/dev/md/rdsk/d10:  [zfs,dev=(85,10),dev_path=/pseudo/md@0:10,raw]"
     "\n", ("kernel module zfs",)),
    ("     999", "/dev/md/rdsk/d10: o [swap]\n",
     ("process 999", "kernel module swap")),
])
def test_fuser_names_processes_and_kernel_users(stdout, stderr, holders):
    assert listings.parse_fuser("/dev/md/rdsk/d10", stdout, stderr) == holders


@pytest.mark.parametrize("stdout, stderr", [
    ("1001x", "/dev/md/rdsk/d10: o\n"),
    ("", "/dev/md/rdsk/d11: \n"),
    ("", ""),
    ("", "/dev/md/rdsk/d10: o\n/dev/md/rdsk/d10: o\n"),
    ("    1001", "/dev/md/rdsk/d10: zz\n"),
])
def test_fuser_output_it_does_not_know_is_refused(stdout, stderr):
    with pytest.raises(ParseError):
        listings.parse_fuser("/dev/md/rdsk/d10", stdout, stderr)


def test_mount_point_is_the_second_field_of_the_units_mnttab_line():
    mnttab = ("/dev/dsk/c0t0d0s0\t/\tufs\trw,intr,largefiles\t1700000000\n"
              "/dev/md/dsk/d100\t/var/tmp/svmram-selftest/mnt\tufs\t"
              "rw\t1700000001\n"
              "/dev/md/dsk/d10\t/data\tufs\trw\t1700000002\n")
    assert listings.mount_point(mnttab, "d10") == "/data"
    assert listings.mount_point(mnttab, "d100") == "/var/tmp/svmram-selftest/mnt"
    assert listings.mount_point(mnttab, "d1") is None     # not a prefix match
    assert listings.mount_point("", "d10") is None
