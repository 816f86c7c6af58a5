# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""bench/md's guest side, one boot per disk profile (the host throttles
the virtual disk vda with QEMU's drive throttling; this side only reads
and times).

1. The installed svmram command (/usr/sbin/svmram) sets up md0 = ram0 +
   the write-mostly disk vda: a new array, whose first resync writes
   ram0 onto vda (md reads the member that is not write-mostly); setup,
   which waits for it, and the resync itself (md0's sync_action, polled
   every 50 ms) are timed.
2. The boot unit's two halves, `svmram stop` then `svmram restore`, and
   md's recovery onto the fresh RAM member, timed, against vda's read.
   This copy writes every page of ram0 (brd reads zeros, without a
   copy, where it holds no page, as after setup's resync), so the reads
   come after it, in the state a boot leaves.
3. O_DIRECT sequential 1 MiB and random 4 KiB reads of md0 and of the
   bare ram0 (the same data, the same offsets), interleaved in small
   pieces so that both see the same host load (see interleaved()), with
   the bytes vda served during md0's reads; the random reads of the bare
   vda too.  vda's sequential read, which the throttle paces, is read
   once over the whole data area.
4. The ceiling: svmram's teardown, then brd with two RAM disks
   (rd_nr=2) and a bare md RAID-1 of them (md1, an internal bitmap as
   md0 has, no disk), filled: the same reads of md1 against the bare
   ram0; then md1's recovery of ram0 from ram1.  What md costs over brd
   here, and how fast md copies from RAM into RAM, is what this
   emulator allows any md array.

Prints "BENCH <key> <value>" lines; bench/md turns them into ratios.
A benchmark, not a test: nothing here passes or fails on speed.
Knobs (kernel command line lab.*, see guest-lib.sh): LAB_RANDOM (4 KiB
reads per device), LAB_PASSES (timed passes, default 2),
LAB_CEILING_MIB (size of each of the ceiling's RAM disks, 0 to skip the
ceiling).
"""

import json
import mmap
import os
import random
import subprocess
import sys
import threading
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


def md_attr(name, md=MD):
    with open("/sys/block/%s/md/%s" % (md, name)) as stream:
        return stream.read().strip()


def wait_recovery(md=MD):
    while md_attr("degraded", md) != "0" or \
            md_attr("sync_action", md) != "idle":
        time.sleep(0.05)


def copied_bytes(md=MD):
    done = md_attr("sync_completed", md)
    return int(done.split(" / ")[0]) * 512 if "/" in done else 0


def run(*argv):
    """Run a command; its exit status."""
    print("+ " + " ".join(argv))
    sys.stdout.flush()
    return subprocess.run(argv, check=False).returncode


def svmram(*args):
    return run(SVMRAM, *args)


def timed_recovery(size, key):
    """Time md's recovery from here to its end; MB/s of what it copied
    in that time (what it had copied before is left out)."""
    done = copied_bytes()
    start = time.monotonic()
    wait_recovery()
    took = time.monotonic() - start
    out(key + "_mbs", "%.1f" % ((size - done) / took / 1e6))
    out(key + "_s", "%.2f" % took)


def status_during_copy(start):
    """`svmram status --json md0` once while md copies into ram0, when
    the copy has run a second (md's sync_speed needs its marks): the
    rate and time left it reports, and when, against the copy's real
    end (bench/md compares them).  It costs the guest's CPU for a moment,
    as an administrator's status would."""
    time.sleep(1)
    if md_attr("sync_action") not in ("recover", "resync"):
        return
    at = time.monotonic() - start
    proc = subprocess.run([SVMRAM, "status", "--json", MD],
                          stdout=subprocess.PIPE, text=True, check=False)
    try:
        [entry] = json.loads(proc.stdout)["targets"]
    except (ValueError, KeyError):
        print("status --json: exit %d, %r" % (proc.returncode,
                                               proc.stdout[:300]))
        return
    # md was read between these two
    out("status_at_s", "%.2f" % at)
    out("status_done_s", "%.2f" % (time.monotonic() - start))
    out("status_percent", entry.get("sync_percent"))
    rate = entry.get("sync_bytes_per_second")
    out("status_rate_mbs", "nan" if rate is None else "%.1f" % (rate / 1e6))
    left = entry.get("sync_seconds_left")
    out("status_left_s", "nan" if left is None else left)


def fill(dev, size):
    """Write the whole device: a 16 MiB random pattern, each MiB stamped
    with its number (brd allocates a page at its first write; every page
    of the RAM disk must hold data before it is read)."""
    pattern = bytearray(os.urandom(16 * MIB))
    with open("/dev/" + dev, "r+b", buffering=0) as dst:
        for i in range(size // MIB):
            at = (i % 16) * MIB
            pattern[at:at + 8] = i.to_bytes(8, "little")
            dst.write(pattern[at:at + MIB])
        os.fsync(dst.fileno())


served_total = [0, 0]


def interleaved(devices, block, offsets, chunks, passes, best,
                watch=None):
    """O_DIRECT reads of `block` bytes at `offsets` on each of `devices`
    ((name, byte offset of the data), ...), cut into `chunks` pieces and
    interleaved: piece k of every device, the devices in an order that
    rotates with k, then piece k+1.  The host's load moves from second
    to second; a piece takes a fraction of one, so each device sees the
    same load.  One untimed piece per device first (under TCG the first
    pass over a code path also pays for its translation), then `passes`
    timed passes; MB/s of all of them into best["<key>.<dev>"].  `watch`:
    (array, disk) whose disk reads during the array's pieces are counted
    into served_total: [bytes the disk served, bytes the array read]."""
    key = "seq_mbs" if block == MIB else "rand4k_mbs"
    buf = mmap.mmap(-1, block)
    fds = {dev: os.open("/dev/" + dev, os.O_RDONLY | os.O_DIRECT)
           for dev, _ in devices}
    took = dict.fromkeys(fds, 0.0)
    served = 0
    size = len(offsets) // chunks

    def piece(dev, base, part):
        for where in part:
            if os.preadv(fds[dev], [buf], base + where) != block:
                raise SystemExit("short read on %s" % dev)

    try:
        drop_caches()
        for dev, base in devices:
            piece(dev, base, offsets[:size])
        for _ in range(passes):
            for k in range(chunks):
                part = offsets[k * size:(k + 1) * size]
                turn = k % len(devices)
                for dev, base in devices[turn:] + devices[:turn]:
                    before = sectors_read(watch[1]) if watch else 0
                    start = time.monotonic()
                    piece(dev, base, part)
                    took[dev] += time.monotonic() - start
                    if watch and dev == watch[0]:
                        served += sectors_read(watch[1]) - before
    finally:
        for fd in fds.values():
            os.close(fd)
    total = block * size * chunks * passes
    for dev in fds:
        best["%s.%s" % (key, dev)] = total / took[dev] / 1e6
    if watch:
        served_total[0] += served * 512
        served_total[1] += total


def measure(devices, size, blocks, best, watch=None, seq=None):
    """Sequential 1 MiB reads of the whole data area on `seq` (default:
    all of `devices`), and random 4 KiB reads at `blocks` on all."""
    seq = devices if seq is None else seq
    passes = int(os.environ.get("LAB_PASSES", "2"))
    interleaved(seq, MIB, [i * MIB for i in range(size // MIB)], 64,
                passes, best, watch)
    interleaved(devices, 4096, [b * 4096 for b in blocks], 32, passes,
                best, watch)


def timed_ram_recovery(md):
    """md's recovery of ram0 from the other RAM member, all of it: the
    recovery ceiling under this emulator (no disk, no throttle)."""
    run("mdadm", "/dev/" + md, "--fail", "/dev/ram0")
    run("mdadm", "/dev/" + md, "--remove", "/dev/ram0")
    run("mdadm", "--zero-superblock", "/dev/ram0")
    with open("/sys/block/%s/md/sync_speed_max" % md, "w") as stream:
        stream.write("2147483647")  # svmram's raise (md/steps.py)
    start = time.monotonic()
    if run("mdadm", "/dev/" + md, "--add", "/dev/ram0"):
        raise SystemExit("mdadm --add ram0 failed")
    time.sleep(0.05)
    wait_recovery(md)
    took = time.monotonic() - start
    out("ceiling.recovery_mbs", "%.1f" % (size_bytes(md) / took / 1e6))
    out("ceiling.recovery_s", "%.2f" % took)


def ceiling(mib, count):
    """md1 = a bare RAID-1 of two brd RAM disks, against the bare ram0."""
    if run("modprobe", "brd", "rd_nr=2", "rd_size=%d" % (mib * 1024)):
        raise SystemExit("modprobe brd rd_nr=2 failed")
    if run("mdadm", "--create", "/dev/md1", "--run", "--level=1",
           "--raid-devices=2", "--metadata=1.2", "--bitmap=internal",
           "--assume-clean", "/dev/ram0", "/dev/ram1"):
        raise SystemExit("mdadm --create md1 failed")
    size = size_bytes("md1")
    fill("md1", size)
    with open("/sys/block/md1/md/dev-ram0/offset") as stream:
        offset = int(stream.read()) * 512
    blocks = random.Random(13).sample(range(size // 4096), count)
    best = {}
    measure((("md1", 0), ("ram0", offset)), size, blocks, best)
    out("ceiling_mib", size // MIB)
    for key in sorted(best):
        out("ceiling." + key, "%.2f" % best[key])
    timed_ram_recovery("md1")
    run("mdadm", "--stop", "/dev/md1")
    run("rmmod", "brd")


def main():
    count = int(os.environ.get("LAB_RANDOM", "8192"))
    ceiling_mib = int(os.environ.get("LAB_CEILING_MIB", "1024"))
    disk_mbs = os.environ.get("LAB_DISK_MBS", "")
    out("profile", os.environ.get("LAB_PROFILE", "unthrottled"))
    with open("/proc/meminfo") as stream:
        out("guest_mem_mib", int(stream.readline().split()[1]) // 1024)
    # 1. setup, which creates md0 from ram0 and vda and waits for md's
    # first resync (ram0 onto vda: a new array); a thread watches md0's
    # sync_action meanwhile to time the resync itself
    copying = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            try:
                # "resync": setup creates md0 with both members
                if md_attr("sync_action") in ("resync", "recover"):
                    copying.append(time.monotonic())
            except OSError:
                pass
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    start = time.monotonic()
    if svmram("setup", "-y", "/dev/" + MD, "--disks", "/dev/vda"):
        raise SystemExit("setup failed")
    out("setup_s", "%.2f" % (time.monotonic() - start))
    stop.set()
    watcher.join()
    size = size_bytes(MD)
    out("array_mib", size // MIB)
    out("random_reads", count)
    wait_recovery()
    if len(copying) > 1:
        took = copying[-1] - copying[0]
        out("setup_resync_mbs", "%.1f" % (size / took / 1e6))
        out("setup_resync_s", "%.2f" % took)
    # 2. the boot unit's halves: stop (shrink, brd unloaded), then
    # restore, timed until md has recovered the fresh RAM member from vda.
    # Only this copy writes every page of ram0: setup's resync read ram0
    # while brd held no page (brd reads zeros for those, with no copy),
    # so the reads are measured after it, as after a boot.
    if svmram("stop", MD):
        raise SystemExit("stop failed")
    start = time.monotonic()
    if svmram("restore", MD):
        raise SystemExit("restore failed")
    out("restore_s", "%.2f" % (time.monotonic() - start))
    limits = "min=%s max=%s" % (md_attr("sync_speed_min"),
                                md_attr("sync_speed_max"))
    status_during_copy(start)
    timed_recovery(size, "recovery")
    # time to RAM: from the restore's start until every read can come
    # from RAM (the RAM member in sync), what a boot waits
    out("to_ram_s", "%.2f" % (time.monotonic() - start))
    out("speed_limits", limits)
    with open("/sys/block/%s/md/dev-vda/offset" % MD) as stream:
        offset = int(stream.read()) * 512
    # 3. the same random 4 KiB offsets on every device (data offset: the
    # array's block 0 is the disk's block `offset`)
    blocks = random.Random(12).sample(range(size // 4096), count)
    best = {}
    measure(((MD, 0), ("ram0", offset), ("vda", offset)), size, blocks,
            best, watch=(MD, "vda"), seq=((MD, 0), ("ram0", offset)))
    best["seq_mbs.vda"] = read_rate("vda", MIB, size // MIB, skip=offset)
    best["disk_share_pct.md0"] = 100.0 * served_total[0] / served_total[1]
    for key in sorted(best):
        out(key, "%.2f" % best[key])
    if disk_mbs:
        out("throttle_mbs", disk_mbs)
    # 4. the ceiling, once svmram has let go of brd
    if ceiling_mib:
        if svmram("teardown", "-y", MD):
            raise SystemExit("teardown failed")
        if os.path.exists("/sys/module/brd"):
            run("rmmod", "brd")
        ceiling(ceiling_mib, count)
    out("done", "ok")


if __name__ == "__main__":
    main()
