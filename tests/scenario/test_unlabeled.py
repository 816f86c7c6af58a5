# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Mirrors whose submirrors are not labeled (issue 20 §1): the copy
method on the usual layouts, x86 SMI with s0 from cylinder 1, EFI with
s0 from sector 256 or 34, a second mirror on slice 1, and mirrors exactly
the size of a ramdisk's slice 0 (4725 MiB on 15 x 63 disks, 1575 MiB on
16 x 63, 1200 MiB on EFI), on every release profile.  Setup copies the closed mirror into the ramdisk, proves the copy
with cmp and recreates the mirror with the RAM submirror (first when that
keeps the size, else second and moved to slot 0); restore copies the
label blocks before metareplace -e; teardown recreates the mirror from
its disks when it is closed, and when it is open says what to run later,
which works.  Exact commands, final states, messages and the data-safety
monitor (which checks the label blocks too) are asserted.  Hosts are
built once per session (base_hosts) and copied."""

import re

import pytest

from hosts import _reads_only, run_script
from releases import RAM_FIRST, slot_test

pytestmark = pytest.mark.emulator_only(
    "the unlabeled layouts exist only on the emulator")

RELEASES = ("illumos-2016", "solaris11", "solaris10")
# (host file, mirror, RAM submirror, disks, first sector of the slices)
LAYOUTS = {
    "unlabeled-x86": ("d10", "d13", ("d11", "d12"), 945),
    "unlabeled-efi": ("d10", "d13", ("d11", "d12"), 256),
    "unlabeled-efi34": ("d10", "d13", ("d11", "d12"), 34),
    "unlabeled-slice1": ("d20", "d23", ("d21", "d22"), 465885),
    "unlabeled-4725m": ("d10", "d13", ("d11", "d12"), 15 * 63),
    "unlabeled-1575m": ("d10", "d13", ("d11", "d12"), 16 * 63),
    "unlabeled-efi-1200m": ("d10", "d13", ("d11", "d12"), 256),
}
# Mirrors whose size is exactly a ramdisk's slice 0 (sizing.py): 4725 MiB
# on 15 x 63 disks, 1575 MiB on 16 x 63, 1200 MiB (a 2470000-block slice
# rounded down to 75 EFI cylinders) on EFI.  A ramdisk of that size would
# end with the mirror, and cmp's proof would read differently per release.
EXACT_FIT = ("unlabeled-4725m", "unlabeled-1575m", "unlabeled-efi-1200m")
# The mirror's size on each layout, the copy method's ramdisk for it and
# whether the RAM submirror goes first (SVM rounds a mirror down to its
# first submirror's cylinder, 600 blocks for a ramdisk).  On EFI, SVM
# takes libmeta's 128 x 256 geometry (meta_efi_to_mdgeom): the 465885-block
# slices give 14 such cylinders, 458752 blocks.
SIZES = {
    "unlabeled-x86": (465885, "228m", False),
    "unlabeled-efi": (458752, "225m", False),
    "unlabeled-efi34": (458752, "225m", False),
    "unlabeled-slice1": (453600, "222m", True),
    # The copy method's ramdisk is larger than the mirror: one MiB more.
    "unlabeled-4725m": (9676800, "4726m", True),
    "unlabeled-1575m": (3225600, "1576m", True),
    "unlabeled-efi-1200m": (2457600, "1201m", True),
}
SETUP = ("svmram", "setup", "-y", "--allow-label")


def svm_commands(host):
    """The commands that change the host, SMF's left out, with cmp (which
    only reads, but is the proof the method rests on)."""
    return [argv for argv in host.trace(changes_only=False)
            if argv[0] not in ("svccfg", "svcadm") and (
                argv[0] == "cmp" or not _reads_only(argv))]


def probe(release):
    """The slot test on a scratch mirror, when the plan depends on the
    slot behaviour: only illumos's /etc/release tells it in advance."""
    return [] if release == "illumos-2016" else slot_test()


