#!/usr/bin/env python3
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Record svmram's output on the SVM emulator (illumos-2016, the article's
host) as the fixtures of the collection's fake svmram
(ansible/ansible_collections/svmram/svmram/tests/unit/plugins/modules/
fixtures).  Run from the top of the tree:

    python3 tests/ansible/record_fixtures.py FIXTURES_DIR

Each fixture maps svmram's arguments to its rc, stdout and stderr in one
state of the host: not_set_up, set_up, boot_window (rebooted, the boot
service not run yet), degraded (d12 detached), unreadable (SMF's
repository down), maintenance (set up, its boot service marked
maintenance: setup refuses); transitions holds the setup and teardown
that move between not_set_up and set_up.  The md_* fixtures are md's
fake kernel's (tests/md/mdcli.py, its two-disk md0): md_not_set_up,
md_set_up, md_boot_window (after the unit's stop: the RAM member out,
brd unloaded), md_failed_unit (set up, the unit failed: setup starts it)
and md_transitions."""

import json
import os
import subprocess
import sys
import tempfile

sys.path[:0] = ["tests/md", "tests/scenario", "lib"]
from hosts import EmulatedHost  # noqa: E402
from mdcli import Host as MdHost, set_up, stopped_by_the_unit  # noqa: E402

READS = (("status", "--json", "d10"), ("check", "--json", "d10"),
         ("setup", "-n", "d10"), ("teardown", "-n", "d10"),
         ("status", "--json"), ("check", "--json"))


def recorded(host, *args):
    ran = subprocess.run([sys.executable, "sbin/svmram"] + list(args),
                         env=host.env, text=True, capture_output=True)
    return {"rc": ran.returncode, "stdout": ran.stdout, "stderr": ran.stderr}


def table(host, commands):
    return {" ".join(args): recorded(host, *args) for args in commands}


def save(directory, name, found):
    with open(os.path.join(directory, name + ".json"), "w",
              encoding="utf-8") as stream:
        json.dump(found, stream, indent=1, sort_keys=True)
        stream.write("\n")


def main(directory):
    base = tempfile.mkdtemp(prefix="svmram-fixtures-")
    host = EmulatedHost(os.path.join(base, "a"))
    save(directory, "not_set_up", table(host, READS))
    setup = recorded(host, "setup", "-y", "d10")
    found = table(host, READS + (("setup", "-y", "d10"),) + tuple(
        ("setup", "-n", "--method", method, "d10")
        for method in ("rotate", "swap")))
    save(directory, "set_up", found)
    teardown = recorded(host, "teardown", "-y", "d10")
    save(directory, "transitions", {"setup -y d10": setup,
                                    "teardown -y d10": teardown})
    host.reboot()
    assert recorded(host, "setup", "-y", "d10")["rc"] == 0
    host.reboot("--no-services")
    save(directory, "boot_window", table(host, READS[:2]))
    degraded = EmulatedHost(os.path.join(base, "b"))
    assert degraded.cmd("metadetach", "d10", "d12").returncode == 0
    save(directory, "degraded", table(degraded, READS[:3] + (
        ("setup", "-y", "d10"),)))
    degraded.sim("smf", "down")
    save(directory, "unreadable", table(degraded, (
        READS[0], READS[4], READS[5])))
    failed = EmulatedHost(os.path.join(base, "c"))
    assert recorded(failed, "setup", "-y", "d10")["rc"] == 0
    assert failed.cmd("svcadm", "mark", "maintenance",
                      "svc:/system/svmram:d10").returncode == 0
    save(directory, "maintenance", table(failed, READS[:3] + (
        ("setup", "-y", "d10"),)))


MD_READS = (("status", "--json", "/dev/md0"), ("check", "--json", "/dev/md0"),
            ("setup", "-n", "/dev/md0"), ("teardown", "-n", "/dev/md0"))


def md_table(host, commands):
    found = {}
    for args in commands:
        rc, out, err, _ = host.svmram(*args)
        found[" ".join(args)] = {"rc": rc, "stdout": out, "stderr": err}
    return found


def main_md(directory):
    import pathlib
    base = pathlib.Path(tempfile.mkdtemp(prefix="svmram-fixtures-md-"))
    host = MdHost(base / "a")
    save(directory, "md_not_set_up", md_table(host, MD_READS[:3]))
    setup = md_table(host, (("setup", "-y", "/dev/md0"),))
    save(directory, "md_set_up", md_table(host, MD_READS[:2] +
                                          MD_READS[3:]))
    teardown = md_table(host, (("teardown", "-y", "/dev/md0"),))
    save(directory, "md_transitions", dict(setup, **teardown))
    booted = MdHost(base / "b")
    stopped_by_the_unit(booted)
    save(directory, "md_boot_window", md_table(booted, MD_READS[:2]))
    failed = MdHost(base / "c")
    set_up(failed)
    failed.set_unit("enabled", "failed")
    save(directory, "md_failed_unit", md_table(failed, MD_READS[:3] + (
        ("setup", "-y", "/dev/md0"),)))


if __name__ == "__main__":
    main(sys.argv[1])
    main_md(sys.argv[1])
