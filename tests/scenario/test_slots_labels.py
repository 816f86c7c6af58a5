# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Slots and labels (issue 10 section 3): setup and teardown on hosts whose
metadetach compacts the slots or leaves a hole, with labeled and unlabeled
mirrors.  Each test builds its own emulated host from the article's
description with a release profile and switches, and checks the exact
commands, the final metastat -p and slot numbers, the blocks the resyncs
copied, teardown back to the original, and the data-safety monitor."""

import json
import os
import subprocess

import pytest

from hosts import EmulatedHost
from releases import (CLEANUP, FILL, FILLED, ORIGINAL, RAM, RAM_FIRST, ROTATE,
                      TEARDOWN_FILLED, TEARDOWN_ROTATED, slot_test as probe)
from svmsim import presets

pytestmark = pytest.mark.emulator_only(
    "hosts with release profiles and switches exist only on the emulator")

SIZE = 465885       # d10's blocks: every resync of it copies this many
FMRI = "svc:/system/svmram:d10"


def make_host(tmp_path, preset="article", release=None, **switches):
    desc = presets.preset(preset)
    if release:
        desc["release"] = release
    desc.setdefault("switches", {}).update(switches)
    if "disk_label" in switches:
        for disk in desc["disks"].values():
            disk.pop("starts", None)      # the switch places every slice
    path = tmp_path / "host.json"
    path.write_text(json.dumps(desc))
    return EmulatedHost(tmp_path / "host", host_file=str(path))


def svm_commands(host):
    return [argv for argv in host.trace()
            if argv[0] not in ("svccfg", "svcadm")]


def copied(host):
    return json.loads(host.sim("state").stdout)["copied_blocks"].get("d10", 0)


def slots(host):
    return [line.strip() for line in host.cmd("metastat", "d10").stdout
            .splitlines() if line.strip().startswith("Submirror ")]


def test_where_detach_leaves_a_hole_the_ram_submirror_fills_slot_0(
        tmp_path):
    host = make_host(tmp_path, release="solaris10")
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "metadetach leaves a hole in the slots here (a scratch mirror " \
           "d127 showed it" in result.stderr
    assert svm_commands(host) == probe(90) + FILL
    assert host.metastat_p("d10") == FILLED
    assert slots(host) == ["Submirror 0: d13", "Submirror 1: d12",
                           "Submirror 2: d11"]
    assert copied(host) == 2 * SIZE          # the RAM one and d11
    assert host.ramdisks().count("svmram_probe") == 0
    assert host.violations() == []

    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    # The probe's links go on c91 and c92: c90 is the RAM submirror's.
    assert svm_commands(host) == probe(91) + TEARDOWN_FILLED
    assert host.metastat_p("d10") == ORIGINAL
    assert slots(host) == ["Submirror 0: d11", "Submirror 1: d12"]
    assert copied(host) == 3 * SIZE          # d11 once more, to go first
    assert host.ramdisks() == ""
    assert host.violations() == []


def test_a_dry_run_changes_nothing_and_says_what_it_assumes(tmp_path):
    host = make_host(tmp_path, release="solaris10")
    before = host.state_digest()
    result = host.svmram("setup", "-n", "d10")
    assert result.returncode == 0, result.stderr
    assert "# Setup first tests on a scratch mirror of two 1 MiB ramdisks " \
           "(removed afterwards) whether metadetach leaves a hole in the " \
           "slots; this plan assumes it does not." in result.stdout
    assert host.trace() == []
    assert host.state_digest() == before


def test_a_compacting_host_learned_by_the_probe_rotates(tmp_path):
    host = make_host(tmp_path, release="solaris11")
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == probe(90) + ROTATE
    assert host.metastat_p("d10") == RAM_FIRST
    assert copied(host) == 3 * SIZE
    assert host.violations() == []
    host.clear_trace()
    # Detaching the RAM submirror leaves the disks in order either way:
    # no probe.
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert svm_commands(host) == TEARDOWN_ROTATED
    assert host.metastat_p("d10") == ORIGINAL
    assert slots(host) == ["Submirror 0: d11", "Submirror 1: d12"]
    assert copied(host) == 3 * SIZE
    assert host.violations() == []


def test_a_setup_that_fails_after_the_probe_rolls_back_knowing_it(tmp_path):
    """The rollback of a setup that tested the slots on a scratch mirror
    plans with what the test showed: the backend passes it on (the Host
    keeps nothing a caller sets, issue 29 section 5), and the release
    (Solaris 11) does not say it."""
    host = make_host(tmp_path, release="solaris11")
    assert host.sim("faults", "add", "metattach", "--nth", "2", "--exit",
                    "1", "--message", "metattach: d10: stopped here"
                    ).returncode == 0
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "Everything was rolled back; d10 is as it was before." in \
        result.stderr, result.stderr
    assert svm_commands(host)[:len(probe(90)) + 5] == probe(90) + ROTATE[:5]
    assert host.metastat_p("d10") == ORIGINAL
    assert slots(host) == ["Submirror 0: d11", "Submirror 1: d12"]
    assert host.violations() == []


def test_an_illumos_host_rotates_without_a_probe(tmp_path):
    host = make_host(tmp_path)
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "/etc/release names an illumos distribution" in result.stderr
    assert svm_commands(host) == ROTATE
    assert host.metastat_p("d10") == RAM_FIRST


def test_a_hole_already_shown_is_used_without_a_probe(tmp_path):
    """A mirror with a free slot 0 (an earlier metadetach that left a
    hole): the RAM submirror is attached straight into it."""
    host = make_host(tmp_path, preset="spare-disks", release="solaris10")
    for argv in (("metainit", "d14", "1", "1", "c2d0s0"),
                 ("metattach", "d10", "d14")):
        assert host.cmd(*argv).returncode == 0
    host.sim("tick")
    assert host.cmd("metadetach", "d10", "d11").returncode == 0
    assert slots(host) == ["Submirror 1: d12", "Submirror 2: d14"]
    before = host.metastat_p("d10")
    start = copied(host)
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "metastat shows a hole in the slots of d10 (d12 in 1, d14 in " \
           "2)" in result.stderr
    assert svm_commands(host) == RAM + [["metattach", "d10", "d13"],
                                        ["metaparam", "-r", "first", "d10"]]
    assert slots(host) == ["Submirror 0: d13", "Submirror 1: d12",
                           "Submirror 2: d14"]
    assert copied(host) - start == SIZE      # only the RAM submirror
    host.clear_trace()
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert svm_commands(host) == TEARDOWN_ROTATED
    assert host.metastat_p("d10") == before
    assert host.violations() == []


@pytest.mark.parametrize("release, label, first", [
    (None, "smi-cyl1", 945), ("solaris10", "smi-cyl1", 945),
    (None, "efi", 256), ("solaris10", "efi", 256)])
def test_an_unlabeled_mirror_is_refused_before_anything_changes(
        tmp_path, release, label, first):
    """The attaching methods cannot work on an unlabeled mirror, and the
    copy method needs --allow-label; without it nothing changes.  What
    the refusal says SVM would do is what SVM does."""
    host = make_host(tmp_path, preset="article-bare", release=release,
                     disk_label=label)
    for argv in (("metainit", "d11", "1", "1", "c0d1s0"),
                 ("metainit", "d12", "1", "1", "c1d0s0"),
                 ("metainit", "d10", "-m", "d11", "d12")):
        assert host.cmd(*argv).returncode == 0
    before = host.state_digest()
    why = "c0d1s0 starts at sector %d; c1d0s0 starts at sector %d" % (
        first, first)
    for method in ("rotate", "swap"):
        result = host.svmram("setup", "-y", "--allow-label", "--method",
                             method, "d10")
        assert result.returncode == 3, result.stdout
        assert result.stderr.splitlines()[0] == (
            "svmram: cannot use %s: d10 is not labeled (%s), and SVM "
            "refuses to attach a labeled submirror to an unlabeled mirror (a "
            "ramdisk stripe is always labeled), which %s needs" % (
                method, why, method))
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 3, result.stdout
    assert result.stderr.splitlines()[0] == (
        "svmram: d10 is not labeled (%s): SVM refuses to attach a RAM "
        "submirror, so setup would copy d10 into RAM while it is closed and "
        "recreate it with the RAM submirror (metainit d10 -m), which makes "
        "d10 labeled: SVM then refuses every write that starts at its "
        "block 0" % why)
    assert "If nothing does, run 'svmram setup --allow-label d10'" in \
        result.stderr
    assert host.trace() == []
    assert host.state_digest() == before
    check = host.svmram("check", "d10")
    assert check.returncode == 0
    assert "    label: not labeled (%s): SVM refuses to attach a RAM " \
           "submirror (can't attach labeled submirror to an unlabeled " \
           "mirror)" % why in check.stdout.splitlines()
    # What the refusal predicts is what SVM does.
    assert host.cmd("ramdiskadm", "-a", "t", "228m").returncode == 0
    for kind in ("dsk", "rdsk"):
        os.symlink("/dev/%sramdisk/t" % ("r" if kind == "rdsk" else ""),
                   os.path.join(host.root, "dev", kind, "c90t0d0s0"))
    assert host.cmd("metainit", "d13", "1", "1", "c90t0d0s0").returncode == 0
    attach = host.cmd("metattach", "d10", "d13")
    assert (attach.returncode, attach.stderr) == (
        1, "metattach: myhost: d13: can't attach labeled submirror to an "
           "unlabeled mirror\n\n")


def test_a_replica_on_the_first_slice_makes_a_stripe_unlabeled(tmp_path):
    """A slice at sector 0 that holds a replica: the stripe starts past the
    replica and is not labeled, and metastat's Start Block shows it."""
    host = make_host(tmp_path, preset="article-bare")
    for argv in (("metadb", "-a", "c0d1s0"),
                 ("metainit", "d11", "1", "1", "c0d1s0"),
                 ("metainit", "d12", "1", "1", "c1d0s0"),
                 ("metainit", "d10", "-m", "d11", "d12")):
        assert host.cmd(*argv).returncode == 0, argv
    result = host.svmram("check", "--json", "d10")
    label = json.loads(result.stdout)["mirrors"][0]["label"]
    assert label["mirror_labeled"] is True     # d12 is labeled
    assert label["submirrors"]["d11"]["labeled"] is False
    assert label["submirrors"]["d11"]["evidence"].startswith(
        "c0d1s0 starts at sector 0 but holds a replica")


