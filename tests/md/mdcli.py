# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The svmram command on md's fake kernel, for test_cli.py and the tests
beside it: a fake tree captured from a real kernel (faketree.py,
fixtures/vm-*.sysfs.txt) under SVMRAM_ROOT, and fake mdadm, modprobe,
rmmod and systemctl (fakekernel.py) in SVMRAM_BINDIR that move it.

svmram's cli.main runs in the test's process (as the SVM scenarios run
it, tests/scenario/inprocess.py), with the environment, empty stdin and
captured output a process would have; its one seam for processes
(run.start) runs the fake commands of SVMRAM_BINDIR in the same process,
and its seam for md's sysfs attributes (svmram.md.host.sysfs_read and
sysfs_write) is the fake kernel's model of them.  process=True runs
sbin/svmram as a process instead (fake_svmram.py, the same seams), for
what only a process shows: the modules it imports, the interpreter's
options, a kill; SVMRAM_TEST_PROCESSES=1 makes every run a process, as
the scenario tests' runs (inprocess.enabled)."""

import contextlib
import json
import os
import subprocess
import sys

import fakekernel
import faketree
import inprocess
from faketree import fixture

from svmram import run
from svmram.md import host as md_host

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
RECORD = "/etc/svmram/md/md0.json"
UNIT = "svmram@md0.service"
GROWN = {"array": "md0", "disks": ["vda", "vdb"], "ram": "ram0",
         "rd_size_kib": 131072, "offset_sectors": 2048, "created": False,
         "write_mostly_before": []}
IS_ENABLED = ["systemctl", "is-enabled", UNIT]
SETUP_ARGVS = [
    IS_ENABLED,
    ["systemctl", "enable", UNIT],
    ["modprobe", "brd", "rd_nr=1", "rd_size=131072"],
    ["mdadm", "--grow", "/dev/md0", "--raid-devices=3", "--add",
     "/dev/ram0"],
    ["systemctl", "start", UNIT],
    ["systemctl", "is-enabled", UNIT],
    ["systemctl", "is-active", UNIT]]
# What the unit's stop at shutdown runs: the RAM member out, brd gone.
STOP_ARGVS = [
    ["mdadm", "/dev/md0", "--fail", "/dev/ram0", "--remove", "/dev/ram0"],
    ["mdadm", "--grow", "/dev/md0", "--raid-devices=2"],
    ["rmmod", "brd"]]


@contextlib.contextmanager
def fake_sysfs():
    """svmram's sysfs seam is the fake kernel's while inside."""
    saved = md_host.sysfs_read, md_host.sysfs_write
    md_host.sysfs_read = fakekernel.sysfs_read
    md_host.sysfs_write = fakekernel.sysfs_write
    try:
        yield
    finally:
        md_host.sysfs_read, md_host.sysfs_write = saved


class Host:
    def __init__(self, tmp_path, dump="vm-after-teardown.sysfs.txt"):
        self.root = faketree.build(str(tmp_path / "root"), fixture(dump))
        faketree.write(self.root, fakekernel.UNIT_FILE, "[Unit]")
        self.bindir = fakekernel.install(str(tmp_path / "bin"))
        self.trace = str(tmp_path / "trace")

    def path(self, path):
        return faketree.path_in(self.root, path)

    def environment(self, env=None):
        """The environment svmram runs with here (`env`: more)."""
        env = dict(os.environ, SVMRAM_ROOT=self.root,
                   SVMRAM_BINDIR=self.bindir, SVMRAM_TRACE=self.trace,
                   SVMRAM_POLL_SECONDS="0.01", **(env or {}))
        env.pop("SVMRAM_DEBUG", None)
        return env

    def svmram(self, *args, env=None, stdin="", process=False, python=()):
        """(exit status, stdout, stderr, the argvs run); the trace is
        emptied for the next call.  `env`: more environment; `stdin`:
        the command's standard input, a text or a stream (none: a
        terminal is not there to confirm).  `process` (or `python`,
        options for the interpreter): sbin/svmram as a process."""
        env = self.environment(env)
        if process or python or not inprocess.enabled():
            proc = subprocess.run(
                [sys.executable] + list(python) +
                [os.path.join(HERE, "fake_svmram.py")] + list(args),
                stdin=subprocess.DEVNULL if stdin == "" else stdin,
                capture_output=True, text=True, env=env, timeout=120,
                check=False)
            rc, out, err = proc.returncode, proc.stdout, proc.stderr
        else:
            stream = stdin if not isinstance(stdin, int) else \
                open(stdin, closefd=False)      # a terminal's descriptor
            with fake_sysfs():
                rc, out, err = inprocess.svmram(args, env, stream,
                                                runner=self._start)
        argvs = []
        if os.path.exists(self.trace):
            with open(self.trace) as stream:
                argvs = [json.loads(line) for line in stream]
            os.unlink(self.trace)
        assert "Traceback" not in err
        return rc, out, err, argvs

    def _start(self, argv, env, timeout):
        """run.start: a fake command of the bin directory runs here."""
        name = os.path.basename(argv[0])
        if os.path.dirname(argv[0]) != self.bindir or \
                name not in fakekernel.COMMANDS:
            return run.start_process(argv, env, timeout)
        return inprocess.as_process(
            env, lambda: fakekernel.main(name, list(argv[1:])))

    def command(self, argv):
        """A fake command run by the test itself, as an administrator
        would run it (not traced); it must succeed."""
        status, _, err = self._start(
            [os.path.join(self.bindir, argv[0])] + list(argv[1:]),
            dict(os.environ, SVMRAM_ROOT=self.root), None)
        assert status == 0, err

    def sysfs(self):
        """Every file and directory under /sys, with its text."""
        found = {}
        top = self.path("/sys")
        for dirpath, dirs, files in os.walk(top):
            for name in dirs + files:
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, top)
                if os.path.islink(full):
                    found[rel] = "-> " + os.path.relpath(
                        os.readlink(full), top)
                elif os.path.isdir(full):
                    found[rel] = "dir"
                else:
                    with open(full) as stream:
                        found[rel] = stream.read()
        return found

    def state(self, disk):
        with open(self.path("/sys/block/md0/md/dev-%s/state" % disk)) as s:
            return s.read().strip()

    def record(self):
        with open(self.path(RECORD)) as stream:
            return json.load(stream)

    def unit(self):
        path = self.path("/fake-systemd/" + UNIT)
        if not os.path.exists(path):
            return None
        with open(path) as stream:
            return stream.read().split()

    def set_unit(self, enabled, active):
        faketree.write(self.root, "/fake-systemd/" + UNIT,
                       "%s %s" % (enabled, active))


def set_up(host):
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS), err
    return out, err


def set_up_with_a_textfile_directory(tmp_path):
    """md0 set up, and an empty directory for node_exporter's textfile
    collector beside the host: (host, directory)."""
    host = Host(tmp_path)
    set_up(host)
    directory = tmp_path / "textfile"
    directory.mkdir()
    return host, directory


def stopped_by_the_unit(host):
    """Set up, then what the unit's stop at shutdown does, run by hand:
    the RAM member out, raid devices shrunk, brd unloaded, the disks
    still write-mostly."""
    set_up(host)
    for argv in STOP_ARGVS:
        host.command(argv)
