# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The SVM host access: reads the host into a Snapshot and performs steps.

All commands go through run.py; file-system work (the /dev links,
/etc/mnttab) happens under the root SVMRAM_ROOT names ("/" on a real
host, the emulator's fake root in tests).  Unexpected output from SVM is
refused, never guessed at.
"""

import os
import posixpath
import re
from types import MappingProxyType

from .. import actions, journal
from ..run import CommandError
from ..errors import ParseError, RefusedError, SvmramError
from ..backend import Host
from ..execute import ResyncStatus
from . import (labels, listings, metastat, metastat_p, names, probe,
               programs, smf as smf_access)
from .snapshot import MirrorView, Snapshot, StripeView, differences

PAGE_KSTATS = ("unix:0:system_pages:physmem", "unix:0:system_pages:freemem",
               "unix:0:system_pages:availrmem")
BOOT_KSTAT = "unix:0:system_misc:boot_time"
# The ramdisk driver's configuration, in the order it is read: Oracle
# Solaris 11 merges /etc/driver/drv's over /kernel/drv's (driver.conf(5)).
RAMDISK_CONFS = ("/kernel/drv/ramdisk.conf", "/etc/driver/drv/ramdisk.conf")
_CONTROLLER = re.compile(r"c([0-9]+)")
_NO_DATABASE = "there are no existing databases"


# The parts of a Snapshot observe() reads with commands, by the commands
# that read them: "svm" (metastat -p and metastat MIRROR), "ramdisks"
# (ramdiskadm), "smf" (svcs and svcprop: the record).
PARTS = ("svm", "ramdisks", "smf")
# What a step's command can change of them.  SVM's commands change the
# metadevices (dd opens the mirror, which SVM's first-open rule acts on);
# ramdiskadm the ramdisks; svccfg and svcadm the record and the instance.
# The commands that only read change nothing.  Any other command or
# action: everything is read again.
CHANGES = MappingProxyType(dict(
    [(prog, ("svm",)) for prog in (
        "metainit", "metattach", "metadetach", "metaclear", "metaparam",
        "metareplace", "metasync", "metaoffline", "metaonline", "metadb",
        "dd")] +
    [("ramdiskadm", ("ramdisks",)), ("svccfg", ("smf",)),
     ("svcadm", ("smf",))] +
    [(prog, ()) for prog in ("metastat", "kstat", "prtvtoc", "fuser",
                             "cmp")]))
# Actions that run no command and change nothing observe() reads with one
# (the /dev links are files, read again every time).
_NO_COMMAND = (actions.Symlink, actions.RemoveLink, actions.DeviceNumber)


def step_parts(step):
    """The parts of the Snapshot `step`'s actions can change; a step that
    waits for a resync sees SVM change while it waits."""
    found = {"svm"} if step.wait_resync else set()
    for action in step.do:
        if isinstance(action, actions.Run):
            found.update(CHANGES.get(action.argv[0], PARTS))
        elif isinstance(action, smf_access.CommandFile):
            found.add("smf")
        elif not isinstance(action, _NO_COMMAND):
            return PARTS
    return tuple(part for part in PARTS if part in found)


class SvmHost(Host):
    """One mirror on the host (backend.Host): what execute.py and the
    SVM planners' callers read and change."""

    def __init__(self, mirror, root="/", runner=programs.run_command):
        self.mirror = mirror
        self.root = root
        self._run = runner
        self.smf = smf_access.Smf(runner)      # every SMF access: smf.py
        # SVM services metastat last named as not online in SMF.
        self.services_not_online = ()
        # The last resync poll's `metastat MIRROR`, parsed, when it found
        # the resync over: the check after the step takes it as its
        # reading of the mirror (it was read after the step, and nothing
        # ran since); perform() and the next observe() drop it.
        self._polled = None

    # --- reading the host ---------------------------------------------

    def observe(self, intent=None, memory=False, smf=None, holders=False,
                labels=False, slot_probe=None, keep=None, parts=PARTS):
        """The host as a Snapshot, with the stripes and links `intent`
        names (svm.intent.Intent; None: the mirror's own).  memory=True
        reads kstat's memory figures; smf=(record, service_state) saves
        reading them again when the caller has just done so; holders=True
        asks fuser who has the mirror open (for choosing a method);
        labels=True asks prtvtoc whether the disk submirrors are labeled;
        slot_probe=(compacts, evidence) is what a test on a scratch mirror
        showed (svm/probe.py test_slots), which a hole in the slots
        overrides.  `keep`: a Snapshot read earlier (with the same intent)
        whose commands' parts not in `parts` ("svm": the two metastat,
        "ramdisks": ramdiskadm, "smf": svcs and svcprop) are taken as they
        are, where nothing since can have changed them (observe_after); the
        files (links, mnttab, /etc/release) are always read again."""
        self.services_not_online = ()
        fresh = keep is None or not keep.has_replicas
        if fresh or "svm" in parts:
            config = self._config()
            if config is None:
                # ramdiskadm still answers: a ramdisk outlives the replicas.
                self._polled = None
                ramdisks, devs = self._ramdisks()
                return Snapshot(self.mirror, None, has_replicas=False,
                                ramdisks=ramdisks, ramdisk_devs=devs)
            device = config.get(self.mirror)
            mirror_view, stripes = None, {}
            if device is not None and device.type == "mirror":
                mirror_view, stripes = self._mirror_state()
            for name in self._stripes_of_interest(mirror_view, intent):
                if name not in stripes and config.get(name) is not None \
                        and config.get(name).type == "stripe":
                    stripe = config.get(name)
                    stripes[name] = StripeView(
                        name, 0, tuple(c.device for c in stripe.components()),
                        stripe.parent)
            svm = dict(
                mirror=mirror_view, stripes=stripes,
                metadevices=frozenset(d.name for d in config.devices),
                other_types={d.name: _type_name(d) for d in config.devices
                             if d.type != "mirror"},
                users=tuple(sorted(config.users().get(self.mirror, ()))),
                stale_replicas=config.stale_replicas)
            down = self.services_not_online
        else:
            mirror_view = keep.mirror
            svm = dict(mirror=keep.mirror, stripes=dict(keep.stripes),
                       metadevices=keep.metadevices,
                       other_types=dict(keep.other_types), users=keep.users,
                       stale_replicas=keep.stale_replicas)
            down = keep.services_not_online
        if fresh or "ramdisks" in parts:
            ramdisks, devs = self._ramdisks()
        else:
            ramdisks, devs = dict(keep.ramdisks), dict(keep.ramdisk_devs)
        snap = Snapshot(
            mirror_name=self.mirror, ramdisks=ramdisks, ramdisk_devs=devs,
            links=self._links(intent), used_controllers=self._controllers(),
            mounted_on=self._mount_point(), **svm)
        if smf is None and not fresh and "smf" not in parts:
            smf = (keep.record, keep.service_state)
        if smf is None:
            service_state = self.service_state()
            smf = (self.record_properties() if service_state else None,
                   service_state)
        if smf[1] is not None:
            snap = snap.evolve(record=smf[0], service_state=smf[1])
        if holders and mirror_view is not None:
            snap = snap.evolve(holders=self._holders())
        compacts, evidence = self._slot_behaviour(mirror_view, slot_probe)
        snap = snap.evolve(detach_compacts=compacts, slot_evidence=evidence)
        if labels and mirror_view is not None:
            snap = self._labels(snap)
        if memory:
            snap = self.with_memory(snap)
        self._polled = None
        return snap.evolve(services_not_online=down)

    def with_memory(self, snap):
        """`snap` with kstat's memory figures and the ramdisk.conf files
        (what sizing.MemoryCap reads)."""
        snap = snap.evolve(**self._memory())
        if os.path.isdir(actions.under(self.root, "/etc/driver/drv")):
            snap = snap.evolve(ramdisk_conf="/etc/driver/drv/ramdisk.conf")
        return snap

    def observe_after(self, step, intent, before):
        """The reading `step`'s promise is checked against (execute.py):
        what its actions can change is read again (step_parts), the rest
        taken from `before`, the reading the last step was checked
        against, itself taken after that step.  The host lock keeps every
        other run of svmram out meanwhile."""
        if before is None:
            return self.observe(intent)
        return self.observe(intent, keep=before, parts=step_parts(step))

    def _metastat(self, args):
        """Run metastat.  Its exit 1 whose stderr is only the SMF check's
        message (core SVM services not online: at boot before inetd starts
        rpc/meta, or on a host that disables them) still printed everything:
        the result counts as ok and the services are noted.  Returns
        (result, ok)."""
        result = self._run("metastat", args, check=False)
        if result.ok:
            return result, True
        down = metastat.smf_not_online(result.stderr) \
            if result.returncode == 1 else None
        if down is None:
            return result, False
        self.services_not_online = down
        return result, True

    def _config(self):
        result, ok = self._metastat(["-p"])
        if not ok:
            if _NO_DATABASE in result.stderr:
                return None
            raise SvmramError("metastat -p failed: %s" % _first_line(result),
                              advice="Check SVM with metastat and svcs -x "
                                     "metainit metasync.")
        return metastat_p.parse(result.stdout)

    def _mirror_state(self):
        if self._polled is not None:
            polled, self._polled = self._polled, None
            return polled
        result, ok = self._metastat([self.mirror])
        if not ok:
            raise CommandError(result)
        return self._mirror_view(metastat.parse(result.stdout),
                                 "metastat %s" % self.mirror)

    def _mirror_view(self, config, source):
        """(MirrorView, {name: StripeView}) of self.mirror from parsed
        `metastat` output that names it (`source`)."""
        mirror = config.get(self.mirror)
        if mirror is None or mirror.type != "mirror" or \
                mirror.submirror_states is None or mirror.size_blocks is None:
            raise ParseError("no mirror section for %s" % self.mirror,
                             source=source)
        stripes, pending, offline = {}, False, []
        for name in mirror.submirrors:
            sub = config.get(name)
            if sub is None or sub.type != "stripe":
                raise RefusedError(
                    "submirror %s of %s is not a concat/stripe" % (
                        name, self.mirror),
                    advice="svmram only handles mirrors of concats/stripes.")
            pending = pending or (sub.invoke or "").startswith("metasync")
            if (sub.invoke or "").startswith("metaonline"):
                offline.append(name)
            components = sub.components()
            stripes[name] = StripeView(
                name, sub.size_blocks or 0,
                tuple(c.device for c in components), self.mirror,
                tuple(c.state for c in components),
                components[0].start_block if components else None)
        view = MirrorView(
            self.mirror, tuple(mirror.submirrors),
            tuple(mirror.submirror_states), mirror.read_option,
            mirror.write_option, mirror.pass_num, mirror.size_blocks,
            mirror.resync, mirror.resync_percent,
            pending and mirror.resync != "active", tuple(offline),
            numbers=tuple(mirror.slots or ()))
        return view, stripes

    # --- slots and labels ------------------------------------------------

    def _slot_behaviour(self, mirror_view, slot_probe):
        """(detach_compacts, evidence): a hole in the mirror's slots
        proves a metadetach that does not compact; a probe's result comes
        next; an illumos /etc/release means illumos-gate's SVM, which
        compacts; otherwise (Solaris) unknown until probed."""
        if mirror_view is not None and labels.has_hole(mirror_view.numbers):
            return False, ("metastat shows a hole in the slots of %s (%s), "
                           "which only a metadetach that does not compact "
                           "leaves" % (self.mirror, ", ".join(
                               "%s in %d" % pair for pair in zip(
                                   mirror_view.slots, mirror_view.numbers))))
        if slot_probe is not None:
            return slot_probe
        try:
            with open(actions.under(self.root, "/etc/release"),
                      encoding="utf-8", errors="replace") as stream:
                release = stream.read(4096)
        except OSError:
            release = ""
        if labels.release_compacts(release):
            return True, ("/etc/release names an illumos distribution, and "
                          "illumos-gate's mirror_detach compacts")
        return None, ("/etc/release names %s, where it is not known" % (
            release.strip().splitlines()[0].strip() if release.strip()
            else "no release"))

    def _labels(self, snap):
        found, why = {}, {}
        for name in snap.mirror.slots:
            view = snap.stripes.get(name)
            if view is None or not view.components:
                continue
            component = view.components[0]
            text = None
            where = labels.slice_of(component)
            if where is not None:
                try:
                    result = self._run("prtvtoc", [
                        "-h", "/dev/rdsk/%ss%d" % where], check=False)
                    text = result.stdout if result.ok else None
                except SvmramError:
                    text = None
            found[name], why[name] = labels.stripe_label(
                component, view.first_start, text)
        return snap.evolve(labels=found, label_evidence=why)

    # --- the scratch mirror of the slot test (svm/probe.py) ---------------

    def scratch(self):
        """(leftovers, layout), from one metastat -p: what an earlier test
        of the slot behaviour left (probe.Leftovers), and when it left
        nothing the names a test would use now (else None: they are read
        again once the leftovers are gone)."""
        config = self._config()
        ramdisks, links = self._ramdisks()[0], self._links(None)
        claimed = self.claimed_ramdisks(ramdisks, links)
        found = probe.leftovers(config, ramdisks, links, claimed)
        return found, (None if found else probe.layout(
            _names(config), self._controllers(), claimed))

    def scratch_layout(self):
        """The names a test of the slot behaviour would use now."""
        ramdisks, links = self._ramdisks()[0], self._links(None)
        return probe.layout(_names(self._config()), self._controllers(),
                            self.claimed_ramdisks(ramdisks, links))

    def claimed_ramdisks(self, ramdisks, links):
        """The ramdisks with a scratch name (svmram_probeN) that a record
        or journal of svmram's names: an older svmram accepted such a
        --name, and its record wins over the name rules.  Read only when
        one of `ramdisks` or a link of `links` has such a name."""
        if not any(names.is_scratch_ramdisk(name) for name in list(
                ramdisks) + [posixpath.basename(t) for t in links.values()]):
            return frozenset()
        try:
            recorded = [props.get("ramdisk") for props in
                        self.smf.records().values()]
        except (ParseError, SvmramError):
            recorded = []       # none claimed: the names rules decide
        recorded += [intent.get("ramdisk") for intent in
                     journal.stored_intents(actions.under(
                         self.root, journal.DIRECTORY))]
        return frozenset(name for name in recorded
                         if isinstance(name, str) and
                         names.is_scratch_ramdisk(name))

    def scratch_leftovers(self, linked=False):
        """What an earlier test of the slot behaviour left; with
        linked=True none unless links to its ramdisks are there (they
        would push the RAM submirror's link onto another controller),
        which costs no command."""
        links = self._links(None)
        if linked and not any(
                names.is_scratch_ramdisk(posixpath.basename(target))
                for target in links.values()):
            return probe.Leftovers()
        ramdisks = self._ramdisks()[0]
        return probe.leftovers(self._config(), ramdisks, links,
                               self.claimed_ramdisks(ramdisks, links))

    @staticmethod
    def _stripes_of_interest(mirror_view, intent):
        names = set(mirror_view.slots if mirror_view else ())
        if intent is not None:
            names |= set(intent.order)
        return sorted(names)

    def _ramdisks(self):
        result = self._run("ramdiskadm", [])
        ramdisks, devs = {}, {}
        for disk in listings.parse_ramdiskadm(result.stdout):
            ramdisks[disk.name] = disk.size_bytes
            try:
                rdev = os.stat(actions.under(self.root, disk.device)).st_rdev
                devs[disk.name] = "%d,%d" % (os.major(rdev), os.minor(rdev))
            except OSError:
                pass
        return ramdisks, devs

    def _links(self, intent):
        """Links in /dev/dsk and /dev/rdsk that point at ramdisks, plus
        whatever the intent's link names point at."""
        links = {}
        wanted = {intent.link} if intent else set()
        for kind in ("dsk", "rdsk"):
            directory = actions.under(self.root, "/dev/" + kind)
            for name in _listdir(directory):
                path = os.path.join(directory, name)
                if not os.path.islink(path):
                    continue
                target = os.readlink(path)
                if name in wanted or target.startswith(
                        ("/dev/ramdisk/", "/dev/rramdisk/")):
                    links["%s/%s" % (kind, name)] = target
        return links

    def _controllers(self):
        used = set()
        for kind in ("dsk", "rdsk"):
            for name in _listdir(actions.under(self.root, "/dev/" + kind)):
                match = _CONTROLLER.match(name)
                if match:
                    used.add(int(match.group(1)))
        return frozenset(used)

    def _mount_point(self):
        try:
            with open(actions.under(self.root, "/etc/mnttab"),
                      encoding="utf-8") as mnttab:
                return listings.mount_point(mnttab.read(), self.mirror)
        except FileNotFoundError:
            return None

    def _holders(self):
        """Who has the mirror open through either device node, by fuser;
        None when fuser could not tell."""
        found = []
        for kind in ("dsk", "rdsk"):
            path = "/dev/md/%s/%s" % (kind, self.mirror)
            try:
                result = self._run("fuser", [path], check=False)
            except SvmramError:          # no fuser: cannot tell
                return None
            if not result.ok:
                return None
            found += listings.parse_fuser(path, result.stdout, result.stderr)
        return tuple(sorted(set(found)))

    def _memory(self):
        """kstat's memory figures and boot time, and ramdisk.conf: the
        Snapshot fields sizing.MemoryCap reads."""
        wanted = PAGE_KSTATS + (BOOT_KSTAT,)
        result = self._run("kstat", ["-p"] + list(wanted))
        values = {}
        for lineno, line in enumerate(result.stdout.splitlines(), 1):
            name, _, value = line.partition("\t")
            if name not in wanted or not names.is_number(value.strip()):
                raise ParseError("unexpected line", lineno, line, "kstat")
            values[name] = int(value)
        if any(name not in values for name in PAGE_KSTATS):
            raise ParseError("missing statistics", source="kstat")
        page = os.sysconf("SC_PAGESIZE")
        physmem, freemem, availrmem = (values[name] * page
                                       for name in PAGE_KSTATS)
        return dict(physmem_bytes=physmem, freemem_bytes=freemem,
                    availrmem_bytes=availrmem, page_bytes=page,
                    boot_time=values.get(BOOT_KSTAT),
                    ramdisk_confs=self._ramdisk_confs())

    def _ramdisk_confs(self):
        found = []
        for path in RAMDISK_CONFS:
            full = actions.under(self.root, path)
            try:
                with open(full, encoding="utf-8", errors="replace") as f:
                    found.append((path, f.read(), os.stat(full).st_mtime))
            except FileNotFoundError:
                continue
            except OSError as e:
                raise RefusedError("cannot read %s: %s" % (
                    path, e.strerror or e), advice="Check the file.")
        return tuple(found)

    def read_record(self):
        """The record's properties; {} for an instance without them (an
        interrupted setup); None when there is no instance."""
        if self.service_state() is None:
            return None
        return self.record_properties()

    def record_properties(self):
        return self.smf.record(self.mirror)

    def service_imported(self):
        """Does svc:/system/svmram exist?  Its manifest must be imported
        for setup to record a mirror."""
        return self.smf.imported()

    def boot_service_state(self):
        return self.service_state()

    def service_state(self):
        """The state of svc:/system/svmram:MIRROR, None if it does not
        exist."""
        return self.smf.state(self.mirror)

    def run_afterwards(self, argv):
        """One of a plan's `afterwards` commands: enabling the boot
        service (smf.py)."""
        return self.smf.enable(argv)

    def mirror_names(self):
        """(every mirror of the local set, sorted; whether the replicas
        are stale), or (None, False) without replicas."""
        config = self._config()
        if config is None:
            return None, False
        return (sorted(d.name for d in config.devices if d.type == "mirror"),
                config.stale_replicas)

    # --- the executor's interface -------------------------------------

    def differences(self, expected, observed):
        return differences(expected, observed)

    def resync_status(self, mirror):
        self._polled = None
        view, stripes = self._mirror_state()
        if view.resync == "active":
            return ResyncStatus(True, view.resync_percent)
        if view.resync == "cancelled":
            return ResyncStatus(False, problem=(
                "the resync of %s was cancelled; metasync %s restarts it"
                % (mirror, mirror)))
        if view.pending:
            return ResyncStatus(True, None)
        # Over.  A submirror it left in another state than the step
        # promised is reported by the check after the step; one that was
        # never part of it (a RAM submirror whose ramdisk vanished at a
        # boot) must not stop the wait.  That check takes this reading.
        if mirror == self.mirror:
            self._polled = (view, stripes)
        return ResyncStatus(False)

    def perform(self, step, values):
        self._polled = None
        actions.perform(step, actions.Context(self.root, self._run, values))


def _type_name(device):
    return {"stripe": "concat/stripe", "softpart": "soft partition",
            "raid5": "RAID-5 metadevice", "trans": "trans metadevice",
            "hsp": "hot spare pool"}.get(device.type, device.type)


def _first_line(result):
    text = (result.stderr.strip() or result.stdout.strip()).splitlines()
    return text[0] if text else "exit status %d" % result.returncode


def _listdir(directory):
    try:
        return sorted(os.listdir(directory))
    except FileNotFoundError:
        return []


# --- reading the host once for many mirrors (status) ------------------------

class HostReading:
    """The host read once for every mirror `status` reports on: one svcs,
    one svcprop, one `metastat -p`, one `metastat` naming all the mirrors,
    one ramdiskadm and one scan of /dev/dsk and /dev/rdsk, however many
    mirrors there are.  Each is read the first time a mirror needs it;
    backend(mirror) gives an SvmHost whose observe() takes them from
    here and returns the Snapshot it would have read on its own."""

    def __init__(self, root="/", runner=programs.run_command):
        self.root = root
        self.runner = runner
        self.mirrors = ()       # the mirrors the one `metastat` names
        self._reader = SvmHost(None, root, runner=runner)
        self.smf = self._reader.smf
        self._done = {}

    def host(self, mirror):
        return SharedHost(mirror, self)

    def _once(self, key, read):
        if key not in self._done:
            self._done[key] = read()
        return self._done[key]

    def services(self, mirror=None):
        """{instance: state} of svc:/system/svmram's instances (or of the
        one of `mirror`), from `svcs -H -o inst,state`."""
        return self.smf.states(mirror)

    def records(self, mirror=None):
        """{instance: {property: value}}, the property group svmram of
        every instance (or of the one of `mirror`), from one `svcprop -f`
        (an instance without the group is left out, as
        record_properties() gives {} for it)."""
        return self.smf.records(mirror)

    def blockers(self, mirror):
        """The dependencies that keep `mirror`'s instance from ever
        starting (smf.Smf.blockers); read only for an instance that is
        offline."""
        return self.smf.blockers(mirror)

    def config(self):
        """(`metastat -p` parsed, or None without replicas; the SVM
        services metastat named as not online)."""
        def read():
            self._reader.services_not_online = ()
            config = self._reader._config()
            return config, self._reader.services_not_online
        return self._once("config", read)

    def report(self):
        """(plain `metastat` of every mirror in self.mirrors that
        `metastat -p` shows, parsed; the names; services not online)."""
        def read():
            config = self.config()[0]
            names = [m for m in self.mirrors if config is not None and
                     config.get(m) is not None and
                     config.get(m).type == "mirror"]
            if not names:
                return None, names, ()
            self._reader.services_not_online = ()
            result, ok = self._reader._metastat(names)
            if not ok:
                raise CommandError(result)
            return (metastat.parse(result.stdout), names,
                    self._reader.services_not_online)
        return self._once("report", read)

    def ramdisks(self):
        ramdisks, devs = self._once("ramdisks", self._reader._ramdisks)
        return dict(ramdisks), dict(devs)

    def controllers(self):
        return self._once("controllers", self._reader._controllers)

    def dev_links(self):
        """{(kind, name): target} of every symbolic link in /dev/dsk and
        /dev/rdsk."""
        def read():
            links = {}
            for kind in ("dsk", "rdsk"):
                directory = actions.under(self.root, "/dev/" + kind)
                for name in _listdir(directory):
                    path = os.path.join(directory, name)
                    if os.path.islink(path):
                        links[(kind, name)] = os.readlink(path)
            return links
        return self._once("links", read)


class SharedHost(SvmHost):
    """An SvmHost for one mirror that reads through a HostReading."""

    def __init__(self, mirror, shared):
        super().__init__(mirror, shared.root, shared.runner)
        self.shared = shared

    def _config(self):
        config, down = self.shared.config()
        self.services_not_online = down
        return config

    def _mirror_state(self):
        parsed, names, down = self.shared.report()
        if self.mirror not in names:
            return super()._mirror_state()
        if down:
            self.services_not_online = down
        return self._mirror_view(parsed, "metastat %s" % " ".join(names))

    def _ramdisks(self):
        return self.shared.ramdisks()

    def _controllers(self):
        return self.shared.controllers()

    def _links(self, intent):
        wanted = {intent.link} if intent else set()
        return {"%s/%s" % key: target
                for key, target in self.shared.dev_links().items()
                if key[1] in wanted or target.startswith(
                    ("/dev/ramdisk/", "/dev/rramdisk/"))}


def _names(config):
    """The metadevice names in use: metastat -p's, none without replicas."""
    return set(d.name for d in config.devices) if config else set()