def test_check_shows_the_slot_behaviour_and_labels(tmp_path):
    host = make_host(tmp_path, release="solaris10")
    result = host.svmram("check", "d10")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2] == (
        "    slots: not known whether metadetach leaves a hole in the slots; "
        "setup tests it on a scratch mirror before it changes d10 "
        "(/etc/release names Oracle Solaris 10 1/13 s10x_u11wos_24a X86, "
        "where it is not known)")
    assert lines[-1] == (
        "    label: labeled (c0d1s0 starts at sector 0; c1d0s0 starts at "
        "sector 0): a RAM submirror can be attached")
    assert "If metadetach leaves a hole here, resyncs copy %d blocks " \
           "instead; setup tests which first." % (2 * SIZE) in lines[-3]
    report = json.loads(host.svmram("check", "--json", "d10").stdout)
    d10 = report["mirrors"][0]
    assert d10["slots"]["detach_compacts"] is None
    assert (d10["copies_blocks"], d10["copies_blocks_if_hole"]) == (
        3 * SIZE, 2 * SIZE)
    assert d10["label"]["mirror_labeled"] is True
    assert host.trace() == []


def test_a_hole_where_compaction_was_expected_stops_and_rolls_back(tmp_path):
    """/etc/release says illumos, but this host's metadetach leaves a hole:
    the check after the detach sees the slot numbers differ, the run stops,
    and the rollback (knowing the hole now) restores the mirror."""
    host = make_host(tmp_path, detach_compacts=False)
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert "d10 has its submirrors in slots d12 in 1, d13 in 2, expected " \
           "d12 in 0, d13 in 1 (metadetach does not compact the slots on " \
           "this host).  Everything was rolled back; d10 is as it was " \
           "before." in result.stderr
    assert svm_commands(host) == RAM + [
        ["metattach", "d10", "d13"], ["metadetach", "d10", "d11"],
        # d11 takes the free slot 0, in front again, while RAM stays in.
        ["metattach", "d10", "d11"], ["metadetach", "d10", "d13"]] + CLEANUP
    assert host.metastat_p("d10") == ORIGINAL
    assert slots(host) == ["Submirror 0: d11", "Submirror 1: d12"]
    assert copied(host) == 2 * SIZE
    assert host.violations() == []


