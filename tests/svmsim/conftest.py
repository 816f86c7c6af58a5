# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fixtures: an emulated host driven through its executables."""

import contextlib
import io
import json
import os
import shlex
import subprocess

import pytest

from svmsim import cli

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LIB = os.path.join(REPO, "lib")


def smf_down_error(down, host="myhost"):
    return "metastat: %s: %s: service(s) not online in SMF\n\n" % (
        host, "".join("\n\t" + s for s in down))


class Sim:
    """One emulated host in a temporary directory."""

    def __init__(self, path, preset="article", release=None, host=None):
        """``host``: a host description (dict) instead of the preset."""
        self.dir = str(path)
        base = dict(os.environ, PYTHONPATH=LIB)
        init = ["init", self.dir, "--preset", preset]
        if host is not None:
            host_file = str(path) + ".json"
            with open(host_file, "w") as f:
                json.dump(host, f)
            init[2:] = ["--host", host_file]
        if release is not None:
            init += ["--release", release]
        p = self.svmsim(*init, env=base)
        assert p.returncode == 0, p.stderr
        out = self.svmsim("env", self.dir, env=base).stdout
        self.env = dict(base)
        for line in out.splitlines():
            assert line.startswith("export ")
            var, _, value = line[len("export "):].partition("=")
            self.env[var] = shlex.split(value)[0]
        self.root = self.env["SVMSIM_ROOT"]

    def svmsim(self, *args, env=None, check=True):
        """The control interface, run in-process (the emulated commands
        always run as separate processes through DIR/bin)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(list(args))
        p = subprocess.CompletedProcess(args, rc, out.getvalue(),
                                        err.getvalue())
        if check and p.returncode not in (0, 1):
            raise AssertionError(p.stderr)
        return p

    def sim(self, *args):
        """``python3 -m svmsim ARG DIR ...`` (DIR inserted after ARG)."""
        return self.svmsim(args[0], self.dir, *args[1:])

    def run(self, cmdline):
        """Run a command line through the emulated PATH."""
        return subprocess.run(shlex.split(cmdline), env=self.env,
                              capture_output=True, text=True)

    def ok(self, cmdline):
        p = self.run(cmdline)
        assert p.returncode == 0, (cmdline, p.stdout, p.stderr)
        return p.stdout

    def stat_smf_down(self, cmdline, down=("system/metasync:default",)):
        """stdout of a metastat run while SVM services are not online
        (after `reboot --before-metasync`: metasync): metastat prints
        everything, then exits 1 naming them (meta_smf.c)."""
        p = self.run(cmdline)
        assert (p.returncode, p.stderr) == (1, smf_down_error(down)), \
            (cmdline, p.stdout, p.stderr)
        return p.stdout

    def link(self, name="testdisk", ctd="c5t0d0s0"):
        for d, r in (("dsk", "ramdisk"), ("rdsk", "rramdisk")):
            path = os.path.join(self.root, "dev", d, ctd)
            if os.path.lexists(path):
                os.unlink(path)
            os.symlink("/dev/%s/%s" % (r, name), path)

    def ram_stripe(self, name="d13", size="230m"):
        """A ramdisk testdisk of `size`, linked as c5t0d0s0, and a stripe
        `name` on it (labeled: it starts at block 0 of a labeled slice)."""
        self.ok("ramdiskadm -a testdisk %s" % size)
        self.link("testdisk")
        self.ok("metainit %s 1 1 c5t0d0s0" % name)

    def state(self):
        return json.loads(self.sim("state").stdout)

    def units(self):
        return self.state()["units"]

    def config(self):
        """The configuration part of the state (no data, no counters)."""
        st = self.state()
        units = {}
        for name, u in st["units"].items():
            u = dict(u)
            u.pop("truth", None)
            u.pop("cursor", None)
            if "subs" in u:
                u["subs"] = [dict(x, dirty=None) for x in u["subs"]]
            units[name] = u
        return {"units": units, "order": st["unit_order"],
                "ramdisks": st["ramdisks"], "replicas": st["replicas"],
                "opens": st["opens"]}

    def violations(self):
        return self.state()["violations"]


@pytest.fixture
def sim(tmp_path):
    return Sim(tmp_path / "sim")


@pytest.fixture
def make_sim(tmp_path):
    def make(preset="article", name="sim", release=None, host=None):
        return Sim(tmp_path / name, preset, release, host)
    return make
