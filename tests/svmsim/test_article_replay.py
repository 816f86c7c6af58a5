# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Replay seed article 000 against the emulator, command by command.

The article's HTML turned tabs and runs of blanks into single spaces and
non-breaking spaces, so outputs are compared after collapsing whitespace
inside lines ("norm").  Current illumos prints full paths in
``metastat -p``; they are shortened to the article's cnames.  Where the
article is stitched from several runs (d11/d12 swapped, slot order of the
rebuilt mirror, relocation order) the comparison is per line as a set,
and each such spot says so.
"""

import re

ARTICLE_METASTAT_D13 = """\
d13: Concat/Stripe
    Size: 471000 blocks (229 MB)
    Stripe 0:
        Device     Start Block  Dbase   Reloc
        c5t0d0s0         0     No     No

Device Relocation Information:
Device   Reloc  Device ID
c5t0d0   No     -
"""

ARTICLE_METAPARAM_DEFAULT = """\
d10: Mirror current parameters are:
    Pass: 1
    Read option: roundrobin (default)
    Write option: parallel (default)
"""

ARTICLE_METAPARAM_FIRST = """\
d10: Mirror current parameters are:
    Pass: 1
    Read option: first (-r)
    Write option: parallel (default)
"""

ARTICLE_METAPARAM_USAGE = """\
usage:  metaparam [-s setname] [options] concat/stripe | RAID
        metaparam [-s setname] [options] mirror

Concat/Stripe or RAID options:
-h      hotspare_pool | "none"

Mirror options:
-r      roundrobin | geometric | first
-w      parallel | serial
-p      0-9
"""

ARTICLE_AFTER_REBOOT = """\
d10: Mirror
    Submirror 0: d13
      State: Needs maintenance
    Submirror 1: d11
      State: Okay
    Submirror 2: d12
      State: Okay
    Pass: 1
    Read option: first (-r)
    Write option: parallel (default)
    Size: 460800 blocks (225 MB)

d13: Submirror of d10
    State: Needs maintenance
    Invoke: metareplace d10 c5t0d0s0 <new device>
    Size: 460800 blocks (225 MB)
    Stripe 0:
        Device     Start Block  Dbase        State Reloc Hot Spare
        c5t0d0s0          0     No     Maintenance   No


d11: Submirror of d10
    State: Okay
    Size: 465885 blocks (227 MB)
    Stripe 0:
        Device   Start Block  Dbase        State Reloc Hot Spare
        c0d1s0          0     No            Okay   Yes


d12: Submirror of d10
    State: Okay
    Size: 465885 blocks (227 MB)
    Stripe 0:
        Device   Start Block  Dbase        State Reloc Hot Spare
        c1d0s0          0     No            Okay   Yes


Device Relocation Information:
Device   Reloc  Device ID
c1d0     Yes    id1,cmdk@AQEMU_HARDDISK=QM00003
c5t0d0   No     -
c0d1     Yes    id1,cmdk@AQEMU_HARDDISK=QM00002
"""

ARTICLE_FINAL = ARTICLE_AFTER_REBOOT.replace(
    "Needs maintenance", "Okay").replace(
    "    Invoke: metareplace d10 c5t0d0s0 <new device>\n", "").replace(
    "Maintenance   No", "Okay   No")


def norm(text):
    """Undo the article's whitespace damage: collapse blanks per line."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", ln).strip()
             for ln in text.split("\n")]
    return "\n".join(lines)


def short_paths(text):
    return text.replace("/dev/md/rdsk/", "").replace("/dev/rdsk/", "")


def sections(text):
    """Split a metastat report into its blank-line separated sections."""
    return [s for s in norm(text).split("\n\n") if s.strip()]


def compare_mirror_report(ours, article, swap):
    """Every line of the article's report, with the stitched spots fixed:
    the submirror sections and relocation lines are compared as sets and
    the summary's submirror names in slot order come from ``swap``."""
    a = sections(article)
    o = sections(ours)
    a_head = a[0]
    for old, new in swap:
        a_head = a_head.replace(old, new)
    assert o[0] == a_head
    assert sorted(o[1:-1]) == sorted(a[1:-1])
    a_reloc = a[-1].split("\n")
    o_reloc = o[-1].split("\n")
    assert o_reloc[:2] == a_reloc[:2]
    assert sorted(o_reloc[2:]) == sorted(a_reloc[2:])