# --- what an interrupted test of the slot behaviour leaves ---------------------

# metastat -p lists mirrors (and their submirrors) by descending unit
# number, then the stripes no mirror holds.
SCRATCH_LEFT = ("d127 -m /dev/md/rdsk/d125 1\n"
                "d125 1 1 /dev/rdsk/c91t0d0s0\n" + ORIGINAL +
                "d126 1 1 /dev/rdsk/c90t0d0s0\n")
SCRATCH_REMOVAL = [["metaclear", "-f", "d127"], ["metaclear", "d125"],
                   ["metaclear", "d126"],
                   ["ramdiskadm", "-d", "svmram_probe1"],
                   ["ramdiskadm", "-d", "svmram_probe0"]]


def test_a_probe_killed_midway_is_removed_by_the_next_run(tmp_path):
    """Killed after its metadetach, the test leaves a scratch mirror, two
    stripes, links on c90 and c91 and two ramdisks.  The next setup
    removes them first (saying so), so the RAM link is c90 again."""
    host = make_host(tmp_path, release="solaris11")
    result = host.svmram_killed("metadetach", 1, "setup", "-y", "d10")
    assert result.returncode == -9
    assert host.metastat_p() == SCRATCH_LEFT
    host.clear_trace()
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(
        "svmram: removed what an earlier test of the slot behaviour left: "
        "d127, d125, d126, svmram_probe1, svmram_probe0.\n")
    assert svm_commands(host) == SCRATCH_REMOVAL + probe(90) + ROTATE
    assert host.metastat_p() == RAM_FIRST
    assert host.ramdisks().count("svmram_probe") == 0
    assert not os.path.lexists(os.path.join(host.root, "dev/dsk/c91t0d0s0"))
    assert host.violations() == []


