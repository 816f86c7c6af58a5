# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Plans for setup and teardown (pure).

Both planners are convergent: from whatever state they observe, they
compute the remaining steps towards their goal by applying one step at a
time to the Snapshot.  A rerun after a failure, a kill or a reboot
therefore resumes where the host actually is, and a rollback is simply a
teardown plan.
"""

import heapq
import posixpath
from dataclasses import replace

from ..errors import AlreadySetUp, RefusedError
from ..plan import Plan, converge_plan
from . import consistency, labels, names, record, smf, steps
from .intent import Intent
from .names import NMIRROR
from .ramcomponent import FAILED, links_ok, opening_step, ram_component
from .sizing import (MAX_PERCENT, MIN_FREE_PERCENT, T_MINARMEM, MemoryCap,
                     copy_window_seconds, copy_window_text, human_size,
                     mib_text, mirror_size_with_ram_first, ramdisk_holds,
                     ramdisk_size_for, ramdisk_slice_blocks)
from .snapshot import OKAY, RESYNCING
from .steps import UNLABEL_KEY


class SlotBehaviourUnknown(RefusedError):
    """The plan depends on whether metadetach compacts the slots on this
    host, and that is not known: the command tests it on a scratch mirror
    (svm/probe.py test_slots), or a dry run assumes illumos's behaviour."""


# --- choosing what to do -------------------------------------------------

def check_mirror(snap, mirror):
    """Refuse unless `mirror` is a mirror svmram can work on at all."""
    consistency.check_replicas(snap)
    if snap.mirror is None:
        kind = snap.other_types.get(mirror)
        if kind:
            raise RefusedError("%s is a %s, not a mirror" % (mirror, kind),
                               advice="Give the name of a mirror (metastat "
                                      "-p lists them with -m).")
        raise RefusedError("there is no mirror %s" % mirror,
                           advice="metastat -p lists the mirrors.")


# The boot service's states in which a recorded mirror is as setup left
# it: online, or starting (svcs shows a state with a next state as
# "offline*", its restore under way).
RUNNING_STATES = ("online", "offline*")


def choose_intent(snap, mirror, size=None, ramdisk=None, submirror=None,
                  link=None, method="auto", allow_label=False):
    """Pick names, size and method for `svmram setup`, or refuse with the
    reason.  Returns (Intent, notes explaining the choices).
    `allow_label`: the administrator accepts that a mirror none of whose
    submirrors is labeled becomes labeled (the copy method)."""
    check_mirror(snap, mirror)
    if not snap.service_imported:
        raise RefusedError(
            "svmram's SMF service %s is not imported, so setup could not "
            "record %s for the boot restore" % (record.SERVICE, mirror),
            advice="Import it with 'svcadm restart manifest-import' (make "
                   "install puts the manifest in /lib/svc/manifest/system), "
                   "then run setup again.")
    m = snap.mirror
    if snap.record is not None:
        if snap.service_state in RUNNING_STATES:
            raise AlreadySetUp(
                "%s is already set up for reads from RAM" % mirror,
                advice="svmram status %s shows it; svmram teardown %s "
                       "undoes it." % (mirror, mirror))
        # Set up, but its boot service is not running it: not "nothing to
        # do" (an automation tool would take that for health).
        raise RefusedError(
            "%s is set up for reads from RAM, but its boot service %s is %s"
            % (mirror, record.fmri(mirror), snap.service_state),
            advice="'svmram status %s' says what is wrong and what to do; "
                   "'svmram teardown %s' undoes the setup." % (mirror, mirror))
    refusal = foreign_ram(snap, mirror)
    if refusal is not None:
        raise refusal
    if m.resync or m.pending:
        raise RefusedError("%s has a resync in progress or pending" % mirror,
                           advice="Wait until metastat %s shows no resync, "
                                  "then run setup again." % mirror)
    bad = [s for s, state in zip(m.slots, m.states) if state != OKAY]
    if bad:
        raise RefusedError("submirror %s of %s is not Okay" % (
            ", ".join(bad), mirror), advice="Repair the mirror first "
                                            "(metastat %s says how)." % mirror)
    disks = m.slots
    if len(disks) < 2:
        raise RefusedError("%s has %d healthy disk submirror%s; svmram needs "
                           "two" % (mirror, len(disks),
                                    "" if len(disks) == 1 else "s"),
                           advice="Attach a second disk submirror first, so "
                                  "a disk copy always remains.")
    if len(m.slots) >= NMIRROR:
        raise RefusedError("%s has no free slot (it has %d submirrors, the "
                           "most SVM allows)" % (mirror, NMIRROR),
                           advice="Detach one disk submirror first.")

    ram = submirror or names.free_metadevice(snap.metadevices, mirror)
    if ram in snap.metadevices:
        raise RefusedError("%s is already in use" % ram,
                           advice="Name a free metadevice with --submirror.")
    ramdisk = ramdisk or names.default_ramdisk(mirror)
    if ramdisk in snap.ramdisks:
        raise RefusedError("a ramdisk named %s already exists" % ramdisk,
                           advice="Name another one with --name.")
    link = link or names.free_link(snap.used_controllers)
    if names.controller_of(link) in snap.used_controllers:
        raise RefusedError("controller c%d is in use in /dev/dsk or /dev/rdsk"
                           % names.controller_of(link),
                           advice="Give a link on an unused controller with "
                                  "--link, or let svmram pick one.")
    copying = labels.mirror_label(snap.labels) is False
    needed = ramdisk_size_for(m.size_blocks, copy=copying)
    if size is None:
        size = needed
    elif not ramdisk_holds(size, m.size_blocks, copy=copying):
        why = "" if ramdisk_slice_blocks(size) < m.size_blocks else (
            ": the copy method needs it larger than %s, so that cmp finds "
            "the end of %s first" % (mirror, mirror))
        raise RefusedError("a ramdisk of %s is too small for %s (%d blocks)%s"
                           % (human_size(size), mirror, m.size_blocks, why),
                           advice="Use at least --size %s." % human_size(
                               needed))
    check_memory(snap, size, allow_label=copying)
    if copying:
        chosen, notes = _choose_copy(snap, m, disks, size, method,
                                     allow_label)
    else:
        chosen, notes = _choose_method(snap, disks, size, method)
    intent = Intent(mirror=mirror, ram=ram, ramdisk=ramdisk, size_bytes=size,
                    link=link, method=chosen, disks=disks,
                    read_option=m.read_option, write_option=m.write_option,
                    pass_num=m.pass_num, size_blocks=m.size_blocks)
    return intent, notes


