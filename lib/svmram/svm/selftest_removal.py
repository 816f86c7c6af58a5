# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The removal of what a selftest's journal (svm/selftest_journal.py)
lists, and of nothing else: a name in the journal proves nothing, since
the administrator or svmram may have taken it since.  Each part is
removed only on this proof, built from what survives a reboot (the lofi
mappings do not: lofi.c keeps them in its soft state only):

- the working directory: the journal's device and inode, a directory, no
  link, the running user's (it is made by mkdtemp, mode 0700, so nothing
  in it is another user's);
- a file: in that directory, a regular file, the journal's device and
  inode;
- a lofi device: `lofiadm FILE` maps one of those files;
  after a reboot, each file whose device a stripe proven the
  selftest's still uses is mapped again at that device (lofiadm -a FILE
  DEVICE) once nothing is at its name, so that SVM finds its components;
- a link: a symbolic link whose target is the one the journal recorded
  before making it, and that target is a lofi device the journal
  recorded for one of its own files and either unmapped (a reboot) or
  mapping that file still; the dangling-link check's link, whose target
  must not exist;
- a stripe: in the journal, its every component such a link;
- the scratch mirror: in the journal, every submirror such a stripe or a
  RAM submirror (a stripe on a link to /dev/ramdisk/..., which svmram's
  setup adds), one at least such a stripe; svmram's teardown runs only
  for that mirror, or, between swap's metaclear and metainit, for a
  mirror svmram's journal recreates from such stripes;
- a ramdisk: the cap check's, a name svmram gives no other ramdisk.