def test_a_probe_that_cannot_remove_its_mirror_says_how(tmp_path):
    """A metaclear of the scratch mirror fails: svmram stops there, says
    d10 was not changed, and gives the rest of the removal; the next run
    removes it."""
    host = make_host(tmp_path, release="solaris11")
    assert host.sim("faults", "add", "metaclear", "--nth", "1",
                    "--exit", "1", "--svm-error", "metadevice is open", "--name", "d127"
                    ).returncode == 0
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1
    bindir = host.env["SVMRAM_BINDIR"]
    assert result.stderr == (
        "svmram: the scratch mirror that tested the slot behaviour could not "
        "be removed (%s/metaclear d127 failed: metaclear: myhost: d127: "
        "metadevice is open), and d10 was not changed\n"
        "svmram: Run svmram again to remove it, or remove it yourself: "
        "metaclear d127; metaclear d125; metaclear d126; "
        "rm -f /dev/dsk/c90t0d0s0; rm -f /dev/rdsk/c90t0d0s0; "
        "rm -f /dev/dsk/c91t0d0s0; rm -f /dev/rdsk/c91t0d0s0; "
        "ramdiskadm -d svmram_probe1; ramdiskadm -d svmram_probe0.\n" % bindir)
    assert host.metastat_p("d10") == ORIGINAL
    host.sim("faults", "clear")
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.metastat_p() == RAM_FIRST
    assert host.violations() == []


def test_a_failing_probe_removes_what_it_made_and_says_so(tmp_path):
    host = make_host(tmp_path, release="solaris11")
    assert host.sim("faults", "add", "metainit", "--nth", "3",
                    "--exit", "1", "--svm-error", "metadevice in use", "--name", "d127"
                    ).returncode == 0
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1
    message, advice = result.stderr.splitlines()
    assert message == (
        "svmram: the test of the slot behaviour on a scratch mirror failed, "
        "and d10 was not changed: %s/metainit d127 -m d126 d125 failed: "
        "metainit: myhost: d127: metadevice in use"
        % host.env["SVMRAM_BINDIR"])
    assert advice == "svmram: Fix the cause, then run svmram again."
    assert host.metastat_p() == ORIGINAL
    assert host.ramdisks() == ""
    assert svm_commands(host)[-5:] == [
        ["metainit", "d127", "-m", "d126", "d125"], ["metaclear", "d125"],
        ["metaclear", "d126"], ["ramdiskadm", "-d", "svmram_probe1"],
        ["ramdiskadm", "-d", "svmram_probe0"]]


