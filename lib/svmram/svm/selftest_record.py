# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Whether svmram selftest has passed on this host's release, kept in
/etc/svmram/selftest.json ({"release": first line of /etc/release,
"passed": true or false}), so that setup says once, on a release where
none has passed, that the selftest exists (a hint, never a refusal)."""

import json

from .. import actions
from ..atomic import write_atomically

RECORD = "/etc/svmram/selftest.json"
HINT = ("no 'svmram selftest' has passed on this release (%s); it checks "
        "svmram on a scratch mirror of its own, without touching yours.")


def release_line(root):
    """The first line of /etc/release, or a phrase saying why none."""
    try:
        with open(actions.under(root, "/etc/release"), encoding="utf-8",
                  errors="replace") as stream:
            lines = stream.read(4096).strip().splitlines()
    except OSError:
        return "unknown (no /etc/release)"
    return lines[0].strip() if lines else "unknown (empty /etc/release)"


def _read(root):
    try:
        with open(actions.under(root, RECORD), encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write(root, passed):
    """Record the outcome for this release (atomically and durably)."""
    write_atomically(actions.under(root, RECORD), json.dumps(
        {"release": release_line(root), "passed": passed}) + "\n")


def hint(root):
    """The hint setup gives, once per release: None when a selftest
    passed on this release or the hint was given already (it records
    that it was); a record it cannot write only repeats the hint."""
    release = release_line(root)
    data = _read(root)
    if data is not None and data.get("release") == release:
        return None
    try:
        write(root, False)
    except OSError:
        pass
    return HINT % release
