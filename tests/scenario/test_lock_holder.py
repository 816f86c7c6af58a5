# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A run refused because another svmram holds the host lock names that
run: its command line, pid and since when (issue 36 section 3.4), in a
change and in a dry run alike; the holder here is svmram itself, stopped
right after taking the lock (SVMRAM_TEST_CUT=lock, testcut.py).  md's:
tests/md/test_cut.py."""

import json
import os
import subprocess
import sys
import time

import pytest

from hosts import SVMRAM

pytestmark = pytest.mark.emulator_only("stops svmram at the lock")

LOCK = "var/run/svmram.lock"


def test_a_refusal_names_the_svmram_run_that_holds_the_lock(host):
    proc = subprocess.Popen(
        [sys.executable, SVMRAM, "setup", "-y", "d10"],
        env=dict(host.env, SVMRAM_TEST_CUT="lock"), stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr.readline() == b"\n"
        assert proc.stderr.readline() == b"LAB-MARK cut lock\n"
        path = os.path.join(host.root, LOCK)
        with open(path, encoding="utf-8") as stream:
            since = json.load(stream)["since"]
        refusal = [
            "svmram: another svmram command is running (lock %s is held)"
            % path,
            "svmram: Wait for svmram setup -y d10 (pid %d, running since %s) "
            "to finish, then run this command again." % (
                proc.pid, time.strftime("%H:%M:%S", time.localtime(since)))]
        for args in (("teardown", "-y", "d10"), ("setup", "-n", "d10"),
                     ("restore", "d10")):
            result = host.svmram(*args)
            assert (result.returncode, result.stderr.splitlines()) == (
                3, refusal), args
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    assert host.violations() == []
