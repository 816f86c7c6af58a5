# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""bash-completion/svmram: the subcommands, each subcommand's options as
the command's own parser has them for an md array, and the arrays of
/proc/mdstat, with and without bash-completion's _init_completion."""

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
MDSTAT = """Personalities : [raid1]
md0 : active raid1 ram0[2](W) vdb[1](W) vda[0](W)
      130048 blocks super 1.2 [3/3] [UUU]
      bitmap: 0/1 pages [0KB], 65536KB chunk

md127 : active raid1 vdc[0] vdd[1]
      65472 blocks super 1.2 [2/2] [UU]

unused devices: <none>
"""
MODES = ["plain"] + (["framework"] if os.path.exists(FRAMEWORK) else [])


def complete(line, tmp_path, mode):
    """COMPREPLY for the command line `line` (the cursor at its end)."""
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    mdstat = tmp_path / "mdstat"
    mdstat.write_text(MDSTAT)
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
                          text=True, env=dict(os.environ,
                                              SVMRAM_MDSTAT=str(mdstat)))
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
def test_the_arrays_of_mdstat(tmp_path, mode):
    assert complete("svmram setup -y ", tmp_path, mode) == [
        "/dev/md0", "/dev/md127", "md0", "md127"]
    assert complete("svmram status md1", tmp_path, mode) == ["md127"]
    assert complete("svmram status -o ram,redu", tmp_path, mode) == [
        "ram,redundancy"]


@pytest.mark.parametrize("mode", MODES)
def test_status_fields_are_status_s(tmp_path, mode):
    from svmram.commands.status import FIELDS
    assert complete("svmram status -o ", tmp_path, mode) == sorted(FIELDS)
