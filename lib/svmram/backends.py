# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The one place that picks a backend (backend.py describes the
interface): by the syntax of the target's name (d10: SVM), or, without a
target, the backend of this host.  Backend packages are imported only
when picked, so the CLI stays quick and commands/ imports none."""

import importlib

from .errors import UsageError

# name -> "module:class".  Only SVM is wired to the CLI; the md backend
# (lib/svmram/md) is not yet (issue 12).
REGISTRY = {"svm": "svmram.svm.interface:Svm"}
DEFAULT = "svm"


def _load(name):
    module, _, cls = REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def for_target(text, root="/"):
    """The backend whose target syntax `text` is written in; the default
    backend (which then refuses the name with its own syntax) when none
    claims it."""
    for name in REGISTRY:
        backend = _load(name)
        if backend.owns(text):
            return backend(root)
    if not REGISTRY:
        raise UsageError("no backend is available")
    return _load(DEFAULT)(root)


def for_host(root="/"):
    """The backend of this host, for commands given no target."""
    return _load(DEFAULT)(root)
