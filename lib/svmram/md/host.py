# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md host access: reads sysfs and /proc into a Snapshot and performs
steps.

Processes start only through the runner (programs.run_command, i.e.
run.py's run()); sysfs and /proc are read and written under `root` ("/"
on a real host, a fake tree in tests).  The backend never opens
/dev/ramN: opening one that does not exist makes brd create it
(research 2a).
"""

import errno
import mmap
import os
import time

from .. import actions
from ..backend import Host
from ..errors import ParseError, RefusedError, SvmramError
from ..execute import ResyncStatus
from ..unitescape import systemd_escape
from . import programs, parse
from .estimate import RATE_SAMPLE_BYTES
from .model import FAULTY, RECOVERING, SPARE, Array, Brd, Disk, Member
from .snapshot import Snapshot, differences

# The block of the read that measures a disk's sequential rate.
RATE_BLOCK_BYTES = 1 << 20
# How long md may leave a degraded array with a spare idle before the
# wait gives up (md's thread normally starts a recovery within a second).
START_GRACE_SECONDS = 60
# How long a boot restore waits for udev to add the recorded disks.
WAIT_DISKS_SECONDS = 20
# md's boot unit, systemd/svmram@.service; {instance}: the array's name
# as systemd escapes it (unit_name)
UNIT = "svmram@{instance}.service"
# md's sync actions that copy data onto a member (a check or repair,
# model.SCRUBS, copies nothing: resync_status does not wait for one)
SYNCING = ("resync", "recover", "reshape")
# What a read of a sysfs file that is going away fails with: ENOENT once
# it is gone, ENODEV while md deletes it (a member `mdadm --remove` took
# out: md.c unbind_rdev_from_array clears rdev->mddev at once and
# deletes the member's directory later from a work queue; meanwhile
# rdev_attr_show returns -ENODEV).
GONE = (errno.ENOENT, errno.ENODEV)


def kernel_name(root, path):
    """The kernel name (md0, sdb1) of a block device the admin named by a
    path (/dev/md0, /dev/md/data, /dev/disk/by-id/...); RefusedError for
    anything that is not a block device the kernel lists."""
    if not path.startswith("/dev/") or "\0" in path:
        raise RefusedError("%r is not a device path" % path,
                           advice="Name devices as /dev/... paths.")
    real = os.path.realpath(actions.under(root, path))
    dev = actions.under(root, "/dev")
    name = os.path.basename(real)
    if os.path.dirname(real) != os.path.realpath(dev) or not \
            os.path.exists(actions.under(root, "/sys/class/block/" + name)):
        raise RefusedError("%s is not a block device" % path,
                           advice="lsblk lists the block devices.")
    return name


def _unreadable(path, exc):
    return SvmramError("cannot read %s: %s" % (path, exc.strerror or exc),
                       advice="svmram reads md's state from /sys and /proc; "
                              "run it as root.")


# systemctl is-enabled of a unit that is not installed, on stderr with
# exit 1 (other systemd versions print "not-found" on stdout).
_NO_UNIT_FILE = "Failed to get unit file state for %s: No such file or " \
    "directory"


def _no_answer(unit, verb, result):
    """systemctl that printed no state: systemd did not answer (no bus,
    no PID 1), which is never a state of the unit, "missing" least."""
    text = result.stderr.strip().splitlines()
    return SvmramError(
        "cannot read the state of %s from systemd: %s" % (
            unit, text[0] if text else "systemctl %s exit status %d" % (
                verb, result.returncode)),
        advice="svmram status needs systemctl is-enabled and is-active to "
               "answer; it works again once 'systemctl status %s' does."
               % unit)


class MdHost(Host):
    """One array on the host (backend.Host), as execute.py drives it."""

    def __init__(self, array, root="/", runner=programs.run_command,
                 disks=(), clock=time.monotonic):
        self.array = array
        self.root = root
        self.disks = tuple(disks)       # disks to describe (a new array)
        self._run = runner
        self._clock = clock
        self._idle_since = None

    # --- reading ----------------------------------------------------------

    def _read(self, path):
        """The text of a file under root, None if it does not exist (or,
        in /sys, reads ENODEV: it is being deleted).

        md's sysfs attributes are "prealloc" files (__ATTR_PREALLOC, e.g.
        array_state): every read(2) calls their show() again and returns
        what lies past the file offset in the new text, so reading until
        EOF can glue two states together ('active\nidle\n', seen on a
        real kernel while a busy ext4 was set up).  One read(2) of a page
        gets the whole attribute from one show()."""
        if path.startswith("/sys/"):
            return self._read_once(path)
        try:
            with open(actions.under(self.root, path), encoding="utf-8",
                      errors="surrogateescape") as stream:
                return stream.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _unreadable(path, exc) from exc

    def _read_once(self, path):
        try:
            data = sysfs_read(actions.under(self.root, path))
        except OSError as exc:
            if exc.errno in GONE:
                return None
            raise _unreadable(path, exc) from exc
        return data.decode("utf-8", errors="surrogateescape")

    def _list(self, path):
        try:
            return sorted(os.listdir(actions.under(self.root, path)))
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as exc:
            raise _unreadable(path, exc) from exc

    def _exists(self, path):
        return os.path.exists(actions.under(self.root, path))

    def observe(self, intent=None, disks=()):
        """The array as a Snapshot, with the disks the constructor, the
        intent and `disks` name described (those of a new array)."""
        mounts = self._mounts()
        array = self.read_array(self.array)
        names = list(self.disks) + list(disks)
        if intent is not None:
            names += list(intent.disks)
        if array is not None:
            names += [m.name for m in array.members
                      if not m.name.startswith("ram")]
        disks = {}
        for name in dict.fromkeys(names):
            disk = self._disk(name, mounts)
            if disk is not None:
                disks[name] = disk
        meminfo = parse.meminfo(self._read("/proc/meminfo") or "")
        release = self._read("/proc/sys/kernel/osrelease")
        if release is None:
            raise SvmramError("cannot read /proc/sys/kernel/osrelease",
                              advice="svmram needs /proc mounted.")
        return Snapshot(
            target=self.array, array=array, brd=self._brd(mounts),
            disks=disks, kernel=parse.kernel_release(release),
            mem_total_kib=meminfo["MemTotal"],
            mem_available_kib=meminfo["MemAvailable"],
            mounted_on=mounts.get(self.array))

    def read_array(self, name):
        md = "/sys/block/%s/md" % name
        if not self._exists(md):
            return None
        required = {}
        for attr in ("level", "raid_disks", "array_state",
                     "metadata_version", "component_size"):
            text = self._read("%s/%s" % (md, attr))
            if text is None:
                raise SvmramError("%s/%s is missing" % (md, attr),
                                  advice="Check that md is loaded and the "
                                         "array exists (cat /proc/mdstat).")
            required[attr] = text
        state = parse.array_state(required["array_state"])
        metadata = parse.metadata_version(required["metadata_version"])
        members = tuple(member for member in (
            self._member(md, entry[4:]) for entry in self._list(md)
            if entry.startswith("dev-")) if member is not None)

        def optional(attr, parser, default, *args):
            text = self._read("%s/%s" % (md, attr))
            return default if text is None else parser(text, *args)

        return Array(
            name=name, level=parse.level(required["level"]),
            raid_disks=parse.raid_disks(required["raid_disks"])[0],
            state=state, members=members, metadata=metadata,
            component_kib=parse.uint_attr(required["component_size"],
                                          "md/component_size"),
            degraded=optional("degraded", parse.uint_attr, 0, "md/degraded"),
            sync_action=optional("sync_action", parse.sync_action, "idle"),
            sync_completed=optional("sync_completed", parse.sync_completed,
                                    None),
            sync_rate_kib=optional("sync_speed", parse.sync_rate, None),
            resync_start=optional("resync_start", parse.none_or_uint, None,
                                  "md/resync_start"),
            bitmap=self._bitmap(md, optional),
            backlog=optional("bitmap/backlog", parse.uint_attr, 0,
                             "md/bitmap/backlog"),
            speed_min=optional("sync_speed_min", parse.sync_speed,
                               (1000, False), "md/sync_speed_min"),
            speed_max=optional("sync_speed_max", parse.sync_speed,
                               (200000, False), "md/sync_speed_max"),
            mdstat_percent=self._mdstat_percent(name))

    @staticmethod
    def _bitmap(md, optional):
        """md/bitmap/location of md's classic bitmap; since kernel 6.18
        md/bitmap_type names the array's kind of bitmap, and the lockless
        one has md/llbitmap/ instead of md/bitmap/ (md-llbitmap.c
        md_llbitmap_group): then the kind ("llbitmap", or "none")."""
        kind = optional("bitmap_type", parse.bitmap_type, "bitmap")
        if kind != "bitmap":
            return kind
        return optional("bitmap/location", parse.bitmap_location, "none")

    def _mdstat_percent(self, name):
        """The percent /proc/mdstat shows for the array's resync or
        recovery, which status reports (md's sync_completed moves in
        steps of a sixteenth of the array: md.c md_do_sync).  None when
        it shows none, or when svmram cannot read it: it is for the
        report only, and sync_completed still says how far md is."""
        text = self._read("/proc/mdstat")
        if text is None:
            return None
        try:
            entry = parse.mdstat(text).get(name)
        except ParseError:
            return None
        return None if entry is None else entry["percent"]

    def _member(self, md, name):
        """The member `name`, None when it has left the array: md lists
        a removed member's directory for a moment after `mdadm --remove`
        and its files read ENODEV, then it is gone.  `state` is read
        last: a member that left while svmram read it reads as gone
        there, whatever the attributes before it said."""
        base = "%s/dev-%s" % (md, name)
        slot = self._read(base + "/slot")
        offset = self._read(base + "/offset")
        recovery = self._read(base + "/recovery_start")
        state = self._read(base + "/state")
        if state is None:
            return None
        if slot is None:
            raise SvmramError("%s/slot is missing" % base,
                              advice="Run svmram again.")
        slot = parse.slot(slot)
        if slot == "journal":
            raise RefusedError("%s has a journal device (%s)" % (
                self.array, name), advice="svmram only handles RAID-1 "
                                          "arrays without a journal.")
        return Member(
            name=name, slot=slot, flags=parse.member_state(state),
            offset_sectors=0 if offset is None else parse.uint_attr(
                offset, "md/dev-*/offset"),
            recovery_start=None if recovery is None else parse.none_or_uint(
                recovery, "md/dev-*/recovery_start"))

    def bad_block_entries(self):
        """The disk members whose bad-block log (md/dev-*/bad_blocks: one
        "SECTOR LENGTH" line an entry) has entries: {name: entries}."""
        md = "/sys/block/%s/md" % self.array
        found = {}
        for entry in self._list(md):
            name = entry[4:]
            if not entry.startswith("dev-") or name.startswith("ram"):
                continue
            text = self._read("%s/%s/bad_blocks" % (md, entry)) or ""
            count = len([line for line in text.splitlines() if line.strip()])
            if count:
                found[name] = count
        return found

    def _brd(self, mounts):
        module = "/sys/module/brd"
        devices = tuple(sorted(
            (d for d in self._list("/sys/block") if d.startswith("ram")
             and d[3:].isdigit()), key=lambda d: int(d[3:])))
        if not self._exists(module):
            return Brd(devices=devices)
        size = self._read(module + "/parameters/rd_size")
        count = self._read(module + "/parameters/rd_nr")
        holders = {}
        for dev in devices:
            held = tuple(self._list("/sys/block/%s/holders" % dev))
            if dev in mounts:
                held += ("a mount on " + mounts[dev],)
            holders[dev] = held
        return Brd(
            loaded=True, builtin=not self._exists(module + "/initstate"),
            rd_size_kib=0 if size is None else parse.uint_attr(
                size, "brd rd_size"),
            rd_nr=0 if count is None else parse.uint_attr(count, "brd rd_nr"),
            devices=devices, holders=holders)

    def _disk(self, name, mounts):
        base = "/sys/class/block/%s" % name
        size = self._read(base + "/size")
        if size is None:
            return None
        partitions = tuple(
            entry for entry in self._list(base)
            if entry.startswith(name) and
            self._exists("%s/%s/partition" % (base, entry)))
        return Disk(name=name,
                    size_sectors=parse.uint_attr(size, "block size"),
                    holders=tuple(self._list(base + "/holders")),
                    mounted_on=mounts.get(name), partitions=partitions)

    def _mounts(self):
        """Kernel block device name -> mount point, from /proc/mounts."""
        text = self._read("/proc/mounts") or ""
        found = {}
        for line in text.splitlines():
            fields = line.split(" ")
            if len(fields) < 2 or not fields[0].startswith("/dev/"):
                continue
            path = actions.under(self.root, fields[0])
            name = os.path.basename(os.path.realpath(path)) \
                if os.path.exists(path) else os.path.basename(fields[0])
            found.setdefault(name, fields[1])
        return found

    # --- the executor's interface --------------------------------------------

    def differences(self, expected, observed):
        return differences(expected, observed)

    def resync_status(self, target):
        a = self.read_array(target)
        if a is None:
            return ResyncStatus(False, problem="%s disappeared" % target)
        if a.sync_action == "frozen":
            return ResyncStatus(False, problem=(
                "md's recovery of %s is frozen (sync_action); echo idle > "
                "/sys/block/%s/md/sync_action lets it go on" % (
                    target, target)))
        pending = (a.resync_start is not None and a.running) or (
            a.degraded and any(m.role in (SPARE, RECOVERING)
                               for m in a.members))
        if a.scrubbing and not pending:
            # md's check or repair (a scrub: Debian's mdcheck) started
            # after the recovery ended: the wait is over, the scrub goes
            # on by itself.
            self._idle_since = None
            return ResyncStatus(False)
        if a.scrubbing:
            return ResyncStatus(False, problem=(
                "%s is running and md recovers %s only after it; svmram "
                "does not wait for a scrub (cat /sys/block/%s/md/"
                "sync_action says idle once it has ended)" % (
                    a.scrub_words(), target, target)))
        if a.sync_action in SYNCING:
            self._idle_since = None
            done = a.sync_completed
            percent = (done[0] * 100 // done[1]) if isinstance(
                done, tuple) and done[1] else None
            return ResyncStatus(True, percent)
        if not pending:
            self._idle_since = None
            # A member md failed (or svmram failed, as stop and teardown
            # do while md recovers the RAM member): the recovery stopped
            # short instead of ending.
            return ResyncStatus(False, stopped=any(
                m.role == FAULTY for m in a.members))
        now = self._clock()
        if self._idle_since is None:
            self._idle_since = now
        if now - self._idle_since > START_GRACE_SECONDS:
            return ResyncStatus(False, problem=(
                "md has not started the resync or recovery of %s in %d "
                "seconds (array %s, sync_action idle)" % (
                    target, START_GRACE_SECONDS, a.state)))
        return ResyncStatus(True, None)

    def disk_read_rates(self, snap, names):
        """{disk: (bytes per second, None) or (None, why not)}: each
        disk's sequential read over RATE_SAMPLE_BYTES from its data
        offset in the array (the start of the disk for a new array), as
        md's copy into RAM reads it; read-only, O_DIRECT."""
        rates = {}
        for name in names:
            member = snap.array.member(name) if snap.array else None
            offset = member.offset_sectors * 512 if member else 0
            disk = snap.disks.get(name)
            nbytes = RATE_SAMPLE_BYTES if disk is None else max(0, min(
                RATE_SAMPLE_BYTES, disk.size_sectors * 512 - offset))
            path = "/dev/" + name
            try:
                done, took = disk_read(actions.under(self.root, path),
                                       offset, nbytes)
            except OSError as exc:
                rates[name] = (None, "cannot read %s: %s" % (
                    path, exc.strerror or exc))
                continue
            rates[name] = (int(done / took), None) if done and took > 0 \
                else (None, "%s read nothing" % path)
        return rates

    def boot_service_state(self):
        """The boot unit svmram@ARRAY.service as one word: "active"
        (enabled and active, as systemctl says), "disabled", "enabled"
        (not started), "failed" or "activating" (enabled, its ExecStart
        failed or runs), None when systemd does not know the unit (not
        installed); SvmramError when systemd does not answer."""
        unit = unit_name(self.array)
        result = self._run("systemctl", ["is-enabled", unit], check=False)
        enabled = result.stdout.strip()
        if enabled == "" and result.stderr.strip() != _NO_UNIT_FILE % unit:
            raise _no_answer(unit, "is-enabled", result)
        if enabled in ("", "not-found"):
            return None
        if enabled not in ("enabled", "enabled-runtime"):
            return "disabled"
        result = self._run("systemctl", ["is-active", unit], check=False)
        active = result.stdout.strip()
        if active == "":
            # is-active prints a state whatever it is (systemctl(1)); none
            # means systemd did not answer ("Failed to connect to bus").
            raise _no_answer(unit, "is-active", result)
        if active == "active":
            return "active"
        return active if active in ("failed", "activating",
                                    "deactivating") else "enabled"

    def perform(self, step, values):
        actions.perform(step, actions.Context(
            self.root, self._run, values,
            write=lambda path, value: sysfs_write(
                actions.under(self.root, path), value)))


def read_disk_timed(path, offset, nbytes):
    """(bytes read, seconds) of reading `nbytes` of the block device at
    `path` (the real path) from byte `offset`, sequentially, 1 MiB at a
    time with O_DIRECT so that the page cache serves none of it; opened
    read-only.  OSError as the kernel fails it."""
    buf = mmap.mmap(-1, RATE_BLOCK_BYTES)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    try:
        done = 0
        start = time.monotonic()
        while done < nbytes:
            got = os.preadv(fd, [buf], offset + done)
            if got <= 0:
                break
            done += got
        return done, time.monotonic() - start
    finally:
        os.close(fd)
        buf.close()


def read_attribute(path):
    """The text of the sysfs attribute at `path` (the real path), as
    bytes, from one read(2) of a page (see MdHost._read); OSError as the
    kernel fails it."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 65536)
    finally:
        os.close(fd)


def write_attribute(path, value):
    """Write `value` to the sysfs attribute at `path` (the real path): a
    WriteFile action's write."""
    with open(path, "w", encoding="ascii") as stream:
        stream.write(value)


# The test seam for md's sysfs attributes, as run.start is for processes:
# MdHost reads every /sys file through sysfs_read and writes through
# sysfs_write.  The tests of tests/md put a model of the kernel here
# (fakekernel.py), since a file in a tree lacks md's attribute semantics:
# "writemostly" written to a member's state sets a flag, and the
# attributes of a member md is deleting read ENODEV.  Nothing else
# changes them.
sysfs_read = read_attribute
sysfs_write = write_attribute
# ... and times its read of a disk through disk_read (the fake kernel
# gives a disk's rate from a test's setting).
disk_read = read_disk_timed


def unit_name(array):
    """The boot unit of `array` (systemd/svmram@.service)."""
    return UNIT.format(instance=systemd_escape(array))


def wait_for_disks(backend, it, seconds, out, sleep=time.sleep,
                   clock=time.monotonic):
    """At boot, udev may still be adding the recorded disks to the
    (inactive) array: wait at most `seconds` until the array is running or
    holds every recorded disk, so that restore's `mdadm --run` never
    starts it short of a disk that is about to appear.  Once it runs, wait
    too (within the same bound) while a recorded disk is back but md has
    not taken it into its slot: listed as a spare (md gives it its slot
    when it starts recovering it, a moment later), or present and not in
    the array (udev's incremental assembly re-adds a disk that appears
    while its array runs; md's start left out one whose superblock is
    older); a RAM member added meanwhile would take the disk's slot
    (issue 28).  Returns the last Snapshot; what it shows then is the
    planner's to judge (restore.py re-adds a disk still out, refuses one
    still a spare)."""
    deadline = clock() + seconds
    said = False
    while True:
        snap = backend.observe(it)
        what = _waiting_for(snap, it)
        if what is None or clock() >= deadline:
            return snap
        if not said:
            out.write("restore %s: waiting up to %d s for %s\n" % (
                it.array, seconds, what))
            out.flush()
            said = True
        sleep(0.5)


def _waiting_for(snap, it):
    """What the boot's restore still waits for, in words; None: nothing."""
    a = snap.array
    if a is None:
        return "the array to be assembled"
    if not a.running:
        missing = [d for d in it.disks if a.member(d) is None]
        return None if not missing else "its disk%s %s" % (
            "s" if len(missing) > 1 else "", " ".join(missing))
    if a.member(it.ram) is not None:
        return None
    back = [d for d in it.disks if (
        a.member(d) is None and d in snap.disks and
        not snap.disks[d].holders) or (
            a.member(d) is not None and a.member(d).role == SPARE)]
    return None if not back else "md to take %s back into %s" % (
        " and ".join(back), "its slot" if len(back) == 1 else "their slots")
