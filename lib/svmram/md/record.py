# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md backend's record store: what setup decided for an array
(intent.Intent as JSON) in /etc/svmram/md/SLUG.json, under the host
root, SLUG the array's slug (target.slug: the name itself for every md
name, so md0's record is md0.json, which svmram@md0's
ConditionPathExists= names).  The svmram command uses it (md/backend.py), and so does the boot
unit svmram@.service, which runs the command.

Every write is atomic and synced (atomic.write_atomically): a power cut
leaves the old record or the new one.  A teardown leaves a marker (the
record's name + ".teardown") until it is done; the boot unit's restore
and stop stand aside while it is there.

The record is written and removed by steps (WriteRecord, RemoveRecord,
MarkTeardown: actions in the sense of actions.py), so that the run and
the -n script do the same.
"""

import json
import os
import shlex
from dataclasses import dataclass

from ..actions import under
from ..atomic import fsync_directory, write_atomically
from ..errors import RefusedError, SvmramError
from ..target import slug, unslug
from .intent import Intent

RECORD_DIR = "/etc/svmram/md"


def record_path(array, directory=RECORD_DIR):
    """The record of `array` (a host path: under the root for I/O), named
    by the array's slug."""
    return os.path.join(directory, slug(array) + ".json")


def marker_path(path):
    return path + ".teardown"


def recorded_arrays(root="/", directory=RECORD_DIR):
    """The arrays that have a record, sorted: the names whose slugs the
    record files are named by.  A .json file no array's record is named
    so (no slug) is refused, never taken for an array of another name."""
    try:
        names = os.listdir(under(root, directory))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise SvmramError("cannot list svmram's records in %s: %s" % (
            directory, exc.strerror or exc),
            advice="Run svmram as root.") from exc
    arrays = []
    for name in names:
        if not name.endswith(".json") or len(name) == len(".json"):
            continue
        array = unslug(name[:-len(".json")])
        if array is None:
            raise RefusedError(
                "%s is not a record svmram wrote: no array's record is "
                "named so" % os.path.join(directory, name),
                advice="Move it out of %s." % directory)
        arrays.append(array)
    return sorted(arrays)


def read_record(path):
    """The Intent in `path`, None when there is no record."""
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise SvmramError("cannot read svmram's record %s: %s" % (path, exc),
                          advice="Check the file; svmram teardown needs it "
                                 "to undo the setup.") from exc
    return Intent.from_dict(data)


def recorded_intent(root, array):
    """The Intent the record of `array` holds under `root`; None when it
    has none; RefusedError when the record is another array's."""
    it = read_record(under(root, record_path(array)))
    if it is not None and it.array != array:
        raise RefusedError("the record %s is for %s, not %s" % (
            record_path(array), it.array, array),
            advice="Check the file by hand.")
    return it


def record_text(it):
    return json.dumps(it.to_dict(), sort_keys=True) + "\n"


def write_record(path, it):
    """Atomically, synced: a power cut leaves the old record or the new."""
    write_atomically(path, record_text(it))


def remove_record(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_directory(os.path.dirname(path) or ".")


def mark_teardown(path):
    """The marker restore and stop stand aside for, written (synced)
    before teardown's first step, once its plan holds."""
    write_atomically(marker_path(path), "")


# --- the record as step actions (actions.py's perform/script_line) ----------

@dataclass(frozen=True)
class WriteRecord:
    """Write the record `path` (a host path) holding `text`."""
    path: str
    text: str

    def perform(self, context):
        write_atomically(under(context.root, self.path), self.text)

    def script_line(self, host_path, program_path):
        path = host_path(self.path)
        return "mkdir -p %s && printf '%%s\\n' %s > %s" % (
            shlex.quote(os.path.dirname(path)),
            shlex.quote(self.text.rstrip("\n")), shlex.quote(path))


@dataclass(frozen=True)
class MarkTeardown:
    """Write the teardown marker of the record `path`."""
    path: str

    def perform(self, context):
        mark_teardown(under(context.root, self.path))

    def script_line(self, host_path, program_path):
        path = host_path(marker_path(self.path))
        return "mkdir -p %s && : > %s" % (
            shlex.quote(os.path.dirname(path)), shlex.quote(path))


@dataclass(frozen=True)
class RemoveRecord:
    """Remove the record `path` and its teardown marker."""
    path: str

    def perform(self, context):
        remove_record(under(context.root, self.path))
        remove_record(under(context.root, marker_path(self.path)))

    def script_line(self, host_path, program_path):
        return "rm -f %s %s" % (shlex.quote(host_path(self.path)),
                                shlex.quote(host_path(marker_path(
                                    self.path))))