def setup_commands(layout, release, pass_num="1"):
    mirror, ram, (d1, d2), _ = LAYOUTS[layout]
    ramdisk = "svmram_" + mirror
    _, size, ram_first = SIZES[layout]
    copy = [["ramdiskadm", "-a", ramdisk, size],
            ["metainit", ram, "1", "1", "c90t0d0s0"],
            # The read opens the mirror, which makes its write count.
            ["dd", "if=/dev/md/rdsk/" + mirror, "of=/dev/null", "count=1"],
            ["dd", "if=/dev/md/rdsk/" + mirror,
             "of=/dev/rramdisk/" + ramdisk, "bs=1024k"],
            ["cmp", "/dev/md/rdsk/" + mirror, "/dev/rramdisk/" + ramdisk],
            ["metaclear", mirror]]
    if ram_first:
        # A multiple of the ramdisk's 600-block cylinder: the RAM
        # submirror goes first and nothing is resynced.
        return copy + [["metainit", mirror, "-m", ram, d1, d2, "-r",
                        pass_num]]
    # With RAM first SVM would round the mirror down to a multiple of 600
    # blocks, so RAM goes second and the disk in front of it is detached
    # and re-attached.
    copy.append(["metainit", mirror, "-m", d1, ram, d2, "-r", pass_num])
    if release == "solaris10":       # metadetach leaves a hole
        return probe(release) + copy + [
            ["metadetach", mirror, d1], ["metadetach", mirror, ram],
            ["metattach", mirror, ram], ["metattach", mirror, d1]]
    return probe(release) + copy + [["metadetach", mirror, d1],
                                    ["metattach", mirror, d1]]


def original(layout, host):
    mirror = LAYOUTS[layout][0]
    return host.metastat_p(mirror)


def write_block_0(host, mirror):
    return host.cmd("dd", "if=/dev/zero", "of=/dev/md/rdsk/%s" % mirror,
                    "count=1")


# Every profile on the x86 layout; the others where they differ in what
# matters (the slice-1 mirror needs no slot moves, so no slot test).
@pytest.mark.parametrize("layout, release", [
    ("unlabeled-x86", "illumos-2016"), ("unlabeled-x86", "solaris11"),
    ("unlabeled-x86", "solaris10"), ("unlabeled-efi", "illumos-2016"),
    ("unlabeled-efi34", "solaris11"),
    ("unlabeled-slice1", "illumos-2016"), ("unlabeled-slice1", "solaris10")]
    + [(layout, release) for layout in EXACT_FIT for release in RELEASES])
