# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""run.py: the one process runner.  A command that hangs is killed after
COMMAND_TIMEOUT and reported; argv lists only, LC_ALL=C."""

import os
import time

import pytest

from svmram import run
from svmram.errors import SvmramError


@pytest.fixture
def bindir(tmp_path, monkeypatch):
    monkeypatch.setenv("SVMRAM_BINDIR", str(tmp_path))
    monkeypatch.delenv("SVMRAM_TRACE", raising=False)

    def fake(name, body):
        path = tmp_path / name
        path.write_text("#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)
    return fake


def test_a_command_that_hangs_is_killed_and_reported(bindir, monkeypatch):
    bindir("metastat", "exec sleep 30")
    monkeypatch.setattr(run, "COMMAND_TIMEOUT", 1)
    started = time.monotonic()
    with pytest.raises(SvmramError) as raised:
        run.run("metastat", "/usr/sbin/metastat", ["-p"])
    assert time.monotonic() - started < 20
    assert raised.value.message.endswith(
        "metastat -p did not finish within 1 seconds and was killed")
    assert raised.value.advice.startswith("Look for what holds it up")


def test_commands_run_in_the_c_locale_with_argv_untouched(bindir):
    bindir("metastat", 'printf "%s|" "$LC_ALL" "$@"')
    result = run.run("metastat", "/usr/sbin/metastat",
                     ["-p", "d10; rm -rf /", "$HOME"])
    assert result.stdout == "C|-p|d10; rm -rf /|$HOME|"