def foreign_ram(snap, mirror):
    """The refusal for a RAM submirror in `mirror` that svmram did not
    make (there is no record; say one made by hand the article's way
    before svmram was installed): what was found, and the commands that
    remove it, after which setup makes it svmram's.  None when `mirror`
    has no submirror on a ramdisk."""
    m = snap.mirror
    found = [s for s in (m.slots if m else ()) if _is_ram(snap, s)]
    if not found:
        return None
    ram = found[0]
    links = [c for c in snap.stripes[ram].components
             if snap.links.get("dsk/" + c, "").startswith("/dev/ramdisk/")]
    ramdisks = sorted({posixpath.basename(snap.links["dsk/" + c])
                       for c in links})
    where = "ramdisk %s, linked as %s" % (", ".join(ramdisks),
                                           ", ".join(links))
    if m.slots[0] == ram and m.read_option == "first":
        text = "%s reads from the RAM submirror %s in slot 0 (%s), which " \
            "svmram did not set up: there is no %s" % (
                mirror, ram, where, record.fmri(mirror))
    else:
        text = "submirror %s of %s is on a ramdisk (%s), which svmram did " \
            "not create" % (ram, mirror, where)
    commands = ["metaparam -r roundrobin %s" % mirror] \
        if m.read_option == "first" else []
    commands += ["metadetach %s %s" % (mirror, ram), "metaclear %s" % ram]
    commands += ["ramdiskadm -d %s" % name for name in ramdisks]
    commands.append("rm " + " ".join(
        "/dev/%s/%s" % (kind, link) for link in links
        for kind in ("dsk", "rdsk") if "%s/%s" % (kind, link) in snap.links))
    return RefusedError(text, advice=(
        "svmram does not take over a RAM submirror it did not create.  To "
        "remove it, once 'metastat %s' shows every submirror Okay: %s.  "
        "Then 'svmram setup %s' makes it svmram's, with a boot restore."
        % (mirror, "; ".join(commands), mirror)))


def _is_ram(snap, submirror):
    stripe = snap.stripes.get(submirror)
    return stripe is not None and any(
        snap.links.get("dsk/" + comp, "").startswith("/dev/ramdisk/")
        for comp in stripe.components)


def setup_command(mirror, copy):
    """The setup command line that works for `mirror`: the copy method's
    (an unlabeled mirror's) is refused without --allow-label."""
    return "svmram setup %s%s" % ("--allow-label " if copy else "", mirror)


def check_memory(snap, size, restoring=None, resuming=None,
                 allow_label=False, retry=None):
    """Refuse a ramdisk of `size` bytes that the driver would refuse
    (the ramdisk memory cap as ramdisk.c computes it, sizing.MemoryCap)
    or that would leave too little memory free, with advice that works
    when followed.  `restoring` or `resuming` name the mirror when the
    boot restore (whose `retry` command runs it again) or a resumed
    setup asks; `allow_label`: a new setup of it needs --allow-label."""
    if not snap.physmem_bytes:
        return
    cap = MemoryCap(snap)
    mirror = restoring or resuming or snap.mirror_name
    keeps = ("; %s keeps serving reads from its disk submirrors" % mirror
             if restoring or resuming else "")
    if restoring:
        then = "then run '%s'" % retry
        until = "; until then %s serves reads from its disk submirrors." \
            % restoring
    elif resuming:
        then = "then run 'svmram setup %s' again" % resuming
        until = "; or run 'svmram teardown %s' to return %s to how it " \
            "was." % (resuming, resuming)
    else:
        then, until = "then run '%s'" % setup_command(
            mirror, allow_label), "."
    need = cap.pages(size) * cap.page
    if need > cap.largest():
        raise RefusedError(
            "a ramdisk of %s would exceed the ramdisk memory cap however "
            "percent_physmem is set: the driver lets all ramdisks together "
            "use at most %d%% of availrmem at boot (%s here), and svmram "
            "leaves %d%% of memory free, so %s is too large for this "
            "host's memory%s" % (
                human_size(size), MAX_PERCENT,
                mib_text(cap.cap_at(MAX_PERCENT)), MIN_FREE_PERCENT,
                mirror, keeps),
            advice="No percent_physmem value helps (the driver ignores 100 "
                   "or more).  Leave %s on its disks, or use a host with "
                   "more memory%s" % (mirror, "." if restoring else
                                       " or a smaller mirror."))
    if cap.used + need > cap.cap:
        _cap_refusal(cap, size, need, keeps, then, until)
    floor = snap.physmem_bytes * MIN_FREE_PERCENT // 100
    reservable = snap.availrmem_bytes - T_MINARMEM * cap.page \
        if snap.availrmem_bytes else None
    if (snap.freemem_bytes and snap.freemem_bytes - need < floor) or (
            reservable is not None and need > reservable):
        raise RefusedError(
            "a ramdisk of %s would leave less than %d%% of memory free (%s "
            "free now)%s" % (human_size(size), MIN_FREE_PERCENT,
                             human_size(snap.freemem_bytes), keeps),
            advice="Free memory first (stop programs that use it), %s%s" % (
                then, until))


