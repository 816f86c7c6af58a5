# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""bench/md's guest side: set up md0 (ram0 + the write-mostly disk vda)
with the installed svmram command (/usr/sbin/svmram), fill it, and
measure, in one run, O_DIRECT reads through the array against the bare
RAM disk and the bare disk:
sequential (1 MiB) and random (4 KiB); the share of the array's bytes the
disk served; then stop and restore (the boot unit's two halves) and md's
recovery onto the fresh RAM member against the disk's sequential read.
Prints "BENCH <key> <value>" lines; bench/md turns them into ratios.
A benchmark, not a test: nothing here passes or fails on speed.
"""

import mmap
import os
import random
import subprocess
import sys
import time

MD = "md0"
SVMRAM = "/usr/sbin/svmram"
MIB = 1 << 20


def out(key, value):
    print("BENCH %s %s" % (key, value))
    sys.stdout.flush()


def sectors_read(dev):
    with open("/sys/block/%s/stat" % dev) as stream:
        return int(stream.read().split()[2])


def size_bytes(dev):
    with open("/sys/block/%s/size" % dev) as stream:
        return int(stream.read()) * 512


def drop_caches():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as stream:
        stream.write("3")


def read_rate(dev, block, count, offsets=None, skip=0):
    """MB/s of `count` O_DIRECT reads of `block` bytes: sequential from
    `skip`, or at `offsets`."""
    buf = mmap.mmap(-1, block)
    fd = os.open("/dev/" + dev, os.O_RDONLY | os.O_DIRECT)
    try:
        drop_caches()
        start = time.monotonic()
        for i in range(count):
            where = offsets[i] if offsets else skip + i * block
            if os.preadv(fd, [buf], where) != block:
                raise SystemExit("short read on %s" % dev)
        took = time.monotonic() - start
    finally:
        os.close(fd)
    return block * count / took / 1e6


def md_attr(name):
    with open("/sys/block/%s/md/%s" % (MD, name)) as stream:
        return stream.read().strip()


def wait_recovery():
    while md_attr("degraded") != "0" or md_attr("sync_action") != "idle":
        time.sleep(0.05)


def svmram(*args):
    """Run the svmram command; its exit status."""
    return subprocess.run((SVMRAM,) + args, check=False).returncode


def main():
    rc = svmram("setup", "-y", "/dev/" + MD, "--disks", "/dev/vda")
    if rc:
        raise SystemExit("setup failed: %d" % rc)
    size = size_bytes(MD)
    seq_count = size // MIB
    with open("/dev/urandom", "rb") as src, \
            open("/dev/" + MD, "r+b", buffering=0) as dst:
        for _ in range(seq_count):
            dst.write(src.read(MIB))
        os.fsync(dst.fileno())
    # the same random 4 KiB offsets on every device (data offset: the
    # array's block 0 is the disk's block offset)
    rng = random.Random(12)
    count = int(os.environ.get("BENCH_RANDOM_COUNT", "8192"))
    blocks = rng.sample(range(size // 4096), count)
    with open("/sys/block/%s/md/dev-vda/offset" % MD) as stream:
        offset = int(stream.read()) * 512
    out("array_mib", size // MIB)
    out("random_reads", count)
    # Three rounds, the devices in a different order each time, best of
    # three: under TCG the first pass over a code path also pays for its
    # translation, and the host's load moves from second to second.
    devices = ((MD, 0), ("ram0", offset), ("vda", offset))
    best = {}
    for rounds in range(3):
        for dev, base in devices[rounds:] + devices[:rounds]:
            before = sectors_read("vda")
            seq = read_rate(dev, MIB, seq_count, skip=base)
            rnd = read_rate(dev, 4096, count,
                            offsets=[base + b * 4096 for b in blocks])
            served = (sectors_read("vda") - before) * 512
            for key, value in (("seq_mbs", seq), ("rand4k_mbs", rnd)):
                key = "%s.%s" % (key, dev)
                best[key] = max(best.get(key, 0.0), value)
            if dev == MD:
                key = "disk_share_pct.%s" % dev
                best[key] = max(best.get(key, 0.0),
                                100.0 * served / (size + count * 4096))
    for key in sorted(best):
        out(key, "%.2f" % best[key])
    # the boot unit's halves: stop (shrink), then restore, timed until
    # md has recovered the fresh RAM member
    if svmram("stop", MD):
        raise SystemExit("stop failed")
    if svmram("restore", MD):
        raise SystemExit("restore failed")
    # from here on md copies; what it had copied before is left out
    done = md_attr("sync_completed")
    done = int(done.split(" / ")[0]) * 512 if "/" in done else 0
    start = time.monotonic()
    wait_recovery()
    took = time.monotonic() - start
    out("recovery_mbs", "%.1f" % ((size - done) / took / 1e6))
    out("recovery_s", "%.2f" % took)
    out("speed_limits", "min=%s max=%s" % (md_attr("sync_speed_min"),
                                           md_attr("sync_speed_max")))
    out("done", "ok")


if __name__ == "__main__":
    main()
