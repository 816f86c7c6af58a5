# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The journal: what a setup or teardown intends, kept on disk so that a
rerun after a failure, a kill, a signal or a reboot resumes it (or, for a
teardown, finishes a rollback).

Only `operation` and `intent` are read back: a rerun plans again from the
intent and the state it finds, never from a list of steps.  `completed`
(the keys of the steps done, in order), `failed` (the step that failed or
was interrupted, and why) and `previous` (the same record of the setup
that a rollback undoes) are a log for the administrator and for bug
reports.

Every write is atomic and durable: a temporary file, fsync, rename; the
directory is fsynced when the journal (or the directory) is first
created, so that a journal that exists survives a crash.  A signal never
interrupts a write (each is a critical section, see interrupt.py), and a kill
at any moment leaves either the old journal or the new one.
"""

import json
import os

from . import interrupt, testcut
from .atomic import write_atomically
from .errors import RefusedError

FORMAT = 1
OPERATIONS = ("setup", "teardown")
DIRECTORY = "/var/svmram"               # SLUG.journal; survives reboots


def journal_path(target):
    """The host path of the journal of `target` (a target.Target): named
    by its slug, so that a '/' in a name makes no directory."""
    return "%s/%s.journal" % (DIRECTORY, target.slug)


def started(operation, intent):
    """A journal's content when `operation` begins (`intent`: the
    backend's intent as JSON data); a run and a -n script (plan.py)
    write the same."""
    return {"format": FORMAT, "operation": operation, "intent": intent,
            "completed": [], "failed": None}


def stored_intents(directory):
    """The `intent` of every journal in `directory` (the host's
    DIRECTORY) that can be read, for what must know the names an
    unfinished operation holds; an unreadable one is left to the command
    of its target, which refuses it."""
    found = []
    try:
        entries = sorted(os.listdir(directory))
    except OSError:
        return found
    for entry in entries:
        if not entry.endswith(".journal"):
            continue
        try:
            with open(os.path.join(directory, entry),
                      encoding="utf-8") as stream:
                data = json.load(stream)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("intent"), dict):
            found.append(data["intent"])
    return found


class Journal:
    def __init__(self, path, checked_with=None, target=None):
        """`checked_with`: the command that shows `target`'s state, for
        the advice on a damaged journal."""
        self.path = path
        self.data = None
        self.advice = "Check it by hand; remove it only once %s in a state " \
            "you understand." % (
                "'%s' shows %s" % (checked_with, target) if checked_with
                else "the target is")

    def load(self):
        """The stored journal as a dict, or None when there is none."""
        try:
            with open(self.path, encoding="utf-8") as stream:
                data = json.load(stream)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise RefusedError(
                "the journal %s is unreadable (%s)" % (self.path, exc),
                advice=self.advice) from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("operation") not in OPERATIONS \
                or not isinstance(data.get("completed"), list) \
                or not isinstance(data.get("intent"), dict):
            raise RefusedError(
                "the journal %s is corrupt" % self.path,
                advice=self.advice)
        self.data = data
        return data

    def start(self, operation, intent):
        """Begin `operation`.  A rollback (a teardown started while this
        journal holds a setup) keeps the setup's log under `previous`."""
        previous = None
        if self.data is not None and self.data.get("operation") != operation:
            previous = {key: self.data.get(key)
                        for key in ("operation", "completed", "failed")}
        self.data = started(operation, intent)
        if previous is not None:
            self.data["previous"] = previous
        self._save("start:" + operation)

    def completed(self, step_key):
        self.data["completed"].append(step_key)
        self._save("completed:" + step_key)

    def failed(self, step_key, message):
        self.data["failed"] = {"step": step_key, "message": message}
        self._save("failed:" + step_key)

    def finish(self):
        """The operation is complete: the journal is no longer needed."""
        testcut.journal("before", "finish")
        with interrupt.deferred():
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            self.data = None
        testcut.journal("after", "finish")

    def _save(self, event):
        """Write the journal (a critical section: a signal is acted on
        once the new journal is in place).  `event` names the write for
        the test switch (testcut.py)."""
        testcut.journal("before", event)
        with interrupt.deferred():
            self._write()
        testcut.journal("after", event)

    def _write(self):
        write_atomically(self.path, json.dumps(
            self.data, indent=1, sort_keys=True))
