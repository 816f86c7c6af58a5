# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Shared plumbing for the SMF stand-ins and the emulated svc.startd:
exit handling and codes, libuutil-style messages, getopt (svmsim.getopt's,
with these messages), and the C-locale time formats the tools use.

Nothing here knows about the repository; see ``repo.py`` for that.
"""

import os
import sys
import time

# GetoptError is read as C.GetoptError by svcadm, svccfg, svcprop, svcs.
from ..getopt import GetoptError, getopt as _getopt  # noqa: F401

# libuutil exit codes (usr/src/lib/libuutil/common/libuutil.h)
UU_EXIT_OK = 0
UU_EXIT_FATAL = 1
UU_EXIT_USAGE = 2

# smf_include.sh's method exit codes (smf(7)); svc.startd's method.c also
# takes 94 as a success.  103: Oracle Solaris 11.4's degraded exit (release
# switch smf_exit_degraded); GUESS: the value, as in the stand-in
# smf_include.sh.
SMF_EXIT_OK = 0
SMF_EXIT_NODAEMON = 94
SMF_EXIT_ERR_FATAL = 95
SMF_EXIT_ERR_CONFIG = 96
SMF_EXIT_ERR_NOSMF = 99
SMF_EXIT_ERR_PERM = 100
SMF_EXIT_DEGRADED = 103


class Exit(Exception):
    """Raised to end a command with a status, like exit(3C)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class Out:
    """stdout/stderr of one command.  Writes go straight to the current
    ``sys.stdout``/``sys.stderr`` so pytest's capsys sees them."""

    def __init__(self, prog):
        self.prog = prog

    def out(self, text):
        sys.stdout.write(text)

    def err(self, text):
        sys.stderr.write(text)

    # uu_warn(3UUTIL): "prog: " + message; a message that does not end in a
    # newline gets ": strerror(errno)" appended.  The stand-ins always pass
    # complete lines, so errno is never consulted.
    def warn(self, msg):
        if not msg.endswith("\n"):
            msg += "\n"
        self.err("%s: %s" % (self.prog, msg))

    def die(self, msg, code=UU_EXIT_FATAL):
        """uu_die()/uu_xdie(): warn and exit."""
        self.warn(msg)
        raise Exit(code)


def getopt(out, argv, optstring):
    """svmsim.getopt's getopt(3C), its messages written with ``out``.
    Returns (opts, operands); opts is [(char, arg-or-None)].

    # GUESS: libc prints argv[0] as invoked (often a full path); the stand-ins
    # only know the program name, so that is printed instead.
    """
    return _getopt(list(argv), optstring, out.prog, out.err)


# ---------------------------------------------------------------------------
# Time.  The emulator's clock is real time unless a test injects one with
# set_clock(), or the environment sets SVMSIM_SMF_CLOCK (seconds since the
# epoch, for tests that run the tools as subprocesses).

_clock = None


def set_clock(fn):
    """Install ``fn() -> float`` as the emulator clock (None: real time)."""
    global _clock
    _clock = fn


def now():
    if _clock is not None:
        return float(_clock())
    env = os.environ.get("SVMSIM_SMF_CLOCK")
    if env:
        try:
            return float(env)
        except ValueError:
            pass
    return time.time()


_WDAY = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MON = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def fmt_c(t):
    """strftime(NULL) == "%c" in the C locale of illumos libc:
    "%a %b %e %H:%M:%S %Y" (usr/src/lib/libc/port/locale/timelocal.c)."""
    tm = time.localtime(int(t))
    return "%s %s %2d %02d:%02d:%02d %d" % (
        _WDAY[tm.tm_wday], _MON[tm.tm_mon - 1], tm.tm_mday,
        tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_year)


def fmt_stime(t, current):
    """svcs STIME: "%k:%M:%S" within 24 hours, "%b_%d  " within 12*30
    days, "%Y    " otherwise (svcs.c sprint_stime)."""
    then = int(t)
    tm = time.localtime(then)
    if current - then < 24 * 60 * 60:
        return "%2d:%02d:%02d" % (tm.tm_hour, tm.tm_min, tm.tm_sec)
    if current - then < 12 * 30 * 24 * 60 * 60:
        return "%s_%02d  " % (_MON[tm.tm_mon - 1], tm.tm_mday)
    return "%04d    " % tm.tm_year
