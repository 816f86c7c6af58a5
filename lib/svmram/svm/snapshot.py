# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The planner's model of one mirror and what surrounds it (pure).

host.py (SvmHost.observe) builds a Snapshot from SVM's output and the
file system; the
planner applies steps to Snapshots; the executor compares the Snapshot a
step promised with the one it re-reads afterwards.
"""

from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, Optional, Tuple

OKAY = "Okay"
RESYNCING = "Resyncing"
CANCELLED = "Resync cancelled"
MAINTENANCE = "Needs maintenance"
# Component states of a component SVM no longer reads or writes.
FAILED_COMPONENT = ("Maintenance", "Last Erred", "Unavailable")


@dataclass(frozen=True)
class MirrorView:
    name: str
    slots: Tuple[str, ...]          # submirror names in slot order
    states: Tuple[str, ...]         # their states, same order
    read_option: str = "roundrobin"
    write_option: str = "parallel"
    pass_num: int = 1
    size_blocks: int = 0
    resync: Optional[str] = None    # "active", "cancelled" or None
    resync_percent: Optional[int] = None
    pending: bool = False           # optimized resync pending (metasync)
    offline: Tuple[str, ...] = ()   # submirrors offlined (Invoke: metaonline)
    # The slot numbers plain metastat prints ("Submirror N"), same order
    # as `slots`; a host whose metadetach leaves a hole shows gaps.  ()
    # when not known (a plan step whose outcome depends on an unknown
    # slot behaviour).
    numbers: Tuple[int, ...] = ()

    def state_of(self, submirror):
        return self.states[self.slots.index(submirror)]

    def with_slots(self, slots, states, numbers=None):
        """Other submirrors; their slot numbers are `numbers`, or the
        current ones when the names stay the same, else unknown."""
        if numbers is None:
            numbers = self.numbers if tuple(slots) == self.slots else ()
        return replace(self, slots=tuple(slots), states=tuple(states),
                       numbers=tuple(numbers))


@dataclass(frozen=True)
class StripeView:
    name: str
    size_blocks: int
    components: Tuple[str, ...]
    parent: Optional[str] = None
    component_states: Tuple[str, ...] = ()
    # The Start Block metastat shows for the first component (row 0,
    # component 0); > 0 when a replica sits on its slice.
    first_start: Optional[int] = None


@dataclass(frozen=True)
class Snapshot:
    mirror_name: str
    mirror: Optional[MirrorView]
    # The stripes that matter: the mirror's submirrors and the RAM one.
    stripes: Dict[str, StripeView] = field(default_factory=dict)
    metadevices: FrozenSet[str] = frozenset()   # every name in use
    other_types: Dict[str, str] = field(default_factory=dict)  # name -> type
    ramdisks: Dict[str, int] = field(default_factory=dict)     # name -> bytes
    ramdisk_devs: Dict[str, str] = field(default_factory=dict)  # "maj,min"
    # "dsk/cNtNdNsN" or "rdsk/cNtNdNsN" -> the link's target
    links: Dict[str, str] = field(default_factory=dict)
    used_controllers: FrozenSet[int] = frozenset()
    mounted_on: Optional[str] = None
    # Metadevices built on the mirror (soft partitions, trans, another
    # mirror): SVM will not clear it while they exist.
    users: Tuple[str, ...] = ()
    has_replicas: bool = True
    stale_replicas: bool = False    # metastat's stale-database banner
    # Who has the mirror open, as fuser says ("process 123", "kernel
    # module zfs"); () also when not asked (observe(holders=True) asks),
    # None when fuser could not tell.
    holders: Optional[Tuple[str, ...]] = ()
    record: Optional[Dict[str, str]] = None     # the SMF record, if any
    # The SMF instance's state ("online", "disabled"...), None without one.
    # An instance that is not enabled holds an unfinished record.
    service_state: Optional[str] = None
    physmem_bytes: int = 0
    freemem_bytes: int = 0
    # kstat's availrmem (bytes), the page size, the boot time (seconds
    # since the epoch; None when not read), and the ramdisk.conf files
    # the driver reads, in its order: (path, text, mtime).
    availrmem_bytes: int = 0
    page_bytes: int = 4096
    boot_time: Optional[int] = None
    ramdisk_confs: Tuple[Tuple[str, str, float], ...] = ()
    # svc:/system/svmram exists (its manifest was imported); setup records
    # the mirror there at its last step.
    service_imported: bool = True
    # Where an administrator sets the ramdisk driver's percent_physmem:
    # Solaris 11 keeps edited driver settings in /etc/driver/drv.
    ramdisk_conf: str = "/kernel/drv/ramdisk.conf"
    # SVM services metastat named as not online in SMF (it exits 1 after
    # printing everything, meta_smf.c); () when all are online.
    services_not_online: Tuple[str, ...] = ()
    # Whether metadetach moves the submirrors above the detached one down
    # a slot (illumos) or leaves a hole (the 2006 code): True, False, or
    # None when not known; and how svmram knows it.
    detach_compacts: Optional[bool] = None
    slot_evidence: str = ""
    # Per disk submirror: labeled (its first component is a slice that
    # starts at sector 0 and holds no replica), not, or None when svmram
    # could not tell; with the reason for each.  {} when not asked.
    labels: Dict[str, Optional[bool]] = field(default_factory=dict)
    label_evidence: Dict[str, str] = field(default_factory=dict)
    # A planner's model only: an earlier step of the plan recreated the
    # mirror with the RAM submirror (the copy method), which made it
    # labeled, so the RAM submirror can be detached and attached again.
    # metastat shows no label flag: an observed Snapshot says False.
    labeled_by_ram: bool = False

    def evolve(self, **changes):
        return replace(self, **changes)


def _numbers(view):
    return ", ".join("%s in %d" % pair for pair in zip(view.slots,
                                                      view.numbers))


def _compacted(expected, observed):
    return sum(observed.numbers) < sum(expected.numbers)


def differences(expected, observed):
    """What in `observed` breaks the promise `expected` makes; [] if none.

    A state promised as Resyncing may already be Okay (the resync was
    quick), and so may one promised as Resync cancelled: the resync ended
    before 'metasync -c' came, which then cancels nothing
    (mirror_resync.c mirror_ioctl_resync returns 0 for MD_RI_KILL without
    an active resync), as after a teardown right behind a restore.  Every
    other field must match exactly.  The mirror's size must never change.
    """
    problems = []
    exp, obs = expected.mirror, observed.mirror
    name = expected.mirror_name
    if (exp is None) != (obs is None):
        problems.append("%s %s" % (name, "still exists" if exp is None
                                   else "does not exist"))
    elif exp is not None:
        if obs.slots != exp.slots:
            problems.append("%s has submirrors %s in that order, expected %s"
                            % (name, " ".join(obs.slots), " ".join(exp.slots)))
        elif exp.numbers and obs.numbers and exp.numbers != obs.numbers:
            problems.append("%s has its submirrors in slots %s, expected %s "
                            "(metadetach %s the slots on this host)" % (
                                name, _numbers(obs), _numbers(exp),
                                "compacts" if _compacted(exp, obs)
                                else "does not compact"))
        else:
            for sub, want, got in zip(exp.slots, exp.states, obs.states):
                if got != want and not (want in (RESYNCING, CANCELLED) and
                                        got == OKAY):
                    problems.append("%s is %s, expected %s" % (sub, got, want))
        if obs.read_option != exp.read_option:
            problems.append("%s has read option %s, expected %s"
                            % (name, obs.read_option, exp.read_option))
        if obs.size_blocks != exp.size_blocks:
            problems.append("%s is %d blocks, expected %d" % (
                name, obs.size_blocks, exp.size_blocks))
    for stripe in sorted(set(expected.stripes) | set(observed.stripes)):
        want = expected.stripes.get(stripe)
        got = observed.stripes.get(stripe)
        if want is None and got is not None:
            problems.append("%s exists, expected it gone" % stripe)
        elif want is not None and got is None:
            problems.append("%s does not exist" % stripe)
        elif want is not None and got.parent != want.parent:
            problems.append("%s is %s, expected %s" % (
                stripe, "in " + got.parent if got.parent else "not in a mirror",
                "in " + want.parent if want.parent else "not in a mirror"))
        elif want is not None and want.component_states and \
                got.component_states:
            for comp, wanted, found in zip(got.components,
                                           want.component_states,
                                           got.component_states):
                if found != wanted and not (wanted == RESYNCING and
                                            found == OKAY):
                    problems.append("component %s of %s is %s, expected %s"
                                    % (comp, stripe, found, wanted))
    for ramdisk in sorted(set(expected.ramdisks) ^ set(observed.ramdisks)):
        problems.append("ramdisk %s %s" % (ramdisk, "is missing"
                        if ramdisk in expected.ramdisks else "still exists"))
    for link in sorted(set(expected.links) | set(observed.links)):
        if expected.links.get(link) != observed.links.get(link):
            problems.append("link %s points to %s, expected %s" % (
                link, observed.links.get(link, "nothing"),
                expected.links.get(link, "nothing")))
    if (expected.record is None) != (observed.record is None):
        problems.append("the SMF record %s" % (
            "is missing" if observed.record is None else "still exists"))
    return problems
