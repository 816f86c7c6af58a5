# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The svmram collection (ansible/) on svmram's SVM emulator, on every
release profile (issue 38): playbooks/emulator.yml, run with a local
connection in the emulated host's environment, checks mode and diff mode
(the host's digest and svmram's trace unchanged), a setup killed after
its first metattach and run again (finished, serving), a rerun that
changes nothing (changed: false, also the plain command's "nothing to
do"), its boot service marked maintenance (the module fails with the
words of 'svmram setup', in check mode too, nothing changed), and a
teardown; the emulator's data-safety monitor stays clean."""

import os
import shutil
import subprocess
import sys

import pytest

from hosts import REPO, SVMRAM, EmulatedHost, killing_bindir

PLAY = os.path.join(REPO, "tests", "ansible", "playbooks", "emulator.yml")
COLLECTIONS = os.path.join(REPO, "ansible")
RELEASES = os.environ.get("SVMRAM_TEST_RELEASES",
                          "illumos-2016,solaris11,solaris10").split(",")


def ansible_playbook():
    """ansible-playbook of the interpreter that runs the tests (tests/
    install-deps installs ansible-core for it), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "ansible-playbook")
    return beside if os.access(beside, os.X_OK) else \
        shutil.which("ansible-playbook")


pytestmark = pytest.mark.skipif(
    ansible_playbook() is None,
    reason="ansible-core is not installed (tests/install-deps installs it)")


def play(host, tag, tmp_path, **variables):
    env = dict(host.env)
    env.update(ANSIBLE_COLLECTIONS_PATH=COLLECTIONS,
               ANSIBLE_HOME=str(tmp_path / "ansible-home"),
               ANSIBLE_LOCAL_TEMP=str(tmp_path / "ansible-tmp"),
               ANSIBLE_LOCALHOST_WARNING="false",
               ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
               ANSIBLE_PYTHON_INTERPRETER=sys.executable,
               ANSIBLE_NOCOLOR="1")
    argv = [ansible_playbook(), "-i", "localhost,", PLAY, "--tags", tag,
            "-e", "svmram=%s" % SVMRAM]
    for name, value in variables.items():
        argv += ["-e", "%s=%s" % (name, value)]
    result = subprocess.run(argv, env=env, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    assert result.returncode == 0, result.stdout
    return result.stdout


@pytest.mark.parametrize("release", RELEASES)
def test_the_collection_on_the_emulator(tmp_path, release):
    host = EmulatedHost(tmp_path / "host", release=release)
    original = host.metastat_p("d10")
    journal = os.path.join(host.root, "var", "svmram", "d10.journal")

    before = host.state_digest()
    play(host, "check", tmp_path)
    assert host.state_digest() == before
    assert host.trace() == [] and not os.path.exists(journal)

    play(host, "interrupted", tmp_path,
         kill_bindir=killing_bindir(host, "metattach", 1))
    assert not os.path.exists(journal)
    assert host.violations() == []

    host.clear_trace()
    before = host.state_digest()
    out = play(host, "rerun", tmp_path)
    assert "changed=0" in out
    assert host.state_digest() == before and host.trace() == []

    assert host.cmd("svcadm", "mark", "maintenance",
                    "svc:/system/svmram:d10").returncode == 0
    host.clear_trace()
    before = host.state_digest()
    play(host, "maintenance", tmp_path)
    assert host.state_digest() == before and host.trace() == []

    play(host, "teardown", tmp_path)
    assert host.metastat_p("d10") == original
    assert host.violations() == []
