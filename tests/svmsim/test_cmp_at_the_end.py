# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""cmp of a metadevice and a ramdisk at their ends, on each release
profile (issue 27 §1.3, §1.4).

* The ramdisk driver refuses a read that starts at the ramdisk's end
  with EINVAL (illumos-gate usr/src/uts/common/io/ramdisk.c rd_read); a
  metadevice's read there is an empty transfer (md_subr.c md_checkbuf).
* illumos-2016: /usr/bin/cmp is the ksh93 builtin of libcmd
  (usr/src/lib/libcmd/common/cmp.c cmp(), b_cmp): a failed read ends the
  file like EOF; "cmp: F: cannot open [ERRNO TEXT]", exit 2.
* solaris11: usr/src/cmd/cmp/cmp.c of the Solaris 11 snapshot checks
  ferror at every EOF, first file first (rearg): "cmp: error on reading
  F: Invalid argument", exit 2; "cmp: cannot open F" (barg).
* solaris10: the same cmd/cmp without the ferror checks: a failed read
  is EOF (earg).
"""

import pytest

from svmsim import presets

RAMDISK = "/dev/rramdisk/testdisk"
MIRROR = "/dev/md/rdsk/d10"
FULL = "cmp: error on reading %s: Invalid argument\n" % RAMDISK


def exact_fit(make_sim, release):
    """d10 of 4096 blocks (2 MiB: the 16 x 64 disks' 4 cylinders), closed,
    copied into a ramdisk of exactly that size."""
    host = presets.preset("article-x86")
    host["vfstab"] = {}
    for disk in ("c0d1", "c1d0"):
        host["disks"][disk].update(nhead=16, nsect=64, slices={"0": 4096})
    sim = make_sim(host=host, release=release)
    sim.ok("ramdiskadm -a testdisk 2m")
    sim.ok("dd if=%s of=%s bs=1024k" % (MIRROR, RAMDISK))
    return sim


def result(sim, *files):
    p = sim.run("cmp %s" % " ".join(files))
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("release, same_size", [
    ("illumos-2016", (0, "", "")),
    ("solaris10", (0, "", "")),
    ("solaris11", (2, "", FULL)),
])
def test_a_ramdisk_exactly_the_mirrors_size(make_sim, release, same_size):
    sim = exact_fit(make_sim, release)
    assert result(sim, MIRROR, RAMDISK) == same_size
    # The first file's error is reported first; the mirror ends cleanly.
    assert result(sim, RAMDISK, MIRROR) == same_size


@pytest.mark.parametrize("release", ["illumos-2016", "solaris10",
                                     "solaris11"])
def test_a_ramdisk_larger_than_the_mirror_ends_after_it(make_sim, release):
    sim = exact_fit(make_sim, release)
    sim.ok("ramdiskadm -d testdisk")
    sim.ok("ramdiskadm -a testdisk 3m")
    sim.ok("dd if=%s of=%s bs=1024k" % (MIRROR, RAMDISK))
    assert result(sim, MIRROR, RAMDISK) == (1, "", "cmp: EOF on %s\n"
                                            % MIRROR)
    assert result(sim, RAMDISK, MIRROR) == (1, "", "cmp: EOF on %s\n"
                                            % MIRROR)


@pytest.mark.parametrize("release, text", [
    ("illumos-2016", "cmp: %s: cannot open [No such file or directory]\n"),
    ("solaris11", "cmp: cannot open %s\n"),
    ("solaris10", "cmp: cannot open %s\n"),
])
def test_a_file_that_cannot_be_opened(make_sim, release, text):
    sim = make_sim("article-x86", release=release)
    missing = "/dev/rramdisk/nosuch"
    assert result(sim, MIRROR, missing) == (2, "", text % missing)


def test_an_unknown_cmp_program_is_refused(make_sim):
    host = dict(presets.preset("article"), switches={
        "cmp_program": "gnu"})
    with pytest.raises(SystemExit, match="svmsim: cmp_program must be one "
                       "of libcmd, cmd-cmp, cmd-cmp-ferror"):
        make_sim(host=host)
