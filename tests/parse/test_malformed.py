# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Malformed or unknown input raises ParseError naming the line."""

import pytest

from svmram.errors import ParseError
from svmram.svm import listings, metastat, metastat_p

PARSERS = {
    "metastat-p": metastat_p.parse,
    "metastat": metastat.parse,
    "metaparam": listings.parse_metaparam,
    "metadb": listings.parse_metadb,
    "ramdiskadm": listings.parse_ramdiskadm,
}

MIRROR = ("d10: Mirror\n"
          "    Submirror 0: d13\n"
          "      State: Okay        \n"
          "    Pass: 1\n"
          "    Read option: first (-r)\n"
          "    Write option: parallel (default)\n"
          "    Size: 4194304 blocks (2.0 GB)\n"
          "\n")
SUBMIRROR = ("d13: Submirror of d10\n"
             "    State: Okay        \n"
             "    Size: 4194304 blocks (2.0 GB)\n"
             "    Stripe 0:\n"
             "\tDevice     Start Block  Dbase        State Reloc Hot Spare\n"
             "\tc5t0d0s0          0     No            Okay   No  \n")
GOOD = MIRROR + SUBMIRROR       # lines 1-14
METADB = "\tflags\t\tfirst blk\tblock count\n"


def edit(text, lineno, new):
    lines = text.split("\n")
    lines[lineno - 1] = new
    return "\n".join(lines)


