# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The one place that picks a backend (backend.py describes the
interface): by the syntax of the target's name (d10: SVM, /dev/md0: md),
or, without a target, each backend whose host this is (each is asked:
its names module's owns_host).  A backend is imported only when picked:
to find the owner of a name or of the host, only each backend's small
names module is imported, so the CLI stays quick and commands/ imports
none."""

import importlib
import sys
from types import MappingProxyType

from .errors import UsageError

# name -> "module:class" of its Backend.
REGISTRY = MappingProxyType(
    {"svm": "svmram.svm.backend:SvmBackend",
     "md": "svmram.md.backend:MdBackend"})
# name -> the module whose owns(text, root) says whether a name is in its
# syntax on that host (no two claim one name: owner refuses it),
# and owns_host(root) whether the host is the backend's (the Backend's
# owns() and owns_host() say the same), and whose NOUN and DESCRIPTION
# name its targets in svmram's help; it imports nothing of its backend.
SYNTAX = MappingProxyType({"svm": "svmram.svm.names", "md": "svmram.md.names"})


def _load(name):
    module, _, cls = REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def owner(text, root="/"):
    """The name of the backend whose target syntax `text` is written in
    on the host under `root`, or None.  A name that several backends
    claim is refused rather than given to the first (tests/svmram/
    test_registry.py holds the syntaxes apart)."""
    claimants = [name for name in REGISTRY
                 if importlib.import_module(SYNTAX[name]).owns(text, root)]
    if len(claimants) > 1:
        raise UsageError("%r is a name in the syntax of several of svmram's "
                         "backends (%s)" % (text, ", ".join(claimants)))
    return claimants[0] if claimants else None


def host_owners(root="/"):
    """The names of the backends whose host this is, in the registry's
    order (each backend is asked)."""
    return [name for name in REGISTRY
            if importlib.import_module(SYNTAX[name]).owns_host(root)]


def described():
    """(noun, description) of every backend, in the registry's order
    ("mirror", "a mirror (Solaris Volume Manager)"): what svmram's help
    and its last-resort messages name the targets by.  Only the names
    modules are imported."""
    return [(module.NOUN, module.DESCRIPTION) for module in (
        importlib.import_module(SYNTAX[name]) for name in REGISTRY)]


def _no_backend():
    return UsageError(
        "none of svmram's backends (%s) works on this system (%s)" % (
            ", ".join(REGISTRY), sys.platform))


def for_target(text, root="/"):
    """The backend whose target syntax `text` is written in; the host's
    backend (which then refuses the name with its own syntax) when none
    claims it."""
    name = owner(text, root)
    return _load(name)(root) if name else for_host(root)


def for_hosts(root="/"):
    """Every backend whose host this is, for `status` given no target
    (UsageError when none is)."""
    backends = [_load(name)(root) for name in host_owners(root)]
    if not backends:
        raise _no_backend()
    return backends


def for_host(root="/"):
    """The first backend whose host this is, for the other commands given
    no target (UsageError when none is)."""
    return for_hosts(root)[0]


def for_arguments(argv, root="/"):
    """The backend whose options a subcommand's parser gets: that of the
    first argument a backend owns (the target), else the host's, else the
    registry's first (so that --help works anywhere)."""
    for arg in argv:
        if not arg.startswith("-"):
            name = owner(arg, root)
            if name:
                return _load(name)(root)
    owners = host_owners(root) or list(REGISTRY)
    return _load(owners[0])(root)


def words_for(text, root="/"):
    """The Words of the backend a subcommand given `text` (None: no
    target) uses: the target's, else the host's when one backend's host
    this is; None when that is not one backend (for cli.py's last-resort
    messages, which then name every backend's targets)."""
    try:
        if text:
            return for_target(text, root).words
        owners = host_owners(root)
    except Exception:                   # pylint: disable=broad-except
        return None
    return _load(owners[0]).words if len(owners) == 1 else None
