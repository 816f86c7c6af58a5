# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The label blocks (0..DK_LABEL_LOC) and the copy a mirror whose
submirrors are not labeled needs to get a RAM submirror (issue 20 §1).

Source: illumos-gate at commit 3e7c6556c4:

* mirror.c 3456-3472 mirror_map_write: a write-after-read (every resync
  write) starting at block 0 of a labeled mirror starts at DK_LABEL_LOC + 1
  instead, so a resync never copies the label blocks of a labeled mirror;
  dklabel.h 46/49: DK_LABEL_LOC is 1 on x86, 0 on SPARC (the profiles'
  hosts are x86: switch label_blocks 2).
* mirror.c 1756 build_submirror: a labeled submirror makes its mirror
  labeled, also through `metainit dM -m` with several submirrors, which
  only warns and starts no resync (meta_mirror.c 2590-2596).
* md.c 1537: only a write open of a submirror is refused; dd reads one.
* usr/src/lib/libcmd/common/cmp.c (illumos's /usr/bin/cmp is the ksh93
  builtin): "F1 F2 differ: char N, line L" (stdout, exit 1), "cmp: EOF on
  F" (stderr, exit 1), "cmp: F: cannot open [ERRNO TEXT]" (exit 2); the
  other releases' cmp: tests/svmsim/test_cmp_at_the_end.py.