What exists but fails its proof is left alone and named ("spared"); what
passes it but cannot be removed is named with the command to finish
("left", the journal then stays for the next run)."""

import json
import os
import posixpath
import stat

from .. import actions
from ..errors import ParseError, RefusedError
from ..journal import DIRECTORY as JOURNAL_DIRECTORY
from . import listings, metastat, metastat_p, selftest_directory
from .selftest_journal import JOURNAL, Journal
from .programs import run_command

RAM_LINK_TARGET = "/dev/ramdisk/"
# The cap check's ramdisk (svm/selftest.py CAP_RAMDISK): svmram's setup
# names ramdisks after their mirror, never so.
SELFTEST_RAMDISKS = "svmram_selftest_"


class Runner:
    """Runs the host's commands (through run.py) and svmram's own
    subcommands (`svmram`, given by the caller), under `root`."""

    def __init__(self, root, svmram):
        self.root = root
        self.svmram = svmram

    def run(self, name, args):
        result = run_command(name, list(args), check=False)
        return result.returncode, result.stdout, result.stderr

    def under(self, path):
        return actions.under(self.root, path)


class Removal:
    """One removal of the journal data `data` (see the module)."""

    def __init__(self, runner, data, poll):
        self.run_ = runner
        self.data = data
        self.poll = poll
        self.left = []          # the selftest's, not removed: what to type
        self.spared = []        # not provably the selftest's: left alone
        self.config = None
        self._lofi = None

    # --- the proofs --------------------------------------------------------

    def directory_is_own(self):
        directory = self.data.get("directory")
        return bool(directory) and selftest_directory.is_own(
            self.run_.under(directory), self.data.get("directory_id"))

    def file_is_own(self, path):
        directory = self.data.get("directory")
        if not self.directory_is_own() or \
                posixpath.dirname(path) != directory:
            return False
        try:
            status = os.lstat(self.run_.under(path))
        except OSError:
            return False
        recorded = self.data["file_ids"].get(path)
        if recorded is None:
            # Killed between mkfile and the record: only root can make a
            # file in the mode 0700 directory, and only the selftest does.
            return stat.S_ISREG(status.st_mode) and status.st_nlink == 1
        return stat.S_ISREG(status.st_mode) and \
            [status.st_dev, status.st_ino] == list(recorded)

    def lofi_devices(self):
        """{/dev/lofi/N: file} of the journal's own files mapped now."""
        if self._lofi is None:
            self._lofi = {}
            for path in self.data["files"]:
                if not self.file_is_own(path):
                    continue
                code, out, _ = self.run_.run("lofiadm", [path])
                if code == 0 and out.startswith("/dev/lofi/"):
                    self._lofi[out.strip()] = path
        return self._lofi

    def _target_is_own_lofi(self, target):
        device = target.replace("/dev/rlofi/", "/dev/lofi/")
        path = self.data["lofi"].get(device)
        if path is None or not self.file_is_own(path):
            return False
        mapped = self.lofi_devices()
        if device in mapped:
            return mapped[device] == path
        # Unmapped (after a reboot, or removed): nothing else may be at
        # that name now.
        return not os.path.lexists(self.run_.under(device))

    def _link_target(self, entry):
        """The link's target if it is the one the journal recorded for
        it, else None."""
        recorded = self.data["link_targets"].get(entry)
        path = self.run_.under("/dev/" + entry)
        try:
            if recorded is None or \
                    not stat.S_ISLNK(os.lstat(path).st_mode):
                return None
            target = os.readlink(path)
        except OSError:
            return None
        return target if target == recorded else None

    def link_is_own(self, entry):
        """Made by the selftest, and at one of its lofi devices (or at
        nothing)."""
        target = self._link_target(entry)
        return target is not None and (
            self._target_is_own_lofi(target) or
            not os.path.lexists(self.run_.under(target)))

    def _component_is_own(self, device):
        entry = "dsk/" + posixpath.basename(device)
        return entry in self.data["links"] and self.link_is_own(entry)

    def stripe_is_own(self, unit):
        device = self.config.get(unit) if self.config else None
        if unit not in self.data["metadevices"] or device is None or \
                device.type != "stripe":
            return False
        components = list(device.components())
        return bool(components) and all(
            self._component_is_own(c.device) for c in components)

    def _is_ram_submirror(self, unit):
        device = self.config.get(unit) if self.config else None
        if device is None or device.type != "stripe":
            return False
        components = list(device.components())
        if len(components) != 1:
            return False
        name = posixpath.basename(components[0].device)
        try:
            target = os.readlink(self.run_.under("/dev/dsk/" + name))
        except OSError:
            return False
        return target.startswith(RAM_LINK_TARGET)

    def mirror_is_own(self, unit):
        device = self.config.get(unit) if self.config else None
        if unit not in self.data["metadevices"] or device is None or \
                device.type != "mirror":
            return False
        own = [sub for sub in device.submirrors if self.stripe_is_own(sub)]
        return bool(own) and all(
            sub in own or self._is_ram_submirror(sub)
            for sub in device.submirrors)

    def is_own(self, unit):
        return self.stripe_is_own(unit) or self.mirror_is_own(unit)

    # --- the removal -------------------------------------------------------

    def remove(self):
        """Everything, in the order that lets each part go: the scratch
        UFS, svmram's setup of the mirror, the metadevices, the links,
        the lofi devices, the files, the mount point, the directory, the
        cap check's ramdisk.  Returns (left, spared)."""
        self.config = self._read_config()
        self._map_again()
        self._unmount()
        self._teardown()
        self.config = self._read_config()
        self._metadevices()
        self._links()
        mapped = self._unmap()
        self._files(mapped)
        self._directories()
        self._ramdisks()
        return self.left, self.spared

    def _map_again(self):
        """After a reboot: map each of the journal's own files again at
        the lofi device it had, while a stripe proven the selftest's is
        built on it, so that SVM finds its components and svmram's
        teardown and metaclear work as before the reboot (the device was
        proven free: nothing at its name)."""
        own = [u for u in self.data["metadevices"] if self.stripe_is_own(u)]
        if not own:
            return
        mapped = set(self.lofi_devices().values())
        for device, path in sorted(self.data["lofi"].items()):
            if path in mapped or not self._target_is_own_lofi(device):
                continue
            self._attempt("lofiadm", ["-a", path, device])
            self._lofi = None

    def _attempt(self, program, args):
        code, out, err = self.run_.run(program, args)
        if code != 0:
            self.left.append("%s (%s)" % (" ".join([program] + list(args)),
                                          (err or out).strip()))
        return code == 0

    def _read_config(self):
        code, out, _ = self.run_.run("metastat", ["-p"])
        if code != 0 and not out:
            return None
        try:
            return metastat_p.parse(out)
        except ParseError:
            return None

    def _unmount(self):
        """The scratch UFS first: a mounted mirror is open, and metaclear
        refuses it (mirror_reset: md_unit_isopen)."""
        points = [p for p in self.data["mount_points"]
                  if posixpath.dirname(p) == self.data.get("directory")]
        for unit in self.data["mounts"]:
            point = self._mount_point_of(unit)
            if point is None:
                continue
            if point in points and self.directory_is_own():
                self._attempt("umount", [point])
            else:
                self.spared.append(
                    "%s mounted on %s (not the selftest's mount point)"
                    % (unit, point))

    def _teardown(self):
        mirror = self.data.get("mirror")
        if not mirror or not self._svmram_owns(mirror):
            return
        if not (self.mirror_is_own(mirror) or
                self._recreated_from_own(mirror)):
            self.spared.append(
                "svmram's setup of %s (not the selftest's scratch mirror)"
                % mirror)
            return
        code, out, err = self.run_.svmram(["teardown", mirror, "-y"])
        if code != 0:
            self.left.append("svmram teardown %s (%s)" % (
                mirror, err.strip().splitlines()[0] if err.strip()
                else "exit status %d" % code))

    def _recreated_from_own(self, mirror):
        """Swap's setup killed between its metaclear and its metainit:
        no mirror, and svmram's journal recreates it from stripes that
        are the selftest's."""
        if self.config is None or self.config.get(mirror) is not None:
            return False
        try:
            with open(self.run_.under("%s/%s.journal" % (
                    JOURNAL_DIRECTORY, mirror)), encoding="utf-8") as stream:
                disks = json.load(stream)["intent"]["disks"]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return bool(disks) and all(self.stripe_is_own(d) for d in disks)

    def _metadevices(self):
        """The journal's metadevices proven its own, mirrors first (a
        mirror once its resync ended: SVM clears none while it runs)."""
        units = list(reversed(self.data["metadevices"]))
        own = [u for u in units if self.is_own(u)]
        for unit in units:
            if unit not in own and self.config is not None and \
                    self.config.get(unit) is not None:
                self.spared.append("%s (not built on the selftest's own "
                                   "links and lofi devices)" % unit)
        for unit in own:
            args = [unit]
            if self.config.get(unit).type == "mirror":
                states = self.wait_resync_end(unit)
                # After a reboot the lofi components are gone and the
                # submirrors erred: metaclear refuses a mirror whose
                # submirror is not Okay without -f (mirror_ioctl.c
                # mirror_reset, MDE_C_WITH_INVAL_SM).  It is the
                # selftest's own, on its own lofi files: it holds no data.
                if states and any(s != "Okay" for s in states):
                    args = ["-f", unit]
            self._attempt("metaclear", args)

    def _links(self):
        """Each link only while it is the selftest's (link_is_own) and no
        metadevice is built on it any more."""
        used = self._components_in_use()
        for entry in self.data["links"]:
            path = self.run_.under("/dev/" + entry)
            if not os.path.lexists(path):
                continue
            name = entry.split("/", 1)[1]
            if not self.link_is_own(entry):
                self.spared.append("/dev/%s (not the selftest's link, or "
                                   "no longer at its lofi device)" % entry)
            elif name in used:
                self.left.append("rm /dev/%s (metadevice %s is still built "
                                 "on it)" % (entry, used[name]))
            else:
                os.unlink(path)

    def _components_in_use(self):
        config = self._read_config()
        used = {}
        for device in (config.devices if config else ()):
            if device.type == "stripe":
                for c in device.components():
                    used[posixpath.basename(c.device)] = device.name
        return used

    def _unmap(self):
        """The lofi devices of the journal's own files; returns the files
        still mapped."""
        return [path for device, path in sorted(self.lofi_devices().items())
                if not self._attempt("lofiadm", ["-d", device])]

    def _files(self, mapped):
        for path in self.data["files"]:
            if not os.path.lexists(self.run_.under(path)):
                continue
            if not self.file_is_own(path):
                self.spared.append("%s (not a file the selftest made)"
                                   % path)
            elif path in mapped:
                self.left.append("rm %s" % path)
            else:
                os.unlink(self.run_.under(path))

    def _directories(self):
        directory = self.data.get("directory")
        if not directory:
            return
        own = self.directory_is_own()
        if not own:
            if os.path.lexists(self.run_.under(directory)):
                self.spared.append("%s (not the directory the selftest "
                                   "made)" % directory)
            return
        for point in self.data["mount_points"]:
            if posixpath.dirname(point) == directory:
                self._rmdir(point)
        self._rmdir(directory)

    def _rmdir(self, path):
        try:
            os.rmdir(self.run_.under(path))
        except FileNotFoundError:
            pass
        except OSError as error:
            self.left.append("rmdir %s (%s)" % (path, error.strerror))

    def _ramdisks(self):
        code, out, _ = self.run_.run("ramdiskadm", [])
        present = {r.name for r in listings.parse_ramdiskadm(out)} \
            if code == 0 else set()
        for name in self.data["ramdisks"]:
            if name not in present:
                continue
            if name.startswith(SELFTEST_RAMDISKS):
                self._attempt("ramdiskadm", ["-d", name])
            else:
                self.spared.append("the ramdisk %s (not a name only the "
                                   "selftest uses)" % name)

    # --- what SVM and svmram show ---------------------------------------

    def wait_resync_end(self, mirror, tries=600):
        """Wait until no resync of `mirror` runs (a kill may have left
        one going); its submirrors' states then (None if unreadable)."""
        states = None
        for _ in range(tries):
            code, out, _ = self.run_.run("metastat", [mirror])
            try:
                config = metastat.parse(out) if code == 0 and out else None
            except ParseError:
                config = None
            view = config.get(mirror) if config else None
            states = list(view.submirror_states or ()) if view else None
            # The resync thread holds the mirror open (mirror_resync.c
            # resync_unit, until its mirror_internal_close), so metaclear
            # is refused as open while metastat shows "Resync in
            # progress", whatever the submirrors' states.
            if view is None or ("Resyncing" not in (states or ()) and
                                view.resync != "active"):
                return states
            self.poll()
        return states

    def _mount_point_of(self, unit):
        """Where /etc/mnttab has /dev/md/dsk/UNIT mounted, or None."""
        try:
            with open(self.run_.under("/etc/mnttab"),
                      encoding="utf-8", errors="replace") as mnttab:
                return listings.mount_point(mnttab.read(), unit)
        except OSError:
            return None

    def _svmram_owns(self, mirror):
        """Has svmram a journal or a record of `mirror`?"""
        return svmram_owns(self.run_, mirror)


def svmram_owns(runner, mirror):
    """Has svmram a journal or a record (an SMF instance) of `mirror`?"""
    if os.path.exists(runner.under(
            "%s/%s.journal" % (JOURNAL_DIRECTORY, mirror))):
        return True
    code, out, _ = runner.run("svcs", [
        "-H", "-o", "fmri", "svc:/system/svmram:%s" % mirror])
    return code == 0 and bool(out.strip())


def scratch_mirror(root):
    """The mirror a selftest's journal names and proves its own (the
    proof of its removal), for status to leave out of its grading; None
    without a journal (read only then: no process is started)."""
    runner = Runner(root, None)
    path = runner.under(JOURNAL)
    if not os.path.exists(path):
        return None
    try:
        data = Journal(path).load()
    except RefusedError:
        return None
    mirror = data.get("mirror") if data else None
    if not mirror:
        return None
    removal = Removal(runner, data, poll=None)
    removal.config = removal._read_config()
    if removal.mirror_is_own(mirror) or removal._recreated_from_own(mirror):
        return mirror
    return None
