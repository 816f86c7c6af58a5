# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram and the SVM emulator's commands, run inside the test's process.

A scenario test's `svmram setup -y d10` starts about a hundred emulated
commands, each a Python process that imports the emulator: most of the
suite's time went into starting them.  Here svmram's cli.main runs in the
test's process, and its one seam for processes (run.start) calls the
emulator's dispatch.main in the same process, with what a process would
have had: the environment svmram gives a command, stdin from nothing,
its own stdout and stderr, and the SMF stand-ins' per-process state
(the start hook that only svcadm and svccfg install, the causes of starts
begun in this process) as a new process has it.

The boot service's svmram is a process, started by the start method's
ksh as on a real host, but it is the launcher below (written over the
installed command by hosts.EmulatedHost.install): the installed package,
whose commands run in its own process the same way.

What stays a process: a command outside the emulator's bin/ or put in
its place (a test's wrapper that stops svmram or fails a command, a start
method's ksh, a -n script), and every svmram run whose test gives it
another command directory, as the signal tests do.  svmram killed with
SIGKILL after a chosen command (svmram's `kill`) runs here, and
hosts.EmulatedHost.svmram_killed puts back the host as the kill left it.
SVMRAM_TEST_PROCESSES=1 runs every svmram and every command as a process,
as before, to show that both ways give the same results.

md's command tests run svmram here too, with md's fake kernel as run.start
(svmram's `runner`; tests/md/mdcli.py).
"""

import contextlib
import io
import os
import sys
import threading

# svmram and svmsim (lib/) are imported when first used: hosts.py, which
# imports this, also serves tests/illumos/reboot_check.py on a real host.

def enabled():
    """False when SVMRAM_TEST_PROCESSES asks for processes throughout, and
    outside the main thread: svmram sets signal handlers, and the
    environment and standard streams are the process's, one at a time."""
    return os.environ.get("SVMRAM_TEST_PROCESSES", "") in ("", "0") and \
        threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _environment(env):
    """os.environ is `env` while inside (changing only what differs:
    each change is a putenv)."""
    saved = dict(os.environ)
    _become(saved, env)
    try:
        yield
    finally:
        _become(dict(os.environ), saved)


def _become(current, wanted):
    for name in current.keys() - wanted.keys():
        del os.environ[name]
    for name, value in wanted.items():
        if current.get(name) != value:
            os.environ[name] = value


class _Output:
    """A text stream written as bytes, as a pipe from a process is."""

    def __init__(self):
        self.raw = io.BytesIO()
        self.text = io.TextIOWrapper(self.raw, encoding="utf-8",
                                     errors="backslashreplace",
                                     write_through=True)

    def value(self):
        self.text.flush()
        return self.raw.getvalue()


@contextlib.contextmanager
def _streams(stdin):
    """sys.stdin reads `stdin` (a text, or a stream such as a terminal's);
    sys.stdout and sys.stderr are captured."""
    out, err = _Output(), _Output()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    sys.stdout, sys.stderr = out.text, err.text
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def _exit_status(code):
    """What a process's exit status is for SystemExit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write("%s\n" % code)
    return 1


def start(argv, env, timeout, after=None, simdir=None):
    """run.start for the emulator: a command of the emulator's bin/ (that
    of simdir, else the environment's SVMRAM_BINDIR, which svmram passes
    on to its commands) runs here, any other as a process; then
    after(argv), if given."""
    from svmram import run
    from svmsim import dispatch
    if not simdir and env.get("SVMRAM_BINDIR"):
        simdir = os.path.dirname(env["SVMRAM_BINDIR"].rstrip("/"))
    prog = os.path.basename(argv[0])
    if not simdir or prog not in dispatch.PROGRAMS or \
            os.path.dirname(argv[0]) != os.path.join(simdir, "bin") or \
            not _emulated(argv[0]):
        result = run.start_process(argv, env, timeout)
    else:
        result = _as_process(
            env, lambda: dispatch.main(prog, list(argv[1:]), simdir))
    if after is not None:
        after(argv)
    return result


def _emulated(path):
    """Whether `path` is still the emulator's own script (svmsim init wrote
    it), not a test's wrapper put in its place (faultmatrix.kill_in_place)."""
    try:
        with open(path, "rb") as stream:
            return b"from svmsim.dispatch import main" in stream.read(4096)
    except OSError:
        return False


def as_process(env, main):
    """main() as a process would run it, with environment `env`, stdin
    from nothing and its output captured: (exit status, stdout, stderr),
    the last two as bytes."""
    with _environment(env), _streams("") as (out, err):
        try:
            status = main()
        except SystemExit as stop:
            status = _exit_status(stop.code)
        return status, out.value(), err.value()


def _as_process(env, main):
    """main() as the emulator's process would run it (as_process), with
    the SMF stand-ins' per-process state as a new process has it
    (dispatch.main sets it again for an SMF command, with svc.startd's
    start hook for svcadm and svccfg)."""
    from svmsim.smf import restarter

    def emulated():
        restarter.begin_process()
        try:
            return main()
        finally:
            restarter.set_start_hook(None)
    return as_process(env, emulated)


class Killed(BaseException):
    """svmram killed with SIGKILL in the test's process (svmram's `kill`):
    raised by run.start right after the command that killed it and by
    every run.start after that, so that svmram runs nothing more.  svmram
    catches no BaseException but KeyboardInterrupt and SystemExit."""


def svmram(args, env, stdin="", after=None, runner=None, kill=None):
    """`svmram ARGS` with environment `env`: (status, stdout, stderr);
    after(argv) is called after each command svmram runs.  `runner`, if
    given, is run.start for this run instead of the emulator's (md's fake
    kernel, tests/md/mdcli.py).  kill(argv, (status, stdout, stderr))
    decides after each command whether svmram is killed right there, as
    a SIGKILL after it would: then the status is -9 and the output what
    svmram had written by then.  Whatever svmram's `finally` blocks do on
    the way out is the caller's to undo (hosts.EmulatedHost.svmram_killed
    puts back a copy of the host taken in `kill`)."""
    from svmram import cli, run
    died = []
    with _environment(env), _streams(stdin) as (out, err):
        def starting(argv, env, timeout):
            if died:
                raise Killed()
            result = start(argv, env, timeout, after)
            if kill is not None and kill(argv, result):
                died.append((out.value(), err.value()))
                raise Killed()
            return result
        run.start = runner or starting
        try:
            status = cli.main(list(args))
        except SystemExit as stop:
            status = _exit_status(stop.code)
        except Killed:
            status = None
        finally:
            run.start = run.start_process
        written = died[0] if died else (out.value(), err.value())
        return (-9 if died else status,
                written[0].decode("utf-8", "replace"),
                written[1].decode("utf-8", "replace"))


def command(prog, args, env):
    """An emulated command run by the test itself (as an administrator
    would): (status, stdout, stderr) as text."""
    argv = [os.path.join(env["SVMSIM_DIR"], "bin", prog)] + list(args)
    status, out, err = start(argv, env, None)
    return (status, out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"))


def simulate(args, env):
    """`python3 -m svmsim ARGS` (a reboot, the monitor...): (status,
    stdout, stderr) as text."""
    from svmsim import cli as svmsim_cli
    status, out, err = _as_process(env, lambda: svmsim_cli.main(list(args)))
    return (status, out.decode("utf-8", "replace"),
            err.decode("utf-8", "replace"))


# --- the boot service's svmram -----------------------------------------------

LAUNCHER = """#!%(python)s -S
# Written over the installed svmram by hosts.EmulatedHost.install: the
# installed package runs, and the emulator's commands it starts run in
# its own process (tests/scenario/inprocess.py), not one process each.
import os
import sys
_here = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(_here, "..", "lib",
                                                 "svmram")))
sys.path += [%(lib)r, %(scenario)r]
%(pycache)simport inprocess
sys.exit(inprocess.installed_main(sys.argv[1:]))
"""


def write_launcher(path, lib):
    """The launcher at `path` (the emulated root's /usr/sbin/svmram)."""
    from svmsim import cli as svmsim_cli
    prefix = svmsim_cli.pycache_prefix()
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(LAUNCHER % {
            "python": sys.executable, "lib": lib,
            "scenario": os.path.dirname(os.path.abspath(__file__)),
            "pycache": "" if prefix is None
            else "sys.pycache_prefix = %r\n" % prefix})
    os.chmod(path, 0o555)


def installed_main(args):
    """The launcher's svmram: cli.main of the installed package, whose
    commands of the emulator's bin/ run in this process."""
    from svmram import cli, run
    # A start method's environment names the emulator's bin/ for svmram
    # (svmsim/startd.py method_environment), not the emulator's directory.
    simdir = os.path.dirname(os.environ.get("SVMRAM_BINDIR", "/nonexistent"))
    run.start = lambda argv, env, timeout: start(argv, env, timeout,
                                                 simdir=simdir)
    return cli.main(list(args))
