# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""cli.main's last resort: an exception svmram did not expect becomes one
line and a "please report", exit 1; the traceback only on request."""

import sys
import types

from svmram import cli
from svmram.errors import EXIT_FAILED


def fake_subcommand(monkeypatch, error):
    module = types.ModuleType("svmram.commands.fake")
    module.add_arguments = lambda parser, argv=(): None

    def run(args):
        raise error
    module.run = run
    monkeypatch.setitem(sys.modules, "svmram.commands.fake", module)
    monkeypatch.setattr(cli, "SUBCOMMANDS", dict(
        cli.SUBCOMMANDS, fake=("svmram.commands.fake", "raises")))


def test_an_unexpected_exception_is_one_line_and_a_report_request(
        monkeypatch, capsys):
    from svmram import registry
    monkeypatch.delenv("SVMRAM_DEBUG", raising=False)
    # A host of both backends: given no target, the advice names both.
    monkeypatch.setattr(registry, "host_owners",
                        lambda root="/": ["svm", "md"])
    fake_subcommand(monkeypatch, AssertionError("planner does not converge"))
    assert cli.main(["fake"]) == EXIT_FAILED
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("svmram: internal error: AssertionError: "
                             "planner does not converge (test_cli_errors.py "
                             "line ")
    assert err[1] == (
        "svmram: this is a bug in svmram; please report it with this output."
        "  'svmram status' shows the state of the mirrors or arrays; "
        "SVMRAM_DEBUG=1 prints the traceback.")
    assert len(err) == 2
    # A host of one: its targets.
    monkeypatch.setattr(registry, "host_owners", lambda root="/": ["svm"])
    assert cli.main(["fake"]) == EXIT_FAILED
    assert capsys.readouterr().err.splitlines()[1] == (
        "svmram: this is a bug in svmram; please report it with this output."
        "  'svmram status' shows the state of the mirrors; "
        "SVMRAM_DEBUG=1 prints the traceback.")


def test_svmram_debug_adds_the_traceback(monkeypatch, capsys):
    monkeypatch.setenv("SVMRAM_DEBUG", "1")
    fake_subcommand(monkeypatch, OSError(2, "No such file or directory"))
    assert cli.main(["fake"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "svmram: internal error: FileNotFoundError: " in err
    assert "Traceback (most recent call last):" in err


def test_a_signal_before_any_change_says_nothing_was_changed(
        monkeypatch, capsys):
    from svmram import interrupt
    fake_subcommand(monkeypatch, interrupt.Interrupted(15))
    assert cli.main(["fake"]) == 143
    assert capsys.readouterr().err == (
        "svmram: stopped by SIGTERM before anything was changed\n")


def test_a_plain_keyboard_interrupt_is_a_sigint(monkeypatch, capsys):
    fake_subcommand(monkeypatch, KeyboardInterrupt())
    assert cli.main(["fake"]) == 130
    assert capsys.readouterr().err == (
        "svmram: stopped by SIGINT before anything was changed\n")


def test_every_line_of_a_message_is_prefixed_and_the_advice_kept(
        monkeypatch, capsys):
    from svmram.errors import SvmramError
    fake_subcommand(monkeypatch, SvmramError(
        "what happened\nthe state now", advice="what to do:\nscript"))
    assert cli.main(["fake"]) == EXIT_FAILED
    assert capsys.readouterr().err == (
        "svmram: what happened\nsvmram: the state now\n"
        "svmram: what to do:\nscript\n")


def test_the_handlers_are_put_back_after_a_run(monkeypatch):
    import signal
    fake_subcommand(monkeypatch, KeyboardInterrupt())
    before = signal.getsignal(signal.SIGINT)
    cli.main(["fake"])
    assert signal.getsignal(signal.SIGINT) is before


def test_an_option_the_subcommand_does_not_take_gets_its_usage(capsys):
    """'svmram check -j' (check takes --json only) is refused with check's
    usage, which names what it takes, not the top level's."""
    assert cli.main(["check", "-j", "d10"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("usage: svmram check [-h] [--json]")
    assert err[-1] == "svmram: unrecognized arguments: -j"
    assert cli.main(["--bogus"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["usage: svmram [-h] [--version] SUBCOMMAND ...",
                   "svmram: unrecognized arguments: --bogus"]
