# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SMF stand-ins for svmsim: svccfg, svcprop, svcadm and svcs.

Entry point::

    main(prog, argv, simdir) -> int

``prog`` is "svcadm", "svccfg", "svcprop" or "svcs"; ``argv`` the arguments
after the program name; ``simdir`` the emulator's state directory (the
repository is ``simdir/smf.json``).  Output goes to ``sys.stdout`` and
``sys.stderr``; the return value is the exit status.

Helpers for the rest of the emulator (issue 4: ``svmsim reboot`` runs
start methods the way svc.startd does):

* ``load(simdir)`` -- a deep copy of the whole repository (see repo.py for
  the layout).
* ``instances(simdir, service_fmri)`` -- the instances of a service.
* ``set_state(simdir, fmri, state, reason=None, exit_status=None)`` -- what
  svc.startd records when an instance changes state.
* ``method(simdir, fmri, name)`` -- an instance's exec method ("start"...).
* ``set_start_hook(fn)`` -- run real start methods on enable/clear/restart
  instead of going online at once (see restarter.py).
* ``set_clock(fn)`` -- inject the emulator clock (tests); the environment
  variable SVMSIM_SMF_CLOCK does the same for subprocesses.

This package must not import ``svmram`` and does not depend on the rest of
svmsim, except svmsim.lean (import-free json and fnmatch stand-ins).
"""

import sys

from . import _common
from . import repo as _repo
from .store import locked as _locked
from . import restarter as _restarter

set_clock = _common.set_clock
set_start_hook = _restarter.set_start_hook

PROGRAMS = ("svcadm", "svccfg", "svcprop", "svcs")


def main(prog, argv, simdir):
    """Run one of the SMF commands; return its exit status."""
    if prog not in PROGRAMS:
        raise ValueError("not an SMF command: %r" % (prog,))
    # Only the one tool: svcs, svcprop and svcadm need none of svccfg's
    # code (nor svccfg the others').
    __import__(__name__ + "." + prog)
    mod = sys.modules[__name__ + "." + prog]
    out = _common.Out(prog)
    try:
        rc = mod.main(out, list(argv), simdir)
    except _common.Exit as e:
        rc = e.code
    return 0 if rc is None else rc


def load(simdir):
    """Return a deep copy of the repository (a fresh repository is created
    with the pre-registered services if there is none yet)."""
    with _locked(simdir) as r:
        import copy
        return copy.deepcopy(r.data)


def _resolve_service(r, service_fmri):
    f = _repo.parse_svc_fmri(service_fmri)
    if f is not None and f.service is not None and f.instance is None and \
            f.pg is None and r.get_service(f.service) is not None:
        return f.service
    infos, err = _repo.walk(r, [service_fmri], _repo.SCF_WALK_SERVICE |
                            _repo.SCF_WALK_NOINSTANCE, lambda m: None)
    if err or len(infos) != 1:
        raise KeyError(service_fmri)
    return infos[0].svc


def instances(simdir, service_fmri):
    """The instances of a service, in repository order.

    ``service_fmri`` is a service FMRI ("svc:/system/svmram" or
    "system/svmram").  Each item is a dict::

        {"fmri": "svc:/system/svmram:d10", "name": "d10",
         "enabled": True,            # what svc.startd acts on
         "state": "online", "next_state": "none",
         "state_time": 1700000000.5, "aux_state": "none"}

    Raises KeyError if the service does not exist.
    """
    with _locked(simdir) as r:
        svc = _resolve_service(r, service_fmri)
        out = []
        for name, i in r.services[svc]["instances"].items():
            out.append({
                "fmri": _repo.inst_fmri(svc, name), "name": name,
                "enabled": r.is_enabled(svc, name),
                "state": i["state"], "next_state": i["next_state"],
                "state_time": i["state_time"],
                "aux_state": i.get("aux_state") or "none",
            })
        return out


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


def method(simdir, fmri, name="start"):
    """The exec method ``name`` of an instance, from the running snapshot
    (composed), as svc.startd reads it: {"exec": str, "timeout_seconds":
    int} or None if there is no such method group."""
    with _locked(simdir) as r:
        found = r.resolve(fmri)
        if found is None:
            raise KeyError(fmri)
        pg = r.composed_default(*found).get(name)
        if pg is None or pg["type"] != "method":
            return None
        ex = pg["props"].get("exec")
        to = pg["props"].get("timeout_seconds")
        return {
            "exec": ex["values"][0] if ex and ex["values"] else None,
            "timeout_seconds": int(to["values"][0])
            if to and to["values"] else 0,
        }


__all__ = ["main", "load", "instances", "set_state", "method",
           "set_start_hook", "set_clock", "PROGRAMS"]
