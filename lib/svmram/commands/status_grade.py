# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: the grade of each target, for --nagios and the health
field: OK serving from RAM, WARNING while it gets there by itself,
CRITICAL when an administrator must act (the Nagios plugin API's return
codes); and each verdict's exit status."""

from types import MappingProxyType

from ..errors import (EXIT_DEGRADED, EXIT_NOT_SERVING, EXIT_OK,
                      EXIT_ONLY_COPY_IN_RAM, RefusedError, UsageError)
from . import common

# The verdicts, least severe first, and their exit statuses.
VERDICT_EXIT = MappingProxyType(
    {"serving": EXIT_OK, "not_serving": EXIT_NOT_SERVING,
     "degraded": EXIT_DEGRADED,
     "only_copy_in_ram": EXIT_ONLY_COPY_IN_RAM})

# --nagios: the Nagios plugin API's return codes.
OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
GRADES = ("OK", "WARNING", "CRITICAL", "UNKNOWN")


def health(status, problems, backend):
    """(grade, words) of one target: OK serving from RAM; WARNING while it
    gets there by itself; CRITICAL when an administrator must act."""
    name = status.target
    if status.verdict == "serving":
        return OK, "%s serves reads from RAM" % name
    critical, warning = list(problems.critical), list(problems.warning)
    if not status.configured:
        critical = list(status.reasons)
    unfinished = _unfinished(name, backend) \
        if _is_target(backend, name) else None
    if unfinished is not None:
        operation, running = unfinished
        at_risk = any(words.startswith("DATA AT RISK")
                      for words in critical)
        if running and not at_risk:
            return WARNING, "%s: a %s of %s is running" % (
                name, operation, name)
        if not running:
            critical.append("a %s of %s has not finished (svmram %s %s "
                            "finishes it)" % (operation, name, operation,
                                              name))
    if critical:
        return CRITICAL, "%s: %s" % (name, ", ".join(critical + warning))
    if warning:
        return WARNING, "%s: %s" % (name, ", ".join(warning))
    # Not serving for a reason no rule above grades: never call it OK.
    return CRITICAL, "%s: %s" % (name, ", ".join(status.reasons))


def _is_target(backend, name):
    try:
        backend.target(name)
    except UsageError:
        return False
    return True


def _unfinished(target, backend):
    """(operation, running) when a setup or teardown of `target` has left
    its journal: running while another svmram holds the host lock."""
    try:
        data = common.journal_for(backend, common.target_of(
            backend, target)).load()
    except RefusedError:
        return ("setup or teardown", False)
    if data is None:
        return None
    try:
        with common.host_lock(0, dry_run=True):
            return data["operation"], False
    except RefusedError:
        return data["operation"], True
