# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram's md backend on a real kernel: Debian's kernel, mdadm and brd
in QEMU (TCG), two boots on the same disks (md-cycle.sh,
guest-md-cycle.sh).  Every change in the guest is made by svmram's
planner and executor; the guest checks md5s of the array and of every
member, md's own check (mismatch_cnt 0), the write-mostly flags, and that
the disks serve no reads once the RAM member is in sync.

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
BOOT1 = ["py.setup ok", "flags.setup_new ok", "bitmap ok", "backlog ok",
         "reads.setup_new ok", "verify.md0.ram0 ok", "verify.md0.vda ok",
         "verify.md0.vdb ok", "verify.md0.check_mismatch_cnt 0"]
BOOT2 = ["py.restore ok", "flags.restored ok", "reads.restored ok",
         "py.teardown ok", "flags.teardown ok", "raid_disks.teardown ok",
         "brd.unloaded ok", "py.setup ok", "flags.setup_existing ok",
         "raid_disks.setup_existing ok", "reads.setup_existing ok",
         "refused.second_setup ok", "flags.teardown2 ok", "brd.unloaded2 ok"]


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
    proc = subprocess.run([os.path.join(HERE, "md-cycle.sh")],
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
    assert text.count("RESULT verify.md0.check_mismatch_cnt 0") == 4
