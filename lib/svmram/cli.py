# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Command-line front end: parse arguments, run one subcommand, and turn
every expected failure into a short message and a documented exit code.

This is the only place that prints errors.  Subcommand modules are
imported only when used, so `svmram status` stays fast.
"""

import argparse
import importlib
import os
import shlex
import signal
import sys
import traceback
from types import MappingProxyType

from . import __version__, interrupt, registry, streams, testcut
from .errors import (EXIT_FAILED, EXIT_OK, EXIT_SIGNAL_BASE, EXIT_USAGE,
                     SvmramError, bug_advice, bug_text)

PROG = "svmram"

# subcommand -> (module that implements it, one-line summary).  Only the
# module of the subcommand being run is imported.  The summaries are the
# same for every backend; {target} is every backend's noun for its
# targets (registry.described: "mirror or array").
SUBCOMMANDS = MappingProxyType({
    "setup": ("svmram.commands.setup",
              "add a copy in RAM to a {target} and read from it"),
    "teardown": ("svmram.commands.teardown",
                 "remove the RAM copy and restore the {target}"),
    "status": ("svmram.commands.status",
               "show whether each configured {target} reads from RAM"),
    "restore": ("svmram.commands.restore",
                "bring the RAM copy back after a boot (run by the boot "
                "service)"),
    "check": ("svmram.commands.check",
              "check, changing nothing, whether and how setup would work"),
    "stop": ("svmram.commands.stop",
             "take the RAM copy out before a shutdown (run by the "
             "boot service, where the backend needs it)"),
    "selftest": ("svmram.commands.selftest",
                 "check svmram on scratch storage of its own, then remove "
                 "it"),
})


def _columns():
    """shutil.get_terminal_size().columns (COLUMNS, else the terminal on
    stdout, else 80), which argparse asks for whenever it makes a
    formatter -- once per argument added, in every run -- importing shutil
    and with it zlib, bz2 and lzma: 7 modules and about 3 % of the boot
    unit's restore (issue 28, section 6)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog, indent_increment=2, max_help_position=24,
                 width=None, **more):
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width, **more)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        # the subcommands' parsers are _Parsers too (add_subparsers)
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (PROG, message))
        sys.exit(EXIT_USAGE)