def _cap_refusal(cap, size, need, keeps, then, until):
    others = {name: bytes_ for name, bytes_ in cap.ramdisks.items()
              if not name.startswith("svmram_")}
    in_use = ", ".join("%s (%s)" % (name, human_size(cap.ramdisks[name]))
                       for name in sorted(cap.ramdisks)) or "none"
    message = (
        "a ramdisk of %s would exceed the ramdisk memory cap: ramdisks may "
        "use %s, and %s are in use already: %s%s" % (
            human_size(size), cap.describe(), mib_text(cap.used), in_use,
            keeps))
    ways = []
    freed = sum(cap.pages(b) for b in others.values()) * cap.page
    if others and cap.used - freed + need <= cap.cap:
        ways.append("Delete the other ramdisk%s if %s not needed (%s), %s" % (
            "s" if len(others) > 1 else "",
            "they are" if len(others) > 1 else "it is",
            "; ".join("ramdiskadm -d %s" % name for name in sorted(others)),
            then))
    percent = cap.percent_for(cap.used + need)
    if percent is not None and cap.changed and not cap.problems and \
            cap.next_percent >= percent:
        ways.append(
            "%s sets percent_physmem=\"%s\", but it was changed after the "
            "last boot and the driver reads it when it initialises at boot: "
            "reboot, %s" % (cap.where[0], cap.where[1], then))
    elif percent is not None:
        lead = "Set" if not cap.problems else (
            "Correct line %d of %s (the kernel warns: %s), then set" % (
                cap.problems[0][1], cap.problems[0][0], cap.problems[0][2]))
        where = cap.where
        if where is not None and where[2] and where[0] == cap.conf:
            # The driver takes this setting before any line added after
            # it (a node statement's, or the first global one): change it.
            setting = "%s percent_physmem=\"%d\" on line %d of %s, in " \
                "place of percent_physmem=\"%s\"" % (
                    lead, percent, where[3], where[0], where[1])
        else:
            setting = "%s percent_physmem=\"%d\"; in %s" % (
                lead, percent, cap.conf)
        ways.append(
            "%s (the driver reads it as a string when it initialises at "
            "boot) and reboot, %s" % (setting, then))
    else:
        ways.append(
            "Delete other ramdisks: even percent_physmem=\"%d\" lets "
            "ramdisks use only %s in all (ramdiskadm lists them), %s" % (
                MAX_PERCENT, mib_text(cap.cap_at(MAX_PERCENT)), then))
    advice = "; or ".join(w[0].lower() + w[1:] if i else w
                          for i, w in enumerate(ways))
    raise RefusedError(message, advice=advice + until)


def _label_why(snap, m):
    return "; ".join(snap.label_evidence[s] for s in m.slots
                     if s in snap.label_evidence)


def closed_problem(snap, m):
    """Why the mirror is not closed (swap and the copy method need it so:
    SVM will not clear an open metadevice), or None."""
    if snap.users:
        return ("%s is in use by %s, and SVM will not clear a metadevice "
                "that another is built on" % (m.name, ", ".join(snap.users)))
    if snap.mounted_on:
        return "%s is mounted on %s" % (m.name, snap.mounted_on)
    if snap.holders:
        return ("%s is open (fuser: %s), and SVM will not clear an open "
                "metadevice" % (m.name, ", ".join(snap.holders)))
    if snap.holders is None:
        return ("svmram could not tell whether %s is open (fuser failed), "
                "and SVM will not clear an open metadevice" % m.name)
    return None


def open_unlabeled_text(snap, m):
    """The refusal of an open mirror none of whose submirrors is labeled,
    which `check` shows too: the window the copy method needs."""
    return ("its submirrors are not labeled (%s), so SVM refuses to attach "
            "a RAM submirror, and the RAM submirror can only be filled while "
            "%s is closed, for %s" % (_label_why(snap, m), m.name,
                                      copy_window_text(m.size_blocks)))


def copy_order(snap, it):
    """The order the copy method recreates the mirror in: the RAM
    submirror first when that keeps the mirror's size (SVM rounds a
    mirror down to its first submirror's cylinder, 600 blocks for a
    ramdisk), else second, behind the first disk submirror, and moved to
    slot 0 afterwards by detaching and re-attaching that disk."""
    # Only the disk submirrors in the mirror now, all Okay: one detached
    # earlier (a rerun of an interrupted setup) may be stale, and is
    # attached again afterwards with a full resync.
    disks = tuple(d for d in it.disks if d in snap.mirror.slots)
    sizes = [snap.stripes[d].size_blocks for d in disks
             if d in snap.stripes and snap.stripes[d].size_blocks]
    if len(sizes) == len(disks) and mirror_size_with_ram_first(
            [ramdisk_slice_blocks(it.size_bytes)] + sizes,
            it.size_bytes) == it.size_blocks:
        return (it.ram,) + disks
    return disks[:1] + (it.ram,) + disks[1:]


