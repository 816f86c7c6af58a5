# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram selftest on SVM: build a scratch mirror of two lofi files, check
on it what svmram and its emulator assume of this release, run svmram's
own setup, status, restore and teardown on it, and remove it all.

What it makes, in order: a directory of its own, two files (mkfile),
their lofi devices (lofiadm -a), cNtNdNsN links to them (SVM takes no
/dev/lofi/N path: meta_name.c rawname() maps dsk and rdsk names only, as
for ramdisks), two stripes and a mirror; later a UFS on the mirror
(newfs), mounted (mount -F ufs -o nologging) on a directory of its
own for the rotate method.  The directory is made by mkdtemp inside
--directory (svm/selftest_directory.py), so every file is made new in a
directory only root can write.  Each name is written to the selftest's
journal (svm/selftest_journal.py) before the thing is made, and what
proves it the selftest's once it is, so that a run killed at any moment
leaves a journal from which the next run removes exactly what was made
and nothing else (svm/selftest_removal.py says what the proof of each
part is).

Every check keeps the command, what svmram expects and what the host
showed.  The checks are the facts tests/illumos/confirm.sh checks by hand
that need no reboot: the messages svmram reads, slot compaction, the
label rule (a lofi device's fake label starts at sector 0, so the mirror
is labeled and takes the RAM submirror by attach), the mirror's write
kstat, cmp, and the ramdisk driver's refusal past its cap.

