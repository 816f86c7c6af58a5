# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The run context: what one run of a subcommand works with, as one
value passed down (as libmeta threads one ``mdsetname_t *sp`` through
every call), never kept in a module.

commands/common.py builds it once per subcommand, when the target is
parsed (or, given none, the host's backend is picked); the subcommand
fills in the host and the journal once it holds the host lock, and
restore sets the deadline.  The helpers of commands/ take the context
and what is really per call (the plan, a failure, a signal)."""

import os

from .execute import Polling
from .progress import Progress


def polling(words=None):
    """How often execute re-reads a copy it waits for: every
    SVMRAM_POLL_SECONDS seconds at most (10), first after half a
    second; named by the backend's word for the copy (Words.sync)."""
    most = float(os.environ.get("SVMRAM_POLL_SECONDS", "10"))
    return Polling(first=min(0.5, most), most=most,
                   sync=words.sync if words is not None else "resync")


class Context:
    """One run of a subcommand:

    backend   the Backend it uses (backend.py; registry.py picked it)
    words     its Words, for the messages commands/ writes
    root      the host root (/, or an emulated one: SVMRAM_ROOT)
    target    the target.Target, or None (check, selftest: none given)
    host      the Host of the target (Backend.host), once the lock is held
    journal   the target's Journal (journal.py), where the command has one
    progress  where progress and step lines go (progress.py)
    polling   how execute waits for a copy (execute.Polling)
    deadline  the run's run.Deadline: the moment its commands must end
              by (restore sets it), which the Host's runner keeps
    """

    def __init__(self, backend, root="/", target=None):
        self.backend = backend
        self.words = backend.words
        self.root = root
        self.target = target
        self.host = None
        self.journal = None
        self.progress = Progress()
        self.polling = polling(backend.words)
        self.deadline = backend.deadline

    @property
    def name(self):
        """The target's name as the backend knows it ("d10", "md0")."""
        return self.target.name if self.target is not None else None
