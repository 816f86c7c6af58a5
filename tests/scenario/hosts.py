"""Hosts that scenario tests run svmram against.

EmulatedHost drives the SVM emulator (lib/svmsim) in a temporary
directory.  The scenario tests only use the methods below, so a real
illumos host can stand in for it (SVMRAM_TEST_HOST=real; see
docs/testing.md).
"""

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
HOSTS = os.path.join(REPO, "tests", "scenario", "hosts")   # NAME.json
LIB = os.path.join(REPO, "lib")
SVMRAM = os.path.join(REPO, "sbin", "svmram")
MANIFEST = os.path.join(REPO, "manifests", "svmram.xml")

# Commands that only read; everything else in a trace changes the host.
READ_ONLY = {"metastat", "svcprop", "svcs", "kstat", "metadb"}


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def _python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = LIB
    return env


class EmulatedHost:
    kind = "emulator"

    def __init__(self, directory, preset="article", host_file=None):
        self.dir = str(directory)
        init = [sys.executable, "-m", "svmsim", "init", self.dir]
        init += ["--host", host_file] if host_file else ["--preset", preset]
        subprocess.run(init, env=_python_env(), check=True,
                       stdout=subprocess.DEVNULL)
        exports = subprocess.run(
            [sys.executable, "-m", "svmsim", "env", self.dir],
            env=_python_env(), check=True, stdout=subprocess.PIPE,
            text=True).stdout
        self.env = _python_env()
        for line in exports.splitlines():
            name, _, value = line[len("export "):].partition("=")
            self.env[name] = shlex.split(value)[0] if value else ""
        self.trace_file = os.path.join(self.dir, "svmram.trace")
        self.env["SVMRAM_TRACE"] = self.trace_file
        self.env["SVMRAM_POLL_SECONDS"] = "0"
        self.root = self.env["SVMSIM_ROOT"]
        self.cmd("svccfg", "import", MANIFEST)

    # --- running things ---------------------------------------------------

    def svmram(self, *args, stdin=None, env=None):
        proc = subprocess.run([sys.executable, SVMRAM] + list(args),
                              env=dict(self.env, **(env or {})),
                              input=stdin or "", text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def cmd(self, prog, *args):
        """Run an (emulated) system command as an administrator would."""
        proc = subprocess.run(
            [os.path.join(self.env["SVMSIM_DIR"], "bin", prog)] + list(args),
            env=self.env, text=True, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def sim(self, *args):
        proc = subprocess.run([sys.executable, "-m", "svmsim"] + list(args)
                              [:1] + [self.dir] + list(args)[1:],
                              env=self.env, text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    # --- looking at the host ----------------------------------------------

    def metastat_p(self, *names):
        return self.cmd("metastat", "-p", *names).stdout

    def ramdisks(self):
        return self.cmd("ramdiskadm").stdout

    def state_digest(self):
        """Everything a refused command must leave untouched."""
        return (self.metastat_p(), self.ramdisks(),
                sorted(os.listdir(os.path.join(self.root, "dev", "dsk"))),
                self.cmd("svcs", "-a").stdout)

    def violations(self):
        result = self.sim("monitor")
        return [] if result.returncode == 0 else result.stdout.splitlines()

    def trace(self, changes_only=True):
        """The argv svmram ran, in order; read-only commands left out."""
        try:
            with open(self.trace_file, encoding="utf-8") as stream:
                argvs = [json.loads(line) for line in stream]
        except FileNotFoundError:
            return []
        return [argv for argv in argvs
                if not changes_only or not _reads_only(argv)]

    def clear_trace(self):
        if os.path.exists(self.trace_file):
            os.unlink(self.trace_file)

    # --- events -------------------------------------------------------------

    def reboot(self, *options):
        return self.sim("reboot", *options)

    def mount(self, mirror):
        return self.sim("open", mirror)

    def unmount(self, mirror):
        return self.sim("close", mirror)


def host_file(name):
    """tests/scenario/hosts/NAME.json, or None for an emulator preset."""
    path = os.path.join(HOSTS, name + ".json")
    return path if os.path.exists(path) else None


def clone(host, directory):
    """A copy of an emulated host in `directory`, in the same state
    (quicker than building that state again with svmram)."""
    directory = str(directory)
    subprocess.run(["cp", "-a", host.dir, directory], check=True)
    bindir = os.path.join(directory, "bin")
    for prog in os.listdir(bindir):
        path = os.path.join(bindir, prog)
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text.replace(repr(host.dir), repr(directory)))
    for name in ("state.json", "smf.json"):
        with open(os.path.join(directory, name), encoding="utf-8") as stream:
            if host.dir in stream.read():
                raise AssertionError("%s names its directory; cannot clone"
                                     % name)
    copy = EmulatedHost.__new__(EmulatedHost)
    copy.dir = directory
    copy.env = {name: value.replace(host.dir, directory)
                for name, value in host.env.items()}
    copy.trace_file = os.path.join(directory, "svmram.trace")
    copy.env["SVMRAM_TRACE"] = copy.trace_file
    copy.root = copy.env["SVMSIM_ROOT"]
    copy.clear_trace()
    return copy


def killing_bindir(host, prog, nth):
    """A directory of the host's commands in which the nth call of `prog`
    does its work and then kills its caller (svmram) with SIGKILL: svmram
    killed right after that command, its journal left behind."""
    real = os.path.join(host.env["SVMSIM_DIR"], "bin")
    bindir = os.path.join(host.dir, "killbin")
    if os.path.isdir(bindir):
        for name in os.listdir(bindir):
            os.unlink(os.path.join(bindir, name))
    else:
        os.mkdir(bindir)
    counter = os.path.join(bindir, ".calls")
    for name in os.listdir(real):
        path = os.path.join(bindir, name)
        if name != prog:
            os.symlink(os.path.join(real, name), path)
            continue
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(
                "#!/bin/sh\n"
                "%s \"$@\"\n"
                "status=$?\n"
                "echo x >> %s\n"
                "if [ \"$(wc -l < %s)\" -eq %d ]; then kill -9 $PPID; fi\n"
                "exit $status\n" % (shlex.quote(os.path.join(real, name)),
                                     shlex.quote(counter),
                                     shlex.quote(counter), nth))
        os.chmod(path, 0o755)
    return bindir


def _reads_only(argv):
    if argv[0] in READ_ONLY:
        return True
    return argv[0] == "ramdiskadm" and len(argv) == 1
