# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram selftest: build a scratch target of its own, check on it what
svmram assumes of this host and run svmram's setup, status, restore and
teardown on it, remove it all, and print a report to paste into a bug
report.

Backend-neutral: the backend builds, checks and removes (Backend.selftest);
this module runs svmram's own subcommands for it, in this process, and
prints the report as text or JSON."""

import contextlib
import functools
import importlib
import io
import json
import sys

from .. import __version__, cli, interrupt
from ..errors import (EXIT_OK, EXIT_SELFTEST_FAILED, EXIT_SIGNAL_BASE,
                      SvmramError, bug_text)
from ..lock import HostLock
from . import common

LOCK = "/var/run/svmram-selftest.lock"     # one selftest at a time

DIRECTORY_HELP = ("an existing directory only root can change, in which "
                  "selftest makes and removes a directory of its own for "
                  "its scratch files (default %s)")


def add_arguments(parser, argv=()):
    default = common.arguments_backend(argv).selftest_directory
    parser.add_argument("--directory", default=default,
                        help=DIRECTORY_HELP % default if default else
                        "where the scratch files go")
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON")


def run(args):
    backend = common.selftest_backend()
    if backend.selftest_directory is None:
        backend.selftest(None, None)        # the backend's refusal
    common.require_root(backend)
    # Its own lock (one selftest at a time), then the host lock before
    # anything is made: while another svmram command runs, selftest is
    # refused (exit 3) instead of failing its checks.
    with HostLock(common.under_root(LOCK)), _HostLockHeld() as held:
        report = backend.selftest(functools.partial(svmram, held=held),
                                  args.directory)
    if args.json:
        sys.stdout.write(json.dumps(report_json(report), indent=2) + "\n")
    else:
        sys.stdout.write(report_text(report))
    if report.stopped is not None:
        return EXIT_SIGNAL_BASE + getattr(report.stopped, "signum", 2)
    return EXIT_OK if report.passed else EXIT_SELFTEST_FAILED


class _HostLockHeld:
    """The host lock (commands/common.host_lock), held for the selftest.
    svmram's own subcommands, run in this process, take it too; a lockf
    lock is the process's, and closing any descriptor of the file drops
    it (fcntl(2)), so it is taken again after each of them (again)."""

    def __init__(self):
        self.lock = None

    def __enter__(self):
        self.lock = common.host_lock().__enter__()
        return self

    def again(self):
        self.lock.__exit__(None, None, None)
        self.lock = common.host_lock().__enter__()

    def __exit__(self, *exc_info):
        self.lock.__exit__(*exc_info)


def svmram(argv, held):
    """Run `svmram ARGV` in this process: (exit status, stdout, stderr),
    then take the host lock `held` again.  A signal is not caught here:
    the selftest removes what it made and stops."""
    try:
        return _svmram(argv)
    finally:
        held.again()


def _svmram(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            args = cli.build_parser(argv).parse_args(argv)
            module = importlib.import_module(cli.SUBCOMMANDS[argv[0]][0])
            code = module.run(args)
        except common.Stopped as stop:
            # svmram stopped at a safe point for a signal: so does the
            # selftest (it removes what was made).
            cli.report(stop)
            raise interrupt.Interrupted(stop.exit_code - EXIT_SIGNAL_BASE) \
                from None
        except SvmramError as error:
            cli.report(error)
            code = error.exit_code
        except SystemExit as stop:          # a usage error
            code = stop.code if isinstance(stop.code, int) else 2
        except Exception as bug:            # pylint: disable=broad-except
            sys.stderr.write("svmram: %s\n" % bug_text(bug))
            code = 1
    return code, out.getvalue(), err.getvalue()


def verdict(report):
    if report.stopped is not None:
        return "not known: the selftest was stopped by %s" % (
            interrupt.signal_name(getattr(report.stopped, "signum", 2)))
    if report.passed:
        return "svmram works on this host"
    failed = [check.name for check in report.checks if not check.passed]
    if failed and all(check.scaffold for check in report.checks
                      if not check.passed):
        # Only commands svmram never runs failed (mkfile, lofiadm, newfs,
        # mount, umount): the selftest could not check, svmram did not
        # fail (issue 36 section 2).
        return ("not known: only commands of the selftest's own failed "
                "(%s), which svmram itself never runs, so what needed them "
                "was not checked; no check of what svmram depends on "
                "failed" % "; ".join(failed))
    return "svmram does not work as expected on this host: %s" % (
        "; ".join(failed) if failed else "no check ran")


def differs(report):
    """The names of the checks that DIFFER (the emulator's fault)."""
    return [check.name for check in report.checks
            if check.result == "DIFFERS"]


def emulator_line(report):
    names = differs(report)
    if not names:
        return None
    return ("the emulator differs from this host in %d check%s (DIFFERS "
            "above), which svmram does not depend on; correct the emulator "
            "as each says" % (len(names), "" if len(names) == 1 else "s"))


def report_text(report):
    lines = ["svmram %s selftest" % __version__,
             "Release: %s" % report.release]
    lines += ["Note: %s" % text for text in report.cleaned]
    lines += ["Left alone: %s" % text for text in report.spared]
    for check in report.checks:
        result = check.result
        lines.append("%s  %s" % (result, check.name))
        if result != "PASS":
            lines += ["      command:  %s" % check.command,
                      "      expected: %s" % check.expected,
                      "      observed: %s" % check.observed]
        if check.correction:
            lines.append("      emulator: %s" % check.correction)
        if check.note:
            lines.append("      note: %s" % check.note)
    lines += ["NOT RUN  %s" % text for text in report.not_run]
    if report.appendix:
        lines.append("Appendix: what svmram's emulator is unsure of; run "
                     "each command on this host and send its output with "
                     "this report")
        for item in report.appendix:
            lines += ["  %s  %s" % (item["row"], item["question"]),
                      "      command:  %s" % item["command"],
                      "      expected: %s" % item["expected"]]
    emulator = emulator_line(report)
    if emulator:
        lines.append("Emulator: %s" % emulator)
    lines.append("Verdict: %s" % verdict(report))
    return "\n".join(lines) + "\n"


def report_json(report):
    return {"version": __version__, "release": report.release,
            "checks": [check.to_json() for check in report.checks],
            "not_run": list(report.not_run),
            "cleaned": list(report.cleaned),
            "differs": differs(report),
            "appendix": [dict(item) for item in report.appendix],
            "left_alone": list(report.spared),
            "passed": report.passed, "verdict": verdict(report)}
