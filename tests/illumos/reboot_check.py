#!/usr/bin/python3
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""reboot_check.py: svmram and its boot service across a real reboot.

pytest cannot survive a reboot, so this runs in two phases, as root, on a
scratch illumos host prepared as docs/testing-on-a-real-host.md says
(svmram installed from this checkout, state database replicas, two spare
slices whose data may be destroyed):

    SVMRAM_TEST_DISKS="c2t1d0s0 c2t2d0s0" \\
        python3 tests/illumos/reboot_check.py before-reboot [--mount-at-boot]
    reboot
    python3 tests/illumos/reboot_check.py after-reboot [--timeout SECONDS]
    python3 tests/illumos/reboot_check.py cleanup        (after a failure)

before-reboot makes the same checks as the real-host scenario tests, builds
the article's layout (d10 = mirror of d11 and d12 on the two slices, a UFS
on it mounted on /mnt), writes a file of random data on it, runs the
installed `svmram setup -y d10` and records what to expect in
/var/tmp/svmram-reboot/state.json.  With --mount-at-boot it also adds d10 to
/etc/vfstab (two lines, marked, removed again), as in the article; without
it, the boot-time `metasync -r` is the mirror's first open.

after-reboot refuses unless the host has rebooted since, then checks:
svc:/system/svmram:d10 came online; the ramdisk exists again; d13 is in
slot 0, Resyncing or Okay, with read option first; the copy into RAM ends
(`svmram status d10` exits 0); the file reads back unchanged; and raw reads
of d10 cost the disks (almost) nothing, so they are served from RAM.  It
prints one PASS/FAIL line per check (also in /var/tmp/svmram-reboot/
report.txt), removes everything (unless --keep), and exits 0 only if every
check passed.  Standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scenario"))

import preflight  # noqa: E402
from hosts import RealHost, real, run_real  # noqa: E402

STATE_DIR = os.environ.get("SVMRAM_REBOOT_DIR", "/var/tmp/svmram-reboot")
SVMRAM = "/usr/sbin/svmram"       # what the boot service runs
MIRROR, RAM = "d10", "d13"
FMRI = preflight.SERVICE + ":" + MIRROR
DATA = os.path.join(preflight.MOUNT_POINT, "svmram-reboot-check.dat")
DATA_MIB = 8
READ_MIB = 64                     # raw read of d10 for the iostat check
VFSTAB = "/etc/vfstab"
VFSTAB_MARK = "# svmram reboot_check.py: the next line is its own; " \
              "reboot_check.py cleanup removes both"
VFSTAB_LINE = "/dev/md/dsk/%s\t/dev/md/rdsk/%s\t%s\tufs\t2\tyes\t-" % (
    MIRROR, MIRROR, preflight.MOUNT_POINT)
USAGE, FAILED = 2, 1


# --- pure helpers (tested off illumos) ---------------------------------------

def parse_iostat(text):
    """`iostat -xnI` output -> {device: kilobytes read}; None when the
    header is not understood."""
    column, table = None, {}
    for line in text.splitlines():
        fields = line.split()
        if fields and fields[-1] == "device":
            kr = [i for i, name in enumerate(fields) if name.startswith("kr/")]
            column, width = (kr[0], len(fields)) if kr else (None, 0)
            continue
        if column is not None and len(fields) == width:
            try:
                table[fields[-1]] = float(fields[column])
            except ValueError:
                return None
    return table if column is not None else None


def ram_first(metastat_p, mirror=MIRROR, ram=RAM):
    """(ok, detail): the mirror's line in `metastat -p` has the RAM
    submirror first and the read option first (-r)."""
    for line in metastat_p.splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[0] == mirror and fields[1] == "-m":
            subs = []
            for field in fields[2:]:
                if field.startswith("-") or field.isdigit():
                    break
                subs.append(field.rsplit("/", 1)[-1])
            ok = bool(subs) and subs[0] == ram and "-r" in fields
            return ok, line.strip()
    return False, "no mirror line for %s in metastat -p" % mirror


def submirror_state(metastat, slot=0):
    """(name, state) of a mirror's submirror in plain `metastat` output."""
    match = re.search(r"Submirror %d: (\S+)\n\s+State: (.+?)\s*\n" % slot,
                      metastat)
    return (match.group(1), match.group(2)) if match else (None, None)


def add_vfstab(path):
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    if VFSTAB_MARK in text:
        return
    if text and not text.endswith("\n"):
        text += "\n"
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text + VFSTAB_MARK + "\n" + VFSTAB_LINE + "\n")


def remove_vfstab(path):
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines(True)
    kept, skip = [], False
    for line in lines:
        if skip and line.rstrip("\n") == VFSTAB_LINE:
            skip = False
            continue
        skip = line.rstrip("\n") == VFSTAB_MARK
        if not skip:
            kept.append(line)
    if kept != lines:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write("".join(kept))


# --- on the host -------------------------------------------------------------

class Report:
    def __init__(self, path):
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        self.stream = open(path, "a", encoding="utf-8")
        self.failed = 0

    def say(self, text=""):
        print(text, flush=True)
        self.stream.write(text + "\n")
        self.stream.flush()

    def check(self, name, ok, detail):
        self.failed += 0 if ok else 1
        self.say("%s  %s: %s" % ("PASS" if ok else "FAIL", name, detail))
        return ok


def state_path():
    return os.path.join(STATE_DIR, "state.json")


def save_state(state):
    os.makedirs(STATE_DIR, mode=0o700, exist_ok=True)
    with open(state_path(), "w", encoding="utf-8") as stream:
        json.dump(state, stream, indent=1)


def load_state():
    try:
        with open(state_path(), encoding="utf-8") as stream:
            return json.load(stream)
    except FileNotFoundError:
        return None


def boot_time():
    result = real("kstat", "-p", "unix:0:system_misc:boot_time")
    fields = result.stdout.split()
    return fields[1] if len(fields) == 2 else None


def svmram(*args):
    return run_real([SVMRAM] + list(args))


MIB = 1024 * 1024


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(MIB), b""):
            digest.update(block)
    return digest.hexdigest()


def refuse(message):
    print("reboot_check.py: " + message, file=sys.stderr)
    return USAGE


def geteuid():
    return os.geteuid() if hasattr(os, "geteuid") else -1


def system_problems():
    return preflight.system_problems(
        os.uname().sysname, geteuid(), run="reboot_check.py",
        elsewhere="reboot_check.py needs a scratch illumos host (the "
                  "scenario tests cover the emulator's reboots)")


def configured(phase, slices):
    """The two slices, or a Refusal that says what is wrong."""
    value = " ".join(slices) or os.environ.get("SVMRAM_TEST_DISKS", "")
    problems = system_problems()
    if phase == "before-reboot":
        problems += preflight.disk_problems(
            value, os.uname().sysname == "SunOS", os.path.exists)
    if problems:
        raise preflight.Refusal("%s cannot run here:" % phase, problems,
                                "See %s." % preflight.DOC)
    return value.split()


def before_reboot(args):
    slices = configured("before-reboot", args.slices)
    if load_state() is not None:
        return refuse("%s exists: a run is pending; run after-reboot or "
                      "cleanup first." % state_path())
    report = Report(os.path.join(STATE_DIR, "report.txt"))
    report.say("reboot_check.py before-reboot: %s; %s" % (
        time.strftime("%Y-%m-%d %H:%M:%S"), " ".join(os.uname())))
    host = RealHost(os.path.join(STATE_DIR, "work"), slices)
    try:
        host.build("article")
    except preflight.Refusal as refusal:
        return refuse(str(refusal))
    except Exception as exc:        # a command failed; build removed it all
        report.say("FAIL  building the article's layout: %s" % exc)
        return FAILED
    state = {"slices": slices, "baseline": host.baseline,
             "boot_time": boot_time(), "mount_at_boot": args.mount_at_boot,
             "size_blocks": host.size_blocks}
    save_state(state)
    with open(DATA, "wb") as stream:
        stream.write(os.urandom(DATA_MIB * MIB))
        stream.flush()
        os.fsync(stream.fileno())
    state["sha256"] = sha256(DATA)
    setup = svmram("setup", "-y", MIRROR)
    report.say("$ %s setup -y %s\n%s%s" % (SVMRAM, MIRROR, setup.stdout,
                                           setup.stderr))
    ok = report.check("setup", setup.returncode == 0,
                      "exit status %d" % setup.returncode)
    status = svmram("status", MIRROR)
    ok = report.check("serving from RAM before the reboot",
                      status.returncode == 0, status.stdout.strip()) and ok
    for name in ("ramdisk", "link", "ram"):
        prop = real("svcprop", "-p", "svmram/" + name, FMRI)
        state[name] = prop.stdout.strip()
    if args.mount_at_boot:
        add_vfstab(VFSTAB)
        report.say("added d10 to %s (mounted at boot on %s)" % (
            VFSTAB, preflight.MOUNT_POINT))
    save_state(state)
    if not ok:
        report.say("Not rebooting into a broken setup: fix it, then run "
                   "reboot_check.py cleanup.")
        return FAILED
    report.say("\nNow reboot (`reboot`), then run as root:\n"
               "    python3 %s after-reboot" % os.path.abspath(__file__))
    return 0


def wait_service(timeout):
    deadline = time.time() + timeout
    while True:
        result = real("svcs", "-H", "-o", "state,nstate", FMRI)
        fields = result.stdout.split()
        if len(fields) == 2 and fields[1] == "-" and fields[0] in (
                "online", "maintenance", "disabled", "degraded"):
            return fields[0]
        if time.time() > deadline:
            return (result.stdout.strip() or result.stderr.strip() or
                    "no state") + " (gave up waiting)"
        time.sleep(5)


def wait_serving(timeout):
    deadline = time.time() + timeout
    while True:
        status = svmram("status", MIRROR)
        if status.returncode == 0 or time.time() > deadline:
            return status
        time.sleep(10)


def disk_reads(disks):
    table = parse_iostat(real("iostat", "-xnI").stdout)
    if table is None or any(disk not in table for disk in disks):
        return None
    return sum(table[disk] for disk in disks)