def test_setup_reads_from_ram_and_teardown_gives_back_an_unlabeled_mirror(
        base_hosts, tmp_path, layout, release):
    mirror, ram, disks, first = LAYOUTS[layout]
    host = base_hosts.copy(tmp_path / "host", layout, release)
    before = original(layout, host)
    result = host.svmram(*(SETUP[1:] + (mirror,)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("%s: reads are served from the RAM submirror "
                             "%s (ramdisk svmram_%s).\n" % (mirror, ram,
                                                            mirror))
    assert svm_commands(host) == setup_commands(layout, release)
    slices = [line.split()[-1].rsplit("/", 1)[1]
              for line in before.splitlines()[1:]]
    assert "%s: copy: %s is not labeled (%s), so SVM refuses to attach a " \
           "RAM submirror" % (
               "setup " + mirror, mirror, "; ".join(
                   "%s starts at sector %d" % (s, first) for s in slices)) \
        in result.stderr
    slots = host.metastat_p(mirror).splitlines()[0].split()
    assert slots[2] == "/dev/md/rdsk/" + ram and slots[-2:] == ["-r", "1"]
    status = host.svmram("status", mirror)
    assert status.returncode == 0, status.stdout
    # Labeled now: a raw write at block 0 is refused (md_checkbuf).
    assert write_block_0(host, mirror).returncode == 2
    assert host.violations() == []
    host.clear_trace()
    result = host.svmram("teardown", "-y", mirror)
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == [
        ["metaclear", mirror], ["metainit", mirror, "-m"] + list(disks) +
        ["1"], ["metaclear", ram], ["ramdiskadm", "-d", "svmram_" + mirror]]
    assert original(layout, host) == before
    assert write_block_0(host, mirror).returncode == 0     # unlabeled again
    assert host.violations() == []


def kstat_writes(host, mirror):
    return host.cmd("kstat", "-p", "md:%s:md%s:writes" % (
        mirror[1:], mirror[1:]))


def remade(*metainit):
    """A step (hosts.run_step): d10 cleared and made again as `metainit`
    says."""
    def remake(host):
        for argv in (("metaclear", "d10"), ("metainit", "d10") + metainit):
            assert host.cmd(*argv).returncode == 0, argv
    return remake


PASS_0 = remade("-m", "d11", "d12", "0")
ONE_WAY = remade("-m", "d11")


def attach_d12(host):
    """What svmram says to a one-way mirror: attach a second disk
    submirror; the resync runs to its end."""
    assert host.cmd("metattach", "d10", "d12").returncode == 0
    assert host.sim("tick").returncode == 0


# Mirrors SVM has not opened since boot, so with no write count (no I/O
# kstat) until svmram's one-block read: made since boot and never
# mounted; pass 0 (boot's metasync -r opens no pass-0 mirror); one-way
# at boot (nor those), which svmram refuses until a second disk
# submirror is attached, whose resync opens the mirror.
NOT_OPENED = {"made since boot": ((), "1"),
              "pass 0": (((PASS_0,), ("reboot",)), "0"),
              "one-way": (((ONE_WAY,), ("reboot",)), "1")}


@pytest.mark.parametrize("case", sorted(NOT_OPENED))
@pytest.mark.parametrize("release", RELEASES)
def test_the_copy_needs_no_open_since_boot(base_hosts, tmp_path, case,
                                           release):
    steps, pass_num = NOT_OPENED[case]
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", release,
                           steps)
    assert kstat_writes(host, "d10").returncode == 1     # no count yet
    if case == "one-way":
        refused = host.svmram(*(SETUP[1:] + ("d10",)))
        assert (refused.returncode, refused.stderr) == (3, (
            "svmram: d10 has 1 healthy disk submirror; svmram needs two\n"
            "svmram: Attach a second disk submirror first, so a disk copy "
            "always remains.\n"))
        attach_d12(host)
        host.clear_trace()
    before = original("unlabeled-x86", host)
    result = host.svmram(*(SETUP[1:] + ("d10",)))
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == setup_commands("unlabeled-x86", release,
                                                pass_num)
    assert host.metastat_p("d10").splitlines()[0].split()[2] == \
        "/dev/md/rdsk/d13"
    assert kstat_writes(host, "d10").stdout == "md:10:md10:writes\t0\n"
    assert host.svmram("status", "d10").returncode == 0
    assert host.violations() == []
    host.clear_trace()
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert original("unlabeled-x86", host) == before
    assert host.violations() == []


def test_the_record_of_a_copy_setup_validates(base_hosts, tmp_path):
    """The SMF template allows the method copy (issue 27 §4.8): svccfg
    validate finds nothing wrong with the record a copy setup writes."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",),))
    fmri = "svc:/system/svmram:d10"
    assert host.cmd("svcprop", "-p", "svmram/method", fmri).stdout == \
        "copy\n"
    result = host.cmd("svccfg", "validate", fmri)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def advised_setup(text):
    """The setup command a refusal's advice says to run."""
    found = re.findall(r"'(svmram setup [^']*)'", text)
    assert found, text
    return found[-1].split()[1:]


def test_the_memory_cap_advice_repeats_allow_label(base_hosts, tmp_path):
    """Another ramdisk takes the memory: the refusal's advice, followed
    verbatim, sets the mirror up (issue 27 §4.5)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    assert host.cmd("ramdiskadm", "-a", "other", "100m").returncode == 0
    result = host.svmram("setup", "-y", "--allow-label", "d10")
    assert result.returncode == 3, result.stderr
    assert "ramdiskadm -d other" in result.stderr
    advised = advised_setup(result.stderr)
    assert advised == ["setup", "--allow-label", "d10"]
    assert host.cmd("ramdiskadm", "-d", "other").returncode == 0
    result = host.svmram(advised[0], "-y", *advised[1:])
    assert result.returncode == 0, result.stderr
    assert host.violations() == []


def test_the_fence_advice_repeats_allow_label(base_hosts, tmp_path):
    """Another boot service's ramdisk takes the device number SVM
    recorded (d10, pass 0, is not opened at boot before restore runs):
    restore fences d10, and its advice (the other ramdisk deleted,
    teardown, setup), followed verbatim, works (issue 27 §4.5)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    assert host.cmd("metaparam", "-p", "0", "d10").returncode == 0
    result = host.svmram(*(SETUP[1:] + ("d10",)))
    assert result.returncode == 0, result.stderr
    assert host.reboot("--no-services", "--boot-ramdisk",
                       "other=%d" % (1024 * 1024)).returncode == 0
    fenced = host.svmram("restore", "d10")
    assert fenced.returncode == 1, fenced.stderr
    assert "holds the device number" in fenced.stderr
    assert "ramdiskadm -d other" in fenced.stderr
    advised = advised_setup(fenced.stderr)
    assert advised == ["setup", "--allow-label", "d10"]
    assert host.cmd("ramdiskadm", "-d", "other").returncode == 0
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    result = host.svmram(advised[0], "-y", *advised[1:])
    assert result.returncode == 0, result.stderr
    # The boot's own finding: the other ramdisk holding the number of the
    # closed mirror's RAM component, which restore fenced before any open.
    assert [v for v in host.violations()
            if not v.endswith(": svmsim reboot)")] == []


def test_the_dry_run_script_does_what_setup_does(base_hosts, tmp_path):
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    # The script polls metastat every 10 seconds: a resync ends at once.
    assert host.sim("thaw", "--step", "100").returncode == 0
    script = host.svmram("setup", "-n", "--allow-label", "d10")
    assert script.returncode == 0, script.stderr
    assert "# Method: copy." in script.stdout
    assert ("test \"$(%s/cmp /dev/md/rdsk/d10 /dev/rramdisk/svmram_d10 "
            "2>&1)\" = 'cmp: EOF on /dev/md/rdsk/d10'\n"
            % host.env["SVMRAM_BINDIR"]) in script.stdout
    ran = run_script(host, script.stdout)
    assert ran.returncode == 0, ran.stderr
    assert svm_commands(host) == []     # the script is not svmram
    assert host.metastat_p("d10") == (
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d12 /dev/md/rdsk/d11 -r 1\n"
        "d13 1 1 /dev/rdsk/c90t0d0s0\n"
        "d12 1 1 /dev/rdsk/c1d0s0\n"
        "d11 1 1 /dev/rdsk/c0d1s0\n")
    status = host.svmram("status", "d10")
    assert status.returncode == 0, status.stdout
    assert host.violations() == []


def test_an_open_mirror_is_refused_with_the_window_check_shows(
        base_hosts, tmp_path):
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    host.mount("d10")
    before = host.state_digest()
    result = host.svmram("setup", "-y", "--allow-label", "d10")
    assert result.returncode == 3
    window = ("about 16 seconds (227.5 MiB read twice, to copy and to "
              "compare, at an assumed 30 MiB/s disk read speed)")
    assert result.stderr == (
        "svmram: d10 is open (fuser: process 1001), and SVM will not clear "
        "an open metadevice; its submirrors are not labeled (c0d1s0 starts "
        "at sector 945; c1d0s0 starts at sector 945), so SVM refuses to "
        "attach a RAM submirror, and the RAM submirror can only be filled "
        "while d10 is closed, for %s\n"
        "svmram: Nothing was changed.  Unmount d10 and stop what uses it "
        "(fuser /dev/md/rdsk/d10 names them), then run 'svmram setup "
        "--allow-label d10'.\n" % window)
    assert all(argv[0] in ("fuser", "prtvtoc", "metastat", "metadb",
                           "kstat", "svcs", "svcprop") or argv == [
                               "ramdiskadm"] for argv in host.trace())
    assert host.state_digest() == before
    check = host.svmram("check", "d10")
    assert check.returncode == 3
    assert ("d10: refused: " + result.stderr.splitlines()[0][
        len("svmram: "):]) in check.stdout
    assert window in check.stdout


@pytest.mark.parametrize("release", RELEASES)
def test_restore_copies_the_label_blocks_before_the_resync(
        base_hosts, tmp_path, release):
    """After a reboot the ramdisk is new and blank; a labeled mirror's
    resync skips blocks 0..DK_LABEL_LOC (mirror.c 3456), so restore copies
    them from a disk submirror first.  The monitor checks the label blocks
    a read with `first` would get."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", release,
                           (SETUP + ("d10",), ("reboot",)))
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    disk = "d11"            # the first Okay disk submirror
    assert host.trace() == [
        ["ramdiskadm", "-a", "svmram_d10", "228m"],
        ["dd", "if=/dev/md/rdsk/%s" % disk,
         "of=/dev/rramdisk/svmram_d10", "bs=512", "count=2"],
        ["metareplace", "-e", "d10", "c90t0d0s0"],
        ["metasync", "-c", "d10"], ["metasync", "2048", "d10"]]
    assert host.sim("tick").returncode == 0
    assert host.svmram("status", "d10").returncode == 0
    assert host.violations() == []
    host.clear_trace()
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert svm_commands(host)[:2] == [
        ["metaclear", "d10"], ["metainit", "d10", "-m", "d11", "d12", "1"]]
    assert host.violations() == []


def test_teardown_keeps_pass_and_write_options_set_after_setup(
        base_hosts, tmp_path):
    """The admin changes the pass number and write option after setup:
    teardown recreates the mirror with them, as rotate's teardown (which
    never recreates it) keeps them (issue 27 §4.7); the read option goes
    back to the recorded one."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",),))
    assert host.cmd("metaparam", "-p", "3", "-w", "serial", "d10"
                    ).returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host)[:2] == [
        ["metaclear", "d10"], ["metainit", "d10", "-m", "d11", "d12", "-S",
                               "3"]]
    assert host.metastat_p("d10").splitlines()[0] == (
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 -S 3")
    assert host.violations() == []


def test_an_interrupted_teardown_keeps_the_options_set_after_setup(
        base_hosts, tmp_path):
    """Killed between its metaclear and metainit, the teardown resumes
    from its journal with no mirror to read the options from: it recreates
    the mirror with the pass number and write option the mirror had when
    the teardown began (its journal keeps them), not setup's (issue 27
    §4.7)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",),))
    assert host.cmd("metaparam", "-p", "3", "-w", "serial", "d10"
                    ).returncode == 0
    killed = host.svmram_killed("metaclear", 1, "teardown", "-y", "d10")
    assert killed.returncode == -9, killed.stderr
    assert host.metastat_p("d10") == ""
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host)[0] == ["metainit", "d10", "-m", "d11", "-S",
                                     "3"]
    assert host.metastat_p("d10").splitlines()[0] == (
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 -S 3")
    assert host.violations() == []


UNLABELED_D10 = ("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
                 "d11 1 1 /dev/rdsk/c0d1s0\n"
                 "d12 1 1 /dev/rdsk/c1d0s0\n")


@pytest.mark.parametrize("release", RELEASES)
def test_teardown_after_a_power_cut_in_setup_gives_back_an_unlabeled_mirror(
        base_hosts, tmp_path, release):
    """A power cut right after setup detached the disk in front of the
    RAM submirror (to move it to slot 0): the mirror is closed and
    labeled, one disk out.  Teardown attaches that disk again first and
    then recreates the mirror itself, unlabeled, instead of detaching the
    RAM submirror and leaving the metaclear and metainit to the admin
    (issue 27 §4.6)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", release)
    # The slot test's metadetach comes first where it runs.
    result = host.svmram_killed("metadetach", 1 + len(probe(release)) // 11,
                                *(SETUP[1:] + ("d10",)))
    assert result.returncode == -9, result.stderr
    assert host.reboot().returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "stays labeled" not in result.stdout + result.stderr
    # The reboot took the ramdisk: the RAM submirror is erred, hence -f.
    assert svm_commands(host) == [
        ["metattach", "d10", "d11"], ["metaclear", "-f", "d10"],
        ["metainit", "d10", "-m", "d11", "d12", "1"], ["metaclear", "d13"]]
    assert host.metastat_p("d10") == UNLABELED_D10
    assert write_block_0(host, "d10").returncode == 0     # unlabeled again
    assert host.violations() == []


def test_teardown_reattach_does_not_say_stays_labeled_when_it_recreates(
        base_hosts, tmp_path):
    """A disk submirror detached by hand after setup: teardown --reattach
    attaches it again and recreates the mirror unlabeled, and says only
    that (issue 27 §4.6)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",),))
    assert host.cmd("metadetach", "d10", "d11").returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "--reattach", "d10")
    assert result.returncode == 0, result.stderr
    assert "stays labeled" not in result.stdout + result.stderr
    assert host.metastat_p("d10") == UNLABELED_D10
    assert write_block_0(host, "d10").returncode == 0
    assert host.violations() == []


def test_teardown_of_an_open_mirror_says_what_finishes_it(base_hosts,
                                                          tmp_path):
    """Open, the mirror cannot be recreated: teardown detaches the RAM
    submirror, says the mirror stays labeled and what to run once it is
    closed; following that gives back the mirror as it was."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",),))
    host.mount("d10")
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    left = ("teardown could not recreate d10 without the RAM submirror (d10 "
            "is open (fuser: process 1001), and SVM will not clear an open "
            "metadevice), so d10 stays labeled: SVM refuses writes that start "
            "at its block 0.  When d10 is closed and 'metastat d10' shows d11 "
            "and d12 Okay, run 'metaclear d10' and then 'metainit d10 -m d11 "
            "d12 1' (no resync: the disk submirrors hold the same data).")
    assert "d10: " + left + "\n" in result.stdout
    # Setup left d13 d12 d11: d12 goes behind d11 again (a disk resync
    # while d11 holds the disk copy), then the RAM submirror goes.
    assert svm_commands(host) == [
        ["metaparam", "-r", "roundrobin", "d10"], ["metadetach", "d10", "d12"],
        ["metattach", "d10", "d12"], ["metadetach", "d10", "d13"],
        ["metaclear", "d13"], ["ramdiskadm", "-d", "svmram_d10"]]
    assert write_block_0(host, "d10").returncode == 2     # still labeled
    host.unmount("d10")
    for argv in (("metaclear", "d10"), ("metainit", "d10", "-m", "d11", "d12",
                                        "1")):
        assert host.cmd(*argv).returncode == 0
    assert host.metastat_p("d10") == (
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
        "d11 1 1 /dev/rdsk/c0d1s0\n"
        "d12 1 1 /dev/rdsk/c1d0s0\n")
    assert write_block_0(host, "d10").returncode == 0
    assert host.violations() == []


