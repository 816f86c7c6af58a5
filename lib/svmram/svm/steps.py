# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Step constructors for SVM (pure).  Each takes the Snapshot before the
step and returns a Step whose ``expect`` is the Snapshot after it, so a
planner can chain them and the executor can check them."""

from dataclasses import replace

from ..actions import DeviceNumber, RemoveLink, Run, Symlink
from ..plan import Step
from . import names
from .samedata import NoWrites, SameData, Unopened, WriteCount
from .sizing import human_size, ramdisk_slice_blocks
from .snapshot import (FAILED_COMPONENT, MAINTENANCE, OKAY, MirrorView,
                       StripeView)
from .snapshot import RESYNCING as RESYNCING_STATE

# metaclear plus metainit: an estimate (two quick ioctls each), not a
# measurement; the plan prints it as "about".
SWAP_CLOSED_SECONDS = 5


def _with_stripe(snap, stripe):
    stripes = dict(snap.stripes)
    stripes[stripe.name] = stripe
    return stripes


def _without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


def create_ramdisk(snap, it):
    ramdisks = dict(snap.ramdisks, **{it.ramdisk: it.size_bytes})
    return Step(
        key="create ramdisk %s" % it.ramdisk,
        summary="Create the ramdisk %s of %s." % (it.ramdisk, human_size(
            it.size_bytes)),
        do=(Run(("ramdiskadm", "-a", it.ramdisk,
                 human_size(it.size_bytes))),),
        why="Its slice 0 holds %d blocks; %s needs %d." % (
            ramdisk_slice_blocks(it.size_bytes), it.mirror, it.size_blocks),
        expect=snap.evolve(ramdisks=ramdisks))


def make_links(snap, it):
    links = dict(snap.links)
    links["dsk/" + it.link] = it.block_link_target
    links["rdsk/" + it.link] = it.raw_link_target
    return Step(
        key="link %s" % it.link,
        summary="Link /dev/dsk/%s and /dev/rdsk/%s to the ramdisk." % (
            it.link, it.link),
        do=tuple(
            Symlink("/dev/%s/%s" % (kind, it.link), target,
                    advice="Choose another name with --link.")
            for kind, target in (("dsk", it.block_link_target),
                                 ("rdsk", it.raw_link_target))),
        why="SVM accepts only cNtNdNsN names for components.",
        expect=snap.evolve(links=links, used_controllers=(
            snap.used_controllers | {names.controller_of(it.link)})))


def remove_links(snap, it):
    links = {k: v for k, v in snap.links.items()
             if k not in ("dsk/" + it.link, "rdsk/" + it.link)}
    return Step(
        key="unlink %s" % it.link,
        summary="Remove the links /dev/dsk/%s and /dev/rdsk/%s." % (
            it.link, it.link),
        do=(RemoveLink("/dev/dsk/" + it.link),
            RemoveLink("/dev/rdsk/" + it.link)),
        expect=snap.evolve(links=links))


def init_ram_stripe(snap, it):
    stripe = StripeView(it.ram, ramdisk_slice_blocks(it.size_bytes),
                        (it.link,), None, (OKAY,))
    return Step(
        key="metainit %s" % it.ram,
        summary="Make the concat %s on the ramdisk." % it.ram,
        do=(Run(("metainit", it.ram, "1", "1", it.link)),),
        expect=snap.evolve(stripes=_with_stripe(snap, stripe),
                           metadevices=snap.metadevices | {it.ram}))


def attached_numbers(mirror):
    """(slot numbers after a metattach, index of the new submirror):
    metattach takes the lowest free slot (mirror_ioctl.c mirror_attach),
    which is in front of others when a detach left a hole."""
    if not mirror.numbers:
        return (), len(mirror.slots)
    slot = min(set(range(names.NMIRROR)) - set(mirror.numbers))
    numbers = sorted(mirror.numbers + (slot,))
    return tuple(numbers), numbers.index(slot)


def detached_numbers(mirror, index, compacts):
    """Slot numbers after a metadetach of the submirror at `index`:
    illumos moves those above it down (mirror_detach "Reshuffle the
    submirror devices"), the 2006 code leaves a hole; unknown (()) when
    the host's behaviour is."""
    if not mirror.numbers or compacts is None:
        return ()
    rest = mirror.numbers[:index] + mirror.numbers[index + 1:]
    return tuple(range(len(rest))) if compacts else rest


def attach(snap, it, submirror, why="", label_from=None):
    """metattach of `submirror`.  `label_from`: the disk submirror whose
    label blocks are first copied into the ramdisk (the RAM submirror
    going into the copy method's labeled mirror, whose resync skips
    them)."""
    mirror = snap.mirror
    stripes = _with_stripe(snap, replace(snap.stripes[submirror],
                                         parent=it.mirror))
    numbers, index = attached_numbers(mirror)
    slots = mirror.slots[:index] + (submirror,) + mirror.slots[index:]
    states = mirror.states[:index] + (OKAY,) + mirror.states[index:]
    return Step(
        key="attach %s" % submirror,
        summary="Attach %s to %s and wait for its full resync." % (
            submirror, it.mirror),
        do=((label_copy(it, label_from),) if label_from else ()) + (
            Run(("metattach", it.mirror, submirror)),),
        why=(why or "metattach puts it in the lowest free slot (slot %s)." % (
            numbers[index] if numbers else len(mirror.slots))) + (
            "  First dd copies blocks 0-1 of %s into the ramdisk: the "
            "resync of a labeled mirror skips them." % label_from
            if label_from else ""),
        wait_resync=it.mirror,
        copies_blocks=mirror.size_blocks,
        expect=snap.evolve(mirror=mirror.with_slots(slots, states, numbers),
                           stripes=stripes))


def detach(snap, it, submirror, force=False, why=""):
    mirror = snap.mirror
    index = mirror.slots.index(submirror)
    slots = mirror.slots[:index] + mirror.slots[index + 1:]
    states = mirror.states[:index] + mirror.states[index + 1:]
    stripes = _with_stripe(snap, replace(snap.stripes[submirror], parent=None))
    numbers = detached_numbers(mirror, index, snap.detach_compacts)
    return Step(
        key="detach %s" % submirror,
        summary="Detach %s from %s." % (submirror, it.mirror),
        do=(Run(("metadetach",) + (("-f",) if force else ()) + (
            it.mirror, submirror)),),
        why=why,
        expect=snap.evolve(mirror=mirror.with_slots(slots, states, numbers),
                           stripes=stripes))


def cancel_resync(snap, it):
    # What metastat shows after metasync -c: every submirror the resync
    # was filling is "Resync cancelled", and "Invoke: metasync" is pending.
    states = tuple(st if st == OKAY else "Resync cancelled"
                   for st in snap.mirror.states)
    mirror = replace(snap.mirror.with_slots(snap.mirror.slots, states),
                     resync="cancelled", pending=True)
    return Step(
        key="cancel resync %s" % it.mirror,
        summary="Cancel the resync of %s." % it.mirror,
        do=(Run(("metasync", "-c", it.mirror)),),
        why="metadetach is refused while a resync runs, and this one only "
            "fills the RAM submirror that is being removed.",
        expect=snap.evolve(mirror=mirror))


def wait_resync(snap, it):
    """Wait for the mirror's resync.  One SVM left pending ("Invoke:
    metasync", no resync running) is started first: at boot
    svc:/system/metasync resumes only mirrors of pass 1 to 9, so an
    interrupted resync of a pass-0 mirror would wait for ever."""
    mirror = snap.mirror
    pending = mirror.pending and mirror.resync != "active"
    states = tuple(RESYNCING_STATE if pending and state == MAINTENANCE
                   else state for state in mirror.states)
    return Step(
        key="wait resync %s" % it.mirror,
        summary=("Start the resync SVM left pending in %s and wait for it "
                 "to finish." if pending else
                 "Wait for the resync of %s to finish.") % it.mirror,
        do=(Run(("metasync", it.mirror)),) if pending else (),
        wait_resync=it.mirror,
        expect=snap.evolve(mirror=replace(
            mirror, states=tuple(_after_resync(snap, name, state)
                                 for name, state in zip(mirror.slots,
                                                        states)),
            resync=None, resync_percent=None, pending=False)))



def _after_resync(snap, name, state):
    """A submirror's state once the resync is over: what resyncs ends
    Okay, but a submirror with a failed component (a RAM one whose ramdisk
    vanished at a boot, shown Resyncing during a boot resync) ends in
    maintenance: no resync mends it."""
    view = snap.stripes.get(name)
    if view is not None and any(c in FAILED_COMPONENT
                                for c in view.component_states):
        return MAINTENANCE
    return OKAY if state == RESYNCING_STATE else state


def swap_mirror(snap, it):
    """Clear the mirror and recreate it at once with the RAM submirror
    first.  One step, so that nothing can happen between the two commands
    that the planner did not see: the RAM submirror goes into an n-way
    metainit only straight after metastat showed every submirror Okay."""
    return _clear_and_recreate(
        snap, it, it.order, "first", key="swap %s" % it.mirror,
        summary="Clear %s and recreate it at once from %s in this order." % (
            it.mirror, " ".join(it.order)),
        why="Every submirror is Okay and the mirror is closed, so the data "
            "is the same on each and nothing is resynced (metainit warns "
            "that the submirrors may differ; they do not).  The new mirror "
            "must have exactly the old size, %d blocks." % it.size_blocks)


# The copy method (docs/design.md, "Mirrors whose submirrors are not
# labeled"): dd's transfer size, 1 MiB (md_max_xfer_bufsz, reference 5.4).
COPY_BS = "1024k"
# Blocks 0..DK_LABEL_LOC, which a labeled mirror's resync never copies
# (mirror.c 3456-3472): 0..1 on x86, 0 on SPARC.  Copying two blocks is
# right on both: on SPARC the resync copies block 1 again anyway.
LABEL_BLOCKS = 2
# The shell variable (a -n script's; svmram's own run keeps the value in
# the step's context) that holds the mirror's write count before the copy.
WRITES_VARIABLE = "mirror_writes"


def copy_and_rebuild(snap, it, order, seconds):
    """Copy the closed mirror into the ramdisk, prove the copy exact, then
    clear the mirror and recreate it at once from `order` (the RAM
    submirror among the disk submirrors, which keep their data).  One
    step: nothing can open the mirror between the proof and metaclear
    that the planner did not see, and a rerun after an interruption
    copies again."""
    mirror_raw = "/dev/md/rdsk/%s" % it.mirror
    first = order[0] == it.ram
    step = _clear_and_recreate(
        snap, it, order, "first", key="copy %s" % it.mirror,
        summary="Copy %s into the ramdisk, compare, then clear %s and "
                "recreate it at once from %s in this order." % (
                    it.mirror, it.mirror, " ".join(order)),
        why="%s is closed and not labeled, so SVM refuses to attach the "
            "RAM submirror: dd reads every block of %s from its disks in "
            "1 MiB transfers into the ramdisk, cmp proves the copy the "
            "same, and %s is recreated with %s in it.  Its write count, "
            "which must not move meanwhile, exists only once SVM opened "
            "it since boot, so dd reads one block of it first.  The "
            "disks are never written, so they stay current, and nothing "
            "is resynced (metainit warns that the submirrors may differ; "
            "they do not).  %s is labeled from then on (the RAM submirror "
            "is): SVM refuses writes that start at its block 0.%s" % (
                it.mirror, it.mirror, it.mirror, it.ram, it.mirror,
                "" if first else "  Recreated with %s first it would "
                "have another size (SVM rounds a mirror to its first "
                "submirror's cylinder), so %s goes second and is moved "
                "to slot 0 afterwards." % (it.ram, it.ram)))
    return replace(step, expect=step.expect.evolve(labeled_by_ram=True), do=(
        Unopened(it.mirror), read_one_block(it.mirror),
        WriteCount(it.mirror, WRITES_VARIABLE),
        Run(("dd", "if=" + mirror_raw, "of=" + it.raw_link_target,
             "bs=" + COPY_BS)),
        SameData(mirror_raw, it.raw_link_target, advice=(
            "Nothing but the ramdisk was written; svmram removes what "
            "it made.  Check that nothing opened %s meanwhile."
            % it.mirror)),
        NoWrites(it.mirror, WRITES_VARIABLE), step.do[0],
        # The count once more after metaclear (its kstat stays readable):
        # a write between the check above and metaclear stops the step
        # before the mirror is recreated with the RAM submirror.
        NoWrites(it.mirror, WRITES_VARIABLE, cleared=True)) + step.do[1:],
        closed_seconds=seconds)


UNLABEL_KEY = "unlabel %s"       # unlabel_mirror's step, of a mirror


def unlabel_mirror(snap, it, force):
    """Clear the mirror and recreate it from its disk submirrors alone, in
    their original order: the only way to give back an unlabeled mirror
    (nothing clears MD_LABELED, mirror.c 1756).  `force`: the RAM
    submirror is not Okay (metaclear refuses that without -f)."""
    step = _clear_and_recreate(
        snap, it, it.disks, it.read_option, key=UNLABEL_KEY % it.mirror,
        summary="Clear %s and recreate it at once from %s in this order, "
                "without the RAM submirror." % (
                    it.mirror, " ".join(it.disks)),
        why="%s is closed and every disk submirror is Okay, so they hold "
            "the same data; recreated from them alone %s is no longer "
            "labeled, and writes at its block 0 work again." % (
                it.mirror, it.mirror))
    if force:
        step = replace(step, do=(Run(("metaclear", "-f", it.mirror)),) +
                       step.do[1:])
    return step


def label_copy(it, source):
    """The action that copies blocks 0..DK_LABEL_LOC of the disk
    submirror `source` (a read open of a submirror is allowed, md.c 1537)
    into the ramdisk, which a labeled mirror's resync leaves blank."""
    return Run(("dd", "if=/dev/md/rdsk/%s" % source,
                "of=" + it.raw_link_target, "bs=512",
                "count=%d" % LABEL_BLOCKS))


def rebuild_mirror(snap, it, why):
    """Clear the mirror and recreate it from its disk submirrors, as it
    was before setup (undoing a swap that came out wrong)."""
    return _clear_and_recreate(
        snap, it, it.disks, it.read_option, key="rebuild %s" % it.mirror,
        summary="Clear %s and recreate it as it was, from %s." % (
            it.mirror, " ".join(it.disks)), why=why)


def _clear_and_recreate(snap, it, order, read_option, key, summary, why):
    """metaclear, then metainit from `order`, as one step."""
    step = init_mirror(snap, it, order, read_option, it.write_option,
                       it.pass_num, it.size_blocks, why=why)
    return replace(step, key=key, summary=summary,
                   do=(Run(("metaclear", it.mirror)),) + step.do,
                   closed_seconds=SWAP_CLOSED_SECONDS)


def init_mirror(snap, it, order, read_option, write_option, pass_num,
                size_blocks, why=""):
    options = {"first": ("-r",), "geometric": ("-g",)}.get(read_option, ())
    if write_option == "serial":
        options += ("-S",)
    # A submirror of the mirror that is not in `order` is free once the
    # mirror was cleared (unlabel_mirror leaves the RAM one out).
    stripes = {name: replace(view, parent=it.mirror if name in order
                             else None if view.parent == it.mirror
                             else view.parent)
               for name, view in snap.stripes.items()}
    mirror_view = _new_mirror(it.mirror, order, read_option, write_option,
                              pass_num, size_blocks)
    return Step(
        key="metainit %s" % it.mirror,
        summary="Recreate %s from %s in this order." % (
            it.mirror, " ".join(order)),
        do=(Run(("metainit", it.mirror, "-m") + tuple(order) + options + (
            str(pass_num),)),),
        why=why or "metainit warns that the submirrors may differ; they "
            "do not, so nothing is resynced.",
        expect=snap.evolve(mirror=mirror_view, stripes=stripes,
                           metadevices=snap.metadevices | {it.mirror}))


def _new_mirror(name, order, read_option, write_option, pass_num, size):
    # metainit -m fills the slots from 0 in the order given.
    return MirrorView(name, tuple(order), tuple(OKAY for _ in order),
                      read_option, write_option, pass_num, size,
                      numbers=tuple(range(len(order))))


def set_read_option(snap, it, option):
    return Step(
        key="read option %s" % option,
        summary="Set the read option of %s to %s." % (it.mirror, option),
        do=(Run(("metaparam", "-r", option, it.mirror)),),
        why="With 'first', reads go to the lowest Okay slot: the RAM "
            "submirror." if option == "first" else "",
        expect=snap.evolve(mirror=replace(snap.mirror, read_option=option)))


def clear_stripe(snap, it, name):
    return Step(
        key="metaclear %s" % name,
        summary="Clear the RAM concat %s." % name,
        do=(Run(("metaclear", name)),),
        expect=snap.evolve(stripes=_without(snap.stripes, name),
                           metadevices=snap.metadevices - {name}))


def delete_ramdisk(snap, it):
    return Step(
        key="delete ramdisk %s" % it.ramdisk,
        summary="Delete the ramdisk %s." % it.ramdisk,
        do=(Run(("ramdiskadm", "-d", it.ramdisk)),),
        expect=snap.evolve(ramdisks=_without(snap.ramdisks, it.ramdisk)))


def read_dev(it, dev_variable):
    """The action that sets ${dev_variable} to the ramdisk's
    "major,minor"."""
    return DeviceNumber(dev_variable, it.block_link_target)


def write_record(snap, it, fmri, actions, dev_variable, props):
    """`actions` write the record (smf.write_actions: one svccfg -f)."""
    return Step(
        key="record %s" % it.mirror,
        summary="Record the configuration in %s." % fmri,
        do=(read_dev(it, dev_variable),) + tuple(actions),
        why="The boot service reads it to restore the RAM submirror.",
        expect=snap.evolve(record=props, service_state="disabled"))


def delete_record(snap, it, fmri, argvs):
    return Step(
        key="unrecord %s" % it.mirror,
        summary="Disable and delete %s." % fmri,
        do=tuple(Run(tuple(argv)) for argv in argvs),
        expect=snap.evolve(record=None, service_state=None))


# --- restore after boot ----------------------------------------------------

def _ram_component(snap, it, state, link=None):
    view = snap.stripes[it.ram]
    stripes = _with_stripe(snap, replace(
        view, components=(link,) if link else view.components,
        component_states=(state,)))
    return stripes


def read_one_block(mirror):
    """The action that reads one block of the mirror, which opens it: its
    first open since boot applies SVM's first-open rule (reference 9.1)
    and makes its I/O kstat (md_subr.c md_unit_incopen, md_kstat_init),
    the write count the copy method keeps."""
    return Run(("dd", "if=/dev/md/rdsk/%s" % mirror, "of=/dev/null",
                "count=1"))


def force_open(snap, it):
    mirror = snap.mirror
    states = tuple("Needs maintenance" if s == it.ram else st
                   for s, st in zip(mirror.slots, mirror.states))
    return Step(
        key="open %s" % it.mirror,
        summary="Read one block of %s so that SVM opens it without the "
                "ramdisk." % it.mirror,
        do=(read_one_block(it.mirror),),
        why="SVM still records the RAM component as Okay: it marks a missing "
            "component as failed only at the mirror's first open after boot. "
            "A ramdisk created before that open would be read as good data.",
        expect=snap.evolve(mirror=mirror.with_slots(mirror.slots, states),
                           stripes=_ram_component(snap, it, "Maintenance")))


def enable_component(snap, it, link, copy_blocks, label_from=None):
    """metareplace -e of the RAM component.  `label_from`: the disk
    submirror whose label blocks are first copied into the ramdisk (the
    copy method's labeled mirror, whose resync skips them)."""
    mirror = snap.mirror
    states = tuple(RESYNCING_STATE if s == it.ram else st
                   for s, st in zip(mirror.slots, mirror.states))
    restart = ()
    why = "A full copy of %s into the ramdisk; reads stay on disk until " \
          "%s is Okay." % (it.mirror, it.ram)
    if copy_blocks:
        restart = (Run(("metasync", "-c", it.mirror)),
                   Run(("metasync", str(copy_blocks), it.mirror)))
        why += "  The resync is restarted with %d-block copies (metattach " \
               "and metareplace use the default size)." % copy_blocks
    label = ()
    if label_from:
        label = (label_copy(it, label_from),)
        why += "  First dd copies blocks 0-1 of %s into the ramdisk: the " \
               "resync of a labeled mirror skips them." % label_from
    return Step(
        key="enable %s" % link,
        summary="Enable the RAM component %s of %s; SVM copies the data "
                "into it." % (link, it.mirror),
        do=label + (Run(("metareplace", "-e", it.mirror, link)),) + restart,
        why=why,
        copies_blocks=mirror.size_blocks,
        expect=snap.evolve(mirror=replace(
            mirror.with_slots(mirror.slots, states), resync="active"),
            stripes=_ram_component(snap, it, RESYNCING_STATE)))


def restart_resync(snap, it, copy_blocks):
    mirror, cancelled = snap.mirror, "Resync cancelled"
    states = tuple(RESYNCING_STATE if st == cancelled else st
                   for st in mirror.states)
    stripes = _ram_component(snap, it, RESYNCING_STATE) if (
        it.ram in mirror.slots and mirror.state_of(it.ram) == cancelled) \
        else snap.stripes
    return Step(
        key="restart resync %s" % it.mirror,
        summary="Restart the cancelled resync of %s." % it.mirror,
        do=(Run(("metasync",) + ((str(copy_blocks),) if copy_blocks
                                 else ()) + (it.mirror,)),),
        why="It goes on from where it was cancelled.",
        expect=snap.evolve(mirror=replace(
            mirror.with_slots(mirror.slots, states), resync="active"),
            stripes=stripes))


def replace_component(snap, it, old_link, new_link, record_actions,
                      dev_variable, label_from=None):
    """`record_actions` update the record (smf.update_actions)."""
    mirror = snap.mirror
    states = tuple(RESYNCING_STATE if s == it.ram else st
                   for s, st in zip(mirror.slots, mirror.states))
    record_now = dict(snap.record or {}, link=new_link)
    return Step(
        key="replace %s" % old_link,
        summary="Replace the RAM component %s of %s by %s." % (
            old_link, it.mirror, new_link),
        do=(read_dev(it, dev_variable),) + (
            (label_copy(it, label_from),) if label_from else ()) + (
            Run(("metareplace", it.mirror, old_link, new_link)),) + tuple(
                record_actions),
        why="The new ramdisk has another device number than the one SVM "
            "recorded for %s, so it is given to SVM under a new name "
            "instead." % old_link,
        copies_blocks=mirror.size_blocks,
        expect=snap.evolve(
            mirror=replace(mirror.with_slots(mirror.slots, states),
                           resync="active"),
            stripes=_ram_component(snap, it, RESYNCING_STATE, new_link),
            record=record_now))