def _chosen(argv):
    """The subcommand named on the command line, if any."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in SUBCOMMANDS else None
    return None


def either(words):
    """"a or b", "a, b or c"."""
    words = list(words)
    return " or ".join([", ".join(words[:-1])] + words[-1:]) \
        if len(words) > 1 else "".join(words)


def build_parser(argv=()):
    described = registry.described()
    parser = _Parser(prog=PROG, description="Serve the reads of %s from a "
                     "copy in RAM, and keep it that way across reboots." %
                     " or of ".join(text for _, text in described))
    target = either(noun for noun, _ in described)
    parser.add_argument("--version", action="version",
                        version="%s %s" % (PROG, __version__))
    subparsers = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    chosen = _chosen(argv)
    # `svmram SUBCOMMAND ...` (the boot unit's restore among them) gets
    # that subcommand's parser alone: the others would only be built to
    # be thrown away (issue 28, section 6).  Anything else (no subcommand,
    # an option before it such as -h) gets all, for the usage and help.
    alone = chosen is not None and list(argv[:1]) == [chosen]
    for name, (module, summary) in SUBCOMMANDS.items():
        if alone and name != chosen:
            continue
        summary = summary.format(target=target)
        sub = subparsers.add_parser(name, help=summary, description=summary)
        if name == chosen:
            # The subcommand's own arguments: the backend whose options it
            # takes is that of the target named in them.
            importlib.import_module(module).add_arguments(
                sub, list(argv)[list(argv).index(name) + 1:])
    parser.subcommands = subparsers.choices
    return parser


def report(error):
    """Print an SvmramError the way svmram(8) documents it: each line of
    the message, then the advice.  SVMRAM_DEBUG=1 adds the traceback of
    what caused it, if anything did."""
    for line in error.message.splitlines():
        sys.stderr.write("%s: %s\n" % (PROG, line))
    if error.advice:
        sys.stderr.write("%s: %s\n" % (PROG, error.advice))
    if os.environ.get("SVMRAM_DEBUG") and error.__cause__ is not None:
        traceback.print_exception(type(error), error, error.__traceback__)


def main(argv):
    """Run svmram with `argv` (the arguments after the program's name);
    returns the exit status.  stdout and stderr are guarded (streams.py):
    output into a closed pipe never raises; it stops the run at the next
    safe point, as SIGPIPE, and the exit status is 141 (128 + 13)."""
    with streams.guarded() as pair:
        uninstall = interrupt.install()
        try:
            status = _run(argv)
            with interrupt.deferred(raise_pending=False):
                for stream in pair:
                    stream.flush()
        finally:
            uninstall()
        if status < EXIT_SIGNAL_BASE and any(stream.closed_pipe
                                             for stream in pair):
            return EXIT_SIGNAL_BASE + signal.SIGPIPE
        return status


def _run(argv):
    args = None
    try:
        try:
            parser = build_parser(argv)
            args, extra = parser.parse_known_args(argv)
            if extra:
                # An option the subcommand does not take: its own usage,
                # not the top level's, says what it does take.
                parser.subcommands.get(args.subcommand, parser).error(
                    "unrecognized arguments: %s" % " ".join(extra))
        except SystemExit as done:      # --help, --version, a usage error
            return EXIT_OK if done.code is None else done.code
        if not args.subcommand:
            parser.print_usage(sys.stderr)
            return EXIT_USAGE
        module = importlib.import_module(SUBCOMMANDS[args.subcommand][0])
        # What the host lock's record names this run by (lock.py).
        args.command_line = shlex.join([PROG] + list(argv))
        testcut.configure()
        status = module.run(args)
        testcut.end(status)
        return status
    except SvmramError as error:
        with interrupt.deferred(raise_pending=False):
            report(error)
        return error.exit_code
    except KeyboardInterrupt as stop:
        # A signal the subcommand did not report itself, with the state it
        # left: most often one that came before anything was changed.
        signum = getattr(stop, "signum", signal.SIGINT)
        with interrupt.deferred(raise_pending=False):
            _stopped(signum, args)
        return EXIT_SIGNAL_BASE + signum
    except Exception as bug:            # pylint: disable=broad-except
        with interrupt.deferred(raise_pending=False):
            report_bug(bug, targets(args))
        return EXIT_FAILED
    finally:
        if args is not None and args.subcommand:
            testcut.never_reached()


def _stopped(signum, args):
    """Say how a signal the subcommand did not report left the host.  A
    closed pipe (SIGPIPE) before any change is not said: the reader went
    away, as from any command whose output it no longer wants."""
    if interrupt.changed():
        sys.stderr.write(
            "%s: stopped by %s\n%s: 'svmram status' shows the state of the "
            "%s; run the same command again to finish it.\n" % (
                PROG, interrupt.signal_name(signum), PROG, targets(args)))
    elif signum != signal.SIGPIPE:
        sys.stderr.write("%s: stopped by %s before anything was changed\n"
                         % (PROG, interrupt.signal_name(signum)))


def targets(args):
    """The targets of the backend the subcommand uses, plural ("mirrors",
    "arrays"), for the messages this module writes itself; every
    backend's ("mirrors or arrays") when that is not one backend."""
    words = registry.words_for(getattr(args, "target", None),
                               os.environ.get("SVMRAM_ROOT") or "/")
    return every_target() if words is None else words.target + "s"


def every_target():
    """Every backend's targets, plural: "mirrors or arrays"."""
    return either(noun + "s" for noun, _ in registry.described())


def report_bug(bug, targets=None):
    """The last resort: an error svmram did not expect is a bug.  One
    line says what and where; the traceback only with SVMRAM_DEBUG=1.
    `targets`: what 'svmram status' shows the state of (targets())."""
    sys.stderr.write("%s: %s\n" % (PROG, bug_text(bug)))
    sys.stderr.write("%s: %s\n" % (PROG, bug_advice(targets or
                                                     every_target())))
    if os.environ.get("SVMRAM_DEBUG"):
        traceback.print_exception(type(bug), bug, bug.__traceback__)
