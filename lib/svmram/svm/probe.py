# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The scratch mirror that tests the slot behaviour, as plans (pure).

Where it is not known whether metadetach leaves a hole in a mirror's
slots, svmram builds a scratch mirror of two 1 MiB ramdisks, detaches its
slot 0, looks, and removes it all.  test_plan() gives that as the steps
of a Plan, which svmram carries out with execute.py before it plans the
mirror's change (svm/backend.py) and which a -n script prints as its
step 0 (plan.Test), so the two cannot drift.  Its last step checks the
slots it read: it stops a script (whose plan assumed no hole) with the
mirror unchanged, and tells svmram the answer.

A failure, a kill or a reboot can leave parts of it behind.  They are
recognisable: ramdisks with svmram's scratch names (svmram_probeN, which
setup refuses for --name; a ramdisk an SVM record of svmram's names is
its mirror's, whatever its name, and the test takes the next free
numbers), /dev/dsk and
/dev/rdsk links to them, stripes built on those links and mirrors built
of those stripes.  The next run removes them (removal_plan(), run the
same way) before it tests again, the mirror with metaclear -f (after a
reboot its submirrors are erred); anything else built on them is the
administrator's, and svmram refuses to touch it.

The two actions here act only when execute.py performs them.
"""

import posixpath
import re
from dataclasses import dataclass
from typing import Tuple

from ..actions import RemoveLink, Run, Symlink
from ..errors import ParseError, RefusedError, SvmramError
from ..execute import StepFailed, execute
from ..plan import Plan, Step, Test, step_lines
from ..run import CommandError
from . import metastat, names

RAMDISKS = (names.SCRATCH_RAMDISK % 0, names.SCRATCH_RAMDISK % 1)
SIZE = "1m"


@dataclass(frozen=True)
class Layout:
    """The scratch mirror's names: `mirror` of the stripes `first` (the
    one detached) and `second`, on `links` (cNtNdNsN, one per ramdisk),
    to the ramdisks `ramdisks`."""
    mirror: str
    first: str
    second: str
    links: Tuple[str, ...]
    ramdisks: Tuple[str, ...] = RAMDISKS


def scratch_ramdisks(claimed=()):
    """The two scratch ramdisk names: svmram_probe0 and svmram_probe1,
    unless a mirror's record `claimed` one (an older svmram accepted them
    for --name): then the next free numbers."""
    free = (names.SCRATCH_RAMDISK % n for n in range(len(claimed) + 2))
    return tuple(name for name in free if name not in claimed)[:2]


def is_scratch(ramdisk, claimed=()):
    """Is `ramdisk` a scratch ramdisk of the slot test, not a ramdisk a
    record of svmram's names (`claimed`)?"""
    return names.is_scratch_ramdisk(ramdisk) and ramdisk not in claimed


def layout(used_names, used_controllers, claimed=()):
    """The highest free metadevice names (of the default 128), out of the
    way, links on the first free controllers from c90, and the scratch
    ramdisk names no record `claimed`."""
    units = [name for name in ("d%d" % n for n in range(127, -1, -1))
             if name not in used_names][:3]
    if len(units) < 3:
        raise RefusedError("no three free metadevice names are left for a "
                           "scratch mirror",
                           advice="Free some metadevice names first.")
    controllers, links = set(used_controllers), []
    for _ in RAMDISKS:
        link = names.free_link(frozenset(controllers))
        controllers.add(names.controller_of(link))
        links.append(link)
    return Layout(units[0], units[1], units[2], tuple(links),
                  scratch_ramdisks(claimed))


def compacts(slots):
    """What `metastat MIRROR` of the scratch mirror after the detach of
    slot 0 shows: its other submirror in slot 0 (compacts) or 1 (hole)."""
    return slots == [0]