# After a power cut with both scratch submirrors in place, their ramdisks
# are gone: the boot leaves them erred, and metaclear refuses a mirror
# with a submirror that is not Okay unless forced (mirror_ioctl.c
# mirror_reset, MDE_C_WITH_INVAL_SM).
FORCED_REMOVAL = [["metaclear", "-f", "d127"], ["metaclear", "d126"],
                  ["metaclear", "d125"]]


def cut_power_in_the_probe(host, operation):
    """svmram killed right after the scratch mirror's metainit, then a
    reboot: d127 is left with both submirrors erred."""
    result = host.svmram_killed("metainit", 3, operation, "-y", "d10")
    assert result.returncode == -9, result.stderr
    assert host.reboot().returncode == 0
    assert "State: Needs maintenance" in host.cmd("metastat", "d127").stdout
    host.clear_trace()


@pytest.mark.parametrize("release", ["solaris11", "solaris10"])
def test_a_power_cut_in_the_probe_does_not_block_setup(tmp_path, release):
    """Issue 27 §4.3: the next setup clears the erred scratch mirror with
    -f (its parts are all on svmram's scratch ramdisks) and goes on."""
    host = make_host(tmp_path, release=release)
    cut_power_in_the_probe(host, "setup")
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith(
        "svmram: removed what an earlier test of the slot behaviour left: "
        "d127, d126, d125.\n")
    assert svm_commands(host)[:4] == FORCED_REMOVAL + [
        ["ramdiskadm", "-a", "svmram_probe0", "1m"]]
    assert "d127" not in host.metastat_p()
    assert host.svmram("status", "d10").returncode == 0
    assert host.violations() == []


@pytest.mark.parametrize("release", ["solaris11", "solaris10"])
def test_a_power_cut_in_the_probe_does_not_block_teardown(tmp_path,
                                                          release):
    """The admin gives up instead: teardown removes the scratch mirror
    too (it used to stop there), then says d10 was never set up."""
    host = make_host(tmp_path, release=release)
    cut_power_in_the_probe(host, "setup")
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 3, result.stderr
    assert result.stderr == (
        "svmram: removed what an earlier test of the slot behaviour left: "
        "d127, d126, d125.\n"
        "svmram: d10 is not set up by svmram (svc:/system/svmram:d10 does "
        "not exist)\n"
        "svmram: svmram status lists the mirrors it manages.\n")
    assert svm_commands(host) == FORCED_REMOVAL
    assert host.metastat_p() == ORIGINAL
    assert host.violations() == []


def test_the_advice_to_remove_an_erred_scratch_mirror_works(tmp_path):
    """When even the forced metaclear fails, the commands svmram prints
    work when typed."""
    host = make_host(tmp_path, release="solaris11")
    cut_power_in_the_probe(host, "setup")
    assert host.sim("faults", "add", "metaclear", "--nth", "1", "--exit",
                    "1", "--svm-error", "metadevice is open", "--name",
                    "d127").returncode == 0
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1
    advice = result.stderr.splitlines()[-1]
    typed = advice.split("remove it yourself: ", 1)[1].rstrip(".")
    assert typed.startswith("metaclear -f d127; metaclear d126; ")
    host.sim("faults", "clear")
    for command in typed.split("; "):
        ran = host.cmd(*command.split()) if not command.startswith("rm ") \
            else subprocess.run(["rm", "-f", os.path.join(
                host.root, command.split()[-1].lstrip("/"))], check=True)
        assert ran.returncode == 0, command
    assert host.metastat_p() == ORIGINAL
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "removed what an earlier test" not in result.stderr
    assert host.violations() == []


