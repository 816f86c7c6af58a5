# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SMF stand-ins for svmsim: svccfg, svcprop, svcadm and svcs.

Entry point::

    main(prog, argv, simdir) -> int

``prog`` is "svcadm", "svccfg", "svcprop" or "svcs"; ``argv`` the arguments
after the program name; ``simdir`` the emulator's state directory (the
repository is ``simdir/smf.json``).  Output goes to ``sys.stdout`` and
``sys.stderr``; the return value is the exit status.

Helpers for the rest of the emulator and its tests (svmsim's startd.py
runs start methods the way svc.startd does):

* ``set_state(simdir, fmri, state, reason=None, exit_status=None)`` -- what
  svc.startd records when an instance changes state.
* ``set_start_hook(fn)`` -- run real start methods on enable/clear/restart
  instead of going online at once (see restarter.py).
* ``set_clock(fn)`` -- inject the emulator clock (tests); the environment
  variable SVMSIM_SMF_CLOCK does the same for subprocesses.

This package must not import ``svmram`` and does not depend on the rest of
svmsim, except svmsim.lean (import-free json and fnmatch stand-ins) and
svmsim.getopt.  What it emulates, and what it leaves out because svmram
never runs it: docs/emulator-smf.md.
"""

import os
import sys

from . import _common
from . import repo as _repo
from .store import locked as _locked
from . import restarter as _restarter
from ..lean import MappingProxyType

set_clock = _common.set_clock
set_start_hook = _restarter.set_start_hook

PROGRAMS = ("svcadm", "svccfg", "svcprop", "svcs")

# While SIMDIR/smf.down exists, svc.configd is unavailable: each command
# fails as its scf_handle_bind() check does, with scf_strerror's
# SCF_ERROR_NO_SERVER text (libscf scf_error.c), exit 1 (UU_EXIT_FATAL).
DOWN_FILE = "smf.down"
NO_SERVER = "repository server unavailable"
BIND_FAILED = MappingProxyType({
    # usr/src/cmd/svcs/svcs.c, main()
    "svcs": "Could not bind to repository server: %s.  Exiting.\n",
    # usr/src/cmd/svcprop/svcprop.c, main()
    "svcprop": "Could not connect to configuration repository: %s.\n",
    # usr/src/cmd/svcadm/svcadm.c, main()
    "svcadm": "Couldn't bind to configuration repository: %s.\n",
    # usr/src/cmd/svccfg/svccfg_libscf.c, lscf_prep_hndl()
    "svccfg": "Could not connect to repository server: %s.\n",
})


def main(prog, argv, simdir):
    """Run one of the SMF commands; return its exit status."""
    if prog not in PROGRAMS:
        raise ValueError("not an SMF command: %r" % (prog,))
    # Only the one tool: svcs, svcprop and svcadm need none of svccfg's
    # code (nor svccfg the others').
    out = _common.Out(prog)
    if repository_down(simdir):
        out.warn(BIND_FAILED[prog] % NO_SERVER)
        return _common.UU_EXIT_FATAL
    __import__(__name__ + "." + prog)
    mod = sys.modules[__name__ + "." + prog]
    try:
        rc = mod.main(out, list(argv), simdir)
    except _common.Exit as e:
        rc = e.code
    return 0 if rc is None else rc


def repository_down(simdir):
    """Is svc.configd unavailable (`svmsim smf DIR down`)?"""
    return os.path.exists(os.path.join(simdir, DOWN_FILE))


def set_repository(simdir, up):
    """Make svc.configd available again (up=True) or not."""
    path = os.path.join(simdir, DOWN_FILE)
    if up:
        if os.path.exists(path):
            os.unlink(path)
    else:
        with open(path, "w", encoding="utf-8"):
            pass


def set_state(simdir, fmri, state, reason=None, exit_status=None):
    """Record a state change of an instance, as svc.startd does.

    ``state`` is one of uninitialized, offline, online, degraded,
    maintenance, disabled.  ``reason`` is the auxiliary state svcs -x
    explains, e.g. "method_failed", "fault_threshold_reached",
    "administrative_request", "restarting_too_quickly",
    "invalid_dependency", "dependency_cycle" (default "none").
    ``exit_status`` is the start method's exit code; with "method_failed"
    svcs -x then says "Start method exited with ...".  The state time is
    the emulator clock.  Raises KeyError for an unknown instance and
    ValueError for an unknown state.
    """
    if state not in _repo.STATES:
        raise ValueError("unknown SMF state %r" % (state,))
    with _locked(simdir) as r:
        found = r.resolve(fmri)
        if found is None:
            raise KeyError(fmri)
        ws = None if exit_status is None else (int(exit_status) & 0xff) << 8
        r.set_state(found[0], found[1], state, reason or "none", ws)


__all__ = ["main", "set_state", "set_start_hook", "set_clock", "PROGRAMS"]
