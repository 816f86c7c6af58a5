"""The restore plan: bring a configured mirror's RAM submirror back after a
boot (pure, convergent like the setup and teardown planners).

The order is what keeps a blank ramdisk from ever serving reads
(reference 9.1): SVM must consider the RAM component failed *before* the
ramdisk exists, so that the component is only ever brought back by a full
resync (metareplace), never opened as if its data were good.
"""

from dataclasses import replace

from ..errors import RefusedError
from ..plan import Plan
from . import names, record, steps
from .planner import MAX_STEPS, check_memory

FAILED = ("Maintenance", "Last Erred", "Unavailable")
DEFAULT_COPY_BLOCKS = 2048       # 1 MiB, md_max_xfer_bufsz (reference 5.4)


def plan_restore(snap, intent, copy_blocks=DEFAULT_COPY_BLOCKS):
    """The steps from `snap` to a RAM submirror that is resyncing or Okay.
    The first step is always right; later ones assume the new ramdisk gets
    its recorded device number, so the caller re-plans after each step."""
    plan = Plan("restore", intent.mirror)
    plan.notes.append("If the new ramdisk's device number differs from the "
                      "recorded one, the component is replaced under a new "
                      "link name instead of being enabled.")
    it = intent
    while True:
        step = _next_step(snap, it, copy_blocks)
        if step is None:
            return plan
        plan.steps.append(step)
        if len(plan.steps) > MAX_STEPS:
            raise AssertionError("restore plan does not converge")
        snap = step.expect
        if snap.record and snap.record.get("link", it.link) != it.link:
            it = replace(it, link=snap.record["link"])


def ram_component(snap, it):
    """(component name, state) of the RAM submirror."""
    view = snap.stripes[it.ram]
    states = view.component_states or ("Okay",)
    return view.components[0], states[0]


def _next_step(snap, it, copy_blocks):
    m = snap.mirror
    if m is None:
        raise RefusedError("the mirror %s does not exist" % it.mirror,
                           advice="Recreate it, or remove svmram's record "
                                  "with 'svmram teardown %s'." % it.mirror)
    if it.ram not in m.slots:
        raise RefusedError(
            "%s is not a submirror of %s" % (it.ram, it.mirror),
            advice="Run 'svmram teardown %s' and then 'svmram setup %s'."
                   % (it.mirror, it.mirror))
    link, state = ram_component(snap, it)
    if it.ramdisk not in snap.ramdisks:
        if state not in FAILED:
            return steps.force_open(snap, it)
        if m.resync == "active" or m.pending:
            return steps.wait_resync(snap, it)
        check_memory(snap, it.size_bytes, restoring=it.mirror)
        return steps.create_ramdisk(snap, it)
    if not _links_ok(snap, replace(it, link=link)):
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
            if not _links_ok(snap, replace(it, link=new_link)):
                return steps.make_links(snap, replace(it, link=new_link))
            return steps.replace_component(
                snap, it, link, new_link,
                record.update_argvs(it.mirror, new_link,
                                    "${%s}" % record.DEV_VARIABLE),
                record.DEV_VARIABLE)
        return steps.enable_component(snap, it, link, copy_blocks)
    if m.resync == "cancelled":
        return steps.restart_resync(snap, it, copy_blocks)
    stale = [k for k, target in snap.links.items()
             if target.endswith("/" + it.ramdisk) and
             k.split("/", 1)[1] != link]
    if stale:
        old = stale[0].split("/", 1)[1]
        return steps.remove_links(snap, replace(it, link=old))
    return None


def _other_link(snap, it, link):
    """A link other than the component's that already points at the
    ramdisk: made by an earlier, interrupted run of this restore."""
    for key in sorted(snap.links):
        kind, name = key.split("/", 1)
        if kind == "dsk" and name != link and \
                _links_ok(snap, replace(it, link=name)):
            return name
    return None


def _links_ok(snap, it):
    return (snap.links.get("dsk/" + it.link) == it.block_link_target
            and snap.links.get("rdsk/" + it.link) == it.raw_link_target)
