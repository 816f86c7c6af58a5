# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""bash-completion/svmram: the subcommands, each subcommand's options as
the command's own parser has them for an md array, and the targets as
svmram lists them (a stand-in svmram on PATH; tests/md/test_cli.py pins
the real command's lines), with and without bash-completion's
_init_completion."""

import os
import shlex
import shutil
import subprocess

import pytest

from svmram.cli import SUBCOMMANDS, build_parser

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
COMPLETION = os.path.join(REPO, "bash-completion", "svmram")
FRAMEWORK = "/usr/share/bash-completion/bash_completion"
# svmram as the completion asks it: status -H -o mirror lists the targets
# set up, check says which others setup would take.
SVMRAM = """#!/bin/sh
case "$*" in
"status -H -o mirror") printf 'md0\\nmd127\\n' ;;
check) printf '%s\\n' "ok       kernel    Linux 6.12.0" \\
	"md0: set up: recorded in /etc/svmram/md/md0.json" \\
	"md5: ready: existing array: md5 grows from 2 to 3 raid devices" \\
	"md6: refused: md6 is raid5, not RAID-1" \\
	"    svmram only adds a RAM member to RAID-1 arrays." ;;
*) exit 2 ;;
esac
"""
MODES = ["plain"] + (["framework"] if os.path.exists(FRAMEWORK) else [])


def complete(line, tmp_path, mode):
    """COMPREPLY for the command line `line` (the cursor at its end)."""
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "svmram").write_text(SVMRAM)
    (bindir / "svmram").chmod(0o755)
    words = line.split(" ")
    script = "\n".join([
        "source %s" % shlex.quote(FRAMEWORK) if mode == "framework" else "",
        "source %s" % shlex.quote(COMPLETION),
        "COMP_LINE=%s" % shlex.quote(line),
        "COMP_POINT=%d" % len(line),
        "COMP_WORDS=(%s)" % " ".join(shlex.quote(w) for w in words),
        "COMP_CWORD=%d" % (len(words) - 1),
        "_svmram svmram %s %s" % (shlex.quote(words[-1]),
                                  shlex.quote(words[-2])),
        'printf "%s\\n" "${COMPREPLY[@]}"',
    ])
    done = subprocess.run(["bash", "-c", script], capture_output=True,
                          text=True, env=dict(os.environ, PATH="%s:%s" % (
                              bindir, os.environ["PATH"])))
    assert done.returncode == 0, done.stderr
    return sorted(w for w in done.stdout.splitlines() if w)


def md_options(subcommand):
    parser = build_parser([subcommand, "/dev/md0"])
    sub = [a for a in parser._actions if a.dest == "subcommand"][0]
    return sorted(option for action in sub.choices[subcommand]._actions
                  for option in action.option_strings)


@pytest.mark.parametrize("mode", MODES)
def test_the_subcommands(tmp_path, mode):
    assert complete("svmram ", tmp_path, mode) == sorted(
        list(SUBCOMMANDS) + ["--help", "--version"])
    assert complete("svmram st", tmp_path, mode) == ["status", "stop"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("subcommand", sorted(SUBCOMMANDS))
def test_each_subcommand_s_options_are_the_parser_s(tmp_path, mode,
                                                    subcommand):
    assert complete("svmram %s -" % subcommand, tmp_path, mode) == \
        md_options(subcommand)


@pytest.mark.parametrize("mode", MODES)
def test_the_targets_svmram_lists(tmp_path, mode):
    assert complete("svmram setup -y ", tmp_path, mode) == ["md5"]
    assert complete("svmram status ", tmp_path, mode) == ["md0", "md127"]
    assert complete("svmram status md1", tmp_path, mode) == ["md127"]
    assert complete("svmram teardown -y m", tmp_path, mode) == [
        "md0", "md127"]
    assert complete("svmram status -o ram,redu", tmp_path, mode) == [
        "ram,redundancy"]


@pytest.mark.parametrize("mode", MODES)
def test_status_fields_are_status_s(tmp_path, mode):
    from svmram.commands.status import FIELDS
    assert complete("svmram status -o ", tmp_path, mode) == sorted(FIELDS)


def test_the_completion_names_no_backend_s_file():
    """It asks svmram (issue 37 section 5)."""
    with open(COMPLETION) as stream:
        text = stream.read()
    for word in ("/proc", "mdstat", "/sys", "/etc/svmram", "svmram@"):
        assert word not in text, word