def test_something_else_on_the_scratch_ramdisks_is_refused(tmp_path):
    """A stripe of the admin's that uses a scratch ramdisk with another
    slice is never cleared: svmram refuses before changing anything."""
    host = make_host(tmp_path, release="solaris11")
    assert host.cmd("ramdiskadm", "-a", "svmram_probe0", "1m").returncode == 0
    os.symlink("/dev/ramdisk/svmram_probe0",
               os.path.join(host.root, "dev/dsk/c95t0d0s0"))
    os.symlink("/dev/rramdisk/svmram_probe0",
               os.path.join(host.root, "dev/rdsk/c95t0d0s0"))
    assert host.cmd("metainit", "d50", "1", "2", "c95t0d0s0", "c0d0s1"
                    ).returncode == 0
    host.clear_trace()
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 3, result.stderr
    assert result.stderr == (
        "svmram: d50 uses c95t0d0s0, which is on svmram's scratch ramdisks "
        "(svmram_probe0, svmram_probe1)\n"
        "svmram: svmram does not remove what it did not build; move d50 off "
        "them, then run svmram again.\n")
    assert svm_commands(host) == []


def test_check_names_the_unlabeled_method_and_its_window(tmp_path):
    """Issue 20 §1: for a mirror none of whose submirrors is labeled,
    `check` names the copy method, how long the mirror must be closed
    (read twice at an assumed 30 MiB/s, docs/design.md) and that setup
    needs --allow-label.  On EFI d10 is 458752 blocks (224 MiB): SVM
    rounds the 465885-block slices down to libmeta's 128 x 256 geometry."""
    host = make_host(tmp_path, preset="article-bare", disk_label="efi")
    for argv in (("metainit", "d11", "1", "1", "c0d1s0"),
                 ("metainit", "d12", "1", "1", "c1d0s0"),
                 ("metainit", "d10", "-m", "d11", "d12")):
        assert host.cmd(*argv).returncode == 0
    check = host.svmram("check", "d10")
    assert check.returncode == 0
    lines = [line for line in check.stdout.splitlines()
             if line.startswith("    unlabeled: ")]
    assert lines == [
        "    unlabeled: setup uses the copy method: d10 closed for about 15 "
        "seconds (224 MiB read twice, to copy and to compare, at an "
        "assumed 30 MiB/s disk read speed) while its data is copied into "
        "RAM and compared, then recreated with the RAM submirror; d10 is "
        "labeled afterwards (writes that start at its block 0 are "
        "refused), so setup needs --allow-label"]
    data = json.loads(host.svmram("check", "--json", "d10").stdout)
    (verdict,) = data["mirrors"]
    assert verdict["verdict"] == "ready"
    assert verdict["method"] == "copy"
    assert verdict["unlabeled"]["method"] == "copy"
    assert verdict["unlabeled"]["window_seconds"] == 15


def test_check_shows_no_unlabeled_method_for_a_labeled_mirror(tmp_path):
    host = make_host(tmp_path, preset="article")
    check = host.svmram("check", "d10")
    assert "    unlabeled: " not in check.stdout


def test_stripes_on_lofi_devices_are_labeled_by_their_fake_vtoc(tmp_path):
    """A mirror of two lofi devices taken through ctd links (as svmram
    selftest builds its scratch mirror): check reads each stripe's label
    with prtvtoc as on a real host, where lofi answers with its fake VTOC,
    slice 0 from sector 0 (lofi.c fake_disk_vtoc; audit 4 S14), so both
    stripes are labeled, not unknown."""
    host = make_host(tmp_path, preset="article-bare")
    for n, ctd in ((1, "c91t0d0s0"), (2, "c92t0d0s0")):
        assert host.cmd("mkfile", "8m", "/var/tmp/f%d" % n).returncode == 0
        assert host.cmd("lofiadm", "-a", "/var/tmp/f%d" % n).stdout == \
            "/dev/lofi/%d\n" % n
        for kind, lofi in (("dsk", "lofi"), ("rdsk", "rlofi")):
            os.symlink("/dev/%s/%d" % (lofi, n),
                       os.path.join(host.root, "dev", kind, ctd))
    for argv in (("metainit", "d51", "1", "1", "c91t0d0s0"),
                 ("metainit", "d52", "1", "1", "c92t0d0s0"),
                 ("metainit", "d50", "-m", "d51", "d52")):
        assert host.cmd(*argv).returncode == 0, argv
    result = host.svmram("check", "--json", "d50")
    label = json.loads(result.stdout)["mirrors"][0]["label"]
    assert label["submirrors"] == {
        "d51": {"labeled": True, "evidence": "c91t0d0s0 starts at sector 0"},
        "d52": {"labeled": True, "evidence": "c92t0d0s0 starts at sector 0"}}
    assert label["mirror_labeled"] is True
