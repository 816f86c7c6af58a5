# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram's output into a closed pipe (`svmram status --help | true`) on
the SVM emulator: no traceback, SIGPIPE's exit status 141 and nothing on
stderr, and a setup whose last line is lost is still whole (issue 36
section 3.7; md's: tests/md/test_cli.py)."""

import os
import subprocess

import pytest

import releases
from hosts import PYTHON, SVMRAM

pytestmark = pytest.mark.emulator_only("runs svmram with a closed stdout")


def into_a_closed_pipe(host, *args):
    """svmram ARGS as a process with stdout a pipe whose reader has
    exited: (exit status, stderr)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.run(PYTHON + [SVMRAM] + list(args),
                              stdin=subprocess.DEVNULL, stdout=writer,
                              stderr=subprocess.PIPE, text=True,
                              env=host.env, timeout=300, check=False)
    finally:
        os.close(writer)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("args", [
    ("--help",), ("status", "--help"), ("status",), ("status", "--json"),
    ("setup", "-n", "d10"), ("check",), ("check", "--json")])
def test_output_into_a_closed_pipe_exits_141_and_says_nothing(host, args):
    assert into_a_closed_pipe(host, *args) == (141, "")


def test_a_setup_whose_output_goes_into_a_closed_pipe_still_finishes(host):
    rc, err = into_a_closed_pipe(host, "setup", "-y", "d10")
    assert rc == 141, err
    assert not [line for line in err.splitlines()
                if line.startswith(("svmram: ", "Traceback"))], err
    assert host.metastat_p() == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []
