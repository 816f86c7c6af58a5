# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Whether the scenario tests may run against a real illumos host, and
whether its spare slices are really spare.  Pure functions of what the host
reports, so that CI (on Linux) exercises every refusal.

host_config() reads SVMRAM_TEST_HOST and SVMRAM_TEST_DISKS; problems()
judges the facts hosts.gather_facts() collects on the illumos host.  Each
problem is one sentence that says what to do about it.
"""

import os
import re

DOC = "docs/testing-on-a-real-host.md"
EXAMPLE_DISKS = 'SVMRAM_TEST_DISKS="c2t1d0s0 c2t2d0s0"'

# The names the scenario tests use, as in the article: RealHost builds
# d10 = mirror of d11 and d12, svmram adds d13 and links its ramdisk at
# c90t0d0s0, d10 is mounted on /mnt, and one test expects d99 not to exist.
METADEVICES = ("d10", "d11", "d12", "d13")
ABSENT = ("d99",)
LINK = "c90t0d0s0"
MOUNT_POINT = "/mnt"
SERVICE = "svc:/system/svmram"

SLICE = re.compile(r"^c[0-9]+(t[0-9A-Fa-f]+)?d[0-9]+s[0-9]+$")
# A disk, slice or fdisk partition name anywhere in a command's output,
# with or without /dev/dsk/ or /dev/rdsk/ in front.
DEVICE = re.compile(
    r"\b(c[0-9]+(?:t[0-9A-Fa-f]+)?d[0-9]+)(?:([sp])([0-9]+))?\b")


class Refusal(Exception):
    """The tests must not run against this host; str() says why and what
    to do, in one message."""

    def __init__(self, headline, problems, advice=""):
        self.headline = headline
        self.problems = list(problems)
        self.advice = advice
        super().__init__(self.message())

    def message(self):
        lines = [self.headline]
        lines += ["  - " + problem for problem in self.problems]
        if self.advice:
            lines.append(self.advice)
        return "\n".join(lines)


# --- the environment ---------------------------------------------------------

def host_config(environ, system, euid, exists=os.path.exists):
    """("emulator", None) or ("real", [SLICE_A, SLICE_B]); raises Refusal.

    environ: the environment; system: `uname -s`; euid: effective uid;
    exists(path): whether a path exists (only asked on illumos)."""
    kind = environ.get("SVMRAM_TEST_HOST", "")
    if kind in ("", "emulator"):
        return "emulator", None
    if kind != "real":
        raise Refusal(
            "svmram scenario tests: SVMRAM_TEST_HOST=%s is not understood." %
            kind,
            ["leave SVMRAM_TEST_HOST unset (or set it to 'emulator') to test "
             "on the SVM emulator;",
             "or, on a scratch illumos host, as root, set SVMRAM_TEST_HOST="
             "real and %s (two spare slices whose data may be destroyed)."
             % EXAMPLE_DISKS],
            "See %s." % DOC)
    problems = system_problems(system, euid)
    problems += disk_problems(environ.get("SVMRAM_TEST_DISKS", ""),
                              system == "SunOS", exists)
    if problems:
        raise Refusal(
            "svmram scenario tests: SVMRAM_TEST_HOST=real cannot run here:",
            problems,
            "Set SVMRAM_TEST_HOST=real and %s on an illumos host, as root, or "
            "leave SVMRAM_TEST_HOST unset for the emulator.  See %s."
            % (EXAMPLE_DISKS, DOC))
    return "real", environ["SVMRAM_TEST_DISKS"].split()


def system_problems(system, euid, elsewhere="here, leave SVMRAM_TEST_HOST "
                    "unset to use the emulator", run="pytest"):
    problems = []
    if system != "SunOS":
        problems.append(
            "this is %s, not illumos (uname -s must say SunOS): the real-host "
            "tests drive this host's own SVM; %s." % (
                system or "an unknown system", elsewhere))
    if euid != 0:
        problems.append("not running as root: the tests create and clear "
                        "metadevices and ramdisks; run %s as root "
                        "(pfexec or sudo)." % run)
    return problems


def disk_problems(value, on_illumos, exists):
    disks = value.split()
    if not disks:
        return ["SVMRAM_TEST_DISKS is not set: name two spare slices whose "
                "data may be destroyed, e.g. %s." % EXAMPLE_DISKS]
    if len(disks) != 2:
        return ["SVMRAM_TEST_DISKS names %d slice%s (%s); it needs exactly "
                "two, e.g. %s." % (len(disks), "" if len(disks) == 1 else "s",
                                   value.strip(), EXAMPLE_DISKS)]
    problems = []
    for disk in disks:
        if not SLICE.match(disk):
            problems.append("SVMRAM_TEST_DISKS: %r is not a disk slice name "
                            "(cNtNdNsN or cNdNsN, without /dev/dsk/)." % disk)
        elif on_illumos and not exists("/dev/dsk/" + disk):
            problems.append("SVMRAM_TEST_DISKS: /dev/dsk/%s does not exist "
                            "(format </dev/null lists the disks)." % disk)
    if disks[0] == disks[1]:
        problems.append("SVMRAM_TEST_DISKS names %s twice; it needs two "
                        "different slices." % disks[0])
    return problems


# --- parsing what the host reports -------------------------------------------

def split_slice(name):
    """c2t1d0s0 -> ("c2t1d0", 0)."""
    match = DEVICE.fullmatch(name)
    return match.group(1), int(match.group(3))


def devices(text):
    """Every disk name in text: (disk, kind, number), kind "s" for a slice,
    "p" for an fdisk partition and None for a whole disk."""
    return [(disk, kind or None, int(number) if number else None)
            for disk, kind, number in DEVICE.findall(text)]


def parse_vtoc(text):
    """prtvtoc output -> {slice: (first sector, sector count)}."""
    table = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or line.lstrip().startswith("*") or len(fields) < 6:
            continue
        try:
            number, first, count = int(fields[0]), int(fields[3]), \
                int(fields[4])
        except ValueError:
            continue
        table[number] = (first, count)
    return table


def metadevice_names(metastat_p):
    """The names `metastat -p` defines (first word of each line)."""
    names = []
    for line in metastat_p.splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            names.append(fields[0].rsplit("/", 1)[-1])
    return names


def mount_points(mnttab):
    return {line.split("\t")[1]: line.split("\t")[0]
            for line in mnttab.splitlines() if line.count("\t") >= 2}


# --- judging -----------------------------------------------------------------

def users(facts):
    """(what it is, text) pairs: everything that can hold a slice."""
    mnttab = "\n".join(line.split("\t")[0]
                       for line in facts.get("mnttab", "").splitlines())
    return [("mounted (/etc/mnttab)", mnttab),
            ("a swap device (swap -l)", facts.get("swap", "")),
            ("the dump device (dumpadm)", facts.get("dump", "")),
            ("in a ZFS pool (zpool status)", facts.get("zpool", "")),
            ("used by SVM (metastat -p)", facts.get("metastat_p", "")),
            ("holding state database replicas (metadb)",
             facts.get("metadb", ""))]


def overlap(vtoc, one, other):
    """True, False, or None when the label does not tell."""
    if vtoc is None or one not in vtoc or other not in vtoc:
        return None
    (a, alen), (b, blen) = vtoc[one], vtoc[other]
    if alen == 0 or blen == 0:
        return False
    return a < b + blen and b < a + alen


def clash(name, number, other, what, vtoc):
    """Why the use of `other` ((disk, kind, number), `what` it is) takes
    slice `number` of the same disk, or None when it does not."""
    disk, kind, other_number = other
    if kind == "s" and other_number == number:
        return "%s is %s: it is not spare." % (name, what)
    if kind != "s":
        return "%s is not spare: its disk %s%s is %s." % (
            name, disk, "p%d" % other_number if kind == "p" else "", what)
    used = "%ss%d" % (disk, other_number)
    verdict = overlap(vtoc, number, other_number)
    if verdict is None:
        return ("%s may not be spare: %s is %s, and the label does not tell "
                "whether it overlaps %s." % (name, used, what, name))
    if verdict:
        return "%s is not spare: %s, which overlaps it, is %s." % (
            name, used, what)
    return None


def slice_problems(slices, facts):
    problems = []
    vtocs = facts.get("vtoc", {})
    tables = {}
    for name in slices:
        disk, number = split_slice(name)
        label = vtocs.get(disk)
        vtoc = tables[disk] = parse_vtoc(label) if label is not None \
            else None
        if vtoc is None:
            problems.append("cannot read the label of %s (prtvtoc "
                            "/dev/rdsk/%s failed): label the disk and make "
                            "slice %d with format." % (disk, name, number))
        elif vtoc.get(number, (0, 0))[1] == 0:
            problems.append("%s has no space in the label of %s (prtvtoc): "
                            "make slice %d with format." % (name, disk,
                                                             number))
        for what, text in users(facts):
            for other in sorted(set(devices(text)),
                                key=lambda d: (d[0], d[1] or "", d[2] or 0)):
                if other[0] == disk:
                    reason = clash(name, number, other, what, vtoc)
                    if reason:
                        problems.append(reason)
    (disk_a, num_a), (disk_b, num_b) = [split_slice(s) for s in slices]
    if disk_a == disk_b and num_a != num_b and \
            overlap(tables[disk_a], num_a, num_b) is not False:
        problems.append("%s and %s may overlap on %s (the label says they "
                        "do, or does not tell): use slices that do not." % (
                            slices[0], slices[1], disk_a))
    return problems


def problems(facts, slices):
    """Everything that makes this host unfit for the real-host tests; []
    when it is fit.  facts: see hosts.gather_facts()."""
    found = []
    rc, text = facts.get("metadb", (1, ""))   # (exit status, output)
    if rc != 0 or "/dev/" not in text:
        found.append("this host has no SVM state database replicas: create "
                     "them on a small slice that is not a test slice, e.g. "
                     "metadb -a -f -c 3 c2t3d0s0.")
    facts = dict(facts, metadb=text)
    rc, text, error = facts.get("metastat_p", (0, "", ""))  # (rc, out, err)
    if rc != 0 and not found:
        found.append("metastat -p failed: %s" % (error.strip() or
                                                 "exit status %d" % rc))
    facts["metastat_p"] = text
    found += slice_problems(slices, facts)
    names = metadevice_names(text)
    for name in METADEVICES + ABSENT:
        if name in names:
            found.append("%s exists: the tests build d10-d13 themselves "
                         "(and expect no d99); clear it (metaclear) or use "
                         "another host." % name)
    mounts = mount_points(facts.get("mnttab", ""))
    if MOUNT_POINT in mounts:
        found.append("%s is a mount point (%s): the tests mount d10 there; "
                     "unmount it." % (MOUNT_POINT, mounts[MOUNT_POINT]))
    ramdisks = re.findall(r"^/dev/ramdisk/(\S+)", facts.get("ramdisks", ""),
                          re.M)
    if ramdisks:
        found.append("ramdisks exist (%s): the tests expect none; delete them "
                     "(ramdiskadm -d NAME) or use another host." %
                     ", ".join(ramdisks))
    for fmri in facts.get("instances", []):
        found.append("svmram is set up here already (%s): the tests need a "
                     "host without it; run svmram teardown -y %s." % (
                         fmri, fmri.rsplit(":", 1)[-1]))
    for link in facts.get("links", []):
        if link.startswith(LINK[:3] + "t"):
            found.append("%s exists in /dev/dsk or /dev/rdsk: the tests "
                         "expect svmram to put its link at %s; if svmram left "
                         "it behind (ls -l shows a ramdisk), rm /dev/dsk/%s "
                         "/dev/rdsk/%s, otherwise use another host." % (
                             link, LINK, link, link))
    for journal in facts.get("journals", []):
        found.append("/var/svmram/%s exists: an svmram command did not "
                     "finish; finish it (svmram teardown -y %s)." % (
                         journal, journal.split(".")[0]))
    found += install_problems(facts.get("installed", []))
    if not facts.get("service", False) and not any(
            "not installed" in problem for problem in found):
        found.append("the SMF service %s is not imported: run svcadm "
                     "restart manifest-import (after installing)." % SERVICE)
    return found


# --- the installed copy ------------------------------------------------------

def install_pairs(repo, root="/"):
    """(checkout file, installed file) for everything `make install` puts
    in place, as the Makefile does it."""
    pairs = [("sbin/svmram", "usr/sbin/svmram"),
             ("smf/svmram", "lib/svc/method/svmram"),
             ("manifests/svmram.xml", "lib/svc/manifest/system/svmram.xml")]
    lib = os.path.join(repo, "lib")
    for directory, _, files in sorted(os.walk(os.path.join(lib, "svmram"))):
        for name in sorted(files):
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(directory, name), lib)
                pairs.append(("lib/" + rel, "usr/lib/svmram/" + rel))
    return [(os.path.join(repo, tree), os.path.join(root, installed))
            for tree, installed in pairs]


def read_pairs(pairs):
    """[(installed path, checkout bytes, installed bytes or None)].  The
    command's #! line is left out: make install writes the interpreter
    it was given there."""
    found = []
    for tree, installed in pairs:
        with open(tree, "rb") as stream:
            mine = stream.read()
        try:
            with open(installed, "rb") as stream:
                theirs = stream.read()
        except OSError:
            theirs = None
        if tree.endswith("sbin/svmram") and theirs is not None:
            mine, theirs = _without_interpreter(mine), \
                _without_interpreter(theirs)
        found.append((installed, mine, theirs))
    return found


def _without_interpreter(text):
    return text.split(b"\n", 1)[1] if text.startswith(b"#!") else text


def install_problems(files):
    missing = [path for path, _, theirs in files if theirs is None]
    differ = [path for path, mine, theirs in files
              if theirs is not None and mine != theirs]
    if missing:
        return ["svmram is not installed from this checkout (%s missing): "
                "run the install step of %s as root, then svcadm restart "
                "manifest-import." % (_few(missing), DOC)]
    if differ:
        return ["the installed svmram differs from this checkout (%s): "
                "install it again (the boot service runs the installed "
                "copy)." % _few(differ)]
    return []


def _few(paths):
    return ", ".join(paths[:3]) + (" and %d more" % (len(paths) - 3)
                                   if len(paths) > 3 else "")
