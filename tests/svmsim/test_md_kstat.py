# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The life of a metadevice's I/O kstat md:N:mdN (audit 3, row 2.3).

md_unit_incopen is the only caller of md_kstat_init (md_subr.c): the
kstat appears at the unit's first open, not at metainit.  A mirror's open
opens its submirrors too (mirror.c mirror_open_all_devs, md_layered_open).
At the last close and at metaclear md_kstat_destroy calls kstat_delete,
which only makes a KSTAT_FLAG_PERSISTENT kstat dormant, "readable during
the dormant phase" (kstat_fr.c kstat_delete); the next open revives it
with its counts (kstat_create, kstat_install).  A reboot drops them all.
"""

ALL_WRITES = "kstat -p md:*:*:writes"


def writes(sim, unit):
    """`kstat -p md:N:mdN:writes`: (exit status, stdout)."""
    p = sim.run("kstat -p md:%d:md%d:writes" % (unit, unit))
    return p.returncode, p.stdout


def made_mirror(make_sim):
    """d10 (d11 d12) made since boot and never opened."""
    sim = make_sim("article-bare")
    for line in ("d11 1 1 c0d1s0", "d12 1 1 c1d0s0", "d10 -m d11 d12"):
        sim.ok("metainit " + line)
    return sim


def test_a_mirror_made_since_boot_has_no_kstat_until_it_is_opened(make_sim):
    sim = made_mirror(make_sim)
    assert writes(sim, 10) == (1, "")
    assert sim.run(ALL_WRITES).returncode == 1
    sim.ok("dd if=/dev/md/rdsk/d10 of=/dev/null count=1")
    # The read made them (the submirrors through the mirror's open) and
    # counted no write.
    assert sim.ok(ALL_WRITES) == ("md:10:md10:writes\t0\n"
                                  "md:11:md11:writes\t0\n"
                                  "md:12:md12:writes\t0\n")


def test_the_kstat_stays_with_its_count_after_close_and_metaclear(make_sim):
    sim = made_mirror(make_sim)
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=7 count=2")
    assert writes(sim, 10) == (0, "md:10:md10:writes\t2\n")    # closed
    sim.ok("metaclear d10")
    assert writes(sim, 10) == (0, "md:10:md10:writes\t2\n")    # dormant
    sim.ok("metainit d10 -m d11 d12")
    sim.ok("dd if=/dev/zero of=/dev/md/rdsk/d10 oseek=7 count=1")
    assert writes(sim, 10) == (0, "md:10:md10:writes\t3\n")    # revived


def test_a_reboot_drops_them_and_the_boot_opens_only_some(make_sim):
    """After a boot: the mounted d10 is opened (and metasync -r opens it);
    metasync -r opens no pass-0 mirror (d20) and no one-way mirror (d30)
    (meta_mirror_resync.c; mirror_resync.c mirror_ioctl_resync returns
    for un_nsm < 2), so they have no kstat, however many writes they
    had."""
    sim = make_sim("spare-disks")
    for line in ("d21 1 1 c2d0s0", "d22 1 1 c3d0s0", "d20 -m d21 d22 0",
                 "d31 1 1 c0d0s1", "d30 -m d31"):
        sim.ok("metainit " + line)
    for mirror in ("d20", "d30"):
        sim.ok("dd if=/dev/zero of=/dev/md/rdsk/%s oseek=7 count=1"
               % mirror)
    assert writes(sim, 20) == (0, "md:20:md20:writes\t1\n")
    assert writes(sim, 30) == (0, "md:30:md30:writes\t1\n")
    assert sim.sim("reboot").returncode == 0
    # d10 is mounted: the emulator writes to it once per command.
    assert sim.ok(ALL_WRITES) == ("md:10:md10:writes\t1\n"
                                  "md:11:md11:writes\t0\n"
                                  "md:12:md12:writes\t0\n")


def test_a_named_resync_opens_a_two_way_mirror_only(make_sim):
    """metasync dN reaches mirror_resync_unit, which opens the mirror
    (mirror_internal_open), unless it has fewer than two submirrors
    (mirror_ioctl_resync returns first)."""
    sim = make_sim("spare-disks")
    for line in ("d21 1 1 c2d0s0", "d22 1 1 c3d0s0", "d20 -m d21 d22 0",
                 "d31 1 1 c0d0s1", "d30 -m d31"):
        sim.ok("metainit " + line)
    sim.ok("metasync d30")
    assert writes(sim, 30) == (1, "")
    sim.ok("metasync d20")
    assert writes(sim, 20) == (0, "md:20:md20:writes\t0\n")


def test_system_pages_has_no_pagesize_and_a_partial_name_lists_it_all(sim):
    """kstat_fr.c:201-222: system_pages lists physmem ... pagestotal, no
    pagesize; kstat.c:229-262 and new_selector: a missing field matches
    anything; kstat.c:350-353: exit 0 when anything matched, else 1."""
    p = sim.run("kstat -p unix:0:system_pages:pagesize")
    assert (p.returncode, p.stdout) == (1, "")
    listed = sim.ok("kstat -p unix:0:system_pages")
    assert [line.split("\t")[0] for line in listed.splitlines()] == [
        "unix:0:system_pages:availrmem", "unix:0:system_pages:freemem",
        "unix:0:system_pages:physmem"]
    assert sim.ok("kstat -p unix::system_pages:freemem") == \
        listed.splitlines()[1] + "\n"
