# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The host lock: exclusive for changes; shared for a dry run, which needs
no right to create or write the lock file, so -n works without root."""

import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

from svmram import lock
from svmram.errors import RefusedError
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


def take_in_a_process(path, shared=False, python=sys.executable,
                      preexec_fn=None):
    """Run HostLock(path) in a process of its own (fcntl's locks do not
    keep a process from itself): it prints 'locked', or 'refused: ' and
    the refusal's message."""
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from svmram.lock import HostLock\n"
            "from svmram.errors import RefusedError\n"
            "try:\n"
            "    with HostLock(%r, shared=%r):\n"
            "        print('locked')\n"
            "except RefusedError as e:\n"
            "    print('refused: ' + e.message)\n" % (
                os.path.join(REPO, "lib"), path, shared))
    return subprocess.run([python, "-c", code], preexec_fn=preexec_fn,
                          capture_output=True, text=True)


def take_shared_as_nobody(path):
    """Run HostLock(path, shared=True) in a process of uid 65534."""
    def nobody():
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    for python in (sys.executable, "/usr/bin/python3"):
        try:
            result = take_in_a_process(path, shared=True, python=python,
                                       preexec_fn=nobody)
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
        child = take_in_a_process(path, shared=True)
    assert (child.stdout, child.stderr) == (
        "refused: another svmram command is running (lock %s is held)\n"
        % path, "")



HOLD = ("import os, sys, time; sys.path.insert(0, %r)\n"
        "from svmram.lock import HostLock\n"
        "with HostLock(sys.argv[1], command=sys.argv[2] or None):\n"
        "    print('held', flush=True)\n"
        "    sys.stdin.read()\n")


class Holder:
    """Another process holds the lock as svmram would (HostLock), with
    `command` as its command line, until release()."""

    def __init__(self, path, command):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLD % os.path.join(REPO, "lib"), path,
             command or ""], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True)
        assert self.proc.stdout.readline() == "held\n"
        self.pid = self.proc.pid

    def release(self):
        self.proc.stdin.close()
        self.proc.wait()
        self.proc.stdout.close()


def refusal(path, shared=False):
    """(message, advice) of a HostLock refused on `path`."""
    with pytest.raises(RefusedError) as refused:
        with HostLock(path, shared=shared):
            pass
    return refused.value.message, refused.value.advice


@pytest.mark.parametrize("shared", [False, True], ids=["change", "dry-run"])
def test_a_refusal_names_the_holder_its_command_and_since_when(
        lockdir, shared):
    path = os.path.join(lockdir, "svmram.lock")
    before = int(time.time())
    holder = Holder(path, "svmram restore d10")
    try:
        with open(path, encoding="utf-8") as stream:
            line = stream.read()
        since = json.loads(line)["since"]
        assert before <= since <= time.time()
        assert line == ('{"command": "svmram restore d10", "pid": %d, '
                        '"since": %d}\n' % (holder.pid, since))
        assert refusal(path, shared) == (
            "another svmram command is running (lock %s is held)" % path,
            "Wait for svmram restore d10 (pid %d, running since %s) to "
            "finish, then run this command again." % (
                holder.pid, time.strftime("%H:%M:%S",
                                          time.localtime(since))))
    finally:
        holder.release()
    # The holder empties the file as it lets the lock go.
    with open(path, encoding="utf-8") as stream:
        assert stream.read() == ""


def test_a_holder_since_another_day_is_named_with_the_date():
    since = int(time.mktime((2026, 11, 27, 14, 2, 11, 0, 0, -1)))
    now = int(time.mktime((2026, 11, 28, 9, 0, 0, 0, 0, -1)))
    assert lock.describe(lock.Holder(1234, "svmram restore d10", since),
                         now) == (
        "svmram restore d10 (pid 1234, running since 2026-11-27 14:02:11)")
    assert lock.describe(lock.Holder(1234, "svmram restore d10", now - 60),
                         now) == (
        "svmram restore d10 (pid 1234, running since 08:59:00)")


def held_with(path, text, shared=False):
    """Another process holds the lock (exclusive as an older svmram would,
    or `shared` as a status or a dry run does) with `text` in the file;
    returns the LockHolder-like Popen."""
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    proc = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, sys\n"
        "with open(sys.argv[1], 'r' if sys.argv[2] else 'r+') as held:\n"
        "    fcntl.lockf(held, fcntl.LOCK_SH if sys.argv[2] else "
        "fcntl.LOCK_EX)\n"
        "    print('held', flush=True)\n"
        "    sys.stdin.read()\n"), path, "shared" if shared else ""],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "held\n"
    return proc


def release(proc):
    proc.stdin.close()
    proc.wait()
    proc.stdout.close()


GENERIC = "Wait for it to finish, then run this command again."


def test_an_older_svmram_is_named_by_its_pid(lockdir):
    path = os.path.join(lockdir, "svmram.lock")
    proc = held_with(path, "")
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write("%d\n" % proc.pid)     # what svmram 1.x wrote
        assert refusal(path)[1] == (
            "Wait for svmram (pid %d) to finish, then run this command "
            "again." % proc.pid)
    finally:
        release(proc)


@pytest.mark.parametrize("text", [
    "",                                         # a reader's lock
    '{"command": "svmram setup -y d10", "pi',   # a record half written
    "12",                                       # an old pid half written
    "not a record\n",
    '{"command": "svmram setup -y d10", "pid": "x", "since": 1}\n',
], ids=["empty", "half-record", "half-pid", "garbage", "bad-pid"])
def test_what_is_not_a_whole_record_names_no_holder(lockdir, text):
    path = os.path.join(lockdir, "svmram.lock")
    proc = held_with(path, text)
    try:
        assert refusal(path)[1] == GENERIC
    finally:
        release(proc)


def test_a_record_a_killed_run_left_names_no_holder(lockdir):
    """A run killed with -9 leaves its record; the lock is then held by
    a reader (status, a dry run), not by the dead pid."""
    path = os.path.join(lockdir, "svmram.lock")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    proc = held_with(path, lock.record(dead.pid, "svmram setup -y d10",
                                       time.time()).decode())
    try:
        assert refusal(path)[1] == GENERIC
    finally:
        release(proc)


def test_a_killed_run_s_record_whose_pid_runs_again_names_no_holder(
        lockdir):
    """The pid of a run killed with -9 now names another process that
    runs (here a sleep), and a dry run holds the lock: the refusal names
    no holder, never the sleep as an svmram that holds it."""
    path = os.path.join(lockdir, "svmram.lock")
    other = subprocess.Popen(["sleep", "60"])
    try:
        proc = held_with(path, lock.record(
            other.pid, "svmram setup -y d10", time.time()).decode(),
            shared=True)
        try:
            assert refusal(path) == (
                "another svmram command is running (lock %s is held)" % path,
                GENERIC)
        finally:
            release(proc)
    finally:
        other.kill()
        other.wait()


def test_a_record_that_cannot_be_written_is_an_error_and_frees_the_lock(
        lockdir, monkeypatch):
    path = os.path.join(lockdir, "svmram.lock")

    def full(*_):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(lock.os, "pwrite", full)
    with pytest.raises(lock.SvmramError) as failed:
        with HostLock(path, command="svmram setup -y d10"):
            pass
    assert (failed.value.message, failed.value.advice) == (
        "cannot write svmram's lock file %s: No space left on device" % path,
        "Check that %s can be written (df %s shows its free space), then "
        "run this command again." % (lockdir, lockdir))
    # The lock was let go: another process takes it.
    child = take_in_a_process(path)
    assert (child.stdout, child.stderr) == ("locked\n", "")
