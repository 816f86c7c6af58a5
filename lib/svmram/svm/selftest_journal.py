# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The selftest's journal: what `svmram selftest` made, each name written
before the thing is made and, once it is made, what proves it its own
(the device and inode of its directory and files, the target of each
link, the file of each lofi device), so that the next run removes what a
killed run left and nothing of the administrator's
(svm/selftest_removal.py).

Every write goes through atomic.write_atomically (a temporary file made
new, fsync, rename, directory fsync) inside interrupt.deferred(): a kill
leaves the old journal or the new one."""

import json
import os

from .. import interrupt
from ..atomic import write_atomically
from ..errors import RefusedError
from ..journal import DIRECTORY as JOURNAL_DIRECTORY

JOURNAL = JOURNAL_DIRECTORY + "/selftest.json"
# 2: the working directory is made by mkdtemp and every part carries its
# proof.  A journal without it was written by an svmram before 36; its
# names prove nothing (svm/selftest_removal.py leaves them alone).
FORMAT = 2
LISTS = ("files", "links", "metadevices", "ramdisks", "mount_points",
         "mounts")
PROOFS = ("file_ids", "link_targets", "lofi")


class Journal:
    """What this selftest made (see the module's docstring)."""

    def __init__(self, path):
        self.path = path
        self.data = None

    def load(self):
        """The journal a run left, its lists and proofs filled in (empty
        where an older journal has none), or None."""
        try:
            with open(self.path, encoding="utf-8") as stream:
                data = json.load(stream)
        except FileNotFoundError:
            self.data = None
            return None
        except (OSError, ValueError) as error:
            raise RefusedError(
                "cannot read %s: %s" % (self.path, error),
                advice="It lists what an earlier svmram selftest made; "
                       "remove what it names by hand, then the file.")
        if not isinstance(data, dict):
            raise RefusedError(
                "%s is not a journal of svmram selftest" % self.path,
                advice="Remove what it names by hand, then the file.")
        for kind in LISTS:
            data.setdefault(kind, [])
        for proof in PROOFS:
            data.setdefault(proof, {})
        data.setdefault("format", 1)
        data.setdefault("mirror", None)
        data.setdefault("directory", None)
        data.setdefault("directory_id", None)
        self.data = data
        return data

    def start(self, parent, mirror):
        """The run begins, in `parent` (the --directory), before its
        working directory is made."""
        home = os.path.dirname(self.path)
        self.data = {"format": FORMAT, "parent": parent, "directory": None,
                     "directory_id": None,
                     "made_journal_directory": not os.path.isdir(home),
                     "mirror": mirror}
        for kind in LISTS:
            self.data[kind] = []
        for proof in PROOFS:
            self.data[proof] = {}
        self._write()

    def made_directory(self, path, status):
        """mkdtemp made `path`; `status` its os.lstat."""
        with interrupt.deferred():
            self.data["directory"] = path
            self.data["directory_id"] = [status.st_dev, status.st_ino]
            self._write()

    def prove(self, proof, key, value):
        """Record what proves `key` the selftest's (a file's [device,
        inode], a link's target, a lofi device's file)."""
        with interrupt.deferred():
            self.data[proof][key] = value
            self._write()

    def forget(self, kind, name):
        """`name` is gone (or was never made): no later run may take a
        thing of that name, which svmram may reuse, for the selftest's."""
        with interrupt.deferred():
            if name in self.data[kind]:
                self.data[kind].remove(name)
                for proof in PROOFS:
                    self.data[proof].pop(name, None)
                self._write()

    def note(self, kind, name):
        with interrupt.deferred():
            if name not in self.data[kind]:
                self.data[kind].append(name)
                self._write()

    def _write(self):
        write_atomically(self.path, json.dumps(self.data, indent=1,
                                               sort_keys=True) + "\n")

    def remove(self):
        """Remove the journal, and its directory if the selftest made it
        and nothing else is in it now."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        if self.data and self.data.get("made_journal_directory"):
            try:
                os.rmdir(os.path.dirname(self.path))
            except OSError:
                pass
        self.data = None