def test_a_resumed_setup_does_not_copy_a_mirror_opened_meanwhile(
        base_hosts, tmp_path):
    """svmram killed after making the RAM concat; the administrator mounts
    the mirror; setup run again resumes from its journal, and its copy
    step stops before dd (fuser shows the mirror open): the rollback
    leaves the mirror as it was."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    before = host.metastat_p()
    killed = host.svmram_killed("metainit", 1, "setup", "-y",
                                "--allow-label", "d10")
    assert killed.returncode == -9, killed.stderr
    host.mount("d10")
    host.clear_trace()
    result = host.svmram("setup", "-y", "--allow-label", "d10")
    assert result.returncode == 1, result.stderr
    assert ("svmram: step 1 failed (Copy d10 into the ramdisk, compare, then "
            "clear d10 and recreate it at once from d11 d13 d12 in this "
            "order): d10 is open (fuser: process 1001), and the copy needs "
            "it closed.  Everything was rolled back; d10 is as it was "
            "before.") in result.stderr.splitlines()
    assert [argv[0] for argv in svm_commands(host)] == [
        "metaclear", "ramdiskadm"]          # the RAM concat and ramdisk go
    assert host.metastat_p() == before
    assert host.violations() == []


def test_teardown_after_a_reboot_clears_with_force(base_hosts, tmp_path):
    """After a reboot the RAM submirror needs maintenance (its ramdisk is
    gone); the closed mirror is recreated from its disks all the same,
    with metaclear -f (SVM refuses a plain metaclear of a mirror with a
    submirror that is not Okay)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", None,
                           (SETUP + ("d10",), ("reboot",)))
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == [
        ["metaclear", "-f", "d10"], ["metainit", "d10", "-m", "d11", "d12",
                                     "1"], ["metaclear", "d13"]]
    assert host.metastat_p() == (
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
        "d11 1 1 /dev/rdsk/c0d1s0\n"
        "d12 1 1 /dev/rdsk/c1d0s0\n")
    assert write_block_0(host, "d10").returncode == 0
    assert host.violations() == []


