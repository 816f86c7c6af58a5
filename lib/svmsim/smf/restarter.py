# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What svc.startd does in reaction to svcadm, reduced to state changes.

The stand-in starts an instance by putting it ``online`` at once.  Issue 4
(``svmsim reboot``) needs "run the start method and go online or to
maintenance from its exit status"; that plugs in through
``set_start_hook()``:

    def hook(simdir, fmri):
        ...run the instance's start method...
        return exit_status      # or (state, aux_state, waitstatus)

    svmsim.smf.set_start_hook(hook)

The hook is called with no lock held (a start method calls svcprop, which
takes the repository lock), after the instance has been put ``offline``
with next_state ``online``, as svc.startd shows it while the method runs.
An int result maps as svc.startd does: 0 -> online; $SMF_EXIT_ERR_FATAL
(95) or $SMF_EXIT_ERR_CONFIG (96) -> maintenance, auxiliary state
``method_failed``; any other non-zero status -> maintenance,
``fault_threshold_reached`` (# GUESS: svc.startd retries such a method a
few times first; the stand-in does not).  ``None`` counts as 0.

A hook whose attribute ``wants_cause`` is true is called as
``fn(simdir, fmri, cause=..., prev_state=...)``: ``cause`` is "enable"
(svcadm enable, svccfg import of an enabled instance), "clear" or
"restart"; ``prev_state`` the state before the start began.  svmsim's
startd.py uses it to write the log lines svc.startd writes ("Enabled.",
"Leaving maintenance because clear requested.", ...).
"""

from . import repo as R
from ._common import SMF_EXIT_OK, SMF_EXIT_ERR_FATAL, SMF_EXIT_ERR_CONFIG
from .store import locked


# Seams: per-process state by nature, as svc.startd's is per daemon.  The
# start hook this process runs start methods with (None: the stand-in's
# online at once), and (svc, inst) -> (cause, previous state) of the
# starts it has begun.  begin_process() sets both as a new process has
# them; tests/svmram/test_module_state.py names them.
_start_hook = None
_pending_cause = {}


def set_start_hook(fn):
    """Install ``fn(simdir, fmri) -> int | (state, aux, waitstatus) | None``
    as the start method runner; ``None`` restores the stand-in."""
    global _start_hook
    _start_hook = fn


def begin_process(start_hook=None):
    """What a new process has: `start_hook` (None: the stand-in), no
    starts begun.  dispatch.main calls it first for every SMF command, so
    that one run in a process that ran others (tests/scenario/inprocess.py)
    starts as a process of its own would."""
    set_start_hook(start_hook)
    _pending_cause.clear()


def begin_start(repo, svc, inst, cause="enable"):
    """Start an instance.  Returns True if the start is pending (a hook
    must run outside the lock: see run_pending())."""
    if _start_hook is None:
        repo.set_state(svc, inst, "online")
        return False
    _pending_cause[(svc, inst)] = (cause,
                                   repo.get_instance(svc, inst)["state"])
    repo.set_state(svc, inst, "offline", next_state="online")
    return True


def apply_result(repo, svc, inst, result):
    if isinstance(result, tuple):
        state, aux, ws = (tuple(result) + (None, None))[:3]
        repo.set_state(svc, inst, state, aux or "none", ws)
        return
    code = 0 if result is None else int(result)
    if code == SMF_EXIT_OK:
        repo.set_state(svc, inst, "online")
    elif code in (SMF_EXIT_ERR_FATAL, SMF_EXIT_ERR_CONFIG):
        repo.set_state(svc, inst, "maintenance", "method_failed",
                       (code & 0xff) << 8)
    else:
        repo.set_state(svc, inst, "maintenance", "fault_threshold_reached",
                       (code & 0xff) << 8)


def run_pending(simdir, pending):
    """Run the start hook for each (svc, inst) of ``pending`` and record
    the outcome.  Call with no lock held."""
    for svc, inst in pending:
        cause, prev = _pending_cause.pop((svc, inst), ("enable", None))
        if getattr(_start_hook, "wants_cause", False):
            result = _start_hook(simdir, R.inst_fmri(svc, inst),
                                 cause=cause, prev_state=prev)
        else:
            result = _start_hook(simdir, R.inst_fmri(svc, inst))
        with locked(simdir) as repo:
            i = repo.get_instance(svc, inst)
            if i is None or i["next_state"] != "online":
                continue
            apply_result(repo, svc, inst, result)


def enabled_changed(repo, svc, inst):
    """svc.startd noticed general/enabled (or the override) changed.  The
    stand-in ignores dependencies: an enabled instance starts at once."""
    i = repo.get_instance(svc, inst)
    if repo.is_enabled(svc, inst):
        if i["state"] in ("disabled", "uninitialized", "offline") and \
                i["next_state"] == "none":
            return begin_start(repo, svc, inst)
        return False
    if i["state"] != "disabled":
        # GUESS: an instance in maintenance that is disabled goes to
        # disabled, as svc.startd's admin-disable event does.
        repo.set_state(svc, inst, "disabled")
    return False


def restart(repo, svc, inst):
    # GUESS: svc.startd ignores a restart request unless the instance runs.
    i = repo.get_instance(svc, inst)
    if i["state"] in ("online", "degraded"):
        return begin_start(repo, svc, inst, "restart")
    return False


def clear(repo, svc, inst):
    """maint_off / restore.  In the stand-in a cleared instance is started
    again at once if enabled (issue 4: the start method runs)."""
    i = repo.get_instance(svc, inst)
    if i["state"] == "maintenance":
        if repo.is_enabled(svc, inst):
            return begin_start(repo, svc, inst, "clear")
        repo.set_state(svc, inst, "disabled")
    elif i["state"] == "degraded":
        repo.set_state(svc, inst, "online")
    return False
