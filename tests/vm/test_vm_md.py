# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram's md backend on a real kernel: Debian's kernel, mdadm and brd
in QEMU (TCG): two boots on the same disks (md-cycle.sh,
guest-md-cycle.sh), and a chain of 26 boots with a power cut (QEMU
killed) at every step of setup, restore, stop and teardown, in the
middle of recoveries (one with a writer), at journal writes and with
the host lock held
(md-faults.sh, guest-md-faults.sh).  Every change in the guest is made
by the installed svmram command, as the boot unit and an administrator
run it, cut by its test switch SVMRAM_TEST_CUT; the guest checks md5s of
the array and of every member, md's own check (mismatch_cnt 0), the
write-mostly flags, the boot unit's state, and that the disks serve no
reads once the RAM member is in sync.

Slow (minutes): it runs only with SVMRAM_VM_TESTS=1 (make test-vm) and
skips, saying why, without QEMU or the build tools.
"""

import os
import re
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
NEEDED = {"qemu-system-x86_64": "apt-get install qemu-system-x86",
          "cpio": "apt-get install cpio", "depmod": "apt-get install kmod",
          "apt-get": "a Debian host", "dpkg-deb": "a Debian host"}

# What each boot must have checked and found right (guest-md-cycle.sh).
BOOT1 = ["svmram.setup rc=0", "flags.setup_new ok", "bitmap ok", "backlog ok",
         "reads.setup_new ok", "verify.md0.ram0 ok", "verify.md0.vda ok",
         "verify.md0.vdb ok", "verify.md0.check_mismatch_cnt 0"]
BOOT2 = ["svmram.restore rc=0", "flags.restored ok", "reads.restored ok",
         "svmram.teardown rc=0", "flags.teardown ok", "raid_disks.teardown ok",
         "brd.unloaded ok", "svmram.setup rc=0", "flags.setup_existing ok",
         "raid_disks.setup_existing ok", "reads.setup_existing ok",
         "nothing_to_do.second_setup ok", "flags.teardown2 ok", "brd.unloaded2 ok",
         # md's recovery speed limit raised for restore's copy, put back
         "speed.restoring ok", "speed.teardown ok", "speed.setup_existing ok",
         # the svmram command (svmram setup|status|teardown /dev/md0)
         "cli.setup ok", "flags.cli_setup ok", "speed.cli_setup ok",
         "cli.unit_on ok", "reads.cli_setup ok", "cli.status ok",
         "cli.teardown ok", "flags.cli_teardown ok", "brd.unloaded_cli ok",
         "cli.unit_off ok"]


def _why_not():
    if os.environ.get("SVMRAM_VM_TESTS") != "1":
        return ("boots a VM for minutes; run it with make test-vm "
                "(SVMRAM_VM_TESTS=1)")
    for tool, how in sorted(NEEDED.items()):
        if shutil.which(tool) is None:
            return "%s is not installed (%s)" % (tool, how)
    if not os.path.exists("/usr/bin/python3.11"):
        return "the guest's Python comes from the host's /usr/bin/python3.11"
    return None


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_setup_reboot_restore_teardown_on_a_real_kernel():
    # 64 MiB disks (the script's default, 128, is what the fixtures in
    # tests/md/fixtures were captured with): half the md5 and check time
    proc = subprocess.run([os.path.join(HERE, "md-cycle.sh"),
                           "--disk-mib", "64"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=3600, check=False)
    assert proc.returncode == 0 and "md-cycle: PASS" in proc.stdout, \
        proc.stdout[-3000:]
    check_cycle(re.search(r"md-cycle: PASS \((.*)\)", proc.stdout).group(1))


def check_cycle(out):
    """The logs of one md-cycle.sh run in `out`: no failed check, every
    check of BOOT1 and BOOT2 done and right, md's check run after each of
    boot 2's four states."""
    for log, wanted in (("boot1.log", BOOT1), ("boot2.log", BOOT2)):
        with open(os.path.join(out, log), encoding="utf-8",
                  errors="replace") as stream:
            text = stream.read()
        assert "LAB-FAIL" not in text
        results = [line[len("RESULT "):] for line in text.splitlines()
                   if line.startswith("RESULT ")]
        for want in wanted:
            assert any(r.startswith(want) for r in results), (log, want)
    assert text.count("RESULT verify.md0.check_mismatch_cnt 0") == 6