@dataclass(frozen=True)
class Leftovers:
    mirrors: Tuple[str, ...] = ()
    stripes: Tuple[str, ...] = ()
    links: Tuple[str, ...] = ()       # cNtNdNsN, in /dev/dsk and /dev/rdsk
    ramdisks: Tuple[str, ...] = ()

    def __bool__(self):
        return bool(self.mirrors or self.stripes or self.links
                    or self.ramdisks)



# The shell variable of a -n script that holds what metastat showed.
SLOTS = "slots"
_REMOVAL = "remove scratch "        # the keys of the removal steps


class HoleShown(SvmramError):
    """The scratch mirror showed a hole after the detach of slot 0 (the
    check step's answer in svmram's own run)."""


@dataclass(frozen=True)
class ReadSlots:
    """`metastat MIRROR` of the scratch mirror after the detach of slot
    0, whose other submirror is `second`: a script keeps its output in
    the shell variable SLOTS; svmram checks it is that mirror and keeps
    the slot numbers for the check (SlotCheck)."""
    mirror: str
    second: str

    def perform(self, context):
        result = context.runner("metastat", [self.mirror], check=False)
        # Exit 1 with only SMF's complaint still printed everything.
        if not result.ok and (result.returncode != 1 or
                              metastat.smf_not_online(result.stderr) is None):
            raise CommandError(result)
        view = metastat.parse(result.stdout).get(self.mirror)
        if view is None or view.type != "mirror" or \
                view.submirrors != [self.second]:
            raise ParseError("no mirror %s with the submirror %s" % (
                self.mirror, self.second), source="metastat %s" % self.mirror)
        context.values[SLOTS] = tuple(view.slots)

    def script_line(self, host_path, program_path):
        return "%s=$(%s)" % (SLOTS, Run(("metastat", self.mirror)).script_line(
            host_path, program_path))


@dataclass(frozen=True)
class SlotCheck:
    """Stop when the slots ReadSlots read show a hole (`second` is not in
    slot 0): a script prints `message` and exits 1 before anything of
    the target changed; svmram raises HoleShown, its answer."""
    second: str
    message: str

    def perform(self, context):
        if not compacts(list(context.values[SLOTS])):
            raise HoleShown("metadetach left a hole in the slots of the "
                            "scratch mirror")

    def script_line(self, host_path, program_path):
        return "\n".join([
            "case $%s in" % SLOTS,
            '*"Submirror 0: %s"*) ;;' % self.second,
            '*)\tprint -u2 "%s"' % self.message,
            "\texit 1 ;;",
            "esac"])


def test_plan(scratch, target, operation):
    """The test of the slot behaviour on the scratch names `scratch`
    (a Layout) before `operation` of `target`: two ramdisks and their
    links, two stripes, a two-way mirror, a metadetach of its slot 0,
    metastat, everything removed, then the check of what metastat
    showed."""
    steps = [Step(
        "scratch ramdisk %s" % ramdisk,
        "Create the scratch ramdisk %s and link %s to it." % (ramdisk, link),
        do=(Run(("ramdiskadm", "-a", ramdisk, SIZE)),) + tuple(
            Symlink("/dev/%s/%s" % (kind, link), "/dev/%s/%s" % (
                device, ramdisk), advice="Run svmram again.")
            for kind, device in (("dsk", "ramdisk"), ("rdsk", "rramdisk"))))
        for ramdisk, link in zip(scratch.ramdisks, scratch.links)]
    steps.append(Step(
        "scratch mirror %s" % scratch.mirror,
        "Make the scratch mirror %s of %s and %s." % (
            scratch.mirror, scratch.first, scratch.second),
        do=(Run(("metainit", scratch.first, "1", "1", scratch.links[0])),
            Run(("metainit", scratch.second, "1", "1", scratch.links[1])),
            Run(("metainit", scratch.mirror, "-m", scratch.first,
                 scratch.second)))))
    steps.append(Step(
        "scratch detach %s" % scratch.first,
        "Detach %s from slot 0 of %s and read its slots." % (
            scratch.first, scratch.mirror),
        do=(Run(("metadetach", scratch.mirror, scratch.first)),
            ReadSlots(scratch.mirror, scratch.second))))
    steps += removal_plan(Leftovers(
        (scratch.mirror,), (scratch.second, scratch.first), scratch.links,
        tuple(reversed(scratch.ramdisks))), target).steps
    steps.append(Step(
        "scratch check", "Stop if %s was not in slot 0." % scratch.second,
        do=(SlotCheck(scratch.second, (
            "svmram: metadetach leaves a hole in the slots here, and this "
            "script assumes it does not; nothing of %s was changed.  Run "
            "'svmram %s %s' instead: it tests this first and plans for it."
            % (target, operation, target))),)))
    return Plan("test", target, steps)


