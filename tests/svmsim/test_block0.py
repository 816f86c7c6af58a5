# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Block 0 of a labeled metadevice (issue 20 §1).

Source: illumos-gate at commit 3e7c6556c4 (lines shift in later trees;
the function names do not):

* md_subr.c 2024-2067 md_checkbuf: a write whose first block is 0 on a
  unit with MD_LABELED (mdvar.h 178) fails EINVAL, with the console note
  "md: NAME: write to label" (2054); reads are not checked; a stale set
  refuses writes (EROFS, 2032); b_lblkno == total is an empty transfer
  (2046), past it EINVAL (2043); a transfer over the end is cut (2061).
* md_checkbuf runs for top-level I/O only: mirror.c 3905 (write), 4200
  (read), stripe.c 744; a submirror's I/O comes through md_call_strategy
  with MD_STR_NOTTOP (md_subr.c 2315).
* md.c 1537: a write open of a unit with a parent (a submirror) fails
  EROFS ("don't allow writes to subdevices").
* dd.c flsh() 1755-1771 and term()/stats() 1802-1825: a failed write
  prints perror("write") and the statistics, the refused record counted
  out; exit 2.  A failed output open prints "dd: FILE: open: ..." (842).
"""

REFUSED = "write: Invalid argument\n1+0 records in\n1+0 records out\n"


def dd_zero(sim, dev, *extra):
    return sim.run("dd if=/dev/zero of=/dev/md/rdsk/%s %s"
                   % (dev, " ".join(extra)))


def test_labeled_mirror_refuses_a_write_at_block_0(sim):
    """The article's mirror is labeled (s0 at sector 0): block 0 cannot
    be written through it, block 1 and on can, and nothing changes."""
    assert sim.units()["d10"]["labeled"] is True
    sim.sim("close", "d10")        # no automatic writes: truth moves by dd
    truth = sim.state()["units"]["d10"]["truth"]
    p = dd_zero(sim, "d10", "count=1")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", REFUSED)
    st = sim.state()
    assert st["console"] == ["NOTICE: md: d10: write to label"]
    assert st["units"]["d10"]["truth"] == truth
    # any length: the check is on the first block only
    p = dd_zero(sim, "d10", "bs=1024k", "count=1")
    assert (p.returncode, p.stderr) == (2, REFUSED)
    p = dd_zero(sim, "d10", "oseek=1", "count=1")
    assert (p.returncode, p.stderr) == (0, "1+0 records in\n1+0 records out\n")
    assert sim.state()["units"]["d10"]["truth"][0] != truth[0]
    assert sim.violations() == []


def test_labeled_mirror_reads_block_0(sim):
    """Reads are not checked (md_checkbuf 2052: `! (b_flags & B_READ)`)."""
    p = sim.run("dd if=/dev/md/rdsk/d10 of=/dev/null count=1")
    assert (p.returncode, p.stderr) == (0, "1+0 records in\n1+0 records out\n")


def test_unlabeled_mirror_takes_a_write_at_block_0(make_sim):
    """The usual x86 layout (s0 at cylinder 1): d10 is not labeled, and a
    raw write to its block 0 lands on every submirror."""
    sim = make_sim("article-x86")
    assert sim.units()["d10"]["labeled"] is False
    sim.sim("close", "d10")
    truth = sim.state()["units"]["d10"]["truth"][0]
    p = dd_zero(sim, "d10", "count=1")
    assert (p.returncode, p.stderr) == (0, "1+0 records in\n1+0 records out\n")
    st = sim.state()
    assert st["units"]["d10"]["truth"][0] != truth
    assert "console" not in st
    assert sim.violations() == []


def test_labeled_stripe_on_its_own_refuses_block_0(make_sim):
    """stripe.c 744: a top-level labeled stripe (the ramdisk stripe
    before it is attached) refuses block 0 writes too."""
    sim = make_sim("article-x86")
    sim.ram_stripe()
    assert sim.units()["d13"]["labeled"] is True
    p = dd_zero(sim, "d13", "count=1")
    assert (p.returncode, p.stderr) == (2, REFUSED)
    assert sim.state()["console"] == ["NOTICE: md: d13: write to label"]
    assert dd_zero(sim, "d13", "oseek=1").returncode == 0


def test_mirror_made_labeled_by_metainit_refuses_block_0(make_sim):
    """mirror.c 1756 build_submirror ORs each submirror's MD_LABELED into
    the mirror (metainit -m, mirror_ioctl.c 261 -> mirror_build_incore);
    nothing clears it (mirror_detach keeps it): from then on block 0 of
    the mirror cannot be written, although it could before."""
    sim = make_sim("article-x86")
    assert dd_zero(sim, "d10", "count=1").returncode == 0
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    sim.ram_stripe(size="225m")
    sim.ok("metainit d10 -m d13 d11 d12")
    p = dd_zero(sim, "d10", "count=1")
    assert (p.returncode, p.stderr) == (2, REFUSED)
    sim.ok("metadetach d10 d13")
    assert dd_zero(sim, "d10", "count=1").returncode == 2
    # metaclear and a metainit from the unlabeled stripes alone: unlabeled
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    sim.ok("metainit d10 -m d11 d12")
    assert sim.units()["d10"]["labeled"] is False
    assert dd_zero(sim, "d10", "count=1").returncode == 0


def test_submirror_cannot_be_opened_for_writing(sim):
    """md.c 1537: EROFS for a write open of a unit with a parent."""
    p = dd_zero(sim, "d11", "oseek=1")
    assert (p.returncode, p.stderr) == (
        2, "dd: /dev/md/rdsk/d11: open: Read-only file system\n")


def test_write_at_and_over_the_end(make_sim):
    """md_checkbuf 2046: at the end, an empty transfer (dd's short
    write); 2061-2065: over the end, the part that fits."""
    sim = make_sim("article-x86")
    size = sim.units()["d10"]["size"]
    p = dd_zero(sim, "d10", "oseek=%d" % size)
    assert (p.returncode, p.stderr) == (
        2, "dd: unexpected short write, wrote 0 bytes, expected 512\n"
        "1+0 records in\n1+0 records out\n")
    p = dd_zero(sim, "d10", "bs=1024", "oseek=%d" % ((size - 1) // 2))
    if size % 2:
        assert (p.returncode, p.stderr) == (
            2, "dd: unexpected short write, wrote 512 bytes, expected 1024\n"
            "1+0 records in\n1+0 records out\n")
    else:
        assert p.returncode == 0
