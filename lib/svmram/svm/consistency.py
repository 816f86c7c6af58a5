# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Does a recorded intent (the SMF record, or a journal) still describe
the host?  (pure)

teardown, restore and a resumed setup act on the names an intent holds.
When the host contradicts them (the record names another RAM submirror
than the one on the ramdisk, a link that points elsewhere, a disk
submirror that is gone) acting on it could detach, clear or delete the
wrong thing, so they refuse before changing anything.  Objects the intent
names that do not exist are no contradiction by themselves: a setup or
teardown that stopped part-way leaves some out, and the planners expect
that.
"""

from ..errors import RefusedError

STRIPE = "concat/stripe"


def check_replicas(snap):
    if not snap.has_replicas:
        raise RefusedError(
            "there are no state database replicas, so SVM has no "
            "configuration to work on",
            advice="Check the replicas with metadb -i and restore them; "
                   "svmram changes nothing without them.")
    if snap.stale_replicas:
        raise RefusedError(
            "the state database replicas are stale (fewer than a majority "
            "of them were good at boot), so SVM would refuse every change; "
            "nothing was changed",
            advice="'metadb -i' shows the failed replicas: delete them with "
                   "'metadb -d' and reboot, as svc-metainit advises, then "
                   "add replicas again and rerun svmram.")


def check(snap, it, where, disks=True):
    """Refuse, before anything changes, an intent the host contradicts
    (`disks`: its disk submirrors too; not for the teardown of a mirror
    the administrator cleared)."""
    check_replicas(snap)
    found = contradictions(snap, it, disks)
    if found:
        raise RefusedError(
            "%s does not match the host: %s" % (where, "; ".join(found)),
            advice="Check it against metastat -p, ramdiskadm and "
                   "ls -l /dev/dsk by hand; svmram will not act on it.")


def contradictions(snap, it, disks=True):
    """Why `it` does not describe the host in `snap`; [] when it does."""
    found = []
    if it.mirror != snap.mirror_name:
        found.append("it is about %s, not %s" % (it.mirror, snap.mirror_name))
    for disk in (it.disks if disks else ()):
        if disk not in snap.metadevices:
            found.append("its disk submirror %s does not exist" % disk)
        elif _kind(snap, disk) != STRIPE:
            found.append("its disk submirror %s is a %s" % (
                disk, _kind(snap, disk)))
    target = it.block_link_target
    for kind, want in (("dsk", target), ("rdsk", it.raw_link_target)):
        have = snap.links.get("%s/%s" % (kind, it.link))
        if have is not None and have != want:
            found.append("/dev/%s/%s points at %s, not at %s" % (
                kind, it.link, have, want))
    if it.ram in snap.metadevices:
        stripe = snap.stripes.get(it.ram)
        if _kind(snap, it.ram) != STRIPE or stripe is None:
            found.append("its RAM submirror %s is a %s" % (
                it.ram, _kind(snap, it.ram)))
        else:
            for component in stripe.components:
                if not _on_ramdisk(snap, it, component):
                    found.append("its RAM submirror %s is on %s, not on its "
                                 "link %s to the ramdisk %s" % (
                                     it.ram, component, it.link, it.ramdisk))
    m = snap.mirror
    if m is not None:
        for name in m.slots:
            stripe = snap.stripes.get(name)
            if name == it.ram or stripe is None:
                continue
            if any(_uses(snap, it, c) for c in stripe.components):
                found.append("%s is on its ramdisk %s but is not its RAM "
                             "submirror %s" % (name, it.ramdisk, it.ram))
    return found


def _kind(snap, name):
    return snap.other_types.get(name, "mirror")


def _uses(snap, it, component):
    """Is `component` the intent's link, or a link to its ramdisk?"""
    return component == it.link or \
        snap.links.get("dsk/" + component) == it.block_link_target


def _on_ramdisk(snap, it, component):
    """The RAM submirror's component is the intent's link; or, after a
    restore that gave a new ramdisk to SVM under a new link name and
    stopped before it updated the record, another link to the same
    ramdisk while the recorded one still points there too."""
    if component == it.link:
        return True
    target = it.block_link_target
    return snap.links.get("dsk/" + component) == target and \
        snap.links.get("dsk/" + it.link) == target
