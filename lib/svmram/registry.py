# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The one place that picks a backend (backend.py describes the
interface): by the syntax of the target's name (d10: SVM, /dev/md0: md),
or, without a target, the backend of this host (md on Linux, SVM
elsewhere).  A backend is imported only when picked: to find the owner
of a name, only each backend's small names module (its syntax) is
imported, so the CLI stays quick and commands/ imports none."""

import importlib
import os
import sys

from .errors import UsageError

# name -> "module:class" of its Backend.
REGISTRY = {"svm": "svmram.svm.backend:SvmBackend",
            "md": "svmram.md.backend:MdBackend"}
# name -> the module whose owns(text) says whether a name is in its syntax
# (the Backend's owns() says the same); it imports nothing of its backend.
SYNTAX = {"svm": "svmram.svm.names", "md": "svmram.md.names"}


def _load(name):
    module, _, cls = REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def owner(text):
    """The name of the backend whose target syntax `text` is written in,
    or None."""
    for name in REGISTRY:
        if importlib.import_module(SYNTAX[name]).owns(text):
            return name
    return None


def for_target(text, root="/"):
    """The backend whose target syntax `text` is written in; the host's
    backend (which then refuses the name with its own syntax) when none
    claims it."""
    if not REGISTRY:
        raise UsageError("no backend is available")
    name = owner(text)
    return _load(name)(root) if name else for_host(root)


def host_kind(root="/"):
    """"md" on Linux, "svm" elsewhere.  An emulated host (a root other
    than /, SVMRAM_ROOT in tests) is Linux when it has a /sys/block (the
    md tests' fake trees), else SVM's (the emulator's roots)."""
    if root in ("/", ""):
        return "md" if sys.platform.startswith("linux") else "svm"
    return "md" if os.path.isdir(os.path.join(root, "sys", "block")) \
        else "svm"


def for_host(root="/"):
    """The backend of this host, for commands given no target."""
    return _load(host_kind(root))(root)


def for_arguments(argv, root="/"):
    """The backend whose options a subcommand's parser gets: that of the
    first argument a backend owns (the target), else the host's."""
    for arg in argv:
        if not arg.startswith("-"):
            name = owner(arg)
            if name:
                return _load(name)(root)
    return for_host(root)