CASES = [
    # metastat -p
    ("metastat-p", "d10 -m d11 d12\nd11 1 1 c0d1s0\nd12 1 1 c1d0s0\n", 1,
     "pass number"),
    ("metastat-p", "d13 1 2 c1d0s0\n", 1, "expected 2 components, found 1"),
    ("metastat-p", "d13 2 1 c1d0s0\n", 1, "expected 2 stripes, found 1"),
    ("metastat-p", "d10 -x d11 1\n", 1, "unknown keyword '-x'"),
    ("metastat-p", "d13 1 1 c1d0s0\nd13 1 1 c2d0s0\n", 2, "duplicate"),
    ("metastat-p", "d13 1 x c1d0s0\n", 1, "number of components"),
    ("metastat-p", "d13 1x 1 c1d0s0\n", 1, "number of stripes"),
    ("metastat-p", "d13 0 1 c1d0s0\n", 1, "no stripes"),
    ("metastat-p", "d30 2 1 c1t0d0s1 \\\n", 1, "continuation"),
    ("metastat-p", "d30 2 1 c1t0d0s1 \\\n\nd31 1 1 c2t0d0s0\n", 1,
     "continuation"),
    ("metastat-p", "d30 2 1 c1t0d0s1 \\\nd31 1 1 c1t1d0s1\n", 1,
     "continuation"),
    ("metastat-p", "d30 2 1 c1t0d0s1 \\\n\t x c1t1d0s1\n", 2,
     "number of components"),
    ("metastat-p", "d10 -m d11 1\n", 1, "d11 is not defined"),
    ("metastat-p", "d10 -m /dev/md/rdsk/d11 1\nd12 1 1 c0d1s0\n", 1,
     "d11 is not defined"),
    ("metastat-p", "d10 -m d11 -r -g 1\nd11 1 1 c0d1s0\n", 1, "conflicting"),
    ("metastat-p", "d10 -m d11 -S -S 1\nd11 1 1 c0d1s0\n", 1, "conflicting"),
    ("metastat-p", "d10 -m d11 12\nd11 1 1 c0d1s0\n", 1, "pass number 12"),
    ("metastat-p", "d10 -m d11 1 2\nd11 1 1 c0d1s0\n", 1, "unexpected '2'"),
    ("metastat-p", "d10 -m 1\n", 1, "no submirrors"),
    ("metastat-p", "d10 -m d1 d2 d3 d4 d5 1\n", 1, "more than 4"),
    ("metastat-p", "d10 -m d11 d11 1\nd11 1 1 c0d1s0\n", 1, "twice"),
    ("metastat-p", "d10 -m d13 1\nd13 -p c0d1s7 -o 1 -b 2 \n", 1,
     "not a concat/stripe"),
    ("metastat-p", "d10 -m d11 1\nd20 -m d11 1\nd11 1 1 c0d1s0\n", 2,
     "submirror of both"),
    ("metastat-p", "d10 -m d11 1\nd11 1 1 /dev/rdsk/d10\n", 2,
     "given as a disk"),
    ("metastat-p", "d100 -p c0d1s7 -o 1\n", 1, "expected -b"),
    ("metastat-p", "d100 -p c0d1s7 -o 1 -b\n", 1, "extent length"),
    ("metastat-p", "d100 -p c0d1s7 -o 1 -x 2\n", 1, "expected -b"),
    ("metastat-p", "d100 -p c0d1s7\n", 1, "no extents"),
    ("metastat-p", "d21 1 2 c1t0d0s0 c1t1d0s0 -i 32k\n", 1, "interlace"),
    ("metastat-p", "d21 1 2 c1t0d0s0 c1t1d0s0 -i 0b\n", 1, "interlace"),
    ("metastat-p", "d21 1 1 c1t0d0s0 -h\n", 1, "hot spare pool"),
    ("metastat-p", "d21 1 1 c1t0d0s0 extra\n", 1, "unexpected 'extra'"),
    ("metastat-p", "d50 -r c1t0d0s0 c1t1d0s0 c1t2d0s0 -k -x\n", 1,
     "unexpected '-x'"),
    ("metastat-p", "d50 -r c1t0d0s0 -k -k\n", 1, "unexpected '-k'"),
    ("metastat-p", "d50 -r c1t0d0s0 c1t1d0s0 -o 3\n", 1,
     "original column count"),
    ("metastat-p", "d50 -r -k\n", 1, "no columns"),
    ("metastat-p", "hsp000 -x\n", 1, "unknown keyword"),
    ("metastat-p", "d10\n", 1, "no definition"),
    ("metastat-p", "10 -m d11 1\n", 1, "not a metadevice"),
    ("metastat-p", "d60 -t\n", 1, "master device"),
    ("metastat-p", "d60 -t d61 d62 d63\n", 1, "unexpected 'd63'"),
    ("metastat-p", "d13 1 1 c1d0s0\n****\n", 2, "banner"),
    ("metastat-p", "d13 1 1 c1d0s0 \\\n\t-h\n", 2, "hot spare pool"),
    # plain metastat
    ("metastat", "garbage\n" + GOOD, 1, "device header"),
    ("metastat", edit(GOOD, 4, "    Pass: 10"), 4, "pass number"),
    ("metastat", edit(GOOD, 4, "    Pass: one"), 4, "pass number"),
    ("metastat", edit(GOOD, 4, ""), 1, "no Pass line"),
    ("metastat", edit(GOOD, 3, ""), 2, "no State line"),
    ("metastat", edit(GOOD, 3, "      State: Fine"), 3, "unknown state"),
    ("metastat", edit(GOOD, 3, "      State: Maintenance"), 3,
     "unknown state"),
    ("metastat", edit(GOOD, 5, "    Read option: first (default)"), 5,
     "read option"),
    ("metastat", edit(GOOD, 6, "    Write option: fast (-S)"), 6,
     "write option"),
    ("metastat", edit(GOOD, 7, "    Size: many blocks"), 7, "bad size"),
    ("metastat", edit(GOOD, 7, "    Size: 1 blocks (2"), 7, "bad size"),
    ("metastat", edit(GOOD, 4, "    Resync in progress: 150 % done"), 4,
     "percentage"),
    ("metastat", edit(GOOD, 4, "    Resync in progress: soon"), 4,
     "percentage"),
    ("metastat", edit(GOOD, 4, "    Pass: 1\n    Pass: 1"), 5, "duplicate"),
    ("metastat", edit(GOOD, 2, "    Submirror 0: -"), 2, "submirror line"),
    ("metastat", edit(GOOD, 8, "    Unknown: thing"), 8, "unexpected line"),
    ("metastat", MIRROR, 1, "no 'Submirror of' section for d13"),
    ("metastat", SUBMIRROR, 1, "not listed as a submirror"),
    ("metastat", MIRROR + edit(SUBMIRROR, 1, "d14: Submirror of d10"), 9,
     "not listed as a submirror"),
    ("metastat", GOOD + "\n" + SUBMIRROR, 16, "duplicate device d13"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          x     No  Okay  No"),
     14, "bad component line"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          0     Maybe  Okay  No"),
     14, "Dbase"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          0     No   Fine   No"),
     14, "unknown state 'Fine'"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          0     No   Needs  No"),
     14, "unknown state"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          0     No   Okay  No  "
                      "c1t0d0s0 extra"), 14, "unexpected 'extra'"),
    ("metastat", edit(GOOD, 14, "\tc5t0d0s0          0     No"), 14,
     "without a state"),
    ("metastat", edit(GOOD, 13, "\tDevice Start Dbase State Reloc Hot Spare "
                      "Time"), 13, "metastat -t"),
    ("metastat", edit(GOOD, 12, "    Stripe 1:"), 12, "stripe line"),
    ("metastat", edit(GOOD, 12, "    Stripe 0: (interlace: lots)"), 12,
     "stripe line"),
    ("metastat", edit(GOOD, 14, ""), 9, "stripe 0 has no components"),
    ("metastat", edit(GOOD, 11, ""), 9, "no Size line"),
    ("metastat", GOOD + "\n****\n", 16, "banner"),
    ("metastat", GOOD + "\nDevice Relocation Information:\nfoo\n", 17,
     "Device Reloc Device ID"),
    ("metastat", GOOD + "\nDevice Relocation Information:\n"
     "Device   Reloc\tDevice ID\nc5t0d0   Maybe\t-\n", 18, "relocation"),
    ("metastat", "hsp000: 2 hot spares\n\tDevice     Status      Length"
     "\t\tReloc\n        c4t0d0s0   Available    4194304 blocks\tYes\n", 1,
     "header says 2 spares, found 1"),
    ("metastat", "hsp000: 1 hot spare\n\tDevice     Status      Length"
     "\t\tReloc\n        c4t0d0s0   Spare    4194304 blocks\tYes\n", 3,
     "unknown state"),
    ("metastat", "d100: Soft Partition\n    Device: c0d1s7\n    State: Okay\n"
     "    Size: 3072 blocks (1.5 MB)\n"
     "\tExtent              Start Block              Block count\n"
     "\t     1                        1                     1024\n", 6,
     "extent line"),
    ("metastat", "d100: Soft Partition\n    Device: c0d1s7\n    State: Okay\n"
     "    Size: 3072 blocks (1.5 MB)\n", 1, "no extents"),
    ("metastat", "d50: RAID\n    State: Okay\n    Interlace: 32 blocks\n"
     "    Size: 10080 blocks\nConcatenated Devices:\n", 5,
     "Concatenated Devices"),
    ("metastat", "d62: Logging device for d60\n    State: Okay\n", 1,
     "not the log"),
    # metaparam
    ("metaparam", "d10: Concat/Stripe current parameters are:\n", 1,
     "Mirror current parameters"),
    ("metaparam", "d10: Mirror current parameters are:\n    Pass: 1\n"
     "    Read option: fastest (-f)\n", 3, "unexpected line"),
    ("metaparam", "d10: Mirror current parameters are:\n    Pass: 1\n"
     "    Pass: 1\n", 3, "duplicate"),
    ("metaparam", "d10: Mirror current parameters are:\n    Pass: 1\n"
     "    Read option: first (-r)\n", 3, "no write option line"),
    ("metaparam", "", None, "no output"),
    # metadb
    ("metadb", "     a m  p  luo        16      8192    /dev/dsk/c0d0s7\n", 1,
     "header"),
    ("metadb", METADB + "     a m  p  luo\tX16\t\t8192\t\t/dev/dsk/c0d0s7\n",
     2, "block number"),
    ("metadb", METADB + "     a m  p  lux\t16\t\t8192\t\t/dev/dsk/c0d0s7\n",
     2, "unknown replica flag"),
    ("metadb", METADB + "     a m  p  luo\t16\t\t8192\t\tc0d0s7\n", 2,
     "bad device"),
    ("metadb", METADB + " u - replica is up to date\n"
     "     a m  p  luo\t16\t\t8192\t\t/dev/dsk/c0d0s7\n", 3,
     "after the legend"),
    ("metadb", METADB + "16\n", 2, "bad replica line"),
    # ramdiskadm
    ("ramdiskadm", "/dev/ramdisk/x 1048576 Yes\n", 1, "header"),
    ("ramdiskadm", "Block Device Size Removable\n/dev/ramdisk/x 1M Yes\n", 2,
     "bad ramdisk line"),
    ("ramdiskadm", "Block Device Size Removable\n/dev/ramdisk/x 1048576 "
     "Maybe\n", 2, "bad ramdisk line"),
    ("ramdiskadm", "Block Device Size Removable\n/dev/rramdisk/x 1048576 "
     "Yes\n", 2, "bad ramdisk line"),
]


@pytest.mark.parametrize("kind, text, lineno, fragment", CASES,
                         ids=["%s-%d" % (c[0], i) for i, c in
                              enumerate(CASES)])
def test_malformed_input(kind, text, lineno, fragment):
    with pytest.raises(ParseError) as caught:
        PARSERS[kind](text)
    error = caught.value
    assert error.lineno == lineno
    if lineno is not None:
        assert error.line == text.split("\n")[lineno - 1]
        assert "line %d: " % lineno in str(error)
    assert fragment in error.reason
    assert "\n" not in str(error)


def test_good_base_text_parses():
    assert metastat.parse(GOOD).get("d13").parent == "d10"
    assert listings.parse_metadb(METADB) == []