def script_test(scratch, target, operation):
    """test_plan as the step 0 of a -n script whose plan assumed that
    metadetach compacts the slots."""
    return Test(
        "Test on a scratch mirror %s of two %s ramdisks whether metadetach "
        "leaves a hole in the slots." % (scratch.mirror, "1 MiB"),
        "This plan assumes it does not; if it does, the script stops here "
        "with %s unchanged." % target,
        test_plan(scratch, target, operation))


def removal_plan(found, target, force=False):
    """The removal of the Leftovers `found`, in order: mirrors, stripes,
    the two links of each name, ramdisks.  `force`: clear the mirrors
    with metaclear -f, which a reboot makes necessary: the scratch
    ramdisks are gone, their submirrors erred, and without -f metaclear
    refuses a mirror whose submirror is not Okay (mirror_ioctl.c
    mirror_reset, MDE_C_WITH_INVAL_SM).  Only for what leftovers() found,
    every part of it on svmram's scratch ramdisks: it never held data."""
    forced = ("-f",) if force else ()
    steps = [Step(_REMOVAL + name, "Clear %s." % name,
                  do=(Run(("metaclear",) + forced + (name,)),))
             for name in found.mirrors]
    steps += [Step(_REMOVAL + name, "Clear %s." % name,
                   do=(Run(("metaclear", name)),))
              for name in found.stripes]
    steps += [Step(_REMOVAL + link, "Remove the links of %s." % link,
                   do=(RemoveLink("/dev/dsk/" + link),
                       RemoveLink("/dev/rdsk/" + link)))
              for link in found.links]
    steps += [Step(_REMOVAL + name, "Delete the ramdisk %s." % name,
                   do=(Run(("ramdiskadm", "-d", name)),))
              for name in found.ramdisks]
    return Plan("remove", target, steps)


def is_removal(step):
    return step.key.startswith(_REMOVAL)


def leftovers(config, ramdisks, links, claimed=()):
    """What an earlier scratch mirror left: `config` from metastat -p (or
    None without replicas), `ramdisks` the names ramdiskadm lists, `links`
    {"dsk/c91t0d0s0": "/dev/ramdisk/svmram_probe0", ...}, `claimed` the
    ramdisks svmram's records name (never scratch).  Refuses when
    something that is not svmram's scratch mirror uses them."""
    link_names = sorted({key.split("/", 1)[1] for key, target in links.items()
                         if is_scratch(posixpath.basename(target), claimed)})
    stripes, mirrors = [], []
    for device in (config.devices if config is not None else ()):
        if device.type != "stripe":
            continue
        parts = [c.device for c in device.components()]
        on_scratch = [p for p in parts if posixpath.basename(p) in link_names]
        if not on_scratch:
            continue
        if len(on_scratch) != len(parts):
            raise _foreign(device.name, on_scratch[0])
        stripes.append(device.name)
    for device in (config.devices if config is not None else ()):
        if device.type == "stripe":
            continue
        used = [name for name in stripes if name in _parts_of(device)]
        if not used:
            continue
        if device.type != "mirror" or \
                sorted(device.submirrors) != sorted(used):
            raise _foreign(device.name, used[0])
        mirrors.append(device.name)
    return Leftovers(tuple(mirrors), tuple(stripes), tuple(link_names),
                     tuple(sorted((name for name in ramdisks
                                   if is_scratch(name, claimed)),
                                  reverse=True)))


