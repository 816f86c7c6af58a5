# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram's output into a closed pipe (`svmram status --help | true`) on
the SVM emulator: no traceback, SIGPIPE's exit status 141 and nothing on
stderr, and a setup whose last line is lost is still whole (issue 36
section 3.7; md's: tests/md/test_cli.py).

Every form of every subcommand (cli.SUBCOMMANDS: each one's --help and a
usage error come by themselves, its outputs from FORMS, which must name
every subcommand) runs twice into a closed pipe: once with stdout there
(`| true`), once with stdout and stderr (`2>&1 | true`).  Neither prints
a traceback or Python's "Exception ignored"; the exit status is 141 if
the output was lost, else the form's own; stderr, while it is open, says
what an open pipe's run says (for a form that changes nothing); the
safety monitor stays clean.  The forms are svmram's, not the
emulator's: they run on illumos-2016 only (some 90 cases, 40 s of CPU
on one profile)."""

import os
import subprocess

import pytest

import releases
from hosts import PYTHON, SVMRAM
from svmram import cli

pytestmark = pytest.mark.emulator_only("runs svmram with a closed stdout")

SET_UP = ("svmram", "setup", "-y", "d10")

# subcommand: [(what runs before, the arguments after its name)].  The
# forms that write: every output format, a dry run's script, a change.
FORMS = {
    "status": [((), ()), ((), ("--json",)), ((), ("--nagios",)),
               ((), ("--prometheus",)), ((), ("-H", "-p")), ((), ("-x",)),
               ((SET_UP,), ()), ((SET_UP,), ("--json", "d10")),
               ((SET_UP,), ("--nagios",)), ((SET_UP,), ("--prometheus",)),
               ((SET_UP,), ("-H", "-o", "name,state"))],
    "check": [((), ()), ((), ("--json",)), ((), ("d10",))],
    "setup": [((), ("-n", "d10")), ((), ("-y", "d10"))],
    "teardown": [((SET_UP,), ("-n", "d10")), ((SET_UP,), ("-y", "d10"))],
    "restore": [((SET_UP,), ("-n", "d10")), ((SET_UP,), ("d10",))],
    "stop": [((SET_UP,), ("-n", "d10")), ((SET_UP,), ("d10",))],
    "selftest": [((), ()), ((), ("--json",))],
}
# The forms that change the host: stderr may differ (the run stops at
# the next safe point), the host must stay whole.
CHANGES = {("setup", "-y", "d10"), ("teardown", "-y", "d10"),
           ("restore", "d10"), ("stop", "d10"), ("selftest",),
           ("selftest", "--json")}


def every_form():
    """(what runs before, svmram's arguments) of each case: the top
    level's, then each subcommand's --help, a usage error and FORMS."""
    cases = [((), ("--help",)), ((), ("--version",)), ((), ()),
             ((), ("--no-such-option",)), ((), ("no-such-subcommand",))]
    for name in cli.SUBCOMMANDS:
        cases += [((), (name, "--help")), ((), (name, "--no-such-option"))]
        cases += [(before, (name,) + args)
                  for before, args in FORMS.get(name, ())]
    return cases


def into_a_closed_pipe(host, *args, stderr_too=False):
    """svmram ARGS as a process with stdout (and with stderr_too stderr)
    a pipe whose reader has exited: (exit status, stderr, or "" when it
    went into the pipe)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.run(PYTHON + [SVMRAM] + list(args),
                              stdin=subprocess.DEVNULL, stdout=writer,
                              stderr=writer if stderr_too else
                              subprocess.PIPE,
                              text=True, env=host.env, timeout=300,
                              check=False)
    finally:
        os.close(writer)
    return proc.returncode, proc.stderr or ""


def test_forms_name_every_subcommand():
    assert sorted(FORMS) == sorted(cli.SUBCOMMANDS)


@pytest.mark.parametrize("stderr_too", [False, True],
                         ids=["stdout", "stdout-and-stderr"])
@pytest.mark.parametrize("before,args", every_form(),
                         ids=lambda value: " ".join(
                             "+".join(step[1:]) if isinstance(step, tuple)
                             else step for step in value) or "-")
def test_no_form_prints_a_traceback_into_a_closed_pipe(
        host_after, release, before, args, stderr_too):
    if release != releases.ILLUMOS:
        pytest.skip("svmram's forms run on %s only (cost)" % releases.ILLUMOS)
    opened = host_after(*before)
    open_run = opened.svmram(*args)
    closed = host_after(*before)
    rc, err = into_a_closed_pipe(closed, *args, stderr_too=stderr_too)
    for words in ("Traceback", "Exception ignored", "internal error"):
        assert words not in err, (args, err)
    lost = open_run.stdout or (stderr_too and open_run.stderr)
    assert rc == (141 if lost else open_run.returncode), (args, err)
    if not stderr_too and tuple(args) not in CHANGES:
        assert err == open_run.stderr, args
    assert closed.violations() == []


def test_a_setup_whose_output_goes_into_a_closed_pipe_still_finishes(host):
    rc, err = into_a_closed_pipe(host, "setup", "-y", "d10")
    assert rc == 141, err
    assert not [line for line in err.splitlines()
                if line.startswith(("svmram: ", "Traceback"))], err
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []
