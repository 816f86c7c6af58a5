# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A fake kernel for running the real svmram command on md (mdcli.py):
fake mdadm, modprobe, rmmod and systemctl that move a fake sysfs tree
(faketree.py, under SVMRAM_ROOT) the way the real kernel moved it in the
captured states (fixtures/vm-*.sysfs.txt), and md's sysfs write
semantics for the member state attribute.

Simplifications, all on the side of the kernel: a recovery or an
initial resync ends at once (the added member is in sync), `--create`
knows only the array the VM created (md0 of ram0, vda and vdb), and
only the commands svmram's md plans use are known; anything else exits
2.

A member that `mdadm --remove` took out lingers as md leaves it on a
real kernel for a moment (drivers/md/md.c: unbind_rdev_from_array sets
rdev->mddev to NULL at once and deletes the member's sysfs directory
later, from a work queue; meanwhile rdev_attr_show answers -ENODEV): its
directory stays, marked with the file REMOVED, until the next fake
command starts, and every read of a file there fails with ENODEV
(sysfs_read, which the tests put at svmram's seam md.host.sysfs_read),
as the kernel's show does.  Each
such read is counted in the file ENODEV_READS (under the root).

Failure injection: a file FAIL (under the root) holding a command line
prefix ("mdadm --grow") makes the first matching command fail, with
exit 1 and a message (the file's second line, if it has one), changing
nothing; the file is then removed.

md's thread giving a spare its slot, a moment later (md_check_recovery
-> remove_and_add_spares): a file MD_THREAD (under the root) holding a
number K makes the K-th read of an array_state from then on (one per
observation of the array) give every slotless member that is not faulty
the lowest free slot and end its recovery at once (raid1_add_disk takes
the slot the member had, rdev->saved_raid_disk, only while it is free).
`mdadm ARRAY --re-add DISK` puts a disk back in the lowest free slot,
in sync and with the write-mostly flag its superblock keeps (md.c
super_1_validate); it fails as mdadm does for a disk that is not a block
device or is already a member.

A copy into RAM that goes on after the command that started it (the
boot's restore returns while md copies): a file RECOVERING (under the
root) makes the next member added (`--add`, `--grow --add`) a spare md
recovers into its slot, as fixtures/vm-restoring shows it (sync_action
"recover", degraded 1); the file is then removed.  A test ends that
copy by writing the tree (test_speed_limit.copied).

A disk's sequential read (host.disk_read, which check and setup time for
their time-to-RAM estimate): the tree has no /dev nodes, so it fails as
opening a missing /dev/vda does, unless a file DISK_READ_MBS (under the
root) gives the disk's rate: "vda 180" lines, MB/s.

systemctl keeps each unit's state in fake-systemd/UNIT (under the root):
"enabled active", "disabled inactive"...; the unit counts as installed
when lib/systemd/system/svmram@.service exists under the root.
"""

import errno
import os
import sys

import faketree

FAIL = "FAIL"
MD_THREAD = "MD_THREAD"
REMOVED = ".removed"      # marks a member directory md is deleting
ENODEV_READS = "ENODEV_READS"
DISK_READ_MBS = "DISK_READ_MBS"
RECOVERING = "RECOVERING"
UNIT_FILE = "/lib/systemd/system/svmram@.service"


def root():
    return os.environ["SVMRAM_ROOT"]


def md(array, attr=""):
    return "/sys/block/%s/md/%s" % (array, attr)


def read(path):
    with open(faketree.path_in(root(), path)) as stream:
        return stream.read().strip()


def exists(path):
    return os.path.lexists(faketree.path_in(root(), path))


def members(array):
    return [entry[4:] for entry in sorted(os.listdir(
        faketree.path_in(root(), md(array)))) if entry.startswith("dev-")
        and not exists(md(array, entry + "/" + REMOVED))]


def free_slot(array):
    slots = [int(read(md(array, "dev-%s/slot" % m))) for m in members(array)
             if read(md(array, "dev-%s/slot" % m)) != "none"]
    return min(set(range(len(slots) + 1)) - set(slots))


def add_member(array, dev, state="in_sync"):
    base = md(array, "dev-" + dev)
    free = free_slot(array)
    for attr, value in (("errors", "0"), ("offset", "2048"),
                        ("new_offset", "2048"), ("recovery_start", "none"),
                        ("size", read(md(array, "component_size"))),
                        ("slot", str(free)), ("state", state)):
        faketree.write(root(), "%s/%s" % (base, attr), value)
    faketree.write(root(), "/sys/block/%s/holders/%s" % (dev, array), "")


def added(array, dev):
    """After add_member: the member recovering, once, when RECOVERING
    asks for it."""
    flag = faketree.path_in(root(), "/" + RECOVERING)
    if not os.path.exists(flag):
        return
    os.unlink(flag)
    total = int(read(md(array, "component_size"))) * 2
    for attr, value in (("dev-%s/state" % dev, "spare"),
                        ("dev-%s/recovery_start" % dev, "0"),
                        ("sync_action", "recover"),
                        ("sync_completed", "0 / %d" % total),
                        ("degraded", "1")):
        faketree.write(root(), md(array, attr), value)


def md_thread(array="md0"):
    """md's thread: each slotless member that is not faulty gets the
    lowest free slot, and (the fake's recoveries end at once) is in
    sync."""
    for member in members(array):
        state = read(md(array, "dev-%s/state" % member)).split(",")
        if read(md(array, "dev-%s/slot" % member)) != "none" or \
                "faulty" in state:
            continue
        faketree.write(root(), md(array, "dev-%s/slot" % member),
                       str(free_slot(array)))
        faketree.write(root(), md(array, "dev-%s/state" % member), ",".join(
            ["in_sync"] + [w for w in state if w == "write_mostly"]))
    faketree.write(root(), md(array, "degraded"), "0")


def array_state_read(path):
    """Count a read of md/array_state (sysfs_read); the K-th since
    MD_THREAD was written runs md_thread()."""
    fire = faketree.path_in(root(), "/" + MD_THREAD)
    if not path.endswith("/md/array_state") or not os.path.exists(fire):
        return
    with open(fire) as stream:
        left = int(stream.read()) - 1
    if left > 0:
        with open(fire, "w") as stream:
            stream.write("%d\n" % left)
        return
    os.unlink(fire)
    md_thread(path.split("/")[-3])


def remove_member(array, dev):
    """The member leaves the array at once; its directory lingers (see
    the module's docstring) until delete_removed() runs."""
    faketree.write(root(), md(array, "dev-%s/%s" % (dev, REMOVED)), "")
    faketree.remove(root(), "/sys/block/%s/holders/%s" % (dev, array))


def delete_removed():
    """md's work queue catching up: the directories of the members
    removed earlier go."""
    top = faketree.path_in(root(), "/sys/block")
    for array in os.listdir(top) if os.path.isdir(top) else ():
        base = os.path.join(top, array, "md")
        if not os.path.isdir(base):
            continue
        for entry in os.listdir(base):
            if entry.startswith("dev-") and os.path.exists(
                    os.path.join(base, entry, REMOVED)):
                faketree.remove(root(), md(array, entry))


def is_removed(path):
    """Whether `path` (a real path) is an attribute of a member md is
    deleting: reading it fails with ENODEV."""
    return os.path.exists(os.path.join(os.path.dirname(path), REMOVED))


def count_enodev():
    path = faketree.path_in(root(), "/" + ENODEV_READS)
    count = 0
    if os.path.exists(path):
        with open(path) as stream:
            count = int(stream.read())
    with open(path, "w") as stream:
        stream.write("%d\n" % (count + 1))


def mdadm(args):
    """The forms md/steps.py builds."""
    if args[:1] == ["--create"]:
        # Only the array the VM created (fixtures/vm-after-setup-new):
        # md0 of ram0 and the write-mostly vda and vdb.
        if args != ["--create", "/dev/md0", "--run", "--metadata=1.2",
                    "--level=1", "--raid-devices=3", "--bitmap=internal",
                    "/dev/ram0", "--write-mostly", "/dev/vda", "/dev/vdb"]:
            return usage(args)
        faketree.build(root(), faketree.fixture(
            "vm-after-setup-new.sysfs.txt"), meminfo=None)
        return 0
    if args[:1] == ["--grow"] and args[2:] == ["--bitmap=internal"]:
        return grow_bitmap(args[1][len("/dev/"):])
    if args[:1] == ["--grow"]:
        array = args[1][len("/dev/"):]
        count = int(args[2].split("=", 1)[1])
        rest = args[3:]
        if rest[:1] == ["--add"]:
            add_member(array, rest[1][len("/dev/"):])
            added(array, rest[1][len("/dev/"):])
            rest = rest[2:]
        if rest not in ([], ["--force"]):
            return usage(args)
        faketree.write(root(), md(array, "raid_disks"), str(count))
        return 0
    if len(args) == 5 and args[1] == "--fail" and args[3] == "--remove" \
            and args[2] == args[4]:
        remove_member(args[0][len("/dev/"):], args[2][len("/dev/"):])
        return 0
    if len(args) == 3 and args[1] == "--fail":
        # A member md recovers: md stops the recovery and takes the
        # faulty member out of its slot; it stays listed until removed.
        array, dev = args[0][len("/dev/"):], args[2][len("/dev/"):]
        # md.c state_show: "faulty", then the flags that stay, such as
        # write_mostly (mdstat's "(W)(F)").
        flags = read(md(array, "dev-%s/state" % dev)).strip().split(",")
        state = ",".join(["faulty"] + [f for f in flags
                                       if f == "write_mostly"])
        for attr, value in (("dev-%s/state" % dev, state),
                            ("dev-%s/slot" % dev, "none"),
                            ("sync_action", "idle"),
                            ("sync_completed", "none")):
            faketree.write(root(), md(array, attr), value)
        stale_mdstat()
        return 0
    if len(args) == 3 and args[1] == "--add":
        # A disk back in a degraded array (a test's setting; steps.add
        # adds the RAM member so too): md's work queue has deleted the
        # directory of its removal by then.
        delete_removed()
        add_member(args[0][len("/dev/"):], args[2][len("/dev/"):])
        added(args[0][len("/dev/"):], args[2][len("/dev/"):])
        stale_mdstat()
        return 0
    if len(args) == 3 and args[1] == "--re-add":
        array, disk = args[0][len("/dev/"):], args[2][len("/dev/"):]
        if not exists("/sys/class/block/" + disk) or \
                disk in members(array):
            sys.stderr.write("mdadm: Cannot open %s: Device or resource "
                             "busy\n" % args[2])
            return 1
        delete_removed()
        add_member(array, disk, "in_sync,write_mostly")
        stale_mdstat()
        return 0
    if len(args) == 3 and args[1] == "--remove":
        remove_member(args[0][len("/dev/"):], args[2][len("/dev/"):])
        return 0
    return usage(args)


def grow_bitmap(array):
    """mdadm --grow /dev/mdX --bitmap=internal, as mdadm 4.2 to 4.6 do it
    (Grow.c Grow_addbitmap: refused when the array has a bitmap, "bitmap
    already present on /dev/mdX"); the kernel then shows the bitmap at 8
    sectors after a 1.2 superblock, as the captured trees
    (fixtures/vm-after-teardown.sysfs.txt)."""
    kind, location = md(array, "bitmap_type"), md(array, "bitmap/location")
    if exists(kind) and "[llbitmap]" in read(kind) or \
            exists(location) and read(location) != "none":
        sys.stderr.write("mdadm: bitmap already present on /dev/%s\n"
                         % array)
        return 1
    faketree.write(root(), md(array, "bitmap/location"), "+8")
    return 0


def stale_mdstat():
    """The fake keeps no /proc/mdstat; one a test wrote goes when a
    command changes what it shows."""
    path = faketree.path_in(root(), "/proc/mdstat")
    if os.path.exists(path):
        os.unlink(path)


def modprobe(args):
    if args[:2] != ["brd", "rd_nr=1"] or len(args) != 3:
        return usage(args)
    size = args[2].split("=", 1)[1]
    for attr, value in (("initstate", "live"), ("parameters/rd_nr", "1"),
                        ("parameters/rd_size", size),
                        ("parameters/max_part", "1")):
        faketree.write(root(), "/sys/module/brd/" + attr, value)
    faketree.write(root(), "/sys/block/ram0/size", str(int(size) * 2))
    os.makedirs(faketree.path_in(root(), "/sys/block/ram0/holders"))
    os.symlink(faketree.path_in(root(), "/sys/block/ram0"),
               faketree.path_in(root(), "/sys/class/block/ram0"))
    return 0


def rmmod(args):
    if args != ["brd"]:
        return usage(args)
    if os.listdir(faketree.path_in(root(), "/sys/block/ram0/holders")):
        sys.stderr.write("rmmod: ERROR: Module brd is in use\n")
        return 1
    faketree.remove(root(), "/sys/module/brd")
    faketree.remove(root(), "/sys/block/ram0")
    os.unlink(faketree.path_in(root(), "/sys/class/block/ram0"))
    if not os.listdir(faketree.path_in(root(), "/sys/module")):
        os.rmdir(faketree.path_in(root(), "/sys/module"))
    return 0


def unit_state(unit):
    path = faketree.path_in(root(), "/fake-systemd/" + unit)
    if not os.path.exists(path):
        return ["disabled", "inactive"]
    with open(path) as stream:
        return stream.read().split()


def set_unit_state(unit, enabled, active):
    faketree.write(root(), "/fake-systemd/" + unit,
                   "%s %s" % (enabled, active))


def systemctl(args):
    verb, unit = args[0], args[-1]
    installed = exists(UNIT_FILE)
    if not installed:
        sys.stderr.write("Failed to get unit file state for %s: No such "
                         "file or directory\n" % unit)
        return 1
    enabled, active = unit_state(unit)
    if verb == "is-enabled":
        print(enabled)
        return 0 if enabled == "enabled" else 1
    if verb == "is-active":
        print(active)
        return 0 if active == "active" else 3
    if args == ["enable", "--now", unit]:
        set_unit_state(unit, "enabled", "active")
        return 0
    if args == ["enable", unit]:
        set_unit_state(unit, "enabled", active)
        return 0
    if args == ["start", unit]:
        set_unit_state(unit, enabled, "active")
        return 0
    if args == ["disable", unit]:
        set_unit_state(unit, "disabled", active)
        return 0
    if args == ["disable", "--now", unit]:
        # systemd runs the unit's ExecStop: svmram stop, which stands
        # aside while the teardown's journal or marker is there
        # (test_cli.py, test_stop_stands_aside_...).
        set_unit_state(unit, "disabled", "inactive")
        return 0
    return usage(args)


def usage(args):
    sys.stderr.write("fake: unexpected arguments %r\n" % (args,))
    return 2


COMMANDS = {"mdadm": mdadm, "modprobe": modprobe, "rmmod": rmmod,
            "systemctl": systemctl}


def main(name, args):
    delete_removed()
    fail = faketree.path_in(root(), FAIL)
    if os.path.exists(fail):
        with open(fail) as stream:
            lines = stream.read().splitlines()
        prefix = lines[0].split()
        if [name] + args[:len(prefix) - 1] == prefix:
            os.unlink(fail)
            sys.stderr.write((lines[1] if len(lines) > 1 else
                              "%s: injected failure" % name) + "\n")
            return 1
    return COMMANDS[name](args)


def install(bindir):
    """Fake commands in `bindir`, for SVMRAM_BINDIR."""
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(bindir, exist_ok=True)
    for name in COMMANDS:
        path = os.path.join(bindir, name)
        with open(path, "w") as stream:
            stream.write("#!%s\nimport sys\nsys.path.insert(0, %r)\n"
                         "import fakekernel\n"
                         "sys.exit(fakekernel.main(%r, sys.argv[1:]))\n"
                         % (sys.executable, here, name))
        os.chmod(path, 0o755)
    return bindir


def disk_read(full, offset, nbytes):
    """(bytes, seconds) of a timed read of the disk at `full` (a real
    path under the root), as md's host.disk_read: at the rate the test's
    DISK_READ_MBS gives it, else ENOENT as for a missing /dev node."""
    name = os.path.basename(full)
    setting = os.path.join(root(), DISK_READ_MBS)
    rates = {}
    if os.path.exists(setting):
        with open(setting) as stream:
            rates = {disk: float(mbs) for disk, mbs in (
                line.split() for line in stream if line.strip())}
    if name not in rates:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT),
                                full)
    return nbytes, nbytes / (rates[name] * 1e6)


def sysfs_read(full):
    """A read of the sysfs attribute at `full` (a real path under the
    root), as md's host.sysfs_read: that of a member md is deleting
    fails with ENODEV, as the kernel's show does (counted in
    ENODEV_READS); any other is the file's text."""
    if os.path.realpath(full).startswith(
            os.path.realpath(root()) + "/sys/") and is_removed(full):
        count_enodev()
        raise OSError(errno.ENODEV, os.strerror(errno.ENODEV))
    from svmram.md import host
    data = host.read_attribute(full)
    array_state_read(full)
    return data


def sysfs_write(full, value):
    """A write to the sysfs attribute at `full` (a real path under the
    root), as md's host.sysfs_write: md's member state attribute as the
    kernel treats a write (state_store): "writemostly" and "-writemostly"
    set and clear a flag; other attributes are written as they are."""
    if full.endswith(("/sync_speed_min", "/sync_speed_max")):
        # md shows a limit set here as local, "system" as the sysctl's.
        system = "1000" if full.endswith("min") else "200000"
        with open(full, "w") as stream:
            stream.write("%s (system)\n" % system if value == "system"
                         else "%s (local)\n" % value)
        return
    if not full.endswith("/state") or value not in ("writemostly",
                                                    "-writemostly"):
        with open(full, "w") as stream:
            stream.write(value + "\n")
        return
    with open(full) as stream:
        words = set(stream.read().strip().split(",")) - {""}
    words = words | {"write_mostly"} if value == "writemostly" else \
        words - {"write_mostly"}
    from svmram.md import parse
    with open(full, "w") as stream:
        stream.write(",".join(w for w in parse.MEMBER_FLAGS if w in words)
                     + "\n")
