# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The journal: what a setup or teardown intends and which steps it has
completed, kept on disk so that a rerun after a failure, a kill or a
reboot can resume or roll back.  Written atomically (temp file, rename).
"""

import json
import os

from .errors import RefusedError

FORMAT = 1
OPERATIONS = ("setup", "teardown")


class Journal:
    def __init__(self, path):
        self.path = path
        self.data = None

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
                advice="Check it by hand; remove it only once metastat "
                       "shows the mirror in a state you understand.") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("operation") not in OPERATIONS \
                or not isinstance(data.get("completed"), list) \
                or not isinstance(data.get("intent"), dict):
            raise RefusedError(
                "the journal %s is corrupt" % self.path,
                advice="Check it by hand; remove it only once metastat "
                       "shows the mirror in a state you understand.")
        self.data = data
        return data

    def start(self, operation, intent):
        self.data = {"format": FORMAT, "operation": operation,
                     "intent": intent, "completed": [], "failed": None}
        self._save()

    def completed(self, step_key):
        self.data["completed"].append(step_key)
        self._save()

    def failed(self, step_key, message):
        self.data["failed"] = {"step": step_key, "message": message}
        self._save()

    def finish(self):
        """The operation is complete: the journal is no longer needed."""
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        self.data = None

    def _save(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        temp = self.path + ".new"
        with open(temp, "w", encoding="utf-8") as stream:
            json.dump(self.data, stream, indent=1, sort_keys=True)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, self.path)