# What the power-cut chain must have checked, boot by boot
# (guest-md-faults.sh): each leg but the last is cut, and the boot after
# it finds the data and puts things right.
FAULT_LEGS = {
    2: ["resumed.setup ok", "flags.setup_new_after_cuts ok",
        "unit.setup_new_after_cuts ok", "reads.setup_new_after_cuts ok"],
    3: ["unit.ExecStart rc=0", "md5.boot ok",
        "flags.restored_after_stop_cut_before_shrink ok"],
    4: ["unit.ExecStart rc=0", "stopped.shape ok", "flags.stopped ok"],
    # the records written during leg 9's cut recovery read back
    10: ["writer.records ok", "unit.ExecStart rc=0", "md5.boot ok",
         "recovering ok",
         "unit.ExecStop rc=0", "stopped_recovering.shape ok",
         "flags.restored_after_cuts_in_restore ok",
         "reads.restored_after_cuts_in_restore ok"],
    # cut in the teardown's first journal write: the unit, still
    # enabled, starts md0 (inactive: the RAM member was in it) and
    # stands aside
    11: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "unit.started_array ok"],
    # the teardown keeps the unit enabled until the RAM member is out
    12: ["unit.ExecStart rc=3", "unit.stands_aside ok", "md5.boot ok"],
    13: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "resumed.teardown ok", "flags.teardown_13 ok",
         "unit.teardown_13 ok", "svmram.setup rc=0"],
    14: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "unit.started_array ok", "flags.teardown_14 ok",
         "unit.teardown_14 ok"],
    15: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "flags.teardown_15 ok", "unit.teardown_15 ok"],
    16: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "flags.teardown_16 ok", "unit.teardown_16 ok"],
    # cut before the journal's removal: the unit disabled, a restore by
    # hand stands aside; the teardown's rerun finishes
    17: ["unit.disabled ok", "restore.stands_aside ok",
         "resumed.teardown ok", "flags.teardown_17 ok",
         "brd.teardown_17 ok", "unit.teardown_17 ok"],
    # setups cut after their second step (the unit enabled): the unit
    # starts md0 and stands aside
    1: ["unit.ExecStart rc=3", "unit.stands_aside ok"],
    19: ["unit.ExecStart rc=3", "unit.stands_aside ok"],
    20: ["unit.ExecStart rc=3", "unit.stands_aside ok",
         "unit.started_array ok"],
    # cut once setup removed its journal, before it started the unit:
    # the unit, enabled, restored md0 at boot
    25: ["unit.ExecStart rc=0", "resumed.setup ok",
         "flags.setup_existing_after_cuts ok",
         "unit.setup_existing_after_cuts ok",
         "nothing_to_do.second_setup ok", "flags.teardown_whole ok",
         "unit.teardown_whole ok",
         "flags.setup_busy ok", "reads.busy_files ok", "busy.files ok",
         "busy.e2fsck ok", "flags.teardown_busy ok"],
}
# legs whose boot checks every member's md5 and md's check afterwards
VERIFIED = (2, 3, 4, 10, 13, 14, 15, 16, 17, 25)
# the chain: legs 0 to LEGS - 1, all but the last cut
LEGS = 26
# where each leg's command stops (LAB-MARK cut POINT)
CUTS = {0: "before=create md0", 1: "wait=create md0",
        2: "before=shrink md0", 3: "before=unload brd",
        4: "after a whole ExecStop", 5: "before=grow-add ram0",
        6: "after restore", 7: "before=load brd", 8: "before=add ram0",
        9: "after restore",
        10: "journal-after=start:teardown", 11: "before=-writemostly vdb",
        12: "journal-before=completed:-writemostly vdb",
        13: "before=fail-remove ram0", 14: "before=shrink md0",
        15: "before=unload brd", 16: "journal-before=finish", 17: "lock",
        18: "before=grow-add ram0", 19: "wait=grow-add ram0",
        20: "before=writemostly vda",
        21: "journal-after=completed:writemostly vda",
        22: "before=writemostly vdb",
        23: "journal-before=completed:writemostly vdb",
        24: "journal-after=finish"}


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_power_cuts_at_every_step_on_a_real_kernel():
    proc = subprocess.run([os.path.join(HERE, "md-faults.sh")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=3600, check=False)
    assert proc.returncode == 0 and "md-faults: PASS" in proc.stdout, \
        proc.stdout[-3000:]
    check_faults(re.search(r"md-faults: PASS \((.*)\)",
                           proc.stdout).group(1))


def check_faults(out):
    """The logs of one md-faults.sh run in `out`: every leg but the last
    cut, no failed check, FAULT_LEGS' checks done and right, md's check
    at 0 mismatches wherever a boot verified."""
    for leg in range(LEGS):
        with open(os.path.join(out, "leg-%d.log" % leg), encoding="utf-8",
                  errors="replace") as stream:
            text = stream.read()
        assert "LAB-FAIL" not in text, leg
        marks = [line[len("LAB-MARK cut "):] for line in text.splitlines()
                 if line.startswith("LAB-MARK cut")]
        if leg < LEGS - 1:
            # the point named, and only it (a cut after restore adds how
            # far md's copy into RAM got)
            assert marks and (marks[0] == CUTS[leg] or marks[0].startswith(
                CUTS[leg] + " (")), (leg, marks)
        else:
            assert marks == [], leg
        results = [line[len("RESULT "):] for line in text.splitlines()
                   if line.startswith("RESULT ")]
        for want in FAULT_LEGS.get(leg, []):
            assert any(r.startswith(want) for r in results), (leg, want)
        if leg in VERIFIED:
            assert any(r.startswith("verify.md0.check_mismatch_cnt 0 ")
                       for r in results), leg
            assert not any(r.startswith("verify.md0.check_mismatch_cnt")
                           and r.split()[1] != "0" for r in results), leg