"""

import pytest

NWAY = ("metainit: d10: WARNING: This form of metainit is not "
        "recommended.\nThe submirrors may not have the same data.\n"
        "Please see ERRORS in metainit(1M) for additional information.\n")


def heads(sim):
    """Label-block version of d10, and of each of its submirrors."""
    st = sim.state()
    found = {"d10": st["units"]["d10"]["head"]}
    for sub in st["units"]["d10"]["subs"]:
        dev = st["units"][sub["name"]]["rows"][0]["comps"][0]["dev"]
        found[sub["name"]] = st.get("devhead", {}).get("%d,%d" % tuple(dev),
                                                      0)
    return found


def copy_and_rebuild(sim):
    """The unlabeled method by hand: copy the closed mirror into the
    ramdisk, prove it equal, rebuild with the RAM submirror first."""
    sim.sim("close", "d10")
    sim.ram_stripe()
    p = sim.run("dd if=/dev/md/rdsk/d10 of=/dev/rramdisk/testdisk bs=1024k")
    # 465885 blocks: 227 whole MiB and a part
    assert (p.returncode, p.stderr) == (
        0, "227+1 records in\n227+1 records out\n")
    p = sim.run("cmp /dev/md/rdsk/d10 /dev/rramdisk/testdisk")
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "", "cmp: EOF on /dev/md/rdsk/d10\n")
    sim.ok("metaclear d10")
    p = sim.run("metainit d10 -m d13 d11 d12 -r")
    assert (p.returncode, p.stdout, p.stderr) == (
        0, "d10: Mirror is setup\n", NWAY)


def test_an_unlabeled_mirror_copied_and_rebuilt_reads_from_ram(make_sim):
    sim = make_sim("article-x86")
    assert heads(sim) == {"d10": 1, "d11": 1, "d12": 1}
    copy_and_rebuild(sim)
    st = sim.state()
    d10 = st["units"]["d10"]
    assert d10["labeled"] is True           # the RAM stripe made it so
    assert d10["resync"] is None            # n-way metainit: no resync
    assert [s["name"] for s in d10["subs"]] == ["d13", "d11", "d12"]
    assert heads(sim) == {"d10": 1, "d13": 1, "d11": 1, "d12": 1}
    sim.sim("open", "d10")
    sim.sim("tick")
    assert sim.violations() == []
    assert sim.run("dd if=/dev/zero of=/dev/md/rdsk/d10 count=1"
                   ).returncode == 2    # labeled now: block 0 refused


def test_a_labeled_mirrors_resync_leaves_the_label_blocks(make_sim):
    """After a reboot the new ramdisk is blank, and metareplace -e fills
    all of it but blocks 0..DK_LABEL_LOC: with read option first they
    would come from RAM blank, which the monitor reports."""
    sim = make_sim("article-x86")
    copy_and_rebuild(sim)
    sim.sim("reboot")
    sim.ok("dd if=/dev/md/rdsk/d10 of=/dev/null count=1")
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.ok("metareplace -e d10 c5t0d0s0")
    sim.sim("tick", "100")
    assert heads(sim)["d13"] == 0
    (bad,) = sim.violations()
    assert (bad["submirror"], bad["reason"]) == (
        "d13", "read option first can serve blank label blocks "
               "(0..DK_LABEL_LOC) from this submirror")


@pytest.mark.parametrize("release", [None, "solaris11", "solaris10"])
def test_the_label_blocks_copied_first_keep_reads_right(make_sim, release):
    """The boot restore's way: copy blocks 0..1 from a disk submirror (a
    read open of a submirror is allowed) before metareplace -e."""
    sim = make_sim("article-x86", release=release)
    copy_and_rebuild(sim)
    sim.sim("reboot")
    sim.ok("dd if=/dev/md/rdsk/d10 of=/dev/null count=1")
    sim.ok("ramdiskadm -a testdisk 230m")
    p = sim.run("dd if=/dev/md/rdsk/d11 of=/dev/rramdisk/testdisk bs=512 "
                "count=2")
    assert (p.returncode, p.stderr) == (0, "2+0 records in\n2+0 records "
                                           "out\n")
    sim.ok("metareplace -e d10 c5t0d0s0")
    sim.sim("tick", "100")
    assert heads(sim)["d13"] == 1
    assert sim.violations() == []


def test_an_unlabeled_mirrors_resync_copies_the_label_blocks(make_sim):
    sim = make_sim("article-x86")
    sim.ok("metadetach d10 d12")
    sim.sim("close", "d10")
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 count=1")   # block 0
    new = heads(sim)
    assert new["d10"] == new["d11"] != 1
    sim.ok("metattach d10 d12")
    sim.sim("tick", "100")
    assert heads(sim)["d12"] == new["d10"]
    assert sim.violations() == []


def test_a_write_at_block_1_of_a_labeled_x86_mirror_reaches_the_label_blocks(
        make_sim):
    """Block 1 is a label block on x86 but can be written (md_checkbuf
    refuses block 0 only): every writable submirror takes it."""
    sim = make_sim("article-x86")
    copy_and_rebuild(sim)
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=1 count=1")
    found = heads(sim)
    assert found["d10"] == found["d13"] == found["d11"] == found["d12"] != 1
    assert sim.violations() == []


def test_cmp_reports_a_difference_and_open_failures(make_sim):
    sim = make_sim("article-x86")
    sim.sim("close", "d10")
    sim.ram_stripe()
    p = sim.run("cmp /dev/md/rdsk/d10 /dev/rramdisk/testdisk")
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "/dev/md/rdsk/d10 /dev/rramdisk/testdisk differ: char 1, "
           "line 1\n", "")
    sim.ok("dd if=/dev/md/rdsk/d10 of=/dev/rramdisk/testdisk bs=1024k")
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=40000 count=1")
    p = sim.run("cmp /dev/md/rdsk/d10 /dev/rramdisk/testdisk")
    assert p.returncode == 1 and " differ: char " in p.stdout
    p = sim.run("cmp /dev/md/rdsk/d10 /dev/rramdisk/nosuch")
    assert (p.returncode, p.stderr) == (
        2, "cmp: /dev/rramdisk/nosuch: cannot open [No such file or "
           "directory]\n")
    p = sim.run("cmp /dev/md/rdsk/d10")
    assert (p.returncode, p.stderr) == (
        2, "usage: cmp [-l] [-s] file1 file2 [skip1] [skip2]\n")
    p = sim.run("cmp /dev/md/rdsk/d11 /dev/md/rdsk/d12")
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")


def test_a_sparc_host_skips_block_0_only(make_sim):
    """DK_LABEL_LOC 0 (a host overriding label_blocks): dd's label copy
    is one block; the model keeps the label blocks as one unit."""
    from svmsim import presets
    import copy
    host = presets.preset("article-x86")
    host["switches"]["label_blocks"] = 1
    sim = make_sim(host=host)
    assert sim.state()["switches"]["label_blocks"] == 1
    copy_and_rebuild(sim)
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=1 count=1")
    assert heads(sim)["d13"] == 1           # block 1 is not a label block


def test_a_metadevices_io_kstat_counts_its_writes(make_sim):
    """md_subr.c md_kstat_init_ui: module md, the unit number as instance,
    no name (kstat_create(9F) makes it mdUNIT); reads do not count."""
    sim = make_sim("article-x86")
    sim.sim("close", "d10")
    assert sim.ok("kstat -p md:10:md10:writes") == "md:10:md10:writes\t0\n"
    sim.ok("dd if=/dev/md/rdsk/d10 of=/dev/null count=1")
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=7 count=2")
    assert sim.ok("kstat -p md:10:md10:writes") == "md:10:md10:writes\t2\n"
    assert sim.ok("kstat -p md:11:md11:writes") == "md:11:md11:writes\t0\n"