def nth_call(prog, nth, *args):
    """after(argv) for host.svmram: true at svmram's nth call of `prog`
    with `args` among its arguments."""
    seen = []

    def match(argv):
        if argv[0].endswith("/" + prog) and set(args) <= set(argv):
            seen.append(argv)
            return len(seen) == nth
        return False
    return match


def first_call(prog, *args):
    """after(argv) for host.svmram: true at svmram's first call of `prog`
    with `args` among its arguments."""
    return nth_call(prog, 1, *args)


def _setup_with_a_write(base_hosts, tmp_path, now):
    """The copy setup of d10 on unlabeled-x86 with a write to d10 (opened,
    written, closed) right after svmram's command for which now(argv)
    holds: (host, metastat -p before, the setup's result, exit 1)."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86")
    before = host.metastat_p()

    def write_after(argv):
        if now(argv):
            assert host.sim("write", "d10", "--region", "5").returncode == 0
    result = host.svmram("setup", "-y", "--allow-label", "d10",
                         after=write_after)
    assert result.returncode == 1, result.stderr
    return host, before, result


# Right after the write count is kept, and after cmp compared.
@pytest.mark.parametrize("prog, args", [("kstat", ("md:10:md10:writes",)),
                                        ("cmp", ())])
def test_a_write_after_the_count_stops_the_copy(base_hosts, tmp_path, prog,
                                                args):
    """Something opens the mirror, writes a region and closes it again
    after the write count was kept (the mirror, made since boot, had no
    count before svmram's one-block read), before metaclear: fuser before
    and metaclear after see nothing, cmp passed, but the mirror's write
    count (its I/O kstat) moved, and the step stops before metaclear; the
    rollback removes only the RAM parts."""
    host, before, result = _setup_with_a_write(
        base_hosts, tmp_path, first_call(prog, *args))
    assert ("svmram: step 4 failed (Copy d10 into the ramdisk, compare, then "
            "clear d10 and recreate it at once from d11 d13 d12 in this "
            "order): something wrote to d10 during the copy (its write "
            "count, kstat md:10:md10:writes, went from 0 to 1), so the copy "
            "in RAM may be stale.  Everything was rolled back; d10 is as it "
            "was before.") in result.stderr.splitlines()
    assert not any(argv[0] == "metaclear" and argv[-1] == "d10"
                   for argv in host.trace())
    assert host.metastat_p() == before
    assert host.violations() == []


def test_a_write_just_before_metaclear_stops_the_copy_and_keeps_the_disks(
        base_hosts, tmp_path):
    """Something opens the mirror, writes and closes it after svmram's
    second read of the write count and before metaclear (audit 4 row T2):
    the count read once more after metaclear (the cleared unit's kstat is
    dormant and readable, kstat_fr.c:1251-1256) moved, so the step stops
    before metainit, and the rollback recreates the mirror from its disks
    alone, never from the ramdisk: the data written is there."""
    host, before, result = _setup_with_a_write(
        base_hosts, tmp_path, nth_call("kstat", 2, "md:10:md10:writes"))
    assert ("svmram: step 4 failed (Copy d10 into the ramdisk, compare, then "
            "clear d10 and recreate it at once from d11 d13 d12 in this "
            "order): something wrote to d10 after the copy was compared and "
            "before metaclear (its write count, kstat md:10:md10:writes, "
            "went from 0 to 1), so the copy in RAM may be stale; d10 is "
            "cleared, and its disks hold the data.  Everything was rolled "
            "back; d10 is as it was before.") in result.stderr.splitlines()
    calls = svm_commands(host)
    clear = calls.index(["metaclear", "d10"])
    # The rollback: the mirror from its first disk, the other attached
    # (and resynced from it), then the RAM parts removed.
    assert calls[clear:] == [
        ["metaclear", "d10"], ["metainit", "d10", "-m", "d11", "1"],
        ["metattach", "d10", "d12"], ["metaclear", "d13"],
        ["ramdiskadm", "-d", "svmram_d10"]]
    assert host.metastat_p() == before
    assert host.violations() == []


# Where svmram is killed in the solaris10 setup after the rebuild (the
# slot test's metainit and metadetach come first: d126, d125, d127; d127
# d126), the state it leaves, and what the rerun still has to do.
LABEL_COPY = ["dd", "if=/dev/md/rdsk/d12", "of=/dev/rramdisk/svmram_d10",
              "bs=512", "count=2"]
PUT_RAM_FIRST = [["metadetach", "d10", "d11"], ["metadetach", "d10", "d13"],
                 LABEL_COPY, ["metattach", "d10", "d13"],
                 ["metattach", "d10", "d11"]]


# With no hole in its slots yet the rerun tests the slot behaviour again
# (its scratch ramdisks behind the RAM link c90); a hole shows it.
@pytest.mark.parametrize("prog, nth, reboot, rest", [
    ("metainit", 5, False, slot_test(91) + PUT_RAM_FIRST),   # d11 d13 d12
    ("metadetach", 2, False, PUT_RAM_FIRST[1:]),             # - d13 d12
    ("metadetach", 3, False, PUT_RAM_FIRST[2:]),             # - - d12
    ("metadetach", 3, True, [["metaclear", "d13"],
                             ["ramdiskadm", "-a", "svmram_d10", "228m"],
                             ["metainit", "d13", "1", "1", "c90t0d0s0"]] +
     PUT_RAM_FIRST[2:])])
def test_a_setup_resumed_after_the_rebuild_does_not_copy_again(
        base_hosts, tmp_path, prog, nth, reboot, rest):
    """On solaris10 (metadetach leaves a hole) the rebuilt mirror d11 d13
    d12 gets its RAM submirror into slot 0 by detaching d11 and d13 and
    attaching them again.  svmram killed (or the host rebooted) in between
    and setup run again: the mirror is labeled already (the RAM submirror
    was built into it, mirror.c 1756, and nothing clears that), so the
    rerun finishes those moves instead of copying again, and ends in the
    clean run's order d13 d11 d12.  The ramdisk may be new, or hold a copy
    older than the disks: the label blocks, which the resync skips, are
    copied from a disk submirror before the RAM submirror is attached."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-x86", "solaris10")
    killed = host.svmram_killed(prog, nth, "setup", "-y", "--allow-label",
                                "d10")
    assert killed.returncode == -9, killed.stderr
    assert svm_commands(host)[-1][0] == prog
    if reboot:
        assert host.sim("reboot").returncode == 0
    host.clear_trace()
    result = host.svmram("setup", "-y", "--allow-label", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == rest
    assert host.metastat_p("d10") == RAM_FIRST
    assert host.svmram("status", "d10").returncode == 0
    assert write_block_0(host, "d10").returncode == 2
    assert host.violations() == []


def test_a_ramdisk_exactly_the_mirrors_size_is_refused_for_the_copy(
        base_hosts, tmp_path):
    """--size of exactly the mirror's 4725 MiB: its slice would hold d10,
    but cmp would reach both ends together, so setup refuses before
    anything changes, and the size it advises works."""
    host = base_hosts.copy(tmp_path / "host", "unlabeled-4725m")
    before = host.state_digest()
    result = host.svmram("setup", "-y", "--allow-label", "--size", "4725m",
                         "d10")
    assert result.returncode == 3, result.stderr
    assert result.stderr.splitlines() == [
        "svmram: a ramdisk of 4725m is too small for d10 (9676800 blocks): "
        "the copy method needs it larger than d10, so that cmp finds the "
        "end of d10 first",
        "svmram: Use at least --size 4726m."]
    assert svm_commands(host) == []
    assert host.state_digest() == before
    result = host.svmram("setup", "-y", "--allow-label", "--size", "4726m",
                         "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == setup_commands("unlabeled-4725m",
                                                "illumos-2016")
    assert host.violations() == []
