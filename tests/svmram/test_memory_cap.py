# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""sizing.MemoryCap: the ramdisk memory cap as ramdisk.c computes it, read
from kstat and ramdisk.conf (pure; issue 20 §2)."""

import pytest

from svmram.svm.driverconf import found as conf_found
from svmram.svm.driverconf import read as conf_read
from svmram.svm.driverconf import stoi
from svmram.svm.sizing import MemoryCap, conf_setting
from svmram.svm.snapshot import Snapshot

MIB = 1 << 20
KCONF = "/kernel/drv/ramdisk.conf"
SHIPPED = 'name="ramdisk" parent="pseudo" instance=1024;\n'


def snap(conf="", mtime=100.0, boot=200, ramdisks=None, availrmem=None):
    ramdisks = ramdisks or {}
    used = sum(ramdisks.values())
    return Snapshot(
        "d10", None, physmem_bytes=1024 * MIB, freemem_bytes=768 * MIB,
        availrmem_bytes=960 * MIB - used if availrmem is None else availrmem,
        boot_time=boot, ramdisks=ramdisks,
        ramdisk_confs=((KCONF, SHIPPED + conf, mtime),))


def test_driver_conf_syntax():
    assert conf_read('a="1"; b=2 c="x y";# d="3"\n')[0] == {
        "a": ("1", True), "b": ("2", False), "c": ("x y", True)}
    assert (stoi("30x"), stoi("none"), stoi("-5")) == (30, 0, 0)


@pytest.mark.parametrize("conf, percent", [
    ("", 25),
    ('percent_physmem="50";', 50),
    # Global properties are searched in file order (issue 27 h-self2):
    # the first string one wins.
    ('percent_physmem="50";\npercent_physmem="40";', 50),
    ('percent_physmem=50;\npercent_physmem="40";', 40),
    ('percent_physmem="99";', 99),
    ('percent_physmem="100";', 25),       # ignored: 100 or more
    ('percent_physmem="500";', 25),
    ("percent_physmem=50;", 25),          # an integer: not found
    ('percent_physmem="0";', 0),
    # modsysfile.c kobj_lex skips blanks before every token and
    # get_hwc_spec ends a statement only at ';' (issue 27).
    ('percent_physmem = "50";', 50),
    ('percent_physmem=\n"50";', 50),
    ('percent_physmem="50" # the comment ends at the newline\n;', 50),
    ('percent_physmem="30","60";', 30),   # a list: its first string
    ("percent_physmem=0x32;", 25),        # hex is an integer too
    ("percent_physmem;", 25),             # a boolean: integer 0
])
def test_the_percentage_the_driver_takes(conf, percent):
    cap = MemoryCap(snap(conf))
    assert (cap.percent, cap.next_percent) == (percent, percent)
    assert cap.cap == 960 * MIB * percent // 100 // 4096 * 4096


def test_the_basis_is_availrmem_now_plus_the_ramdisks():
    cap = MemoryCap(snap(ramdisks={"hog": 100 * MIB}))
    assert cap.basis == 960 * MIB and cap.used == 100 * MIB
    # Kernel memory locked since boot lowers the estimate (never raises it).
    assert MemoryCap(snap(availrmem=800 * MIB)).basis == 800 * MIB


def test_a_conf_changed_since_boot_is_not_counted_on():
    cap = MemoryCap(snap('percent_physmem="50";', mtime=300.0))
    assert cap.changed and (cap.percent, cap.next_percent) == (25, 50)
    assert "changed after the last boot" in cap.sureness()
    lower = MemoryCap(snap('percent_physmem="10";', mtime=300.0))
    assert lower.percent == 10


def test_the_percent_that_fits_and_when_none_does():
    cap = MemoryCap(snap())
    assert cap.percent_for(240 * MIB) == 25
    assert cap.percent_for(240 * MIB + 4096) == 26
    assert cap.percent_for(950 * MIB) == 99
    assert cap.percent_for(951 * MIB) is None
    # Leaving 10 % of 1 GiB free out of at most 960 MiB.
    assert cap.largest() == 960 * MIB - 1024 * MIB // 10


def test_etc_driver_drv_wins_over_kernel_drv():
    percent, where, _ = conf_setting((
        (KCONF, 'percent_physmem="30";', 1.0),
        ("/etc/driver/drv/ramdisk.conf", 'percent_physmem="40";', 1.0)))
    assert (percent, where[0]) == (40, "/etc/driver/drv/ramdisk.conf")


def test_blanks_and_newlines_around_the_equals_sign():
    """Issue 27: the old tokenizer split words on blanks, so it read
    'percent_physmem = "50";' as nothing and 'percent_physmem=\\n"50";'
    as an empty value, where the kernel reads "50" in both."""
    for text in ('percent_physmem = "50";', 'percent_physmem=\n"50";',
                 'percent_physmem\t=\t"50"\n;'):
        assert conf_read(text) == ({"percent_physmem": ("50", True)}, [])
    percent, where, note = conf_setting(((KCONF, 'percent_physmem = "50";',
                                          1.0),))
    assert (percent, where, note) == (
        50, (KCONF, "50", True, 1), 'percent_physmem="50" in ' + KCONF)


def test_several_entries_in_one_statement_and_what_the_kernel_drops():
    assert conf_read('name="ramdisk" parent="pseudo" instance=1024 '
                     'percent_physmem="40" flag;') == ({
                         "instance": ("1024", False),
                         "percent_physmem": ("40", True),
                         "flag": (None, False)}, [])
    # A '*' drops its statement; the file is read on after it.
    assert conf_read('a="1" * b="2";') == (
        {"b": ("2", True)}, [(1, "'*' drops the statement")])
    # No ';' before the end of the file: the statement is dropped.
    assert conf_read('percent_physmem="40"\n') == (
        {}, [(2, "the file ends before the ';'")])
    assert conf_read('percent_physmem="40;\n;') == (
        {"percent_physmem": ("\n", True)}, [(1, 'a " is missing')])


@pytest.mark.parametrize("conf, percent, line", [
    # The kernel drops the statement (no ';' at the end): it takes 25, and
    # svmram cannot be sure of its reading, so it counts with no more.
    ('percent_physmem="50"', 25, 2),
    # A dropped statement's value is lower than the default: counted.
    ('percent_physmem="10" *;', 10, 2),
    # Read, but the file has a warning: never more than the default.
    ('percent_physmem="50"; @', 25, 2),
    ('percent_physmem="20"; @', 20, 2),
])
def test_a_conf_the_kernel_warns_about_is_not_counted_on(conf, percent,
                                                         line):
    cap = MemoryCap(snap(conf))
    assert cap.percent == percent and cap.problems[0][:2] == (KCONF, line)
    assert cap.sureness().startswith(
        "the kernel warns about line %d of %s (" % (line, KCONF))
    assert cap.sureness().endswith(
        "so svmram cannot be sure what the driver took from it; it counts "
        "with %d%%, the smallest it may have taken" % percent)


@pytest.mark.parametrize("conf, percent", [
    # The node statement's property is a system property of rd_dip,
    # searched before the driver's global list (sunddi.c
    # ddi_prop_search_common), wherever the lines are.
    ('percent_physmem="50";\nname="ramdisk" parent="pseudo" '
     'percent_physmem="30";', 30),
    ('name="ramdisk" parent="pseudo" percent_physmem="30";\n'
     'percent_physmem="50";', 30),
    # A number on the node is passed over; the global string is found.
    ('name="ramdisk" parent="pseudo" percent_physmem=30;\n'
     'percent_physmem="50";', 50),
])
def test_a_node_property_wins_over_a_global_one(conf, percent):
    assert conf_setting(((KCONF, conf, 1.0),))[0] == percent


def test_the_setting_found_is_where_its_key_is():
    """conf_found's line is the line of the key the driver reads, the
    one the cap refusal tells the admin to change."""
    text = ('# a comment\npercent_physmem="20";\npercent_physmem="30";\n'
            'name="ramdisk" parent="pseudo"\n  percent_physmem="40";\n')
    assert conf_found(text, "percent_physmem") == ("40", True, 5)
    assert conf_found(text.rsplit("name=", 1)[0], "percent_physmem") == (
        "20", True, 2)
    assert conf_found("percent_physmem=50;", "percent_physmem") == (
        "50", False, 1)
    assert conf_found("", "percent_physmem") is None