def after_reboot(args):
    state = load_state()
    if state is None:
        return refuse("nothing recorded in %s: run before-reboot first."
                      % state_path())
    if state.get("boot_time") and boot_time() == state["boot_time"]:
        return refuse("this host has not rebooted since before-reboot "
                      "(kstat unix:0:system_misc:boot_time is unchanged).")
    report = Report(os.path.join(STATE_DIR, "report.txt"))
    report.say("\nreboot_check.py after-reboot: %s; %s" % (
        time.strftime("%Y-%m-%d %H:%M:%S"), " ".join(os.uname())))
    service = wait_service(args.timeout)
    if not report.check("the boot service", service == "online",
                        "%s is %s" % (FMRI, service)):
        report.say(real("svcs", "-xv", FMRI).stdout)
        log = "/var/svc/log/system-svmram:%s.log" % MIRROR
        report.say("".join(open(log, encoding="utf-8",
                                errors="replace").readlines()[-20:])
                   if os.path.exists(log) else "(no %s)" % log)
    listing = real("ramdiskadm").stdout
    report.check("the ramdisk is back",
                 "/dev/ramdisk/%s " % state.get("ramdisk") in listing,
                 listing.strip() or "(ramdiskadm lists nothing)")
    ok, line = ram_first(real("metastat", "-p", MIRROR).stdout)
    report.check("RAM submirror in slot 0, read option first", ok, line)
    name, sub = submirror_state(real("metastat", MIRROR).stdout)
    report.check("slot 0 right after boot", name == RAM and sub in (
        "Okay", "Resyncing"), "Submirror 0: %s, State: %s" % (name, sub))
    status = wait_serving(args.timeout)
    report.check("the copy into RAM ends: svmram status %s" % MIRROR,
                 status.returncode == 0, status.stdout.strip() or
                 status.stderr.strip())
    if not state.get("mount_at_boot"):
        real("mount", "-F", "ufs", "/dev/md/dsk/" + MIRROR,
             preflight.MOUNT_POINT)
    try:
        same = sha256(DATA) == state.get("sha256")
        detail = "%s %s" % (DATA, "reads back unchanged" if same else
                            "DIFFERS from what was written")
    except OSError as exc:
        same, detail = False, "cannot read %s: %s" % (DATA, exc)
    report.check("the data after the reboot", same, detail)
    disks = [preflight.split_slice(s)[0] for s in state["slices"]]
    before = disk_reads(disks)
    read_mib = min(READ_MIB, state["size_blocks"] // 2048)
    real("dd", "if=/dev/md/rdsk/" + MIRROR, "of=/dev/null", "bs=1024k",
         "count=%d" % read_mib)
    after = disk_reads(disks)
    if before is None or after is None:
        report.say("NOT CHECKED  reads from RAM: iostat -xnI shows no "
                   "kr/ column for %s:\n%s" % (" ".join(disks),
                                               real("iostat", "-xnI").stdout))
    else:
        read_kb = after - before
        report.check("raw reads of %s come from RAM" % MIRROR,
                     read_kb < read_mib * 1024 / 10,
                     "reading %d MiB of /dev/md/rdsk/%s read %.0f KB from "
                     "the disks %s" % (read_mib, MIRROR, read_kb,
                                       " ".join(disks)))
    report.say("%d check(s) failed." % report.failed if report.failed else
               "Every check passed.")
    if args.keep:
        report.say("Kept everything (--keep); run reboot_check.py cleanup "
                   "when done.")
    else:
        left = clean_up(state)
        report.say("Removed everything." if not left else
                   "Could not remove: " + "; ".join(left))
    report.say("Report: %s" % os.path.join(STATE_DIR, "report.txt"))
    return FAILED if report.failed else 0


def clean_up(state):
    teardown = svmram("teardown", "-y", MIRROR)
    if teardown.returncode != 0:
        print(teardown.stderr, file=sys.stderr)
    if state.get("mount_at_boot"):
        remove_vfstab(VFSTAB)
    host = RealHost(os.path.join(STATE_DIR, "work"), state["slices"],
                    baseline=state["baseline"])
    left = host.close()
    if not left:
        os.unlink(state_path())
    return left


def cleanup(args):
    state = load_state()
    if state is None:
        print("reboot_check.py: nothing recorded in %s; nothing to remove."
              % state_path())
        return 0
    left = clean_up(state)
    if left:
        print("reboot_check.py: could not remove: " + "; ".join(left),
              file=sys.stderr)
        return FAILED
    print("reboot_check.py: removed everything.")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(
        prog="reboot_check.py",
        description="svmram across a real reboot (run as root on a scratch "
                    "illumos host; see docs/testing-on-a-real-host.md)")
    phases = parser.add_subparsers(dest="phase", metavar="PHASE")
    first = phases.add_parser("before-reboot", help="build, set up, record")
    first.add_argument("slices", nargs="*", help="two spare slices (or "
                       "SVMRAM_TEST_DISKS)")
    first.add_argument("--mount-at-boot", action="store_true",
                       help="add d10 to /etc/vfstab for the reboot")
    second = phases.add_parser("after-reboot", help="check, then remove")
    second.add_argument("--timeout", type=int, default=3600,
                        help="longest wait for the service and the copy "
                             "(seconds, default 3600)")
    second.add_argument("--keep", action="store_true",
                        help="leave everything in place")
    phases.add_parser("cleanup", help="remove what a run left")
    args = parser.parse_args(argv)
    if args.phase is None:
        parser.print_usage(sys.stderr)
        return USAGE
    try:
        configured(args.phase, getattr(args, "slices", []))
    except preflight.Refusal as refusal:
        return refuse(str(refusal))
    return {"before-reboot": before_reboot, "after-reboot": after_reboot,
            "cleanup": cleanup}[args.phase](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