def _choose_copy(snap, m, disks, size, method, allow_label):
    """The method for a mirror none of whose submirrors is labeled: SVM
    refuses to attach the (labeled) RAM stripe, so setup copies the closed
    mirror into RAM and recreates it with the RAM submirror in it
    (docs/design.md, "Mirrors whose submirrors are not labeled")."""
    why = _label_why(snap, m)
    if method in ("swap", "rotate"):
        raise RefusedError(
            "cannot use %s: %s is not labeled (%s), and SVM refuses to "
            "attach a labeled submirror to an unlabeled mirror (a ramdisk "
            "stripe is always labeled), which %s needs" % (
                method, m.name, why, method),
            advice="Nothing was changed.  --method auto chooses the copy "
                   "method, which works with %s closed; see svmram(8)."
                   % m.name)
    problem = closed_problem(snap, m)
    if problem:
        raise RefusedError(
            "%s; %s" % (problem, open_unlabeled_text(snap, m)),
            advice="Nothing was changed.  Unmount %s and stop what uses it "
                   "(fuser /dev/md/rdsk/%s names them), then run 'svmram "
                   "setup --allow-label %s'." % (m.name, m.name, m.name))
    if not allow_label:
        raise RefusedError(
            "%s is not labeled (%s): SVM refuses to attach a RAM submirror, "
            "so setup would copy %s into RAM while it is closed and "
            "recreate it with the RAM submirror (metainit %s -m), which "
            "makes %s labeled: SVM then refuses every write that starts at "
            "its block 0" % (m.name, why, m.name, m.name, m.name),
            advice="Nothing was changed.  UFS and ZFS never write block 0; "
                   "a program that writes the raw device from its start (a "
                   "database on /dev/md/rdsk/%s, dd of an image) would fail. "
                   " If nothing does, run 'svmram setup --allow-label %s' "
                   "(%s must stay closed for %s)." % (
                       m.name, m.name, m.name,
                       copy_window_text(m.size_blocks)))
    return "copy", [
        "copy: %s is not labeled (%s), so SVM refuses to attach a RAM "
        "submirror; %s is closed, and its data is copied into RAM and the "
        "mirror recreated with the RAM submirror in it." % (m.name, why,
                                                            m.name),
        "Afterwards %s is labeled: SVM refuses writes that start at its "
        "block 0 (--allow-label); teardown recreates it unlabeled if it is "
        "closed then." % m.name]


def _choose_method(snap, disks, size, method):
    m = snap.mirror
    ram_blocks = ramdisk_slice_blocks(size)
    new_size = mirror_size_with_ram_first(
        [ram_blocks] + [snap.stripes[d].size_blocks for d in disks], size)
    swap_problem = closed_problem(snap, m)
    if swap_problem and snap.mounted_on and not snap.users:
        swap_problem += " and swap needs it closed"
    elif swap_problem is None and new_size != m.size_blocks:
        swap_problem = ("recreating %s with the RAM submirror first would "
                        "make it %d blocks instead of %d (SVM rounds a mirror "
                        "to its first submirror's cylinder)" % (
                            m.name, new_size, m.size_blocks))
    if method == "swap":
        if swap_problem:
            raise RefusedError("cannot use swap: " + swap_problem,
                               advice="Use --method rotate, which keeps the "
                                      "mirror in use and its size intact.")
        return "swap", ["swap: %s is closed and keeps its size of %d blocks."
                        % (m.name, m.size_blocks)]
    if method == "rotate":
        return "rotate", ["rotate, as requested.", slot_note(snap)]
    if swap_problem:
        return "rotate", ["auto chose rotate: " + swap_problem + ".",
                          slot_note(snap)]
    return "swap", ["auto chose swap: %s is not mounted and keeps its size "
                    "of %d blocks." % (m.name, m.size_blocks)]


UNKNOWN_SLOTS = "Whether metadetach leaves a hole"


def slot_note(snap):
    """How the online method moves the submirrors on this host, and how
    svmram knows the slot behaviour it depends on."""
    if snap.detach_compacts is None:
        return (UNKNOWN_SLOTS + " in the slots here is not known yet "
                "(%s)." % snap.slot_evidence)
    if snap.detach_compacts:
        return ("Metadetach compacts the slots here (%s), so each disk "
                "submirror in front of the RAM one is detached and "
                "re-attached behind it." % snap.slot_evidence)
    return ("Metadetach leaves a hole in the slots here (%s), so the slot-0 "
            "disk submirror is detached, the RAM submirror attached into "
            "slot 0, and the disk re-attached behind it: one disk resync "
            "instead of two." % snap.slot_evidence)


# --- moving submirrors between slots ---------------------------------------

