# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The host lock: exclusive for changes; shared for a dry run, which needs
no right to create or write the lock file, so -n works without root."""

import os
import subprocess
import sys
import tempfile

import pytest

from svmram.lock import HostLock

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
NOBODY = 65534


@pytest.fixture
def lockdir():
    directory = tempfile.mkdtemp(prefix="svmram-lock-")
    os.chmod(directory, 0o755)
    yield directory
    subprocess.run(["rm", "-rf", directory], check=True)


def take_shared_as_nobody(path):
    """Run HostLock(path, shared=True) in a process of uid 65534."""
    def nobody():
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from svmram.lock import HostLock\n"
            "from svmram.errors import RefusedError\n"
            "try:\n"
            "    with HostLock(%r, shared=True):\n"
            "        print('locked')\n"
            "except RefusedError as e:\n"
            "    print('refused: ' + e.message)\n" % (
                os.path.join(REPO, "lib"), path))
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            result = subprocess.run([python, "-c", code], preexec_fn=nobody,
                                    capture_output=True, text=True)
        except OSError:         # under /root, which uid 65534 cannot enter
            continue
        if "Permission denied" not in result.stderr:
            return result
    pytest.skip("no Python interpreter that uid %d can run" % NOBODY)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become nobody")
def test_a_dry_run_takes_a_root_owned_lock_file_shared(lockdir):
    path = os.path.join(lockdir, "svmram.lock")
    with HostLock(path):
        pass                                # root made the file, 0644
    result = take_shared_as_nobody(path)
    assert (result.stdout, result.stderr) == ("locked\n", "")


def test_a_dry_run_with_no_lock_file_creates_none(lockdir):
    path = os.path.join(lockdir, "svmram.lock")
    with HostLock(path, shared=True):
        assert not os.path.exists(path)


def test_a_dry_run_is_refused_while_a_change_runs(lockdir):
    path = os.path.join(lockdir, "svmram.lock")
    with HostLock(path):
        child = subprocess.run([sys.executable, "-c", (
            "import sys; sys.path.insert(0, %r)\n"
            "from svmram.lock import HostLock\n"
            "from svmram.errors import RefusedError\n"
            "try:\n"
            "    with HostLock(%r, shared=True): print('locked')\n"
            "except RefusedError as e: print(e.message)\n") % (
                os.path.join(REPO, "lib"), path)],
            capture_output=True, text=True)
    assert child.stdout == (
        "another svmram command is running (lock %s is held)\n" % path)