A restore here differs from one at boot: the ramdisk is deleted while
the mirror is closed (SVM keeps the component's device number; at boot
the ramdisk driver starts empty), the SMF instance is not restarted, and
metasync's boot resync does not run.  The report says so.
"""

import os
import posixpath
import re
import time
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, List, Optional

from .. import actions, interrupt
from ..errors import ParseError, RefusedError
from . import (labels, listings, metastat, metastat_p, names,
               selftest_directory, selftest_record, selftest_removal)
from .selftest_journal import JOURNAL, Journal
from .selftest_removal import Runner
from .steps import LABEL_BLOCKS

_CONTROLLER = re.compile(r"c([0-9]+)[td]")
# Whole MiB: the lofi driver fakes the ramdisk driver's geometry
# (lofi.c fake_disk_geometry and fake_disk_vtoc, ramdisk.c), so the mirror is as large as
# slice 0 of the whole-MiB ramdisk setup makes for it
# (sizing.ramdisk_size_for), a whole number of its cylinders, and a swap
# keeps the mirror's size (docs/design.md).
FILE_SIZE = "8m"
FILE_BYTES = 8 * 1024 * 1024
FILES = ("disk0", "disk1")
MOUNT_POINT = "mnt"                 # under the selftest's directory
DATA_FILE = "svmram-selftest-data"  # on the scratch UFS
DATA_BYTES = 256 * 1024
CAP_RAMDISK = "svmram_selftest_cap"
# A pattern written into the first file before metainit, from block
# LABEL_BLOCKS on: the resync of the labeled scratch mirror copies it to
# the second submirror (it skips blocks 0..DK_LABEL_LOC, mirror.c
# 3456-3472, which cmp skips too), so cmp can tell a resync that copied
# nothing (audit 4 row S10).  Well inside the mirror's 16362 blocks.
PATTERN_BYTES = 256 * 1024
LABEL_BYTES = LABEL_BLOCKS * 512
# The running kernel's page size, as svm/host.py takes it: the kstat
# unix:0:system_pages counts pages and has no pagesize statistic
# (illumos usr/src/uts/common/os/kstat_fr.c:201-222 @a593473611).
PAGE_BYTES = os.sysconf("SC_PAGESIZE")
GONE_RAMDISK = "/dev/ramdisk/svmram_selftest_gone"
# metadb's refusal without replicas: MDE_DB_NODB's words
# (usr/src/lib/lvm/libmeta/common/meta_error.c:1686-1688 @a593473611),
# the failure of meta_setup_db_locations that metadb prints and exits 1
# on (usr/src/cmd/lvm/util/metadb.c:778-782; svm-reference.md 0.4); any
# other failure says nothing of the replicas.
NO_REPLICAS = ": there are no existing databases"
# mirror, two stripes, the stripe of the dangling-link check, and the
# RAM submirror setup names
UNITS_NEEDED = 5
CONTROLLERS_NEEDED = 4      # two lofi links, the dangling one, setup's

METHOD_NOTES = MappingProxyType({
    # The label rule: a stripe whose slice starts at sector 0 is labeled
    # (a lofi device's fake label does), so the mirror is, and SVM takes
    # the labeled RAM submirror by attach (mirror_ioctl.c mirror_attach).
    "swap": "the mirror is closed; its lofi stripes start at sector 0, so "
            "it is labeled and takes the RAM submirror by attach",
    "rotate": "run on a UFS mounted on the scratch mirror (newfs, mount "
              "-F ufs -o nologging): a file written before setup must read back the "
              "same after setup, after status and after teardown"})

# Why the copy method is not run: it needs an unlabeled mirror, whose
# first stripe's first slice starts past sector 0 or holds a replica
# (svm/labels.py).  lofi without -l answers DKIOCGVTOC with one slice
# from sector 0 (lofi.c fake_disk_vtoc; line 2266 in the last
# illumos-gate with SVM, 5f10ef697f^), so every stripe of the lofi
# devices selftest maps (lofiadm -a, no -l) is labeled.  A labeled lofi
# device (lofiadm -l: illumos 406fc5100d "6602 lofi should support
# labeled devices", June 2016, in the tree until SVM
# left illumos-gate in January 2017, so OpenIndiana 2016.10 has it,
# lofiadm/main.c:72-84 @a593473611; Oracle Solaris 11.3's lofiadm(1M) and
# 11.4's lofi(4D) document it; audit 4 row L2) is a disk whose VTOC could
# start s0 later, but selftest writes no labels and the emulator does not
# model cmlb; Solaris 10's lofi has no -l.  A replica on a scratch device
# would be a replica the selftest made, which it never does.
COPY_NOT_RUN = (
    "the copy method was not tried: it needs a mirror that is not "
    "labeled, and selftest maps its files without lofiadm -l, so each of "
    "its lofi devices fakes one slice that starts at sector 0 (lofi.c "
    "fake_disk_vtoc) and every stripe of them is labeled; an unlabeled "
    "mirror would need a labeled lofi device (lofiadm -l: Solaris 11.3 "
    "and 11.4, and illumos from June 2016, OpenIndiana 2016.10 included; "
    "not Solaris 10) with a VTOC whose slice 0 starts at cylinder 1, "
    "which selftest does not write, or a state database replica on the "
    "scratch device, which it does not make; to try the copy "
    "method, follow \"The copy method\" in docs/testing-on-a-real-host.md "
    "(two spare slices that do not start at sector 0)")

# The facts the emulator and this selftest are unsure of (audit 4 rows
# S18, L3, R2, R3: UNSURE, the source closed or silent), each with one
# command that settles it on a real host, run by hand after the selftest
# (it builds nothing of the administrator's: a scratch file under
# /var/tmp, its lofi device, and a metadevice name the selftest found
# free, all removed again).
_SCRATCH = ("f=$(mktemp /var/tmp/svmram-%s.XXXXXX) && mkfile %s $f && "
            "d=$(lofiadm -a $f) && r=$(echo $d | sed s,/lofi/,/rlofi/,) && ")


def unsure(layout):
    """The appendix: [{row, question, command, expected}]."""
    unit = layout.dangling      # free: the selftest clears it again
    return [
        {"row": "S18",
         "question": "does a UFS with logging on a lofi device work "
                     "(lofi.c:103-108 says it can wedge; selftest mounts "
                     "with -o nologging, so svmram is not concerned)",
         "command": _SCRATCH % ("s18", "64m") +
         "newfs $r </dev/null && m=$(mktemp -d /var/tmp/svmram-s18m."
         "XXXXXX) && mount -F ufs -o logging $d $m && { mkfile 32m $m/x "
         "&& sync; echo \"exit $?\"; umount $m; }; lofiadm -d $d; "
         "rm -rf $f $m",
         "expected": "exit 0 within seconds; a hang is lofi's (kill it "
                     "from another terminal and report it)"},
        {"row": "L3",
         "question": "does SVM take a /dev/lofi/N path as a component "
                     "(the emulator refuses it with ENOENT, a GUESS)",
         "command": _SCRATCH % ("l3", "8m") +
         "{ metainit %s 1 1 $d; echo \"exit $?\"; metastat -p %s && "
         "metaclear %s; lofiadm -d $d; rm -f $f; }" % (unit, unit, unit),
         "expected": "the emulator: metainit: HOST: /dev/lofi/N: No such "
                     "file or directory, exit 1; the source suggests "
                     "'%s: Concat/Stripe is setup', exit 0" % unit},
        {"row": "R2",
         "question": "does unlabeled lofi on this release fake one slice "
                     "from sector 0 (the build checks above show whether "
                     "SVM takes its cNtNdNsN link)",
         "command": _SCRATCH % ("r2", "8m") +
         "prtvtoc $r; echo \"exit $?\"; lofiadm -d $d; rm -f $f",
         "expected": "one slice row: 0 0 01 0 16362 16361 (lofi.c "
                     "fake_disk_vtoc), exit 0"},
        {"row": "R3",
         "question": "the kstat -p format of a mirror's write count on "
                     "this release (the check 'the mirror's write kstat' "
                     "above read the scratch mirror's)",
         "command": "kstat -p 'md:*:*:writes'; echo \"exit $?\"",
         "expected": "one line md:N:mdN:writes<TAB>COUNT per metadevice "
                     "opened since boot, exit 0 (1 when none was)"},
    ]


BOOT_DIFFERENCE = (
    "the ramdisk was deleted with the mirror closed instead of lost in a "
    "reboot: SVM kept the component's device number, no boot resync ran, "
    "and the boot service was not restarted")


# The rule for a check's result (issue 36 section 2): FAIL when what
# svmram's own operation depends on differs (an exit status it acts on,
# output it parses, data it keeps); DIFFERS when only a fact the emulator
# gives and svmram does not depend on differs (a message svmram quotes
# but never reads, the silence of a command): the host's output is
# reported, the emulator is to be corrected as the check says, and the
# verdict stays "svmram works".
PASS, DIFFERS, FAIL = "PASS", "DIFFERS", "FAIL"


@dataclass
class Check:
    """One check: its name, the command that showed it, what svmram
    expects, what the host showed, and whether they agree: passed is
    False for a FAIL; correction, set only when the host's output differs
    from the emulator's in a fact svmram does not depend on (DIFFERS),
    says where the emulator is to be corrected; scaffold is True for a
    command svmram itself never runs, which only the selftest needs to
    build or use its scratch mirror (mkfile, lofiadm, newfs, mount,
    umount): its FAIL says nothing of svmram (the verdict is "not
    known")."""
    name: str
    command: str
    expected: str
    observed: str
    passed: bool
    note: str = ""
    correction: str = ""
    scaffold: bool = False

    @property
    def result(self):
        if not self.passed:
            return FAIL
        return DIFFERS if self.correction else PASS

    def to_json(self):
        return {"check": self.name, "command": self.command,
                "expected": self.expected, "observed": self.observed,
                "result": self.result, "note": self.note,
                "emulator": self.correction}


@dataclass
class Report:
    release: str
    checks: List[Check] = field(default_factory=list)
    not_run: List[str] = field(default_factory=list)
    cleaned: List[str] = field(default_factory=list)
    # What the emulator is unsure of, with the command that settles each
    # on this host (unsure()).
    appendix: List[dict] = field(default_factory=list)
    # What a journal names but is not provably the selftest's: left alone.
    spared: List[str] = field(default_factory=list)
    # The signal (interrupt.Interrupted) that stopped the run, if any.
    stopped: Optional[BaseException] = None

    @property
    def passed(self):
        return self.stopped is None and bool(self.checks) and \
            all(c.passed for c in self.checks)


@dataclass
class Layout:
    """The names the scratch mirror uses."""
    directory: str
    mirror: str
    first: str
    second: str
    dangling: str
    links: tuple            # cNt0d0s0 for FILES
    dangling_link: str

    @property
    def files(self):
        return tuple(posixpath.join(self.directory, f) for f in FILES)

    @property
    def mount_point(self):
        return posixpath.join(self.directory, MOUNT_POINT)


def choose_layout(directory, used_units, used_controllers):
    """The highest free metadevice names and the first free controllers
    from c90, or a refusal that says which are short."""
    units = [name for name in ("d%d" % n for n in range(127, -1, -1))
             if name not in used_units][:UNITS_NEEDED]
    if len(units) < UNITS_NEEDED:
        raise RefusedError(
            "only %d metadevice names of d0-d127 are free, and selftest "
            "needs %d" % (len(units), UNITS_NEEDED),
            advice="Clear metadevices you no longer use (metaclear), then "
                   "run svmram selftest again.")
    controllers, links = set(used_controllers), []
    for _ in range(CONTROLLERS_NEEDED - 1):
        link = names.free_link(frozenset(controllers))
        controllers.add(names.controller_of(link))
        links.append(link)
    return Layout(directory, units[0], units[1], units[2], units[3],
                  tuple(links[:2]), links[2])


# --- running commands --------------------------------------------------------

def _shown(code, out, err):
    text = "exit status %d" % code
    if out:
        text += "; stdout: %s" % out.rstrip("\n")
    if err:
        text += "; stderr: %s" % err.rstrip("\n")
    return text


def _command(name, args):
    return " ".join([name] + list(args))


# --- the selftest ------------------------------------------------------------

class Selftest:
    def __init__(self, runner: Runner, directory: str, release: str,
                 illumos: Optional[bool], poll: Callable[[], None]):
        self.runner = runner
        self.directory = directory
        self.report = Report(release)
        self.illumos = illumos
        self.poll = poll
        self.journal = Journal(runner.under(JOURNAL))
        self.layout = None
        self._data = None       # the file written on the scratch UFS

    # --- preconditions ---------------------------------------------------

    def preconditions(self):
        """Refuse, before anything is made, without replicas, memory or
        free names; returns the Layout."""
        code, out, err = self.runner.run("metadb", [])
        if code != 0 and not err.rstrip("\n").endswith(NO_REPLICAS):
            raise RefusedError(
                "metadb failed (%s), so svmram selftest cannot tell "
                "whether there are state database replicas"
                % _shown(code, out, err),
                advice="Run 'metadb' yourself and mend what it reports, "
                       "then run svmram selftest again.")
        replicas = listings.parse_metadb(out) if code == 0 else []
        if not replicas:
            raise RefusedError(
                "there are no state database replicas (metadb lists "
                "none), and svmram selftest never creates them",
                advice="Create them first, e.g. 'metadb -a -f -c 3 "
                       "c0t1d0s7' on a slice you can spare, then run "
                       "svmram selftest again.")
        pages, shown = self._pages("freemem")
        if pages is None:
            raise RefusedError(
                "kstat does not show the free memory (%s)" % shown,
                advice="svmram selftest needs unix:0:system_pages:freemem; "
                       "check 'kstat -p unix:0:system_pages'.")
        free = pages * PAGE_BYTES
        if free < 4 * FILE_BYTES:
            raise RefusedError(
                "only %d KiB of memory is free, and selftest needs %d KiB "
                "for its ramdisk and a margin" % (free // 1024,
                                                  4 * FILE_BYTES // 1024),
                advice="Free some memory, then run svmram selftest again.")
        config = self._config()
        used = {d.name for d in config.devices} if config else set()
        return choose_layout(self.directory, used, self._controllers())

    def _config(self):
        code, out, err = self.runner.run("metastat", ["-p"])
        if code != 0 and not out:
            return None
        return metastat_p.parse(out)

    def _controllers(self):
        """The controller numbers /dev/dsk and /dev/rdsk use (c0d1s0,
        c2t1d0s0...)."""
        used = set()
        for kind in ("dsk", "rdsk"):
            try:
                entries = os.listdir(self.runner.under("/dev/" + kind))
            except FileNotFoundError:
                entries = []
            for entry in entries:
                match = _CONTROLLER.match(entry)
                if match:
                    used.add(int(match.group(1)))
        return frozenset(used)

    def _pages(self, statistic):
        """unix:0:system_pages:STATISTIC (pages), or None; and what kstat
        showed.  The kstat has no page size (kstat_fr.c:201-222
        @a593473611): that is PAGE_BYTES."""
        name = "unix:0:system_pages:" + statistic
        code, out, err = self.runner.run("kstat", ["-p", name])
        figures = dict(line.split("\t", 1) for line in out.splitlines()
                       if "\t" in line)
        value = figures.get(name, "").strip()
        return (int(value) if code == 0 and value.isdigit() else None,
                _shown(code, out, err))

    # --- checks ------------------------------------------------------------

    def check(self, name, args, expected, predicate, command=None,
              program=None, note="", exact=None, emulator="",
              scaffold=False):
        """Run `program ARGS` (or svmram ARGS), and record whether
        predicate(code, out, err), what svmram (or, for a `scaffold`
        command, the selftest) depends on, holds (else a FAIL), and then
        whether exact(code, out, err), the rest of what `expected` says,
        holds (else DIFFERS: `emulator` names where the emulator gives
        that output); returns (ok, code, out, err), ok unless a FAIL."""
        if program == "svmram":
            code, out, err = self.runner.svmram(list(args))
            shown = _command("svmram", args)
        else:
            code, out, err = self.runner.run(program, args)
            shown = _command(program, args)
        passed = bool(predicate(code, out, err))
        correction = ""
        if passed and exact is not None and not exact(code, out, err):
            correction = _correction(emulator)
        self.report.checks.append(Check(
            name, command or shown, expected, _shown(code, out, err),
            passed, note, correction, scaffold))
        return passed, code, out, err

    def fact(self, name, command, expected, observed, passed, note=""):
        self.report.checks.append(Check(name, command, expected, observed,
                                        passed, note))
        return passed

    # --- the run -----------------------------------------------------------

    def run(self):
        """The whole selftest; the scratch mirror is removed on every
        way out (a signal included: one that arrives during the removal
        lets it end, then stops the selftest as the first would have)."""
        host_parent = self.runner.under(self.directory)
        selftest_directory.check_parent(host_parent, self.directory)
        self.cleanup_leftovers()
        self.layout = self.preconditions()
        self.report.appendix = unsure(self.layout)
        try:
            self.build()
            self.check_facts()
            self.check_svmram()
        except Abandoned as stop:
            self.report.not_run.append(
                "every later check: %s, so there is no scratch mirror to "
                "check on" % stop)
        except KeyboardInterrupt as stop:
            # A signal: remove what was made, then report what ran.
            self.stop(stop)
        finally:
            self.final_removal()
        return self.report

    def stop(self, signal):
        self.report.stopped = signal
        self.report.not_run.append(
            "every later check: stopped by %s" % interrupt.signal_name(
                getattr(signal, "signum", 2)))

    def final_removal(self):
        """Remove what this run made; a signal that arrives meanwhile is
        kept until the removal ends, then stops the selftest (exit 128+N,
        the report saying what was left)."""
        with interrupt.deferred(keep_pending=True):
            left, spared = self.remove(self.journal.data)
        pending = interrupt.PROCESS.pending
        if pending is not None:
            interrupt.PROCESS.pending = None
            if self.report.stopped is None:
                self.report.stopped = interrupt.Interrupted(pending)
                self.report.not_run.append(
                    "the end of the selftest: stopped by %s while it "
                    "removed what it made (the removal went on to its "
                    "end)" % interrupt.signal_name(pending))
        self.report.spared += spared
        self.fact("everything made is removed", "(the removal)",
                  "nothing left", "; ".join(left) or "nothing left",
                  not left, note="" if not left else
                  "%s lists it; svmram selftest removes it when run "
                  "again" % self.journal.path)

    def cleanup_leftovers(self):
        data = self.journal.load()
        if data is None:
            return
        left, spared = self.remove(data)
        if left:
            raise RefusedError(
                "an earlier svmram selftest left things it cannot remove "
                "now: %s" % "; ".join(left),
                advice="Unmount or close what holds them open (fuser "
                       "names its processes), or wait until metastat shows "
                       "no resync, then run svmram selftest again: it "
                       "removes them.  By hand instead: the commands "
                       "listed, in that order; %s lists what it made."
                % self.journal.path)
        self.report.cleaned.append(
            "removed what an earlier svmram selftest left (%s)"
            % self.journal.path)
        self.report.spared += spared

    def build(self):
        layout, run = self.layout, self.runner
        self.journal.start(self.directory, layout.mirror)
        made, status = selftest_directory.make(run.under(self.directory))
        layout.directory = posixpath.join(self.directory,
                                          os.path.basename(made))
        self.journal.made_directory(layout.directory, status)
        for path in layout.files:
            self.journal.note("files", path)
        self._must("mkfile", [FILE_SIZE] + list(layout.files),
                   lambda c, o, e: c == 0,
                   "exit status 0, no output (mkfile.c)",
                   _silent, "programs/mkfile.py", scaffold=True)
        for path in layout.files:
            made_file = os.lstat(run.under(path))
            self.journal.prove("file_ids", path,
                               [made_file.st_dev, made_file.st_ino])
        self._write_pattern(layout.files[0])
        devices = []
        for path in layout.files:
            ok, code, out, err = self._must(
                "lofiadm", ["-a", path],
                lambda c, o, e: c == 0 and o.startswith("/dev/lofi/") and
                o[len("/dev/lofi/"):].strip().isdigit(),
                "exit status 0 and /dev/lofi/N (lofiadm/main.c add_mapping)",
                lambda c, o, e: len(o.splitlines()) == 1 and not e,
                "programs/lofiadm.py", scaffold=True)
            devices.append(out.strip())
            self.journal.prove("lofi", out.strip(), path)
        for link, device in zip(layout.links, devices):
            self._link(link, device, device.replace("/dev/lofi/",
                                                    "/dev/rlofi/"))
        for unit, link in ((layout.first, layout.links[0]),
                           (layout.second, layout.links[1])):
            self.journal.note("metadevices", unit)
            self._must("metainit", [unit, "1", "1", link], _succeeded,
                       "%s: Concat/Stripe is setup" % unit,
                       _said("%s: Concat/Stripe is setup\n" % unit),
                       "programs/metainit.py")
        self.journal.note("metadevices", layout.mirror)
        self._must("metainit", [layout.mirror, "-m", layout.first],
                   _succeeded, "%s: Mirror is setup" % layout.mirror,
                   _said("%s: Mirror is setup\n" % layout.mirror),
                   "programs/metainit.py")
        self._must("metattach", [layout.mirror, layout.second],
                   _succeeded,
                   "%s: submirror %s is attached" % (layout.mirror,
                                                     layout.second),
                   _said("%s: submirror %s is attached\n" % (
                       layout.mirror, layout.second)),
                   "programs/metattach.py")
        self.wait_okay()

    def _write_pattern(self, path):
        """PATTERN_BYTES of random data into the selftest's own file
        `path` (mkfile just made it; a link there is not followed), from
        LABEL_BYTES on."""
        descriptor = os.open(self.runner.under(path),
                             os.O_WRONLY | os.O_NOFOLLOW)
        with os.fdopen(descriptor, "wb") as stream:
            stream.seek(LABEL_BYTES)
            stream.write(os.urandom(PATTERN_BYTES))
            stream.flush()
            os.fsync(stream.fileno())

    def _must(self, program, args, predicate, expected, exact=None,
              emulator="", scaffold=False):
        """A command the scratch mirror needs: a check, and the end of the
        selftest when it fails (its words may only differ)."""
        result = self.check("build: %s" % _command(program, args), args,
                            expected, predicate, program=program,
                            exact=exact, emulator=emulator,
                            scaffold=scaffold)
        if not result[0]:
            raise Abandoned("%s failed" % _command(program, args))
        return result

    def _link(self, link, block, raw):
        for kind, target in (("dsk", block), ("rdsk", raw)):
            entry = "%s/%s" % (kind, link)
            # The target first: a link is the selftest's only while it
            # points there (svm/selftest_removal.py).
            self.journal.prove("link_targets", entry, target)
            self.journal.note("links", entry)
            path = self.runner.under("/dev/%s/%s" % (kind, link))
            os.symlink(target, path)

    def wait_okay(self, tries=600):
        """Wait until every submirror of the scratch mirror is Okay.  When
        they never are, a FAIL (svmram's setup and teardown wait for a
        resync to end the same way) and the end of the checks: a selftest
        that could not check on its mirror does not say svmram works."""
        mirror = self.layout.mirror
        shown = "nothing"
        for _ in range(tries):
            code, out, err = self.runner.run("metastat", [mirror])
            try:
                config = metastat.parse(out) if out else None
            except ParseError:
                config = None
            view = config.get(mirror) if config else None
            if view is not None and view.submirror_states and all(
                    s == "Okay" for s in view.submirror_states):
                return
            shown = "submirrors %s" % ", ".join(view.submirror_states) \
                if view is not None and view.submirror_states else \
                "unreadable (%s)" % _shown(code, out, err)
            self.poll()
        self.fact("the resync of the scratch mirror ends",
                  "metastat %s" % mirror, "every submirror Okay",
                  "%s after %d looks" % (shown, tries), False)
        raise Abandoned("the resync of %s did not end" % mirror)

    # --- the facts ---------------------------------------------------------

    def check_facts(self):
        layout = self.layout
        # metastat -p: svmram's parser reads the mirror as built.
        self.check(
            "metastat -p reads as built", ["-p", layout.mirror],
            "%s -m %s %s, each stripe on its link" % (
                layout.mirror, layout.first, layout.second),
            lambda c, o, e: c == 0 and _built(o, layout),
            program="metastat")
        # cmp: the two submirrors hold the same blocks after the resync,
        # the pattern in the first included; from block LABEL_BLOCKS, as
        # the resync of a labeled mirror skips the blocks before.
        self.check(
            "cmp of the two submirrors", [
                "/dev/rdsk/" + layout.links[0],
                "/dev/rdsk/" + layout.links[1], str(LABEL_BYTES),
                str(LABEL_BYTES)],
            "exit status 0, no output (the %d KiB pattern written into "
            "%s before metainit reached the other submirror by the "
            "resync)" % (PATTERN_BYTES // 1024, FILES[0]),
            lambda c, o, e: c == 0,
            program="cmp", exact=_silent, emulator="programs/cmp.py")
        self._dangling_link()
        self._slots()
        self._kstat()
        self._ramdisk_cap()

    def _dangling_link(self):
        """A cNtNdNsN link that dangles is refused: rawname() cannot stat
        the raw path, and setup_slice ends in ENOENT on the name typed,
        on stderr, exit status 1 (meta_name.c:121-142, :2174-2199
        @a593473611; audit 4 row S11); svmram's restore depends on the
        refusal."""
        layout = self.layout
        link = layout.dangling_link
        self._link(link, GONE_RAMDISK, GONE_RAMDISK.replace(
            "/dev/ramdisk/", "/dev/rramdisk/"))
        self.journal.note("metadevices", layout.dangling)
        expected = ": %s: No such file or directory" % link
        refused = self.check(
            "metainit on a link that dangles",
            [layout.dangling, "1", "1", link],
            "exit status 1; stderr: metainit: HOST%s" % expected,
            lambda c, o, e: c != 0,
            program="metainit",
            exact=lambda c, o, e: c == 1 and not o and
            e.rstrip("\n").endswith(expected) and
            e.startswith("metainit: "),
            emulator="programs/__init__.py resolve_component()")[1] != 0
        if refused or self.runner.run("metaclear", [layout.dangling])[0] \
                == 0:
            self.journal.forget("metadevices", layout.dangling)
        self._unlink(link)
        for kind in ("dsk", "rdsk"):
            self.journal.forget("links", "%s/%s" % (kind, link))

    def _slots(self):
        """Whether metadetach of slot 0 compacts the slots, against what
        svmram assumes for this release (svm/host.py _slot_behaviour)."""
        layout = self.layout
        self.runner.run("metadetach", [layout.mirror, layout.first])
        code, out, err = self.runner.run("metastat", [layout.mirror])
        config = metastat.parse(out) if code == 0 and out else None
        view = config.get(layout.mirror) if config else None
        slots = list(view.slots or ()) if view is not None else None
        observed = "unreadable (%s)" % _shown(code, out, err) \
            if slots is None else "%s in slot %s (%s)" % (
                layout.second, slots[0] if slots else "none",
                "compacted" if slots == [0] else "a hole")
        if self.illumos:
            expected, passed = "%s in slot 0 (illumos compacts)" % (
                layout.second), slots == [0]
        else:
            expected = "slot 0 or 1 (svmram tests it on this release)"
            passed = slots in ([0], [1])
        self.fact("slots after metadetach of slot 0",
                  "metadetach %s %s; metastat %s" % (
                      layout.mirror, layout.first, layout.mirror),
                  expected, observed, passed)
        self.runner.run("metattach", [layout.mirror, layout.first])
        self.wait_okay()

    def _kstat(self):
        """The mirror's write count, which the copy method reads
        (samedata.py _read_writes), after one block was read (the kstat
        exists once the mirror was opened)."""
        layout = self.layout
        self.runner.run("dd", ["if=/dev/md/rdsk/%s" % layout.mirror,
                               "of=/dev/null", "count=1"])
        unit = int(layout.mirror[1:])
        stat = "md:%d:md%d:writes" % (unit, unit)
        self.check("the mirror's write kstat", ["-p", stat],
                   "%s<TAB>N" % stat,
                   lambda c, o, e: c == 0 and len(o.split()) == 2 and
                   o.split()[0] == stat and o.split()[1].isdigit(),
                   program="kstat")

    def _ramdisk_cap(self):
        """ramdisk.c rd_phys_alloc: a ramdisk larger than all memory is
        refused with EAGAIN, the refusal svmram words as the cap."""
        pages, shown = self._pages("physmem")
        if pages is None:
            self.fact("ramdiskadm refuses past its cap",
                      "kstat -p unix:0:system_pages:physmem",
                      "unix:0:system_pages:physmem<TAB>N", shown, False)
            return
        size = (pages + 1) * PAGE_BYTES
        self.journal.note("ramdisks", CAP_RAMDISK)
        expected = ('ramdiskadm: couldn\'t create ramdisk "%s": Resource '
                    'temporarily unavailable\n' % CAP_RAMDISK)
        self.check("ramdiskadm refuses past its cap",
                   ["-a", CAP_RAMDISK, "%d" % size],
                   "exit status 1; stderr: %s" % expected.rstrip("\n"),
                   lambda c, o, e: c != 0, program="ramdiskadm",
                   exact=lambda c, o, e: c == 1 and e == expected and not o,
                   emulator="programs/ramdiskadm.py")

    # --- svmram itself -----------------------------------------------------

    def check_svmram(self):
        mirror = self.layout.mirror
        before = self._mirror_lines()
        for method in ("swap", "rotate"):
            if method == "rotate" and not self._mount_ufs():
                self.report.not_run.append(
                    "setup --method rotate: the scratch mirror's UFS could "
                    "not be mounted (its check says why)")
                continue
            set_up = self.check(
                "setup --method %s" % method,
                ["setup", mirror, "--method", method, "-y"],
                "exit status 0", lambda c, o, e: c == 0,
                program="svmram", note=METHOD_NOTES[method])[0]
            if set_up:
                self.check("status after setup (%s)" % method,
                           ["status", mirror], "exit status 0 (serving)",
                           lambda c, o, e: c == 0, program="svmram")
                if method == "swap":
                    self._restore(mirror)
                else:
                    self._data_check("after setup and status")
            if set_up or selftest_removal.svmram_owns(self.runner, mirror):
                self._teardown(before)
            if method == "rotate":
                if set_up:
                    self._data_check("after teardown")
                self._umount_ufs()
        self.report.not_run.append(COPY_NOT_RUN)

    # --- the UFS of the rotate method ----------------------------------

    def _mount_ufs(self):
        """newfs the scratch mirror, mount it on the selftest's mount
        point and write the data file; False (the failure checked) when
        one of them fails.  Mounted without UFS logging: lofi's own
        comment says a logging UFS on a lofi image can wedge (illumos
        usr/src/uts/common/io/lofi.c:103-108 @a593473611; audit 4 row
        S18), and the rotate check needs no log."""
        layout, run = self.layout, self.runner
        mirror = layout.mirror
        if not self.check(
                "newfs on the scratch mirror", ["/dev/md/rdsk/" + mirror],
                "exit status 0, nothing on stdout (newfs.c: no question "
                "without a terminal, the mkfs command line only with -v; "
                "mkfs.c writes its summary on stderr)",
                lambda c, o, e: c == 0, program="newfs",
                exact=lambda c, o, e: not o,
                emulator="programs/newfs.py", scaffold=True)[0]:
            return False
        self.journal.note("mount_points", layout.mount_point)
        os.makedirs(run.under(layout.mount_point), exist_ok=True)
        self.journal.note("mounts", mirror)
        if not self.check(
                "mount -F ufs of the scratch mirror",
                ["-F", "ufs", "-o", "nologging", "/dev/md/dsk/" + mirror,
                 layout.mount_point],
                "exit status 0, no output", lambda c, o, e: c == 0,
                program="mount", exact=_silent,
                emulator="programs/mount.py", scaffold=True)[0]:
            self.journal.forget("mounts", mirror)
            return False
        self._data = os.urandom(DATA_BYTES)
        path = run.under(posixpath.join(layout.mount_point, DATA_FILE))
        with open(path, "wb") as stream:
            stream.write(self._data)
            stream.flush()
            os.fsync(stream.fileno())
        return True

    def _data_check(self, when):
        path = posixpath.join(self.layout.mount_point, DATA_FILE)
        try:
            with open(self.runner.under(path), "rb") as stream:
                data = stream.read()
            observed = "the same %d bytes" % len(data) if \
                data == self._data else "%d bytes that differ" % len(data)
        except OSError as error:
            data, observed = None, "unreadable (%s)" % error.strerror
        self.fact("the file on the mounted UFS reads back the same %s"
                  % when, "read %s" % path,
                  "the %d bytes written before setup" % DATA_BYTES,
                  observed, data == self._data)

    def _umount_ufs(self):
        layout = self.layout
        try:
            os.unlink(self.runner.under(posixpath.join(layout.mount_point,
                                                       DATA_FILE)))
        except OSError:
            pass
        if self.check("umount of the scratch UFS", [layout.mount_point],
                      "exit status 0, no output", lambda c, o, e: c == 0,
                      program="umount", exact=_silent,
                      emulator="programs/umount.py", scaffold=True)[0]:
            self.journal.forget("mounts", layout.mirror)

    def _restore(self, mirror):
        ramdisk = names.default_ramdisk(mirror)
        # As a reboot loses it.  svmram's teardown deletes its ramdisk the
        # same way; a ramdisk still there would make the restore below a
        # no-op that passes.
        if not self.check("ramdiskadm -d of the RAM submirror's ramdisk",
                          ["-d", ramdisk], "exit status 0, no output",
                          lambda c, o, e: c == 0, program="ramdiskadm",
                          exact=_silent,
                          emulator="programs/ramdiskadm.py")[0]:
            self.report.not_run.append(
                "restore after the ramdisk is lost: the ramdisk could not "
                "be deleted (its check says why)")
            return
        self.check("restore after the ramdisk is lost",
                   ["restore", mirror], "exit status 0",
                   lambda c, o, e: c == 0, program="svmram",
                   note=BOOT_DIFFERENCE)
        # restore does not wait for the RAM submirror's resync; the boot
        # service's mirror serves from disk until it ends.
        self.wait_okay()
        self.check("status after restore", ["status", mirror],
                   "exit status 0 (serving)", lambda c, o, e: c == 0,
                   program="svmram")

    def _teardown(self, before):
        mirror = self.layout.mirror
        self.check("teardown", ["teardown", mirror, "-y"], "exit status 0",
                   lambda c, o, e: c == 0, program="svmram")
        after = self._mirror_lines()
        self.fact("teardown restores metastat -p", "metastat -p %s" % mirror,
                  " / ".join(before), " / ".join(after), after == before)

    def _mirror_lines(self):
        """metastat -p of the mirror and its stripes, in slot order."""
        layout = self.layout
        code, out, err = self.runner.run("metastat", ["-p", layout.mirror])
        return sorted(line.strip() for line in out.splitlines()
                      if line.strip())

    # --- removal -----------------------------------------------------------

    def remove(self, data):
        """Remove what the journal `data` lists and proves the selftest's
        (svm/selftest_removal.py), and nothing else.  Returns (left,
        spared): what could not be removed, as commands to type (then the
        journal stays, for the next run), and what the journal names but
        is not provably the selftest's, left alone."""
        if data is None:
            return [], []
        left, spared = selftest_removal.Removal(self.runner, data,
                                                self.poll).remove()
        self.journal.data = data
        if not left:
            self.journal.remove()
        return left, spared

    def _unlink(self, link):
        for kind in ("dsk", "rdsk"):
            try:
                os.unlink(self.runner.under("/dev/%s/%s" % (kind, link)))
            except FileNotFoundError:
                pass


class Abandoned(Exception):
    """A command the scratch mirror needs failed: the checks after it
    cannot run (the failure is a FAIL of the report, not a refusal)."""


def _said(text):
    return lambda code, out, err: code == 0 and out == text and not err


def _succeeded(code, out, err):
    return code == 0


def _silent(code, out, err):
    return not out and not err


def _correction(emulator):
    """What a DIFFERS asks: the emulator's answer corrected to the
    host's (svmram itself does not depend on it)."""
    return ("svmram does not depend on this output; correct the "
            "emulator's lib/svmsim/%s to give what this host printed "
            "(observed), with this report as its source" % emulator)


def _built(text, layout):
    """Does `metastat -p` of the mirror show it as selftest built it?"""
    try:
        config = metastat_p.parse(text)
    except ParseError:
        return False
    mirror = config.get(layout.mirror)
    if mirror is None or mirror.type != "mirror" or \
            list(mirror.submirrors) != [layout.first, layout.second]:
        return False
    for unit, link in ((layout.first, layout.links[0]),
                       (layout.second, layout.links[1])):
        stripe = config.get(unit)
        if stripe is None or [posixpath.basename(c.device) for c in
                              stripe.components()] != [link]:
            return False
    return True


def release_compacts(root):
    """What svmram assumes of slot compaction here (svm/labels.py)."""
    try:
        with open(actions.under(root, "/etc/release"), encoding="utf-8",
                  errors="replace") as stream:
            return labels.release_compacts(stream.read(4096))
    except OSError:
        return None


def run(root, svmram, directory):
    """The selftest on this host: a Report, or RefusedError before
    anything was made."""
    most = float(os.environ.get("SVMRAM_POLL_SECONDS", "10"))

    def poll():
        time.sleep(min(0.5, most))

    test = Selftest(Runner(root, svmram), directory,
                    selftest_record.release_line(root),
                    release_compacts(root), poll)
    report = test.run()
    if report.passed:
        selftest_record.write(root, True)
    return report