def slot_moves(start, ram, disks, goal, compacts, present_ram=True):
    """The cheapest metattach/metadetach sequence from `start` (pairs of
    slot number and submirror) to a state `goal(state)` accepts, as a list
    of ("attach"|"detach", name); None when there is none.

    metattach takes the lowest free slot; metadetach compacts the slots
    above (compacts=True) or leaves a hole (False).  A disk submirror is
    detached only while another disk submirror stays in the mirror, so a
    disk copy is current throughout.  Cost, in order: resyncs (each
    attach copies the whole mirror), resyncs run while one of `disks` is
    out of the mirror (less redundancy), disk resyncs run while the RAM
    submirror is out of it (it is one more current copy), steps."""
    start = tuple(sorted(start))
    wanted = set(disks) | ({ram} if present_ram else set())
    queue = [((0, 0, 0, 0), 0, start, ())]
    best = {start: (0, 0, 0, 0)}
    counter = 0
    while queue:
        cost, _, state, path = heapq.heappop(queue)
        if best.get(state, cost) < cost:
            continue
        if goal(state):
            return list(path)
        if len(path) >= 10:
            continue
        names_in = [name for _, name in state]
        used = [slot for slot, _ in state]
        out = any(d not in names_in for d in disks)
        moves = []
        if len(state) < NMIRROR:
            slot = min(set(range(NMIRROR)) - set(used))
            for name in sorted(wanted - set(names_in)):
                nxt = tuple(sorted(state + ((slot, name),)))
                moves.append((("attach", name), nxt, (
                    1, int(out), int(name != ram and ram not in names_in))))
        for index, (_, name) in enumerate(state):
            if name != ram and not any(other != name and other != ram
                                       for other in names_in):
                continue
            rest = state[:index] + state[index + 1:]
            if compacts:
                rest = tuple((i, n) for i, (_, n) in enumerate(rest))
            moves.append((("detach", name), rest, (0, 0, 0)))
        for move, nxt, (attach, less, no_ram) in moves:
            total = (cost[0] + attach, cost[1] + less, cost[2] + no_ram,
                     cost[3] + 1)
            if nxt in best and best[nxt] <= total:
                continue
            best[nxt] = total
            counter += 1
            heapq.heappush(queue, (total, counter, nxt, path + (move,)))
    return None


def _slot_state(m):
    numbers = m.numbers or tuple(range(len(m.slots)))
    return tuple(zip(numbers, m.slots))


def _known_moves(snap, it, ram, disks, goal, present_ram=True):
    """slot_moves under the host's slot behaviour; when that is unknown,
    the moves if they are the same either way, else SlotBehaviourUnknown."""
    state = _slot_state(snap.mirror)
    if snap.detach_compacts is not None:
        return slot_moves(state, ram, disks, goal, snap.detach_compacts,
                          present_ram)
    both = [slot_moves(state, ram, disks, goal, compacts, present_ram)
            for compacts in (True, False)]
    if both[0] == both[1]:
        return both[0]
    raise SlotBehaviourUnknown(
        "svmram must know whether metadetach leaves a hole in the slots on "
        "this host to plan %s (%s)" % (it.mirror, snap.slot_evidence),
        advice="Run setup or teardown without -n: it tests this on a "
               "scratch mirror of two small ramdisks first.")


def _move_step(snap, it, move, why):
    kind, name = move
    if kind == "attach":
        # The copy method's RAM submirror going back into the labeled
        # mirror: the resync skips the label blocks (mirror.c 3456), so
        # unless this plan's copy just filled the ramdisk (a rerun's may
        # be new after a reboot, or older than the disks), they are
        # copied from a disk submirror first, as restore does.
        label_from = label_source(snap, it) if (
            name == it.ram and not snap.labeled_by_ram) else None
        return steps.attach(snap, it, name, why=why, label_from=label_from)
    return steps.detach(snap, it, name, why=why)


def _setup_goal(ram, disks):
    def goal(state):
        return state and state[0][1] == ram and \
            {n for _, n in state} == {ram} | set(disks)
    return goal


def _teardown_goal(disks):
    def goal(state):
        return tuple(n for _, n in state) == tuple(disks)
    return goal


# --- the plans ------------------------------------------------------------

def plan_setup(snap, intent):
    plan = Plan("setup", intent.mirror, method=intent.method)
    if snap.mirror is None:
        plan.notes.append(_from_one_disk_note(intent))
    _refuse_foreign_submirrors(snap, intent)
    converge_plan(plan, snap, intent, _next_setup_step, intent.mirror,
                  state_command(intent))
    if snap.service_state not in ("online", "offline"):
        plan.afterwards.append(smf.enable_argv(intent.mirror))
    return plan


def plan_enable(intent):
    """A setup that finished all but enabling its boot service: enable it
    (its start method restores whatever a reboot took)."""
    plan = Plan("setup", intent.mirror, method=intent.method)
    plan.afterwards.append(smf.enable_argv(intent.mirror))
    return plan


def plan_teardown(snap, intent, reattach=(), under_way=True):
    """`reattach` names the recorded disk submirrors that may be attached
    again when they are missing from the mirror: those svmram itself took
    out (a rollback, a resumed operation) or the admin asks back.  Any
    other missing one was split off by hand and is left alone.
    `under_way`: an operation of svmram's was under way (a rollback, or
    a journal), so a missing mirror is one it cleared itself (a swap or
    rebuild stopped between metaclear and metainit) and recreates; else
    the administrator cleared it, and only what svmram built goes."""
    plan = Plan("teardown", intent.mirror)
    if snap.mirror is None and under_way:
        plan.notes.append(_from_one_disk_note(intent))
        reattach = intent.disks     # svmram cleared the mirror itself
    elif snap.mirror is None:
        plan.left.append(_cleared_by_hand(snap, intent))
        plan.done = "%s: the RAM submirror and its ramdisk are gone." % (
            intent.mirror)
    else:
        for disk in intent.disks:
            if disk not in snap.mirror.slots and disk not in reattach:
                plan.left.append(
                    "%s is no longer in %s and is left alone (split off by "
                    "hand?); 'svmram teardown --reattach %s' attaches it "
                    "again with a full resync." % (disk, intent.mirror,
                                                   intent.mirror))
    # A disk submirror in the mirror now that a step of this plan detaches
    # (to put the disks back in order) is attached again by a later one.
    reattach = tuple(d for d in intent.disks if d in reattach or (
        snap.mirror is not None and d in snap.mirror.slots))
    _refuse_foreign_submirrors(snap, intent)
    converge_plan(plan, snap, intent,
                  lambda s, it: _next_teardown_step(s, it, reattach,
                                                    under_way),
                  intent.mirror, state_command(intent))
    # Said only when no step of the plan recreates the mirror unlabeled.
    left = unlabeled_left(snap, intent, plan.steps)
    if left:
        plan.left.append(left)
    plan.notes += plan.left
    if intent.method == "rotate":
        plan.notes.append("Afterwards the disk submirrors are in their "
                          "original order again.")
    return plan


