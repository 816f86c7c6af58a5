# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Entry point of the executables in DIR/bin: prog -> implementation."""

import sys

from svmsim import faults, monitor, state
from svmsim.programs import Ctx, Exit
from svmsim.messages import SvmError
from svmsim.lean import MappingProxyType

COMMANDS = MappingProxyType({
    "metadb": ("metadb", "run"),
    "metainit": ("metainit", "run"),
    "metattach": ("metattach", "run"),
    "metadetach": ("metadetach", "run"),
    "metaclear": ("metaclear", "run"),
    "metaparam": ("metaparam", "run"),
    "metareplace": ("metareplace", "run"),
    "metasync": ("metasync", "run"),
    "metaoffline": ("metaoffline", "run_offline"),
    "metaonline": ("metaoffline", "run_online"),
    "metastat": ("metastat", "run"),
    "ramdiskadm": ("ramdiskadm", "run"),
    "lofiadm": ("lofiadm", "run"),
    "mkfile": ("mkfile", "run"),
    "kstat": ("kstat", "run"),
    "dd": ("dd", "run"),
    "cmp": ("cmp", "run"),
    "fuser": ("fuser", "run"),
    "prtvtoc": ("prtvtoc", "run"),
    "newfs": ("newfs", "run"),
    "mount": ("mount", "run"),
    "umount": ("umount", "run"),
})
SMF_COMMANDS = ("svcadm", "svccfg", "svcprop", "svcs")
PROGRAMS = tuple(COMMANDS) + SMF_COMMANDS
# The SMF commands that start instances: they run the start methods
# installed in the emulated root the way svc.startd does (startd.py).
STARTING = ("svcadm", "svccfg")


def _startd_hook(*args, **kwargs):
    """startd.start_hook, with startd (and subprocess, signal, shlex,
    json...) imported only when an instance starts: svccfg setprop,
    svmram's most frequent form, starts none (bench/emulator)."""
    from svmsim import startd
    return startd.start_hook(*args, **kwargs)


_startd_hook.wants_cause = True


def main(prog, argv, simdir):
    if prog in SMF_COMMANDS:
        # Faults apply to the SMF stand-ins too (svmsim faults add svccfg).
        fault, log = _smf_settings(simdir, prog)
        recorder = _recorder(log, prog, argv)
        if fault is not None:
            return _injected(fault, recorder)
        try:
            # __import__, not importlib.import_module: importing importlib
            # costs every command start-up time.
            __import__("svmsim.smf")
            smf = sys.modules["svmsim.smf"]
        except ImportError:
            sys.stderr.write("%s: svmsim SMF emulation is not available\n"
                             % prog)
            return _recorded(recorder, 1)
        from svmsim.smf import restarter
        restarter.begin_process(_startd_hook if prog in STARTING else None)
        rc = None
        try:
            rc = smf.main(prog, argv, simdir)
        finally:
            _recorded(recorder, rc)
        return rc
    modname, funcname = COMMANDS[prog]
    __import__("svmsim.programs." + modname)
    func = getattr(sys.modules["svmsim.programs." + modname], funcname)
    with state.locked(simdir) as st:
        recorder = _recorder(st.get("facts_log"), prog, argv)
        fault = faults.take(st, prog)
        if fault is not None:
            return _injected(fault, recorder)
        st["seq"] += 1
        st["last_command"] = " ".join(_quote(a) for a in [prog] + argv)
        monitor.auto_writes(st)
        ctx = Ctx(prog, st, simdir)
        rc = None
        try:
            try:
                rc = func(ctx, list(argv))
            except SvmError as e:
                ctx.perror(e)
                rc = 1
            except Exit as e:
                rc = e.code
        finally:
            _recorded(recorder, rc)
        monitor.check(st)
        from svmsim import svm
        svm.write_tab_files(st, ctx.root)
    return rc


def _recorder(log, prog, argv):
    """The recorder of this command's output when `svmsim record-facts`
    turned it on (svmsim/factlog.py), else None."""
    if not log:
        return None
    from svmsim import factlog
    return factlog.Recorder(log, prog, argv)


def _recorded(recorder, rc, injected=False):
    if recorder is not None:
        recorder.done(rc, injected)
    return rc


def _injected(fault, recorder):
    """The output a fault of the test harness injects (svmsim faults)."""
    sys.stdout.write(fault.get("stdout", ""))
    sys.stderr.write(fault["stderr"])
    return _recorded(recorder, fault["exit"], injected=True)


_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789@%+=:,./-_")


def _quote(arg):
    """shlex.quote, without importing shlex (and re) into every emulated
    command: the monitor's reports name the command that ran."""
    if arg and all(c in _SAFE for c in arg):
        return arg
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def _smf_settings(simdir, prog):
    """(the fault that fires for this SMF command or None, the facts log
    or None): the state is only rewritten when faults are armed."""
    try:
        loaded = state.load(simdir)
    except FileNotFoundError:
        return None, None
    log = loaded.get("facts_log")
    if not loaded["faults"]:
        return None, log
    with state.locked(simdir) as st:
        return faults.take(st, prog), log
