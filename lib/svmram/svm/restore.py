# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The restore plan: bring a configured mirror's RAM submirror back after a
boot (pure, convergent like the setup and teardown planners).

The order is what keeps a blank ramdisk from ever serving reads
(reference 9.1): SVM must consider the RAM component failed *before* the
ramdisk exists, so that the component is only ever brought back by a full
resync (metareplace), never opened as if its data were good.
"""

from dataclasses import replace

from ..errors import RefusedError, SvmramError
from ..plan import Plan, converge_plan
from . import names, record, smf, steps
from .planner import (check_memory, label_source, setup_command,
                      state_command)
from .ramcomponent import (FAILED, links_ok, opening_step, ram_component,
                           recorded_number_holder)
from .snapshot import OKAY

DEFAULT_COPY_BLOCKS = 2048       # 1 MiB, md_max_xfer_bufsz (reference 5.4)


def plan_restore(snap, intent, retry, copy_blocks=DEFAULT_COPY_BLOCKS):
    """The steps from `snap` to a RAM submirror that is resyncing or Okay.
    The first step is always right; later ones assume the new ramdisk gets
    its recorded device number, so the caller re-plans after each step.
    `retry`: the command that runs the restore again, for advice."""
    plan = Plan("restore", intent.mirror)
    plan.notes.append("If the new ramdisk's device number differs from the "
                      "recorded one, the component is replaced under a new "
                      "link name instead of being enabled.")

    def next_step(snap, it):
        if plan.steps:
            if it.ram not in snap.mirror.slots:
                return None     # fenced: the re-plan after it says why
            # A replace step records the component's new link.
            if snap.record and snap.record.get("link", it.link) != it.link:
                it = replace(it, link=snap.record["link"])
        return _next_step(snap, it, copy_blocks, retry)

    converge_plan(plan, snap, intent, next_step, intent.mirror,
                  state_command(intent))
    return plan


def _next_step(snap, it, copy_blocks, retry):
    m = snap.mirror
    if m is None:
        raise RefusedError("the mirror %s does not exist" % it.mirror,
                           advice="Recreate it, or remove svmram's record "
                                  "with 'svmram teardown %s'." % it.mirror)
    if it.ram not in m.slots:
        holder = recorded_number_holder(snap, it)
        if holder:
            raise SvmramError(
                "the ramdisk %s, not %s's own, holds the device number %s "
                "that SVM recorded for %s, the RAM submirror of %s; svmram "
                "detached %s so that %s reads only from its disk submirrors"
                % (holder, it.mirror,
                   (snap.record or {}).get("ramdisk_dev", "(not recorded)"),
                   it.ram,
                   it.mirror, it.ram, it.mirror),
                advice="Delete the other ramdisk (ramdiskadm -d %s) or create "
                       "it after svmram's at boot, then run 'svmram teardown "
                       "%s' and '%s' to read from RAM again."
                       % (holder, it.mirror, _setup(it)))
        raise RefusedError(
            "%s is not a submirror of %s" % (it.ram, it.mirror),
            advice="Run 'svmram teardown %s' and then '%s'."
                   % (it.mirror, _setup(it)))
    if it.ram in m.offline:
        raise _offline_refusal(snap, it)
    link, state = ram_component(snap, it)
    if it.ramdisk not in snap.ramdisks:
        if state not in FAILED:
            return opening_step(snap, it)
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        check_memory(snap, it.size_bytes, restoring=it.mirror, retry=retry)
        return steps.create_ramdisk(snap, it)
    if not links_ok(snap, replace(it, link=link)):
        return steps.make_links(snap, replace(it, link=link))
    if state in FAILED:
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        # A ramdisk this plan has yet to create has no known device number:
        # the plan assumes it matches; restore re-plans once it exists.
        device = snap.ramdisk_devs.get(it.ramdisk)
        recorded = (snap.record or {}).get("ramdisk_dev")
        if device is not None and device != recorded:
            new_link = _other_link(snap, it, link) or names.free_link(
                snap.used_controllers)
            if not links_ok(snap, replace(it, link=new_link)):
                return steps.make_links(snap, replace(it, link=new_link))
            return steps.replace_component(
                snap, it, link, new_link,
                smf.update_actions(it.mirror, new_link,
                                   "${%s}" % record.DEV_VARIABLE),
                record.DEV_VARIABLE, label_source(snap, it))
        return steps.enable_component(snap, it, link, copy_blocks,
                                      label_source(snap, it))
    if m.resync == "cancelled":
        return steps.restart_resync(snap, it, copy_blocks)
    if m.state_of(it.ram) != OKAY and m.resync != "active":
        raise RefusedError(
            "%s, the RAM submirror of %s, is %s, so %s does not read from "
            "RAM, and restore has no safe way to bring it back" % (
                it.ram, it.mirror, m.state_of(it.ram), it.mirror),
            advice="Check 'metastat %s'; 'svmram teardown %s', then '%s' "
                   "rebuild it.  %s keeps serving reads from its disk "
                   "submirrors." % (it.mirror, it.mirror, _setup(it),
                                    it.mirror))
    stale = [k for k, target in snap.links.items()
             if target.endswith("/" + it.ramdisk) and
             k.split("/", 1)[1] != link]
    if stale:
        old = stale[0].split("/", 1)[1]
        return steps.remove_links(snap, replace(it, link=old))
    return None


def _offline_refusal(snap, it):
    """An offlined RAM submirror is never brought back by restore:
    metaonline resyncs only the regions written while it was offline
    (reference 2.8 and 5.1), which leaves a blank or recreated ramdisk
    stale where `first` reads it; metareplace -e, the full copy, is refused
    on an offline submirror (ILLEGAL_SM_STATE); and a detach and attach
    would move it out of slot 0.  teardown and setup make a full copy."""
    where = (it.ram, it.mirror)
    if it.ramdisk not in snap.ramdisks:
        return RefusedError(
            "%s, the RAM submirror of %s, is offline and its ramdisk %s is "
            "gone: a new ramdisk is blank and metaonline copies only the "
            "regions written while %s was offline, so restore does not bring "
            "%s back" % (where + (it.ramdisk, it.ram, it.ram)),
            advice="Do not run 'metaonline %s %s'.  Run 'svmram teardown %s', "
                   "then '%s'; %s keeps serving reads from its disk "
                   "submirrors." % (it.mirror, it.ram, it.mirror, _setup(it),
                                    it.mirror))
    return RefusedError(
        "%s, the RAM submirror of %s, is offline, so %s does not read from "
        "RAM; restore does not bring it back: metaonline copies only the "
        "regions written while %s was offline, and svmram cannot tell "
        "whether the ramdisk %s still holds the rest" % (
            it.ram, it.mirror, it.mirror, it.ram, it.ramdisk),
        advice="If %s has stayed in place since %s was offlined (no reboot, "
               "not recreated), 'metaonline %s %s' brings %s back; otherwise "
               "run 'svmram teardown %s', then '%s'.  %s keeps serving reads "
               "from its disk submirrors." % (
                   it.ramdisk, it.ram, it.mirror, it.ram, it.ram, it.mirror,
                   _setup(it), it.mirror))


def _setup(it):
    """The setup that reads from RAM again once teardown has run: the
    copy method's mirror is unlabeled again, and needs --allow-label."""
    return setup_command(it.mirror, it.method == "copy")


def _other_link(snap, it, link):
    """A link other than the component's that already points at the
    ramdisk: made by an earlier, interrupted run of this restore."""
    for key in sorted(snap.links):
        kind, name = key.split("/", 1)
        if kind == "dsk" and name != link and \
                links_ok(snap, replace(it, link=name)):
            return name
    return None