def _cleared_by_hand(snap, it):
    """Why teardown leaves a mirror cleared by hand, and its disk
    submirrors, as they are."""
    text = "%s does not exist and no svmram operation was under way, so " \
        "it was cleared by hand: teardown did not recreate it, and " % (
            it.mirror)
    kept = [d for d in it.disks if d in snap.metadevices]
    gone = [d for d in it.disks if d not in snap.metadevices]
    if kept:
        text += "%s %s left alone" % (" and ".join(kept),
                                      "are" if len(kept) > 1 else "is")
    if kept and gone:
        text += "; %s %s not exist" % (" and ".join(gone), "do" if len(
            gone) > 1 else "does")
    elif gone:
        text += "%s %s not exist either" % (" and ".join(gone), "do" if len(
            gone) > 1 else "does")
    if kept == list(it.disks):
        text += " ('metainit %s -m %s'%s makes it again from %s)" % (
            it.mirror, kept[0], "".join(
                ", then 'metattach %s %s'," % (it.mirror, d)
                for d in kept[1:]), kept[0])
    return text + "."


def _from_one_disk_note(it):
    return ("%s was cleared part-way; nothing proves its disk submirrors "
            "still hold the same data, so it is recreated from %s alone "
            "and %s attached with a full resync." % (
                it.mirror, it.disks[0], " and ".join(it.disks[1:])))


def state_command(intent):
    """What shows the mirror, for the refusal of a planner that loops."""
    return "metastat %s" % intent.mirror


def _refuse_foreign_submirrors(snap, it):
    """svmram only ever changes the submirrors it created or recorded."""
    m = snap.mirror
    foreign = [s for s in (m.slots if m else ()) if s not in it.order]
    if foreign:
        raise RefusedError(
            "%s has the submirror %s, which svmram did not create or record"
            % (it.mirror, foreign[0]),
            advice="svmram never changes submirrors it did not create; "
                   "detach it first (metadetach %s %s) if it may go, then "
                   "run svmram again." % (it.mirror, foreign[0]))


def _all_okay(snap):
    m = snap.mirror
    bad = [(s, st) for s, st in zip(m.slots, m.states) if st != OKAY]
    if bad or m.resync or m.pending:
        raise RefusedError(
            "%s cannot be recreated now: %s" % (
                m.name, "%s is %s" % bad[0] if bad else "a resync is "
                "pending"),
            advice="Repair the mirror first (metastat %s says how), then "
                   "run svmram again." % m.name)


def _ram_refill_step(snap, it):
    """The RAM submirror lost its ramdisk at a reboot while it was in the
    mirror: refill it in place, as restore does, wherever its slot (a
    detach and attach would move it last and cost another rotate), or
    None when that does not apply.  metareplace -e copies the whole
    component, and SVM reads it only once it is Okay."""
    m, ram = snap.mirror, snap.stripes.get(it.ram)
    if ram is None or ram.parent != it.mirror or m is None or \
            it.ram not in m.slots or it.ram in m.offline:
        return None
    state = ram_component(snap, it)[1]
    if it.ramdisk not in snap.ramdisks:
        if state not in FAILED:
            return opening_step(snap, it)
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        return steps.create_ramdisk(snap, it)
    if state in FAILED and links_ok(snap, it):
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        return steps.enable_component(snap, it, it.link, None,
                                      label_source(snap, it))
    return None


def label_source(snap, it):
    """The disk submirror whose label blocks a refilled RAM submirror gets
    first (the copy method's mirror is labeled, and its resync skips
    them), or None: the first Okay one."""
    if it.method != "copy":
        return None
    m = snap.mirror
    okay = [d for d in it.disks if d in m.slots and m.state_of(d) == OKAY]
    return okay[0] if okay else None


