# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The -n script of an md plan: POSIX sh, absolute paths from the md
command table, sysfs writes from the same WriteFile actions the backend performs."""

import subprocess

from svmram.md import planner, programs, script
from svmram.plan import render_script
from svmram.md.intent import Intent
from svmram.md.model import Array, Member
from svmram.md.snapshot import Snapshot

KERNEL = (6, 1, 0, "6.1.0-56-cloud-amd64")


def existing():
    a = Array("md0", "raid1", 2, "clean", (
        Member("vda", 0, frozenset(["in_sync"]), 2048),
        Member("vdb", 1, frozenset(["in_sync"]), 2048)),
        component_kib=261120, bitmap="+8")
    return Snapshot("md0", a, kernel=KERNEL, mem_total_kib=1000000,
                    mem_available_kib=900000)


def test_setup_script_of_an_existing_array():
    snap = existing()
    it, notes = planner.choose_setup(snap, "md0")
    plan = planner.plan_setup(snap, it)
    plan.notes += notes
    text = render_script(plan, programs.PROGRAMS.path, script.PRELUDE)
    body = text[text.index("# 1. "):]
    assert body == (
        "# 1. Load brd with one RAM disk of 262144 KiB (/dev/ram0).\n"
        "#    brd's size is a module parameter shared by all its devices; "
        "svmram owns the module.\n"
        "/sbin/modprobe brd rd_nr=1 rd_size=262144\n"
        "\n"
        "# 2. Raise the recovery speed limit of md0 to md's maximum, "
        "2147483647 KiB/s.\n"
        "#    md caps the copy at 200000 KiB/s otherwise, and the disks "
        "alone should bound it; with other I/O it still slows to "
        "sync_speed_min.  Put back to the system's limit once the RAM "
        "member is in sync.\n"
        "printf %s 2147483647 > /sys/block/md0/md/sync_speed_max\n"
        "\n"
        "# 3. Grow md0 to 3 raid devices, adding ram0 and wait for its "
        "recovery.\n"
        "#    md copies the array onto it; the disks keep serving reads "
        "ahead of the recovery front.\n"
        "/sbin/mdadm --grow /dev/md0 --raid-devices=3 --add /dev/ram0\n"
        "wait_resync md0\n"
        "\n"
        "# 4. Set write-mostly on vda.\n"
        "#    md keeps the flag in the superblock.\n"
        "printf %s writemostly > /sys/block/md0/md/dev-vda/state\n"
        "\n"
        "# 5. Set write-mostly on vdb.\n"
        "#    md keeps the flag in the superblock.\n"
        "printf %s writemostly > /sys/block/md0/md/dev-vdb/state\n"
        "\n"
        "# 6. Put the recovery speed limit of md0 back to the system's.\n"
        "printf %s system > /sys/block/md0/md/sync_speed_max\n")
    assert text.startswith("#!/bin/sh\n# svmram setup md0: the plan")
    assert "# Method: grow." in text
    assert "# existing array: md0 grows from 2 to 3 raid devices" in text
    assert "set -e\n" in text and "wait_resync() {" in text
    subprocess.run(["sh", "-n"], input=text, text=True, check=True)


def test_an_empty_plan_says_nothing_to_do():
    it = Intent("md0", ("vda", "vdb"), "ram0", 262144, 2048, True)
    plan = planner.plan_teardown(Snapshot("md0", None, kernel=KERNEL), it)
    text = render_script(plan, programs.PROGRAMS.path, script.PRELUDE)
    assert text == (
        "#!/bin/sh\n"
        "# svmram teardown md0: the plan, computed from the current state.\n"
        "# Nothing has been changed.  Run this script, or the same svmram "
        "command\n"
        "# without -n, to carry it out.\n"
        "# Cost: no resync copies any data.\n"
        "# md0 stays open and in use throughout.\n"
        "\n"
        "# Nothing to do.\n")


def test_teardown_script_is_valid_sh_without_a_wait():
    snap = existing()
    it, _ = planner.choose_setup(snap, "md0")
    done = planner.plan_setup(snap, it).steps[-1].expect
    text = render_script(planner.plan_teardown(done, it),
                         programs.PROGRAMS.path, script.PRELUDE)
    assert "wait_resync" not in text
    assert "printf %s -writemostly > /sys/block/md0/md/dev-vda/state\n" in text
    assert "/sbin/rmmod brd\n" in text
    subprocess.run(["sh", "-n"], input=text, text=True, check=True)


def test_the_journal_comment_names_the_undo_only_for_a_change_teardown_undoes():
    snap = existing()
    it, _ = planner.choose_setup(snap, "md0")
    setup = planner.plan_setup(snap, it)
    setup.intent = it
    text = render_script(setup, programs.PROGRAMS.path, script.PRELUDE,
                         journal="/var/svmram/md0.journal")
    assert ("# 'svmram setup md0' resumes from it and 'svmram teardown md0' "
            "undoes it.\n") in text
    teardown = planner.plan_teardown(setup.steps[-1].expect, it)
    teardown.intent = it
    text = render_script(teardown, programs.PROGRAMS.path, script.PRELUDE,
                         journal="/var/svmram/md0.journal")
    assert "# 'svmram teardown md0' resumes from it.\n" in text
    assert "undoes" not in text
