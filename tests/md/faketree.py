# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fake /sys and /proc trees for the md backend's tests.

A tree is written from lines of a sysfs dump as the VM harness prints
them (tests/vm/guest-md-cycle.sh dump_state, saved under
fixtures/vm-*.sysfs.txt):

    F /sys/block/md0/md/level raid1     a file and its one line
    E /sys/block/md0/md/level           a file that reads as nothing at all
    D /sys/block/vda/holders            a directory
    L /sys/block/vda/holders/md0        a holder entry (an empty file)

Every file gets the newline the kernel ends each attribute with.
"""

import os

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "fixtures")

MEMINFO = ("MemTotal:        1000000 kB\nMemFree:          900000 kB\n"
           "MemAvailable:     900000 kB\n")


def fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8",
              newline="") as stream:
        return stream.read()


def path_in(root, path):
    return os.path.join(root, path.lstrip("/"))


def write(root, path, value):
    """One attribute: `value` plus the newline."""
    full = path_in(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as stream:
        stream.write(value + "\n")


def recovering(root, done, total=260096, array="md0", member="ram0",
               rate_kib=None):
    """md recovering into `member` of `array`, `done` of `total` sectors
    copied: the member's state and recovery_start, the array's
    sync_action, sync_completed and degraded, as md shows them then;
    with `rate_kib`, md/sync_speed too (KiB/s)."""
    md = "/sys/block/%s/md/" % array
    for attr, value in (("dev-%s/state" % member, ""),
                        ("dev-%s/recovery_start" % member, str(done)),
                        ("sync_action", "recover"),
                        ("sync_completed", "%d / %d" % (done, total)),
                        ("degraded", "1")) + (
                            () if rate_kib is None else
                            (("sync_speed", str(rate_kib)),)):
        write(root, md + attr, value)


def remove(root, path):
    full = path_in(root, path)
    if os.path.isdir(full):
        for dirpath, dirs, files in os.walk(full, topdown=False):
            for name in files:
                os.unlink(os.path.join(dirpath, name))
            for name in dirs:
                os.rmdir(os.path.join(dirpath, name))
        os.rmdir(full)
    elif os.path.exists(full):
        os.unlink(full)


def build(root, dump, meminfo=MEMINFO, block_links=True):
    """Write the dump's files under root, plus /proc/meminfo, and
    /sys/class/block/X for each /sys/block/X (a copy: the kernel's are
    symlinks)."""
    for line in dump.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "F":
            path, _, value = rest.partition(" ")
            write(root, path, value)
        elif kind == "E":
            full = path_in(root, rest)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").close()
        elif kind == "D":
            os.makedirs(path_in(root, rest), exist_ok=True)
        elif kind == "L":
            os.makedirs(os.path.dirname(path_in(root, rest)), exist_ok=True)
            open(path_in(root, rest), "w").close()
        elif line.strip():
            raise ValueError("bad dump line %r" % line)
    if meminfo is not None:
        os.makedirs(path_in(root, "/proc"), exist_ok=True)
        with open(path_in(root, "/proc/meminfo"), "w") as stream:
            stream.write(meminfo)
    if block_links and os.path.isdir(path_in(root, "/sys/block")):
        os.makedirs(path_in(root, "/sys/class/block"), exist_ok=True)
        for name in os.listdir(path_in(root, "/sys/block")):
            link = path_in(root, "/sys/class/block/" + name)
            if not os.path.lexists(link):
                os.symlink(path_in(root, "/sys/block/" + name), link)
    return root