def _next_setup_step(snap, it):
    m = snap.mirror
    ram = snap.stripes.get(it.ram)
    refill = _ram_refill_step(snap, it)
    if refill is not None:
        return refill
    if it.ramdisk not in snap.ramdisks:
        if ram is not None:
            # A setup interrupted by a reboot: start the RAM part afresh.
            if ram.parent:
                return steps.detach(snap, it, it.ram, force=True,
                                    why="Its ramdisk vanished at a reboot.")
            return steps.clear_stripe(snap, it, it.ram)
        return steps.create_ramdisk(snap, it)
    if not links_ok(snap, it):
        return steps.make_links(snap, it)
    if ram is None:
        return steps.init_ram_stripe(snap, it)
    if m is None:
        return _init_from_one_disk(snap, it)
    if m.resync == "cancelled":
        return steps.restart_resync(snap, it, None)
    if m.resync or m.pending:
        return steps.wait_resync(snap, it)
    if it.method == "copy" and not labeled_already(snap, it):
        _all_okay(snap)
        return steps.copy_and_rebuild(snap, it, copy_order(snap, it),
                                      copy_window_seconds(it.size_blocks))
    if it.method == "swap":
        if it.ram not in m.slots:
            return steps.attach(snap, it, it.ram)
        missing = [d for d in it.disks if d not in m.slots]
        if missing:
            return steps.attach(snap, it, missing[0],
                                why="It goes behind the RAM submirror.")
        if m.slots != it.order:
            _all_okay(snap)
            return steps.swap_mirror(snap, it)
    else:
        moves = _known_moves(snap, it, it.ram, it.disks,
                             _setup_goal(it.ram, it.disks))
        if moves is None:
            raise RefusedError(
                "svmram finds no safe way to put %s first in %s from its "
                "slots now (%s)" % (it.ram, it.mirror, ", ".join(
                    "%s in %d" % (n, i) for i, n in _slot_state(m))),
                advice="Nothing more was changed; 'svmram teardown %s' "
                       "returns the mirror to how it was." % it.mirror)
        if moves:
            return _move_step(snap, it, moves[0], _setup_why(
                snap, it, moves))
    if m.read_option != "first":
        return steps.set_read_option(snap, it, "first")
    if snap.record is None:
        variable = "${%s}" % record.DEV_VARIABLE
        return steps.write_record(
            snap, it, record.fmri(it.mirror),
            smf.write_actions(it, variable), record.DEV_VARIABLE,
            record.expected(it, variable))
    if not record.complete(snap.record):
        # The record step stopped part-way: write it afresh.
        return steps.delete_record(snap, it, record.fmri(it.mirror),
                                   smf.delete_argvs(it.mirror))
    return None


def labeled_already(snap, it):
    """Whether the copy method's mirror is labeled already, so that the
    RAM submirror is attached rather than the mirror copied again:

    * an earlier step of this plan recreated it with the RAM submirror
      (the model's labeled_by_ram);
    * the RAM submirror is in it: it was built in by the copy method's
      metainit (an attach is refused while the mirror is unlabeled), and
      that made the mirror labeled for good (mirror.c 1756
      build_submirror; nothing clears MD_LABELED but metaclear);
    * slot 0 is free and a recorded disk submirror is not in the mirror.
      Before the copy svmram changes nothing in the mirror, and a mirror
      recreated part-way from one disk has it in slot 0; only the moves
      after the rebuild on a host whose metadetach leaves a hole (detach
      the slot-0 disk and the RAM submirror, attach the RAM submirror
      into slot 0) leave it so.  Were the mirror unlabeled after all (a
      disk detached by hand meanwhile), SVM would refuse the attach and
      change nothing.

    metastat does not show the flag, and a rerun plans from what it
    sees; copying again there would recreate the mirror from the disks
    left in it and end with the disk submirrors in another order."""
    m = snap.mirror
    if snap.labeled_by_ram or it.ram in m.slots:
        return True
    numbers = m.numbers or tuple(range(len(m.slots)))
    return 0 not in numbers and any(d not in m.slots for d in it.disks)


def _setup_why(snap, it, moves):
    kind, name = moves[0]
    if kind == "detach" and name != it.ram:
        return ("Re-attaching it later puts it behind the RAM submirror.  "
                "Until then the other disk submirror holds the disk copy.")
    if kind == "attach" and name != it.ram:
        return "It goes behind the RAM submirror."
    return ""


def _init_from_one_disk(snap, it):
    """A mirror cleared part-way (a swap or rebuild stopped between
    metaclear and metainit) comes back from one disk submirror: only
    submirrors just seen Okay ever go into an n-way metainit together.
    The ramdisk may be blank by now, so it never goes in either."""
    return steps.init_mirror(
        snap, it, it.disks[:1], it.read_option, it.write_option,
        it.pass_num, it.size_blocks,
        why="Nothing proves the cleared submirrors still agree; the others "
            "are attached to it with a full resync.")


def _teardown_why(it, moves):
    kind, name = moves[0]
    if name == it.ram:
        return "The RAM submirror goes."
    if kind == "attach":
        return "Restore the disk copy%s." % (
            " before the RAM submirror goes" if ("detach", it.ram) in moves
            else "")
    return ("Re-attaching it puts the disk submirrors back in their original "
            "order; the other disk submirror holds the disk copy meanwhile.")