def _parts_of(device):
    if device.type == "mirror":
        return set(device.submirrors)
    # Soft partitions, RAID-5, trans and hot spare pools: any metadevice
    # name they mention (a stripe used there is the administrator's).
    return set(re.findall(r"\bd[0-9]+\b", repr(device)))


def _foreign(name, part):
    return RefusedError(
        "%s uses %s, which is on svmram's scratch ramdisks (%s)" % (
            name, part, ", ".join(RAMDISKS)),
        advice="svmram does not remove what it did not build; move %s off "
               "them, then run svmram again." % name)


# --- the driver: the test carried out, its scratch parts removed ---------

class _Quiet:
    """execute.py's progress for the slot test, which says nothing: it is
    part of planning, and a failure is reported as the test's."""

    def say(self, *args):
        pass

    update = done = break_line = say


def test_slots(host, operation):
    """Learn whether metadetach compacts the slots on this host: remove
    what an earlier test left, then carry out test_plan (the steps
    a -n script prints as its step 0) with execute.py.  Its check step
    stops it with HoleShown where a hole shows.  Returns what it showed,
    (compacts, evidence), for the caller to pass on (SvmHost.observe's
    slot_probe); the host keeps nothing of it.  Nothing of the admin's is
    touched: a failure removes what the test
    made and says the mirror was not changed."""
    found, layout = host.scratch()
    if found:
        remove_scratch(host, found, earlier=True)
        layout = host.scratch_layout()
    plan = test_plan(layout, host.mirror, operation)
    try:
        execute(plan, host, None, _Quiet(), counted=False)
        compacts = True
    except StepFailed as failed:
        if isinstance(failed.error, HoleShown):
            compacts = False
        elif is_removal(failed.step):
            raise _not_removed(
                [step for step in plan.steps[failed.number - 1:]
                 if is_removal(step)], failed, False,
                host.mirror) from failed.error
        else:
            # Remove what was made (as the host shows it now), then report
            # the failure; the admin's mirror was not touched.
            remove_scratch(host, host.scratch_leftovers(), earlier=False)
            raise SvmramError(
                "the test of the slot behaviour on a scratch mirror "
                "failed, and %s was not changed: %s" % (
                    host.mirror, failed.reason),
                advice="Fix the cause, then run svmram again.") \
                from failed.error
    return compacts, (
        "a scratch mirror %s showed it: after metadetach of slot 0 its "
        "other submirror was in slot %s" % (layout.mirror, 0 if compacts
                                             else 1))


def remove_scratch(host, found, earlier):
    """Remove the scratch mirror's parts `found` with execute.py, in the
    order of removal_plan; at the first failure stop and say what
    is left and how to remove it.  Every part of `found` is on svmram's
    scratch ramdisks (probe.leftovers), so its mirror is cleared with -f."""
    plan = removal_plan(found, host.mirror, force=True)
    try:
        execute(plan, host, None, _Quiet(), counted=False)
    except StepFailed as failed:
        raise _not_removed(plan.steps[failed.number - 1:], failed, earlier,
                           host.mirror) from failed.error


def _not_removed(rest, failed, earlier, mirror):
    """The scratch parts could not be removed: the failure, and the rest
    of the removal (`rest`, steps) as commands to type."""
    lines = [line for step in rest
             for line in step_lines(step, lambda name: name, tools={})]
    return SvmramError(
        "%s could not be removed (%s), and %s was not changed" % (
            "what an earlier test of the slot behaviour left" if earlier
            else "the scratch mirror that tested the slot behaviour",
            failed.reason, mirror),
        advice="Run svmram again to remove it, or remove it yourself: "
               "%s." % "; ".join(lines))