def test_article_replay(make_sim):
    sim = make_sim("article-bare")
    # --- create the disk mirror ---------------------------------------------
    assert sim.ok("metainit d11 1 1 c0d1s0") == "d11: Concat/Stripe is setup\n"
    assert sim.ok("metainit d12 1 1 c1d0s0") == "d12: Concat/Stripe is setup\n"
    assert sim.ok("metainit d10 -m d11") == "d10: Mirror is setup\n"
    assert sim.ok("metattach d10 d12") == "d10: submirror d12 is attached\n"
    out = sim.ok("metastat -p d10")
    assert out == ("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
                   "d11 1 1 /dev/rdsk/c0d1s0\n"
                   "d12 1 1 /dev/rdsk/c1d0s0\n")
    assert short_paths(out) == "d10 -m d11 d12 1\nd11 1 1 c0d1s0\n" \
        "d12 1 1 c1d0s0\n"
    sim.sim("tick")
    sim.sim("open", "d10")                      # newfs + mount /mnt
    # --- the ramdisk submirror ----------------------------------------------
    assert sim.ok("ramdiskadm -a testdisk 230m") == "/dev/ramdisk/testdisk\n"
    sim.link("testdisk")
    assert sim.ok("metainit d13 1 1 c5t0d0s0") == \
        "d13: Concat/Stripe is setup\n"
    out = sim.ok("metastat d13")
    assert norm(out) == norm(ARTICLE_METASTAT_D13)
    assert "\tc5t0d0s0          0     No   \tNo \n" in out
    assert sim.ok("metattach d10 d13") == "d10: submirror d13 is attached\n"
    out = short_paths(sim.ok("metastat -p d10"))
    # article: "d11 1 1 c1d0s0 / d12 1 1 c0d1s0" (a run with swapped disks)
    assert out == "d10 -m d11 d12 d13 1\nd11 1 1 c0d1s0\nd12 1 1 c1d0s0\n" \
        "d13 1 1 c5t0d0s0\n"
    assert sim.ok("metaparam d10") == ARTICLE_METAPARAM_DEFAULT
    p = sim.run("metaparam")
    assert p.returncode == 1 and p.stdout == ""
    assert norm(p.stderr) == norm(ARTICLE_METAPARAM_USAGE)
    assert p.stderr.startswith("usage:\tmetaparam [-s setname]")
    # --- wait for the resync, as "metastat | grep sync" ----------------------
    for _ in range(20):
        if "sync" not in sim.ok("metastat"):
            break
    assert "sync" not in sim.ok("metastat")
    # --- the rebuild with 230m: the mirror becomes 471000 blocks --------------
    sim.sim("close", "d10")                     # umount /mnt
    assert sim.ok("metaclear d10") == "d10: Mirror is cleared\n"
    assert sim.ok("metainit d10 -m d13") == "d10: Mirror is setup\n"
    assert "Size: 471000 blocks (229 MB)" in sim.ok("metastat d10")
    p = sim.run("metattach d10 d12")
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "", "metattach: myhost: d12: submirror too small to attach\n\n")
    # --- redo it with a 225m ramdisk (the article's 460800 blocks) ------------
    sim.ok("metaclear d10")
    assert sim.ok("metaclear d13") == "d13: Concat/Stripe is cleared\n"
    assert sim.ok("ramdiskadm -d testdisk") == ""
    assert sim.ok("ramdiskadm -a testdisk 225m") == "/dev/ramdisk/testdisk\n"
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metainit d10 -m d13")
    assert sim.ok("metattach d10 d12") == "d10: submirror d12 is attached\n"
    assert sim.ok("metattach d10 d11") == "d10: submirror d11 is attached\n"
    out = short_paths(sim.ok("metastat -p d10"))
    assert out.split("\n")[0] == "d10 -m d13 d12 d11 1"
    # article lists d11 before d12 and swaps their disks (stitched runs)
    assert out == "d10 -m d13 d12 d11 1\nd13 1 1 c5t0d0s0\n" \
        "d12 1 1 c1d0s0\nd11 1 1 c0d1s0\n"
    assert sim.ok("metaparam -r first d10") == ""
    assert sim.ok("metaparam d10") == ARTICLE_METAPARAM_FIRST
    sim.sim("tick")
    sim.sim("open", "d10")
    # --- reboot ---------------------------------------------------------------
    sim.sim("reboot")
    out = sim.ok("metastat")
    # article slots: d13 d11 d12; the replayed rebuild gives d13 d12 d11
    compare_mirror_report(out, ARTICLE_AFTER_REBOOT,
                          swap=[("Submirror 1: d11", "Submirror 1: d12"),
                                ("Submirror 2: d12", "Submirror 2: d11")])
    assert "      State: Needs maintenance \n" in out
    assert "\tc5t0d0s0          0     No     Maintenance   No  \n" in out
    # --- repair ---------------------------------------------------------------
    assert sim.ok("ramdiskadm -a testdisk 230m") == "/dev/ramdisk/testdisk\n"
    assert sim.ok("metareplace -e d10 c5t0d0s0") == \
        "d10: device c5t0d0s0 is enabled\n"
    out = sim.ok("metastat d10")
    assert "    Resync in progress: 10 % done\n" in out
    assert "Invoke" not in out
    for _ in range(20):
        out = sim.ok("metastat d10")
        if "Resync" not in out:
            break
    compare_mirror_report(out, ARTICLE_FINAL,
                          swap=[("Submirror 1: d11", "Submirror 1: d12"),
                                ("Submirror 2: d12", "Submirror 2: d11")])
    assert out.count("State: Okay         \n") == 6