def _next_teardown_step(snap, it, reattach, under_way=True):
    m = snap.mirror
    if m is None:
        if under_way:
            return _init_from_one_disk(snap, it)
        return _ram_parts_step(snap, it)
    if it.method == "swap" and m.slots == it.order and \
            m.size_blocks != it.size_blocks and snap.mounted_on is None:
        _all_okay(snap)
        return steps.rebuild_mirror(snap, it, why=(
            "Recreated with the RAM submirror first, %s has %d blocks "
            "instead of %d; its file system must not see another size."
            % (it.mirror, m.size_blocks, it.size_blocks)))
    if it.method == "copy" and it.ram in m.slots and \
            closed_problem(snap, m) is None:
        step = _unlabel_step(snap, it, reattach)
        if step is not None:
            return step
    if m.read_option != it.read_option:
        return steps.set_read_option(snap, it, it.read_option)
    missing = [d for d in it.disks if d not in m.slots and d in reattach]
    disks_okay = all(st == OKAY for s, st in zip(m.slots, m.states)
                     if s != it.ram)
    if m.resync == "cancelled" and not (it.ram in m.slots and disks_okay
                                        and not missing):
        return steps.restart_resync(snap, it, None)
    if it.ram in m.slots:
        if m.resync == "active" or m.pending:
            ram_only = m.state_of(it.ram) != OKAY and disks_okay
            if ram_only and not missing:
                if m.resync == "active":
                    return steps.cancel_resync(snap, it)
            else:
                return steps.wait_resync(snap, it)
    if it.ram in m.slots and m.state_of(it.ram) != OKAY:
        return steps.detach(snap, it, it.ram, force=True,
                            why="The RAM submirror is not current.")
    wanted = tuple(d for d in it.disks if d in m.slots or d in reattach)
    if (it.ram in m.slots or missing or tuple(
            s for s in m.slots if s in it.disks) != wanted) and all(
            m.state_of(d) == OKAY for d in m.slots if d in it.disks):
        if m.resync or m.pending:
            return steps.wait_resync(snap, it)
        moves = _known_moves(snap, it, it.ram, wanted, _teardown_goal(
            wanted), present_ram=False)
        if moves:
            return _move_step(snap, it, moves[0], _teardown_why(
                it, moves))
    if it.ram in m.slots:
        return steps.detach(snap, it, it.ram, why="The RAM submirror goes.")
    if missing:
        return steps.attach(snap, it, missing[0],
                            why="Restore the disk copy.")
    return _ram_parts_step(snap, it)


def _unlabel_step(snap, it, reattach=()):
    """The copy method's mirror, closed, with every disk submirror in it
    and Okay: recreate it from them alone (after a resync that only fills
    the RAM submirror is cancelled, or another waited for).  A disk
    submirror out of it that may be attached again (`reattach`: setup
    detached it to move it behind the RAM submirror, say) is attached
    first, while the RAM submirror still proves the mirror labeled.  None
    when the disks cannot all be there and Okay (the RAM submirror is
    then detached, and the mirror stays labeled: unlabeled_left says
    so)."""
    m = snap.mirror
    missing = [d for d in it.disks if d not in m.slots]
    if any(d not in reattach for d in missing):
        return None
    present = [d for d in it.disks if d in m.slots]
    if missing or any(m.state_of(d) != OKAY for d in present):
        # Fill a re-attached disk; attach the next once no resync runs.
        if any(m.state_of(d) not in (OKAY, RESYNCING) for d in present):
            return None
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        if not missing:
            return None
        return steps.attach(snap, it, missing[0], why=(
            "Restore the disk copy; then %s, with every disk submirror "
            "Okay, is recreated from them unlabeled." % it.mirror))
    if m.resync == "active":
        if m.state_of(it.ram) != OKAY:
            return steps.cancel_resync(snap, it)
        return steps.wait_resync(snap, it)
    return steps.unlabel_mirror(snap, with_options_of(m, it),
                                force=m.state_of(it.ram) != OKAY
                                or m.pending or m.resync is not None)


def with_options_of(m, it):
    """`it` with the pass number and write option the mirror `m` has now:
    recreating it keeps what the administrator set after setup (metaparam
    -p, -w), as rotate's teardown, which never recreates it, does.  The
    read option is setup's to give back: it stays the recorded one."""
    return replace(it, pass_num=m.pass_num, write_option=m.write_option)


def unlabeled_left(snap, it, planned):
    """What teardown leaves when it cannot recreate the copy method's
    mirror unlabeled (it is open, or a disk submirror is not there and
    Okay): the RAM submirror is detached, the mirror stays labeled.  The
    commands that finish it, or None when a step of `planned` (the
    teardown's steps from `snap`) recreates it."""
    m = snap.mirror
    if it.method != "copy" or m is None or it.ram not in m.slots or any(
            step.key == UNLABEL_KEY % it.mirror for step in planned):
        return None
    problem = closed_problem(snap, m)
    it = with_options_of(m, it)
    options = ("%s" % {"first": " -r", "geometric": " -g"}.get(
        it.read_option, "")) + (" -S" if it.write_option == "serial" else "")
    return (
        "teardown could not recreate %s without the RAM submirror (%s), "
        "so %s stays labeled: SVM refuses writes that start at its block 0. "
        " When %s is closed and 'metastat %s' shows %s Okay, run "
        "'metaclear %s' and then 'metainit %s -m %s%s %d' (no resync: the "
        "disk submirrors hold the same data)." % (
            it.mirror, problem or "a disk submirror is missing "
            "or not Okay", it.mirror, it.mirror, it.mirror,
            " and ".join(it.disks), it.mirror, it.mirror,
            " ".join(it.disks), options, it.pass_num))


def _ram_parts_step(snap, it):
    """The next of what svmram built besides the mirror's changes: the
    RAM submirror, its links, its ramdisk, the record."""
    if it.ram in snap.stripes:
        return steps.clear_stripe(snap, it, it.ram)
    if any(k in snap.links for k in ("dsk/" + it.link, "rdsk/" + it.link)):
        return steps.remove_links(snap, it)
    if it.ramdisk in snap.ramdisks:
        return steps.delete_ramdisk(snap, it)
    if snap.record is not None:
        return steps.delete_record(snap, it, record.fmri(it.mirror),
                                   smf.delete_argvs(it.mirror))
    return None

