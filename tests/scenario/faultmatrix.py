# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The fault matrix: for each procedure, every step and every fault kind,
inject the fault, let the administrator's obvious next action run, and
check that

1. the data-safety monitor never fired,
2. the host ends either set up and serving reads from RAM, or exactly in
   its original configuration, and
3. the messages told the administrator what happened.

Procedures: setup by rotate (the article's mounted mirror), setup by swap
(the closed mirror of hosts/swap.json), teardown (after rotate; after swap
it runs the very same commands), and the boot restore (the SMF instance
running `svmram restore` at boot); and the copy method's setup, teardown
and boot restore (COPY_PROCEDURES, on hosts/unlabeled-x86.json, whose
mirror is not labeled).

Fault kinds, at step k:
  fail    the command fails with the error a real host gives there; next:
          rerun the command (setup is rolled back at once), or for the boot
          restore `svcadm clear`.
  kill    svmram dies right after the command (SIGKILL: only the journal
          is left); next: rerun, or `svcadm clear`.
  reboot  the host reboots right after step k; next: the boot service runs
          and the command is rerun; a second reboot hits the middle of the
          next resync, and the command is rerun again.
  memcap  the host reboots right after step k and another boot service has
          taken the ramdisk memory, so the ramdisk cannot be recreated;
          next: the refusal is read, the memory freed, the command rerun.
  foreign the host reboots right after step k and another boot service
          creates a small ramdisk before svmram's instances run: it takes
          the lowest free device number, the one SVM may have recorded for
          a RAM component.  next: the command is rerun; an instance that
          fenced its mirror is mended as its message says (delete the
          other ramdisk, teardown, setup), any other in maintenance
          cleared.  The other ramdisk stays and is no part of the end
          state.

With other mirrors: the same procedures on d10 of a host where d20 (and
d30) are set up too, all closed at boot with pass 0, so that the boot
restore is the first to open them and a ramdisk one restore creates can
take the device number another mirror recorded.  Every kind hits the last
command of each step; the next action is the generic one above, and the
end state is compared with the RAM link names and device numbers left
out (a restore may land on another number and link).

Steps come from the traces of clean runs, so a new step is covered as soon
as svmram takes it.  The clean runs of setup and teardown also leave a copy
of the host after each command (a checkpoint): a kill, reboot, memcap or
foreign case of setup or teardown starts from the checkpoint of its command
instead of running svmram up to it and killing it there, which leaves the
same host (test_faults.py checks that it does).

A step is a run of commands that change the host with
no read between them; `fail` and `kill` hit several commands of a step (the
first, second and last, or the first, second-to-last and last), `reboot`
and `memcap` hit the end of each step.

Used by tests/scenario/test_faults.py and bench/faults.
"""

import concurrent.futures
import fcntl
import json
import os
import pathlib
import pickle
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from typing import List, Optional

from svmram.plan import AFTERWARDS_HEADING

import inprocess
import releases
from hosts import (READ_ONLY, EmulatedHost, _reads_only, adopt, clone,
                   host_file, kill_after_script, wrapping_bindir)

FMRI = "svc:/system/svmram:d10"
LOG = "var/svc/log/system-svmram:d10.log"
JOURNAL = "var/svmram/d10.journal"
HOSTS = {"rotate": "article", "swap": "swap", "copy": "unlabeled-x86"}
PROCEDURES = ("setup-rotate", "setup-swap", "teardown", "restore")
# The copy method's procedures (issue 20 §1), on the x86 layout whose
# mirror is not labeled: its setup, its teardown and its boot restore.
COPY_PROCEDURES = ("setup-copy", "teardown-copy", "restore-copy")
# A file in a host's directory (so in every copy of it) that makes
# svmram_op add --allow-label to each setup: the copy method needs it.
ALLOW_LABEL = ".allow-label"
KINDS = ("fail", "kill", "reboot", "memcap", "foreign")
# The emulator's release profiles (lib/svmsim/presets.py PROFILES) the
# matrix with one mirror runs on.  On the first, fail and kill hit three
# commands of each step; on the others (whose steps are the same commands
# but for the slot test on a scratch mirror and, on solaris10, the fill
# of a hole) the last command of each step, like reboot.
RELEASES = ("illumos-2016", "solaris11", "solaris10")
# With other mirrors set up: what each procedure meets.  fail and kill of
# setup and teardown involve no boot, so other mirrors change nothing.
OTHER_MIRRORS = (2, 3)
MULTI_KINDS = {"setup-rotate": ("reboot", "foreign"),
               "teardown": ("reboot", "foreign"),
               "restore": ("fail", "kill", "reboot", "foreign")}
WORKERS = 3
# The kinds whose case starts where svmram (setup, teardown) is stopped
# right after the case's command: such a case starts from a copy of the
# checkpoint its clean run left there (Clean.checkpoints), instead of
# running svmram up to that command and killing it, which leaves the
# same host (see checkpointing_bindir).
CHECKPOINTED = ("kill", "reboot", "memcap", "foreign")
# Percent a resync advances at each metastat call: at once in clean runs;
# over three calls where a run must find (or be stopped in) a resync.
RESYNC_STEP = "100"
SLOW_RESYNC_STEP = "40"
# Another boot service's ramdisk: with svmram's 228m ramdisk it exceeds
# the cap of 25% of the hosts' 1 GiB.
HOG = "hog=%d" % (100 * 1024 * 1024)
# Another boot service's small ramdisk: it fits in memory, and takes the
# lowest free device number.
FOREIGN = "other"
FOREIGN_SPEC = "%s=%d" % (FOREIGN, 1024 * 1024)
GIB = 1 << 30


# --- the errors a real host gives at each point ------------------------------

def fault_options(argv):
    """`svmsim faults add` options for a failure of this command, with the
    message SVM (or ramdiskadm, svccfg, svcadm) would print there."""
    prog = argv[0]
    if prog == "ramdiskadm" and argv[1] == "-a":
        return ["--message", "ramdiskadm: couldn't create ramdisk "
                "\"%s\": Resource temporarily unavailable" % argv[2]]
    if prog == "ramdiskadm":
        return ["--message", "ramdiskadm: couldn't delete ramdisk "
                "\"%s\": Device busy" % argv[2]]
    if prog == "metattach":
        return ["--svm-error", "submirror open error", "--name", argv[2]]
    if prog == "metadetach":
        return ["--svm-error", "resync in progress", "--name", argv[-2]]
    if prog == "metaclear":
        return ["--svm-error", "metadevice is open", "--name", argv[-1]]
    if prog in ("metainit", "metaparam"):
        return ["--svm-error", "stale databases"]
    if prog == "metareplace":
        return ["--svm-error", "resync in progress", "--name", argv[-2]]
    if prog == "metasync":
        return ["--svm-error", "stale databases"]
    if prog == "svccfg":
        return ["--message", "svccfg: Backend read-only."]
    if prog == "dd":
        return ["--message", "dd: %s: open: I/O error" % argv[1][3:]]
    if prog == "svcadm":
        return ["--message", "svcadm: %s: Permission denied." % argv[-1]]
    raise AssertionError("no realistic error for %s" % argv)


def fault_text(argv):
    """The first line of what the fault prints, as svmram quotes it."""
    options = fault_options(argv)
    if options[0] == "--message":
        return options[1]
    name = options[3] + ": " if len(options) > 2 else ""
    return "%s: myhost: %s%s" % (argv[0], name, options[1])


def arm(host, argv, nth):
    result = host.sim("faults", "add", argv[0], "--nth", str(nth),
                      "--exit", "1", *fault_options(argv))
    assert result.returncode == 0, result.stderr


def op_args(host, operation, *args):
    """(OPERATION, ARGS...), with --allow-label for a setup on a host
    marked for the copy method (ALLOW_LABEL)."""
    extra = ("--allow-label",) if operation == "setup" and os.path.exists(
        os.path.join(host.dir, ALLOW_LABEL)) else ()
    return (operation,) + extra + args


def svmram_op(host, operation, *args, **kwargs):
    """host.svmram(OPERATION, ARGS...), with --allow-label (op_args)."""
    return host.svmram(*op_args(host, operation, *args), **kwargs)


# --- steps of clean runs -----------------------------------------------------

@dataclass
class Command:
    """A changing command of a clean run: argv, which call of its program
    it is (faults and kills count every call, reads too), and where it
    sits in its step.  `afterwards`: run after the journal and the lock
    are released (enabling the boot service), so nothing is rolled back
    when it fails."""
    argv: List[str]
    nth: int
    step: int
    index: int
    size: int
    afterwards: bool = False
    probe: bool = False     # part of the scratch mirror's slot test

    def __str__(self):
        return " ".join(self.argv)


def commands(trace, script=""):
    """The changing commands of a trace, grouped in steps; `script` is the
    plan's -n script, whose last part lists the commands run afterwards."""
    calls, runs, reading = {}, [], True
    for argv in trace:
        calls[argv[0]] = calls.get(argv[0], 0) + 1
        if _reads_only(argv):
            reading = True
            continue
        if reading:
            runs.append([])
            reading = False
        runs[-1].append((argv, calls[argv[0]]))
    found = [Command(argv, nth, step, index, len(run))
             for step, run in enumerate(runs, 1)
             for index, (argv, nth) in enumerate(run)]
    # The test of the slot behaviour on a scratch mirror (Solaris hosts)
    # comes first and ends with its ramdisks deleted.
    ends = [n for n, c in enumerate(found) if c.argv[:2] == [
        "ramdiskadm", "-d"] and c.argv[2].startswith("svmram_probe")]
    for command in found[:ends[-1] + 1 if ends else 0]:
        command.probe = True
    later = script.partition("\n" + AFTERWARDS_HEADING)[2]
    for command in found:
        command.afterwards = any(
            line.endswith("/" + " ".join(command.argv))
            for line in later.splitlines())
    return found


def multi_host_file(directory, mirrors):
    """A host description: the article's layout unmounted, with `mirrors`
    mirrors d10, d20, ... of two disk submirrors each, all with pass 0
    (nothing opens them at boot), and the memory for their ramdisks."""
    with open(host_file("closed-article"), encoding="utf-8") as stream:
        desc = json.load(stream)
    desc["physmem"] = 4 * GIB
    desc["metadevices"] = ["d11 1 1 c0d1s0", "d12 1 1 c1d0s0",
                           "d10 -m d11 d12 0"]
    for n in range(2, mirrors + 1):
        for i, disk in enumerate(("c%dd0" % (2 * n - 2), "c%dd0" % (2 * n - 1))):
            desc["disks"][disk] = dict(desc["disks"]["c0d1"], devid=(
                "id1,cmdk@AQEMU_HARDDISK=QM%05d" % (10 * n + i)))
            desc["data"][disk + "s0"] = n
        desc["metadevices"] += ["d%d1 1 1 c%dd0s0" % (n, 2 * n - 2),
                                "d%d2 1 1 c%dd0s0" % (n, 2 * n - 1),
                                "d%d0 -m d%d1 d%d2 0" % (n, n, n)]
    path = os.path.join(str(directory), "host-%d.json" % mirrors)
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(desc, stream)
    return path


def checkpointing_bindir(host, directory):
    """A directory of the host's commands in which each call of a command
    that changes the host, made by svmram, does its work and then copies
    the host directory to directory/PROG-N (N: which call of PROG by
    svmram it is).  The copy is the host exactly as svmram killed right
    after that call would leave it (kill_after_script counts the same
    calls and kills at the same point), the journal included."""
    real = os.path.join(host.env["SVMSIM_DIR"], "bin")
    bindir = os.path.join(host.dir, "ckptbin")
    os.mkdir(bindir)
    for prog in sorted(os.listdir(real)):
        path = os.path.join(bindir, prog)
        if prog in READ_ONLY:
            os.symlink(os.path.join(real, prog), path)
            continue
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(
                "#!/bin/sh\n"
                "case \"$(tr '\\0' ' ' < /proc/$PPID/cmdline 2>/dev/null)\" "
                "in\n"
                "*/svmram\\ *) ;;\n"
                "*) exec %(real)s \"$@\" ;;\n"
                "esac\n"
                "%(real)s \"$@\"\n"
                "status=$?\n"
                "echo x >> %(counter)s\n"
                "n=$(wc -l < %(counter)s)\n"
                "if [ $# -gt 0 ] || [ %(prog)s != ramdiskadm ]; then\n"
                "  cp -a %(host)s %(directory)s/%(prog)s-$((n))\n"
                "fi\n"
                "exit $status\n" % {
                    "real": shlex.quote(os.path.join(real, prog)),
                    "counter": shlex.quote(os.path.join(bindir,
                                                        "." + prog)),
                    "prog": shlex.quote(prog),
                    "host": shlex.quote(host.dir),
                    "directory": shlex.quote(str(directory))})
        os.chmod(path, 0o755)
    return bindir


def checkpointed_run(host, directory, *args):
    """Run `svmram ARGS` on the host, copying the host after each command
    that changes it (as checkpointing_bindir does, in this process when
    svmram runs here); the result, and {(PROG, N): the host after
    svmram's Nth call of PROG}."""
    os.makedirs(str(directory))
    if inprocess.enabled():
        calls = {}

        def checkpoint(argv):
            prog = os.path.basename(argv[0])
            if prog in READ_ONLY:
                return
            calls[prog] = calls.get(prog, 0) + 1
            if argv[1:] or prog != "ramdiskadm":
                subprocess.run(["cp", "-a", host.dir, os.path.join(
                    str(directory), "%s-%d" % (prog, calls[prog]))],
                    check=True)
        result = svmram_op(host, *args, after=checkpoint)
    else:
        bindir = checkpointing_bindir(host, directory)
        result = svmram_op(host, *args, env={"SVMRAM_BINDIR": bindir})
        shutil.rmtree(bindir)
    points = {}
    for name in os.listdir(str(directory)):
        prog, _, nth = name.rpartition("-")
        path = os.path.join(str(directory), name)
        shutil.rmtree(os.path.join(path, "ckptbin"), ignore_errors=True)
        points[(prog, int(nth))] = adopt(host, path)
    return result, points


class Clean:
    """One setup method's pristine host, a set-up copy, and the traces of
    a clean setup, teardown and boot restore.  With mirrors > 1 the host
    has that many mirrors and all but d10 are set up already."""

    def __init__(self, method, directory, mirrors=1, release=None):
        name = HOSTS[method]
        self.method = method
        self.mirrors = mirrors
        directory.mkdir(parents=True, exist_ok=True)
        if mirrors == 1:
            self.pristine = EmulatedHost(directory / "pristine",
                                         host_file=host_file(name),
                                         preset=name, release=release)
        else:
            self.pristine = EmulatedHost(
                directory / "pristine",
                host_file=multi_host_file(directory, mirrors),
                release=release)
        assert self.pristine.sim("thaw", "--step", RESYNC_STEP).returncode == 0
        if method == "copy":
            open(os.path.join(self.pristine.dir, ALLOW_LABEL), "w").close()
        # The boot restore runs the start method that make install put in
        # the emulated root, as on a real host.
        self.pristine.install()
        for n in range(2, mirrors + 1):
            result = self.pristine.svmram("setup", "-y", "d%d0" % n)
            assert result.returncode == 0, result.stderr
            assert self.pristine.sim("tick").returncode == 0
        self.pristine.clear_trace()
        self.original = digest(self.pristine)
        if mirrors == 1:
            assert self.original["metastat -p"] == releases.ORIGINAL
        # The plan's script, on a copy of its own: the setup below starts
        # from the pristine state exactly, as its checkpoints must.
        script = svmram_op(clone(self.pristine, directory / "plan"),
                           "setup", "-n", "d10").stdout
        done = clone(self.pristine, directory / "done")
        # The clean runs of setup and teardown leave a checkpoint after
        # each command (checkpointed_run): where the cases of CHECKPOINTED
        # kinds start.
        self.checkpoints = {}
        result, points = checkpointed_run(done, directory / "points-setup",
                                          "setup", "-y", "d10")
        assert result.returncode == 0, result.stderr
        self.checkpoints.update({("setup",) + key: host
                                 for key, host in points.items()})
        self.setup = commands(done.trace(changes_only=False), script)
        self.set_up = clone(done, directory / "set-up")
        self.set_up_digest = digest(self.set_up)
        if mirrors == 1 and self.pristine.switches()["detach_compacts"] \
                and method != "copy":
            # Where detach leaves a hole, d11 ends last (docs/design.md).
            assert self.set_up_digest["metastat -p"] == releases.RAM_FIRST
        # The boot restore, as the SMF instance runs it.
        booted = clone(done, directory / "booted")
        assert booted.reboot().returncode == 0
        self.restore = commands(booted.trace(changes_only=False))
        assert booted.sim("tick").returncode == 0
        assert is_set_up(booted, self) == []
        # Teardown from a copy of the host its cases start from.
        torn = clone(self.set_up, directory / "torn")
        result, points = checkpointed_run(
            torn, directory / "points-teardown", "teardown", "-y", "d10")
        assert result.returncode == 0, result.stderr
        self.checkpoints.update({("teardown",) + key: host
                                 for key, host in points.items()})
        self.teardown = commands(torn.trace(changes_only=False))
        assert differs(torn, self.original) == []
        assert torn.violations() == []
        # A checkpoint for every changing command of the two runs.
        for operation in ("setup", "teardown"):
            for command in getattr(self, operation):
                assert (operation, command.argv[0], command.nth) in \
                    self.checkpoints, (operation, str(command))

    def checkpoint(self, case):
        """The host where the case's svmram is stopped, or None where the
        case runs svmram itself (fail kinds, and the boot restore)."""
        operation = case.procedure.split("-")[0]
        if case.kind not in CHECKPOINTED or operation == "restore":
            return None
        return self.checkpoints[(operation, case.command.argv[0],
                                 case.command.nth)]


def shared_clean(directory, method, mirrors=1, release=None):
    """The Clean of (method, mirrors, release) in `directory`, built by
    whichever test process asks first: the others (pytest-xdist's
    workers, which share a temporary root) wait for it and load it
    (clean.pickle).  Its hosts are only ever copied (clone), so they can
    be shared."""
    directory = str(directory)
    done = os.path.join(directory, "clean.pickle")
    with open(directory + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(done):
            with open(done, "rb") as stream:
                return pickle.load(stream)
        shutil.rmtree(directory, ignore_errors=True)   # a failed build's
        try:
            run = Clean(method, pathlib.Path(directory), mirrors, release)
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
        with open(done + ".new", "wb") as stream:
            pickle.dump(run, stream)
        os.rename(done + ".new", done)
        return run


# --- looking at a host -------------------------------------------------------

def dev_links(host):
    """{"dsk/NAME": target} of the symlinks in /dev/dsk and /dev/rdsk."""
    found = {}
    for kind in ("dsk", "rdsk"):
        directory = os.path.join(host.root, "dev", kind)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if os.path.islink(path):
                found["%s/%s" % (kind, name)] = os.readlink(path)
    return found


def digest(host):
    """What must be exactly as before after a rollback: SVM's configuration
    and states, the ramdisks, the /dev links, svmram's SMF instances and
    its journal."""
    links = dev_links(host)
    journals = os.path.join(host.root, os.path.dirname(JOURNAL))
    # Another program's ramdisk (the foreign kind) is no part of it.
    ramdisks = [line for line in host.ramdisks().splitlines(True)
                if "/dev/ramdisk/%s " % FOREIGN not in line]
    ramdisks = "".join(ramdisks) if len(ramdisks) > 1 else ""  # no header
    return {"metastat -p": host.metastat_p(),
            "metastat d10": host.cmd("metastat", "d10").stdout,
            "ramdiskadm": ramdisks, "links": links,
            "instances": host.cmd("svcs", "-H", "-o", "fmri,state",
                                  "svc:/system/svmram:*").stdout,
            "journal": sorted(name for name in os.listdir(journals)
                              if name.endswith(".journal"))
            if os.path.isdir(journals) else []}


RAM_CONTROLLER = re.compile(r"\bc9\d+t0d0")


def without_ram_links(state):
    """A digest with the RAM components' link names left out: a restore
    whose new ramdisk got another device number replaces the component
    onto a new link name."""
    out = {key: RAM_CONTROLLER.sub("c9?t0d0", value)
           for key, value in state.items() if isinstance(value, str)}
    # Behind a RAM submirror in slot 0 the disks may come in either order:
    # a setup resumed after a reboot takes the cheaper sequence, and
    # teardown restores the order from the record.
    out["metastat -p"] = _disks_in_any_order(out["metastat -p"])
    out["metastat d10"] = "".join(sorted(re.sub(
        r"Submirror [1-9]\d*:", "Submirror N:",
        out["metastat d10"]).splitlines(True)))
    # Listed in the order they were made, which a restore may change.
    for key in ("ramdiskadm", "instances"):
        lines = out[key].splitlines(True)
        out[key] = "".join(lines[:1] + sorted(lines[1:])) \
            if key == "ramdiskadm" else "".join(sorted(lines))
    out["links"] = sorted((key.split("/")[0], target)
                          for key, target in state["links"].items())
    out["journal"] = state["journal"]
    return out


def slots_in_order(state):
    """A digest with plain metastat's slot numbers replaced by the order
    of the submirrors.  Where detach leaves a hole, teardown leaves one
    where the RAM submirror was (d11 and d12 in slots 1 and 2) and spends
    no resync on closing it (docs/design.md); `metastat -p`, the order and
    the states are still compared exactly."""
    out, number = [], 0
    for line in state["metastat d10"].splitlines(True):
        if not line.startswith(" "):
            number = 0
        match = re.match(r"( +Submirror )\d+:", line)
        if match:
            line = "%s%d:%s" % (match.group(1), number, line[match.end():])
            number += 1
        out.append(line)
    return dict(state, **{"metastat d10": "".join(out)})


def _disks_in_any_order(metastat_p):
    lines = metastat_p.splitlines(True)
    on_ram = {line.split()[0] for line in lines if "c9?t0d0" in line}
    out = []
    for line in lines:
        words = line.split()
        if len(words) > 3 and words[1] == "-m" and \
                words[2].rsplit("/", 1)[-1] in on_ram:
            disks = [w for w in words[3:] if w.startswith("/dev/md/")]
            rest = words[3 + len(disks):]
            line = " ".join(words[:3] + sorted(disks) + rest) + "\n"
        out.append(line)
    return "".join(sorted(out))


def differs(host, want, got=None, relaxed=False):
    got = got or digest(host)
    if relaxed:
        want, got = without_ram_links(want), without_ram_links(got)
    if not host.switches()["detach_compacts"]:
        want, got = slots_in_order(want), slots_in_order(got)
    return ["%s is %r, expected %r" % (key, got[key], want[key])
            for key in want if got[key] != want[key]]


def is_set_up(host, clean, got=None, relaxed=False):
    """[] if the host is set up as a clean setup leaves it, and svmram
    status says every configured mirror serves reads from RAM."""
    problems = differs(host, clean.set_up_digest, got, relaxed)
    if problems:
        return problems
    props = host.cmd("svcprop", "-p", "svmram", FMRI).stdout.splitlines()
    for line in ("svmram/ram astring d13", "svmram/method astring %s"
                 % clean.method, "svmram/disks astring d11,d12",
                 "svmram/format count 1"):
        if line not in props:
            problems.append("the record lacks %r" % line)
    status = host.svmram("status")
    if status.returncode != 0:
        problems.append("status says: %s" % status.stdout)
    return problems


def service_state(host):
    return host.cmd("svcs", "-H", "-o", "state", FMRI).stdout.strip()


def service_log(host, mirror="d10"):
    try:
        with open(os.path.join(host.root, LOG.replace("d10", mirror)),
                  encoding="utf-8") as log:
            return log.read()
    except FileNotFoundError:
        return ""


def no_traceback(*results):
    return ["a traceback:\n" + r.stderr for r in results
            if "Traceback" in r.stderr]


def step_named(result, operation, message):
    """The failure message names the step it reports, as the progress
    lines numbered it."""
    lines = result.stderr.splitlines()
    started = [line for line in lines
               if line.startswith("%s d10: step " % operation)]
    if not started:
        return ["no step was started:\n" + result.stderr]
    number, _, summary = started[-1][len("%s d10: step " % operation):] \
        .partition(": ")
    number = number.split(" of ")[0]
    want = "svmram: step %s failed (%s): " % (number, summary.rstrip("."))
    if not message.startswith(want):
        return ["the message %r does not start with %r" % (message, want)]
    return []


def said(host, command):
    """How svmram quotes a failed command: its path and first line."""
    return "%s failed: %s" % (
        os.path.join(host.env["SVMRAM_BINDIR"], " ".join(command.argv)),
        fault_text(command.argv).rstrip("."))


# --- injecting kills ---------------------------------------------------------

def kill_in_place(host, prog, nth):
    """Make the host's own `prog` kill its caller right after its nth call
    (one shot).  Unlike killing_bindir this reaches the boot service too,
    whose start method runs the host's commands."""
    path = os.path.join(host.env["SVMSIM_DIR"], "bin", prog)
    real = os.path.join(os.path.dirname(path), "." + prog + ".real")
    os.rename(path, real)
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(kill_after_script(
            real, os.path.join(host.dir, ".kill-" + prog), nth,
            then="mv -f %s %s" % (shlex.quote(real), shlex.quote(path))))
    os.chmod(path, 0o755)


def killed_in_resync(host, operation):
    """svmram OPERATION -y d10, killed by the first metastat it runs that
    shows a resync in progress (resync_killing_bindir; in the test's
    process, EmulatedHost.killed_in_process): (its result, whether it was
    killed)."""
    args = op_args(host, operation, "-y", "d10")
    if inprocess.enabled():
        result = host.killed_in_process(
            lambda argv, stdout: os.path.basename(argv[0]) == "metastat"
            and "Resync in progress" in stdout, *args)
        return result, result.returncode == -9
    resync_bin, fired = resync_killing_bindir(host)
    result = host.svmram(*args, env={"SVMRAM_BINDIR": resync_bin})
    return result, os.path.exists(fired)


def resync_killing_bindir(host):
    """A directory of the host's commands in which the first metastat that
    shows a resync in progress kills its caller (svmram): the moment to
    reboot "in the middle of the next resync"."""
    fired = os.path.join(host.dir, ".resync-fired")

    def script(real, bindir):
        return ("#!/bin/sh\n"
                "out=$(%(real)s \"$@\"; echo \"status=$?\")\n"
                "status=${out##*status=}\n"
                "printf '%%s\\n' \"${out%%status=*}\" | sed '$d'\n"
                "case $out in *'Resync in progress'*)\n"
                "  if [ ! -e %(fired)s ]; then : > %(fired)s; kill -9 $PPID; "
                "fi\n"
                "esac\n"
                "exit $status\n" % {"real": shlex.quote(real),
                                    "fired": shlex.quote(fired)})
    return wrapping_bindir(host, "resyncbin", "metastat", script), fired


# --- cases -------------------------------------------------------------------

@dataclass
class Case:
    procedure: str
    kind: str
    command: Command
    mirrors: int = 1
    release: Optional[str] = None     # the emulator's profile; None: default

    @property
    def step(self):
        return self.command.step

    @property
    def relaxed(self):
        """Whether the end state is compared without the RAM links: a
        restore may land on another device number and link when another
        ramdisk came first."""
        return self.kind == "foreign" or self.mirrors > 1

    def __str__(self):
        return "%s%s%s, step %d, %s after %s (%d/%d)" % (
            self.procedure, "" if self.mirrors == 1 else
            " (%d mirrors)" % self.mirrors,
            " on %s" % self.release if self.release else "", self.step,
            self.kind, self.command, self.command.index + 1,
            self.command.size)


@dataclass
class Outcome:
    case: Case
    problems: List[str] = field(default_factory=list)
    violations: List[str] = field(default_factory=list)
    final: str = "?"
    seconds: float = 0.0

    @property
    def ok(self):
        return not self.problems and not self.violations


def _method(procedure):
    if procedure.endswith("-copy"):
        return "copy"
    return "swap" if procedure == "setup-swap" else "rotate"


def procedure_commands(clean, procedure, mirrors=1, release=None):
    run = clean(_method(procedure), mirrors, release)
    return {"setup": run.setup, "teardown": run.teardown,
            "restore": run.restore}[procedure.split("-")[0]]


def cases(clean, procedures=PROCEDURES, kinds=KINDS, mirrors=1,
          release=None):
    """Every case of the matrix, for the given procedures and kinds; with
    other mirrors, every kind hits the last command of each step."""
    found = []
    for procedure in procedures:
        cmds = procedure_commands(clean, procedure, mirrors, release)
        thorough = mirrors == 1 and release in (None, RELEASES[0])
        for kind in kinds:
            if kind == "fail" and thorough:
                chosen = [c for c in cmds if c.index in (0, 1, c.size - 1)]
            elif kind == "kill" and thorough:
                chosen = [c for c in cmds
                          if c.index in (0, c.size - 2, c.size - 1)]
            else:
                chosen = [c for c in cmds if c.index == c.size - 1]
            found += [Case(procedure, kind, c, mirrors, release)
                      for c in chosen]
    return found


def run_case(clean, case, directory):
    """Run one case on a copy of the right host; its Outcome."""
    started = time.monotonic()
    run = clean(_method(case.procedure), case.mirrors, case.release)
    outcome = Outcome(case)
    runner = probe_faulted if case.command.probe else \
        RUNNERS[(case.procedure.split("-")[0], case.kind)] \
        if case.mirrors == 1 or case.kind == "foreign" else with_others
    point = run.checkpoint(case)
    host = clone(point or (run.pristine if case.procedure.startswith("setup")
                           else run.set_up), directory)
    # Started from a checkpoint: svmram was stopped right after the
    # case's command already.
    host.stopped = point is not None
    try:
        outcome.problems = runner(run, case, host)
    except Exception as error:          # a broken case is a finding too
        outcome.problems = ["the case itself failed: %r" % error]
    outcome.violations = host.violations()
    if case.kind in ("foreign", "memcap"):
        # Another boot service's ramdisk (the hog too) may take a device
        # number a closed mirror recorded.
        outcome.violations = charged_to_svmram(outcome.violations)
    got = digest(host)
    as_original = differs(host, run.original, got, case.relaxed)
    as_set_up = is_set_up(host, run, got, case.relaxed) if as_original \
        else ["original"]
    outcome.final = "original" if not as_original else \
        "set up" if not as_set_up else "other"
    want = "original" if case.procedure.startswith("teardown") \
        else "set up"
    if outcome.final != want:
        outcome.problems.append("ends %s, not %s:\n  %s" % (
            outcome.final, want, "\n  ".join(
                as_original if want == "original" else as_set_up)))
    outcome.seconds = time.monotonic() - started
    return outcome


def run_cases(clean, found, directory, workers=WORKERS):
    """Run cases, each on its own emulated host: one after the other when
    svmram runs in this process (inprocess.py: one svmram at a time, in
    the main thread), else a few at a time."""
    directory.mkdir(parents=True, exist_ok=True)
    if inprocess.enabled():
        return [run_case(clean, case, directory / str(n))
                for n, case in enumerate(found)]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(run_case, clean, case, directory / str(n))
                   for n, case in enumerate(found)]
        return [future.result() for future in futures]


# --- setup and teardown ------------------------------------------------------

def _operation(case):
    return case.procedure.split("-")[0]


def _run_failing(host, operation, command):
    """Arm the fault and run the operation: (problems, message, advice),
    the last two lines svmram printed, or (problems, None, None) when it
    did not fail as it must (exit 1, no traceback)."""
    arm(host, command.argv, command.nth)
    result = svmram_op(host, operation, "-y", "d10")
    problems = no_traceback(result)
    if result.returncode != 1:
        return problems + ["exit status %d:\n%s" % (
            result.returncode, result.stderr)], None, None
    message, advice = result.stderr.splitlines()[-2:]
    if not command.afterwards:
        problems += step_named(result, operation, message)
        if said(host, command) not in message:
            problems.append("the message %r does not quote %r"
                            % (message, said(host, command)))
    return problems, message, advice


def setup_fails(run, case, host):
    """The command fails: rolled back exactly, then a rerun converges."""
    command = case.command
    problems, message, advice = _run_failing(host, "setup", command)
    if message is None:
        return problems
    if command.afterwards:
        return problems + _enable_failed(run, command, host, message, advice)
    if not message.endswith(".  Everything was rolled back; d10 is as it "
                            "was before."):
        problems.append("the message %r does not say it rolled back"
                        % message)
    if advice != "svmram: Fix the cause, then run 'svmram setup d10' again.":
        problems.append("the advice is %r" % advice)
    problems += differs(host, run.original)
    return problems + _rerun(host, "setup")


def _enable_failed(run, command, host, message, advice):
    """Enabling the boot service failed: the mirror stays set up, the
    message says so, and a rerun of setup enables it."""
    problems = []
    want = ("svmram: d10 is set up, but its boot service could not be "
            "enabled (%s failed: %s)" % (
                os.path.join(host.env["SVMRAM_BINDIR"],
                             " ".join(command.argv)),
                fault_text(command.argv)))
    if message != want:
        problems.append("the message is %r, expected %r" % (message, want))
    if advice != ("svmram: Fix the cause, then run 'svmram setup d10' again "
                  "to enable it."):
        problems.append("the advice is %r" % advice)
    set_up = run.set_up_digest
    problems += differs(host, dict(set_up, instances=set_up[
        "instances"].replace("online", "disabled")))
    host.clear_trace()
    problems += _rerun(host, "setup")
    if [argv for argv in host.trace() if argv[0] != "svcadm"] != []:
        problems.append("the rerun changed more than the service: %r"
                        % host.trace())
    return problems


def teardown_fails(run, case, host):
    """The command fails: nothing is undone, the message says to run
    teardown again, and that converges."""
    problems, message, advice = _run_failing(host, "teardown", case.command)
    if message is None:
        return problems
    if advice != ("svmram: Nothing was undone; run 'svmram teardown d10' "
                  "again to continue from where it stopped."):
        problems.append("the advice is %r" % advice)
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("no journal is left for the rerun")
    return problems + _rerun(host, "teardown")


def _rerun(host, operation, resumed=False, **env):
    """Run the operation again, as the administrator would; [] if it
    succeeded (and, when `resumed`, said it was resuming)."""
    result = svmram_op(host, operation, "-y", "d10", env=env or None)
    problems = no_traceback(result)
    if result.returncode != 0:
        return problems + ["the rerun failed (exit %d):\n%s" % (
            result.returncode, result.stderr)]
    if resumed and "%s d10: resuming the %s recorded in " % (
            operation, operation) not in result.stderr:
        problems.append("the rerun does not say it resumes:\n"
                        + result.stderr)
    return problems


def killed(run, case, host):
    """svmram is killed right after the command: a rerun of the same
    command resumes from the journal and converges."""
    operation, command = _operation(case), case.command
    problems = _stop_after(host, case)
    if problems:
        return problems
    if command.afterwards:
        # Killed after the last command: set up, and a rerun says so.
        rerun = svmram_op(host, operation, "-y", "d10")
        if (rerun.returncode, rerun.stdout) != (
                0, "d10 is already set up; nothing to do.\n"):
            return ["the rerun: exit %d\n%s" % (rerun.returncode,
                                                rerun.stderr)]
        return []
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("the killed run left no journal")
    assert host.sim("thaw", "--step", SLOW_RESYNC_STEP).returncode == 0
    return problems + _rerun(host, operation, resumed=True)


def _reboot(host, *options):
    result = host.reboot(*options)
    return [] if result.returncode == 0 else [
        "the reboot failed:\n" + result.stderr]


def rebooted(run, case, host, memcap=False):
    """The host reboots right after the step.  The boot service runs (for
    teardown it must refuse: a teardown is unfinished), then the command
    is rerun; a second reboot hits the middle of the rerun's next resync,
    and the command is rerun once more."""
    operation, command = _operation(case), case.command
    problems = _stop_after(host, case)
    if problems:
        return problems
    problems = _reboot(host, *(("--boot-ramdisk", HOG) if memcap else ()))
    if command.afterwards:
        # The setup had finished: the boot service restores it, or with
        # the memory taken refuses, until the memory is freed.
        if not memcap:
            problems += _expect_service(host, "online", "")
            assert host.sim("tick").returncode == 0
            return problems
        problems += _expect_service(host, "maintenance",
                                    "would exceed the ramdisk memory cap")
        problems += _memory_refused(host, "restore")
        return problems + _clear(host)
    if operation == "teardown" and service_state(host):
        # Still there: its restore must refuse, the teardown unfinished.
        problems += _expect_service(
            host, "maintenance", "svmram: a teardown of d10 has not "
            "finished (")
    if memcap:
        # The memory is freed, and the command rerun to the end.
        problems += _memory_refused(host, operation)
        problems += _rerun(host, operation, resumed=True)
        if operation == "setup":
            assert host.sim("tick").returncode == 0
        return problems
    assert host.sim("thaw", "--step", SLOW_RESYNC_STEP).returncode == 0
    # The rerun, stopped by a reboot in the middle of its next resync.
    result, fired = killed_in_resync(host, operation)
    problems += no_traceback(result)
    if fired:
        problems += _reboot(host)
        problems += _rerun(host, operation, resumed=True)
    elif result.returncode != 0:
        return problems + ["the rerun failed (exit %d):\n%s" % (
            result.returncode, result.stderr)]
    elif "%s d10: resuming the %s recorded in " % (operation, operation) \
            not in result.stderr:
        problems.append("the rerun does not say it resumes:\n"
                        + result.stderr)
    if operation == "setup":
        assert host.sim("tick").returncode == 0
    return problems


def _memory_refused(host, operation, scratch=False):
    """With the memory taken, a rerun of setup refuses before changing
    anything and says why; teardown needs no ramdisk and goes on.  The
    administrator then frees the memory.  `scratch`: an interrupted test
    of the slot behaviour left a scratch mirror, which goes first."""
    problems = []
    if operation == "setup":
        before = digest(host)
        host.clear_trace()
        result = svmram_op(host, operation, "-y", "d10")
        problems += no_traceback(result)
        if result.returncode != 3 or "would exceed the ramdisk memory cap" \
                not in result.stderr:
            problems.append("setup with the memory taken: exit %d\n%s" % (
                result.returncode, result.stderr))
        trace, after = host.trace(), digest(host)
        if scratch:
            # Only the interrupted test's leftovers may go, and it says so.
            removal = [argv for argv in trace if argv in (
                ["metaclear", "d125"], ["metaclear", "d126"],
                ["metaclear", "-f", "d127"],
                ["ramdiskadm", "-d", "svmram_probe0"],
                ["ramdiskadm", "-d", "svmram_probe1"])]
            if removal and "svmram: removed what an earlier test of the " \
                    "slot behaviour left: " not in result.stderr:
                problems.append("the removal of the scratch mirror was not "
                                "reported:\n" + result.stderr)
            trace = [argv for argv in trace if argv not in removal]
            # What the removal changed; d10, the instances and the
            # journal are still compared.
            after = dict(after, **{key: before[key] for key in (
                "metastat -p", "ramdiskadm", "links")})
        if trace != [] or after != before:
            problems.append("the refused setup changed the host: %r"
                            % host.trace())
    if host.cmd("ramdiskadm", "-d", "hog").returncode != 0:
        problems.append("the hog could not be deleted")
    return problems


def _expect_service(host, state, logged):
    """The instance is in `state`; a restore that fails while every disk
    submirror is current leaves it degraded instead of in maintenance
    where SMF knows degraded (profile switch smf_exit_degraded)."""
    problems = []
    allowed = {state}
    if state == "maintenance" and host.switches().get("smf_exit_degraded"):
        allowed.add("degraded")
    if service_state(host) not in allowed:
        problems.append("the boot service is %r, not %r; its log:\n%s" % (
            service_state(host), state, service_log(host)))
    if logged and logged not in service_log(host):
        problems.append("the service log lacks %r:\n%s" % (
            logged, service_log(host)))
    return problems


# --- the test of the slot behaviour ------------------------------------------

def probe_faulted(run, case, host):
    """A fault in the test of the slot behaviour on a scratch mirror,
    before anything of d10's changed: a failure says so and quotes the
    command; after a kill or a reboot d10 is as the boot left it.  The
    rerun removes what the test left, and converges."""
    operation, command = _operation(case), case.command
    before = digest(host)["metastat d10"]
    options = {"memcap": ("--boot-ramdisk", HOG),
               "foreign": ("--boot-ramdisk", FOREIGN_SPEC)}
    if case.kind == "fail":
        arm(host, command.argv, command.nth)
        result = svmram_op(host, operation, "-y", "d10")
        problems = no_traceback(result)
        if result.returncode != 1:
            return problems + ["exit status %d:\n%s" % (
                result.returncode, result.stderr)]
        message = result.stderr.splitlines()[-2]
        if said(host, command) not in message or \
                "and d10 was not changed" not in message:
            problems.append("the message %r does not quote %r and say d10 "
                            "was not changed" % (message, said(host, command)))
        if digest(host)["metastat d10"] != before:
            problems.append("d10 changed")
        host.sim("faults", "clear")
    else:
        problems = _stop_after(host, case)
        if os.path.exists(os.path.join(host.root, JOURNAL)):
            problems.append("a journal was written before d10 changed")
        if case.kind == "kill":
            if digest(host)["metastat d10"] != before:
                problems.append("d10 changed")
        else:
            problems += _reboot(host, *options.get(case.kind, ()))
            if case.kind == "memcap":
                problems += _memory_refused(host, operation, scratch=True)
    problems += _rerun(host, operation)
    assert host.sim("tick").returncode == 0
    if case.kind == "foreign":
        problems += _recover(host)
    return problems


# --- the boot restore --------------------------------------------------------

def restore_fails(run, case, host):
    """The command fails in the boot service: it goes to maintenance with
    svmram's message in its log, `svcadm clear` (degraded: `svcadm
    restart`, as the message says) runs it again, and the RAM submirror
    comes back."""
    command = case.command
    arm(host, command.argv, command.nth)
    problems = _reboot(host)
    quoted = "%s failed: %s" % (" ".join(command.argv),
                                fault_text(command.argv).rstrip("."))
    problems += _expect_service(host, "maintenance", quoted)
    if "svmram: step " not in service_log(host):
        problems.append("the log does not name the failed step:\n"
                        + service_log(host))
    # Degraded (Solaris 11.4), 'svcadm clear' would only mark it online.
    verb = "restart" if service_state(host) == "degraded" else "clear"
    problems += _expect_service(
        host, "maintenance", "svmram: d10 keeps serving reads from its disk "
        "submirrors.  Fix the cause, then run 'svcadm %s svmram:d10'" % verb)
    return problems + _clear(host)


def restore_killed(run, case, host):
    """svmram restore is killed in the boot service (a start method
    timeout, say): maintenance with a message; `svcadm clear` finishes."""
    command = case.command
    kill_in_place(host, command.argv[0], command.nth)
    problems = _reboot(host)
    problems += _expect_service(
        host, "maintenance", "svmram: 'svmram restore d10' was killed "
        "(signal 9); the disk submirrors serve reads meanwhile.")
    return problems + _clear(host)


def restore_rebooted(run, case, host, memcap=False):
    """The host reboots right after the step of the boot restore; the boot
    service runs again; a third boot hits the middle of its resync."""
    command = case.command
    kill_in_place(host, command.argv[0], command.nth)
    problems = _reboot(host)
    if memcap:
        problems += _reboot(host, "--boot-ramdisk", HOG)
        problems += _expect_service(
            host, "maintenance", "would exceed the ramdisk memory cap")
        problems += _expect_service(
            host, "maintenance", "d10 keeps serving reads from its disk "
            "submirrors")
        if host.cmd("ramdiskadm", "-d", "hog").returncode != 0:
            problems.append("the hog could not be deleted")
        return problems + _clear(host)
    assert host.sim("thaw", "--step", SLOW_RESYNC_STEP).returncode == 0
    assert host.sim("freeze").returncode == 0
    problems += _reboot(host)
    problems += _expect_service(host, "online", "")
    assert host.sim("tick", "1").returncode == 0
    if "Resync in progress" not in host.cmd("metastat", "d10").stdout:
        problems.append("no resync to interrupt")
    problems += _reboot(host)
    problems += _expect_service(host, "online", "")
    assert host.sim("thaw").returncode == 0
    assert host.sim("tick").returncode == 0
    return problems


def retry(host, fmri):
    """What the administrator runs to retry a failed start: 'svcadm
    clear' for maintenance; for degraded (Solaris 11.4) 'svcadm restart',
    since clear would only mark it online without running restore."""
    state = host.cmd("svcs", "-H", "-o", "state", fmri).stdout.strip()
    verb = "restart" if state == "degraded" else "clear"
    result = host.cmd("svcadm", verb, fmri)
    return [] if result.returncode == 0 else [
        "svcadm %s %s: %s" % (verb, fmri, result.stderr)]


def _clear(host):
    problems = retry(host, FMRI)
    problems += _expect_service(host, "online", "")
    assert host.sim("tick").returncode == 0
    return problems


# --- another boot service's ramdisk, and other mirrors -------------------------

def _stop_after(host, case):
    """Make the case's command the last one: svmram (setup, teardown: run
    now) or the boot service's restore (at the next boot) is killed right
    after it; a host copied from the clean run's checkpoint there
    (host.stopped) is in that state already.  Returns the problems of the
    run, if any."""
    command = case.command
    operation = _operation(case)
    if operation == "restore":
        kill_in_place(host, command.argv[0], command.nth)
        return []
    if getattr(host, "stopped", False):
        return []       # a copy of the clean run's checkpoint there
    result = host.svmram_killed(command.argv[0], command.nth,
                                *op_args(host, operation, "-y", "d10"))
    if result.returncode != -9:
        return ["not stopped (exit status %d):\n%s" % (result.returncode,
                                                        result.stderr)]
    return []


def disarm(host, prog):
    """Undo kill_in_place if its shot was not taken (the boot went
    another way), so that it cannot kill a later command."""
    path = os.path.join(host.env["SVMSIM_DIR"], "bin", prog)
    real = os.path.join(os.path.dirname(path), "." + prog + ".real")
    if os.path.exists(real):
        os.rename(real, path)


def foreign_boot(run, case, host):
    """The host reboots right after the step (for the boot restore: the
    restore is stopped there by a reboot), and at the next boot another
    boot service creates a small ramdisk before svmram's instances run."""
    problems = _stop_after(host, case)
    if _operation(case) == "restore":
        problems += _reboot(host)
        disarm(host, case.command.argv[0])
    problems += _reboot(host, "--boot-ramdisk", FOREIGN_SPEC)
    return problems + _recover(host, _operation(case))


def charged_to_svmram(violations):
    """The monitor's findings less those charged to the boot: another
    boot service's ramdisk holding a number SVM recorded for a closed
    mirror is its doing (the mirror is not open; svmram's job is to
    fence it before anything opens it).  An open onto it is recorded
    again, after the command that opened it."""
    return [v for v in violations if not v.endswith(": svmsim reboot)")]


def with_others(run, case, host):
    """d10's procedure with other mirrors set up: the fault, then the
    generic next action (_recover)."""
    operation, kind, command = _operation(case), case.kind, case.command
    if kind == "fail":                  # restore only: at the next boot
        arm(host, command.argv, command.nth)
        return _reboot(host) + _recover(host)
    problems = _stop_after(host, case)
    if operation == "restore":
        problems += _reboot(host)       # the restore is killed in it
        disarm(host, command.argv[0])
        if kind == "kill":
            return problems + _recover(host)
    problems += _reboot(host)
    return problems + _recover(host, operation)


def instances(host):
    """{mirror: state} of svmram's SMF instances."""
    found = {}
    for line in host.cmd("svcs", "-H", "-o", "inst,state",
                         "svc:/system/svmram:*").stdout.splitlines():
        name, state = line.split()
        found[name] = state
    return found


def _mend(host, mirror, mended):
    """An instance in maintenance: as its message says."""
    log = service_log(host, mirror)
    if "holds the device number" not in log.rpartition("Enabled.")[2] or \
            mirror in mended:
        return retry(host, "svc:/system/svmram:" + mirror)
    mended.add(mirror)
    problems = []
    if FOREIGN in host.ramdisks():
        host.cmd("ramdiskadm", "-d", FOREIGN)
    for argv in (("teardown", "-y", mirror), ("setup", "-y", mirror)):
        result = svmram_op(host, *argv)
        problems += no_traceback(result)
        if result.returncode != 0:
            problems.append("%s after a fence failed (exit %d):\n%s" % (
                " ".join(argv), result.returncode, result.stderr))
    return problems


def _recover(host, operation=None):
    """The administrator's next action, whatever happened: finish d10's
    unfinished `operation` (its journal says so, or setup's boot service
    is not enabled yet); mend an instance that fenced its mirror as its
    message says (the other ramdisk deleted, teardown, setup); clear any
    other in maintenance.  [] if each of these succeeded."""
    if operation == "restore":      # the boot service's: nothing to rerun
        operation = None
    problems = []
    unfinished = os.path.exists(os.path.join(host.root, JOURNAL)) or (
        operation == "setup" and instances(host).get("d10") == "disabled")
    if operation and unfinished:
        result = svmram_op(host, operation, "-y", "d10")
        problems += no_traceback(result)
        if result.returncode != 0:
            problems.append("the rerun of %s failed (exit %d):\n%s" % (
                operation, result.returncode, result.stderr))
    mended = set()
    for _ in range(3):      # a cleared instance may fence its mirror next
        stuck = [m for m, s in sorted(instances(host).items())
                 if s in ("maintenance", "degraded")]
        for mirror in stuck:
            problems += _mend(host, mirror, mended)
    assert host.sim("tick").returncode == 0
    left = {m: s for m, s in instances(host).items() if s != "online"}
    if left:
        problems.append("instances not online: %r; logs:\n%s" % (
            left, "\n".join(service_log(host, m) for m in left)))
    return problems


RUNNERS = {
    ("setup", "fail"): setup_fails,
    ("teardown", "fail"): teardown_fails,
    ("setup", "kill"): killed,
    ("teardown", "kill"): killed,
    ("setup", "reboot"): rebooted,
    ("teardown", "reboot"): rebooted,
    ("setup", "memcap"): lambda r, c, h: rebooted(r, c, h, memcap=True),
    ("teardown", "memcap"): lambda r, c, h: rebooted(r, c, h, memcap=True),
    ("restore", "fail"): restore_fails,
    ("restore", "kill"): restore_killed,
    ("restore", "reboot"): restore_rebooted,
    ("restore", "memcap"): lambda r, c, h: restore_rebooted(r, c, h,
                                                            memcap=True),
    ("setup", "foreign"): foreign_boot,
    ("teardown", "foreign"): foreign_boot,
    ("restore", "foreign"): foreign_boot,
}


# --- the table ---------------------------------------------------------------

def table(outcomes):
    """Procedures x steps x fault kinds: each cell the number of cases and
    whether all passed; then the failures; then `N cases, V violations`."""
    rows = {}
    for o in outcomes:
        key = (o.case.release or "", o.case.mirrors,
               (PROCEDURES + COPY_PROCEDURES).index(o.case.procedure),
               o.case.step)
        row = rows.setdefault(key, {"commands": [], "cells": {}})
        text = str(o.case.command)
        if text not in row["commands"]:
            row["commands"].append(text)
        cell = row["cells"].setdefault(o.case.kind, [0, 0])
        cell[0] += 1
        cell[1] += 0 if o.ok else 1
    head = "%-23s %4s  %-34s" % ("procedure", "step", "first command") + \
        "".join("  %-7s" % kind for kind in KINDS)
    lines = [head.rstrip(), "-" * len(head.rstrip())]
    for (release, mirrors, p, step), row in sorted(rows.items()):
        first = row["commands"][0]
        more = " (+%d)" % (len(row["commands"]) - 1) \
            if len(row["commands"]) > 1 else ""
        first = first[:34 - len(more)] + more
        procedure = PROCEDURES[p] + ("" if mirrors == 1 else " x%d" % mirrors)
        procedure += " " + release[:9] if release else ""
        cells = ""
        for kind in KINDS:
            n, bad = row["cells"].get(kind, (0, 0))
            cells += "  %-7s" % ("-" if not n else "%d ok" % n if not bad
                                 else "%d BAD" % bad)
        lines.append(("%-23s %4d  %-34s%s" % (procedure, step, first,
                                              cells)).rstrip())
    bad = [o for o in outcomes if not o.ok]
    for o in bad:
        lines += ["", "FAILED: %s" % o.case] + [
            "  " + line for p in o.problems + o.violations
            for line in p.splitlines()]
    violations = sum(len(o.violations) for o in outcomes)
    lines += ["", "%d cases, %d violations" % (len(outcomes), violations)]
    return "\n".join(lines) + "\n"


def report(outcomes):
    """The failures only, for an assertion message."""
    return "\n\n".join("%s:\n  %s" % (o.case, "\n  ".join(
        o.problems + o.violations)) for o in outcomes if not o.ok)
