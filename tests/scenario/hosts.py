# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Hosts that scenario tests run svmram against.

EmulatedHost drives the SVM emulator (lib/svmsim) in a temporary
directory.  RealHost is the illumos host the tests run on, as root, with
the article's mirror built on two spare slices (SVMRAM_TEST_HOST=real and
SVMRAM_TEST_DISKS; see docs/testing-on-a-real-host.md).  The scenario tests
use the methods both share; what only the emulator can do (reboot, sim,
the data-safety monitor) is marked @pytest.mark.emulator_only in the tests.
"""

import json
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass

import inprocess
import preflight

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
HOSTS = os.path.join(REPO, "tests", "scenario", "hosts")   # NAME.json
LIB = os.path.join(REPO, "lib")
SVMRAM = os.path.join(REPO, "sbin", "svmram")
MANIFEST = os.path.join(REPO, "manifests", "svmram.xml")

# Commands that only read; everything else in a trace changes the host.
READ_ONLY = {"metastat", "svcprop", "svcs", "kstat", "metadb", "fuser",
             "prtvtoc", "cmp"}


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def _python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = LIB
    # The emulator's and svmram's bytecode is written and reused (in
    # lib/, or under PYTHONPYCACHEPREFIX, see tests/conftest.py): each
    # emulated command and each svmram call is a process of its own.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


# svmram and the emulator need the standard library only: -S skips the
# site module and the installation's .pth files, tens of milliseconds of
# every call (bench/emulator).
PYTHON = [sys.executable, "-S"]


class EmulatedHost:
    kind = "emulator"
    monitored = True        # violations() asks the data-safety monitor

    def __init__(self, directory, preset="article", host_file=None,
                 release=None):
        self.dir = str(directory)
        init = PYTHON + ["-m", "svmsim", "init", self.dir]
        init += ["--host", host_file] if host_file else ["--preset", preset]
        # SVMRAM_TEST_RELEASE runs every scenario on one release profile
        # of the emulator (docs/emulator-profiles.md).
        release = release or os.environ.get("SVMRAM_TEST_RELEASE")
        if release:
            init += ["--release", release]
        subprocess.run(init, env=_python_env(), check=True,
                       stdout=subprocess.DEVNULL)
        exports = subprocess.run(
            PYTHON + ["-m", "svmsim", "env", self.dir],
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
        mark_selftest_passed(self.root)

    # --- running things ---------------------------------------------------

    def svmram(self, *args, stdin=None, env=None, after=None):
        """svmram ARGS: in the test's process (inprocess.py) unless the
        test gives it a command directory of its own (SVMRAM_BINDIR), as
        the tests that kill or stop svmram do; then as a process.
        after(argv) runs after each command svmram runs (in process
        only)."""
        if inprocess.enabled() and "SVMRAM_BINDIR" not in (env or {}):
            return Result(*inprocess.svmram(
                args, dict(self.env, **(env or {})), stdin or "", after))
        assert after is None, "after= needs svmram in the test's process"
        proc = subprocess.run(PYTHON + [SVMRAM] + list(args),
                              env=dict(self.env, **(env or {})),
                              input=stdin or "", text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def svmram_killed(self, prog, nth, *args):
        """svmram ARGS, killed with SIGKILL right after its nth call of
        `prog`, as killing_bindir's commands kill it: exit status -9, the
        journal left behind.  In the test's process when svmram runs
        there (killed_in_process), else as a process with those
        commands."""
        if not inprocess.enabled():
            return self.svmram(*args, env={
                "SVMRAM_BINDIR": killing_bindir(self, prog, nth)})
        calls = []

        def when(argv, stdout):
            if os.path.basename(argv[0]) == prog:
                calls.append(argv)
            return len(calls) == nth and os.path.basename(argv[0]) == prog
        return self.killed_in_process(when, *args)

    def killed_in_process(self, when, *args):
        """svmram ARGS in the test's process, killed right after the first
        command for which when(argv, its stdout) is true: the host is
        copied at that moment, svmram runs no command after it, and once
        it is out the copy is put back.  That leaves the host exactly as
        a SIGKILL after the command does (test_faults.py compares the
        two); the result is svmram's output until then, exit status -9,
        or svmram's own result if it was never killed."""
        copy = self.dir + ".killed"

        def kill(argv, result):
            if not when(argv, result[1].decode("utf-8", "replace")):
                return False
            subprocess.run(["cp", "-a", self.dir, copy], check=True)
            return True
        result = Result(*inprocess.svmram(args, self.env, "", kill=kill))
        if result.returncode == -9:
            subprocess.run(["rm", "-rf", self.dir], check=True)
            os.rename(copy, self.dir)
        return result

    def cmd(self, prog, *args):
        """Run an (emulated) system command as an administrator would."""
        if inprocess.enabled():
            return Result(*inprocess.command(prog, args, self.env))
        proc = subprocess.run(
            [os.path.join(self.env["SVMSIM_DIR"], "bin", prog)] + list(args),
            env=self.env, text=True, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        return Result(proc.returncode, proc.stdout, proc.stderr)

    def sim(self, *args):
        argv = list(args)[:1] + [self.dir] + list(args)[1:]
        if inprocess.enabled():
            return Result(*inprocess.simulate(argv, self.env))
        proc = subprocess.run(PYTHON + ["-m", "svmsim"] + argv,
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

    def install(self):
        """make install into the emulated root, so that the boot service
        runs the installed start method, as on a real host; in-process
        (inprocess.py), its svmram is the launcher that runs the installed
        package with the emulator's commands in its process."""
        subprocess.run(["make", "-s", "-C", REPO, "install",
                        "DESTDIR=" + self.root], check=True,
                       stdout=subprocess.DEVNULL)
        if inprocess.enabled():
            inprocess.write_launcher(
                os.path.join(self.root, "usr", "sbin", "svmram"), LIB)

    def release(self):
        """The emulator's release profile (svmsim state)."""
        with open(os.path.join(self.dir, "state.json"),
                  encoding="utf-8") as stream:
            return json.load(stream)["release"]

    def switches(self):
        """The release profile's switches in effect (svmsim state)."""
        with open(os.path.join(self.dir, "state.json"),
                  encoding="utf-8") as stream:
            return json.load(stream)["switches"]

    def violations(self):
        result = self.sim("monitor")
        return [] if result.returncode == 0 else result.stdout.splitlines()

    def article(self, value):
        """`value` (text, or argv lists) written for the article's host,
        with this host's names and sizes: the emulator's are the article's."""
        return value

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


def mark_selftest_passed(root):
    """Record that svmram selftest passed on the emulated release, as an
    administrator's first run would, so that setup's one-time hint
    (svm/selftest_record.py) is not part of every test's output;
    test_selftest.py removes the record to see the hint."""
    with open(os.path.join(root, "etc", "release"), encoding="utf-8") as f:
        release = f.read().strip().splitlines()[0].strip()
    os.makedirs(os.path.join(root, "etc", "svmram"), exist_ok=True)
    with open(os.path.join(root, "etc", "svmram", "selftest.json"), "w",
              encoding="utf-8") as stream:
        json.dump({"release": release, "passed": True}, stream)


def run_script(host, text):
    """Run a -n script with ksh93 in the emulator's environment (its
    commands are the emulator's: svmram printed SVMRAM_BINDIR's paths and
    SVMRAM_ROOT's /dev)."""
    path = os.path.join(host.dir, "plan.ksh")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    return subprocess.run(["ksh93", path], env=host.env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=False)


def host_file(name):
    """tests/scenario/hosts/NAME.json, or None for an emulator preset."""
    path = os.path.join(HOSTS, name + ".json")
    return path if os.path.exists(path) else None


def clone(host, directory):
    """A copy of an emulated host in `directory`, in the same state
    (quicker than building that state again with svmram)."""
    directory = str(directory)
    subprocess.run(["cp", "-a", host.dir, directory], check=True)
    return adopt(host, directory)


def adopt(host, directory):
    """The EmulatedHost in `directory`, a copy of `host`'s directory made
    with `cp -a` (by clone, or by a checkpoint of the fault matrix): its
    commands and environment are pointed at `directory`, its trace is
    cleared."""
    directory = str(directory)
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


_HOLDER = """
import fcntl, sys
with open(sys.argv[1], "a") as held:
    fcntl.lockf(held, fcntl.LOCK_EX)
    print("held", flush=True)
    sys.stdin.read()
"""


class LockHolder:
    """Another process holds svmram's host lock, as another svmram run
    would, from construction until release(): a lock taken in the test's
    own process would not stop svmram run in it (POSIX record locks
    belong to a process).  Released explicitly, never by garbage
    collection: use it as a context manager (`with LockHolder(host):`),
    or take it with the `lock_holder` fixture (tests/conftest.py), whose
    finalizer releases it when the test ends, passed or failed."""

    def __init__(self, host):
        path = os.path.join(host.root, "var", "run", "svmram.lock")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.proc = subprocess.Popen([sys.executable, "-S", "-c", _HOLDER,
                                      path], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        try:
            line = self.proc.stdout.readline()
        except BaseException:
            self.release()
            raise
        if line != "held\n":
            self.release()
            raise AssertionError("the lock holder did not take %s (it "
                                 "said %r)" % (path, line))

    def release(self):
        """Let the lock go: the holder reads the end of its stdin and
        exits, its lock with it; it is killed if it has not within 30
        seconds.  Returns once the process is gone; idempotent."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout and not self.proc.stdout.closed:
            self.proc.stdout.close()

    @property
    def holding(self):
        return self.proc.poll() is None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.release()


def run_step(host, step):
    """Bring `host` one step further, as a test's preparation would:
    ("svmram", ARG...) must exit 0, and its trace is cleared after it;
    ("reboot", OPTION...) and ("sim", ARG...) drive the emulator and must
    exit 0; (FUNCTION,) runs FUNCTION(host), which asserts what it needs."""
    what, args = step[0], step[1:]
    if callable(what):
        return what(host)
    if what == "svmram":
        result = host.svmram(*args)
        host.clear_trace()
    elif what == "reboot":
        result = host.reboot(*args)
    elif what == "sim":
        result = host.sim(*args)
    else:
        raise ValueError("no such step %r" % (step,))
    assert result.returncode == 0, (step, result.stdout, result.stderr)
    return result


class Bases:
    """Emulated hosts built once (per test session, or per xdist worker)
    and handed out as private copies: building the article's host costs
    two emulator processes and an SMF import, a `svmram setup -y d10` on
    it about a hundred emulated processes, and a copy a `cp -a`.

    A base is keyed by (NAME, release, steps): NAME is a host file of
    tests/scenario/hosts or an emulator preset, release the emulator's
    profile (None: the default, or SVMRAM_TEST_RELEASE), steps what was
    done to it after it was built (see run_step); a base with steps is a
    copy of the base with one step fewer, brought one step further."""

    def __init__(self, mktemp):
        self._mktemp = mktemp       # name -> a new empty directory
        self._built = {}

    def get(self, name="article", release=None, steps=()):
        steps = tuple(tuple(step) for step in steps)
        key = (name, release, steps)
        if key not in self._built:
            directory = os.path.join(str(self._mktemp("base-" + name)),
                                     "host")
            if steps:
                host = clone(self.get(name, release, steps[:-1]), directory)
                run_step(host, steps[-1])
            else:
                path = host_file(name)
                host = EmulatedHost(directory, preset=name, host_file=path,
                                    release=release)
            self._built[key] = host
        return self._built[key]

    def copy(self, directory, name="article", release=None, steps=()):
        """A private copy of a base host in `directory`."""
        return clone(self.get(name, release, steps), directory)


def kill_after_script(real, counter, nth, then=""):
    """sh that runs `real` and, on svmram's nth call (counted in the file
    `counter`), runs `then` and kills svmram with SIGKILL.  Calls from
    anything else (the test itself reading the host) are not counted,
    as svmram's trace does not count them, and are never killed."""
    return ("#!/bin/sh\n"
            "case \"$(tr '\\0' ' ' < /proc/$PPID/cmdline 2>/dev/null)\" in\n"
            "*/svmram\\ *) ;;\n"
            "*) exec %(real)s \"$@\" ;;\n"
            "esac\n"
            "%(real)s \"$@\"\n"
            "status=$?\n"
            "echo x >> %(counter)s\n"
            "if [ \"$(wc -l < %(counter)s)\" -eq %(nth)d ]; then\n"
            "%(then)s"
            "  kill -9 $PPID\n"
            "fi\n"
            "exit $status\n" % {"real": shlex.quote(real),
                                "counter": shlex.quote(counter), "nth": nth,
                                "then": "  %s\n" % then if then else ""})


def wrapping_bindir(host, name, prog, script):
    """DIR/NAME: the host's commands, except `prog`, which runs
    script(path of the real prog, DIR/NAME) instead.  Emptied first."""
    real = os.path.join(host.env["SVMSIM_DIR"], "bin")
    bindir = os.path.join(host.dir, name)
    if os.path.isdir(bindir):
        for entry in os.listdir(bindir):
            os.unlink(os.path.join(bindir, entry))
    else:
        os.mkdir(bindir)
    for entry in os.listdir(real):
        path = os.path.join(bindir, entry)
        if entry.startswith("."):
            continue
        if entry != prog:
            os.symlink(os.path.join(real, entry), path)
            continue
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(script(os.path.join(real, entry), bindir))
        os.chmod(path, 0o755)
    return bindir


def killing_bindir(host, prog, nth):
    """A directory of the host's commands in which the nth call of `prog`
    does its work and then kills its caller (svmram) with SIGKILL: svmram
    killed right after that command, its journal left behind."""
    return wrapping_bindir(host, "killbin", prog, lambda real, bindir:
                           kill_after_script(real, os.path.join(
                               bindir, ".calls"), nth))


def _reads_only(argv):
    if argv[0] in READ_ONLY:
        return True
    return argv[0] == "ramdiskadm" and len(argv) == 1


# --- a real illumos host -----------------------------------------------------

class EmulatorOnly(Exception):
    """A test asked a real host for something only the emulator can do:
    the test lacks its @pytest.mark.emulator_only marker."""


class UnsafeOnRealHost(Exception):
    """RealHost.cmd refused a command that could touch more than the test's
    own slices, metadevices, ramdisks and SMF instances."""


# Every command RealHost runs, by absolute path (as svmram's run.py does).
REAL_BIN = {name: "/usr/sbin/" + name for name in (
    "metadb", "metainit", "metattach", "metadetach", "metaclear",
    "metaparam", "metareplace", "metasync", "metaoffline", "metaonline",
    "metastat", "ramdiskadm", "svcadm", "svccfg", "newfs", "mount",
    "umount", "swap", "dumpadm", "zpool", "prtvtoc")}
REAL_BIN.update({name: "/usr/bin/" + name for name in (
    "svcprop", "svcs", "kstat", "dd", "iostat")})
REAL_BIN["fuser"] = "/usr/sbin/fuser"

# What a test may run through RealHost.cmd (see RealHost._guard).
TEST_COMMANDS = {"metastat", "metadb", "metainit", "metattach", "metadetach",
                 "metaclear", "metaparam", "metareplace", "metasync",
                 "metaoffline", "metaonline", "ramdiskadm", "svcs", "svcprop",
                 "svcadm", "svccfg", "kstat", "dd", "lofiadm"}

MIB = 1024 * 1024


def run_real(argv, stdin=None, env=None, timeout=None):
    """Run a command of this host (C locale); a missing one gives 127, one
    that outlives `timeout` seconds 124."""
    env = dict(env or os.environ, LC_ALL="C", LANG="C")
    try:
        proc = subprocess.run(argv, input=stdin or "", text=True, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except OSError as exc:
        return Result(127, "", "%s: %s" % (argv[0], exc.strerror))
    except subprocess.TimeoutExpired:
        return Result(124, "", "%s: gave up after %s seconds" % (argv[0],
                                                                  timeout))
    return Result(proc.returncode, proc.stdout, proc.stderr)


def real(prog, *args, stdin=None, timeout=None):
    return run_real([REAL_BIN[prog]] + list(args), stdin=stdin,
                    timeout=timeout)


def svmram_instances():
    result = real("svcs", "-a", "-H", "-o", "fmri")
    return sorted(line.strip() for line in result.stdout.splitlines()
                  if line.startswith(preflight.SERVICE + ":"))


def _listdir(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            return stream.read()
    except OSError:
        return ""


def gather_facts(slices):
    """What preflight.problems() judges, read from this host."""
    metadb = real("metadb")
    metastat = real("metastat", "-p")
    vtoc = {}
    for name in slices:
        disk, _ = preflight.split_slice(name)
        label = real("prtvtoc", "/dev/rdsk/" + name)
        vtoc[disk] = label.stdout if label.returncode == 0 else None
    return {
        "mnttab": _read("/etc/mnttab"),
        "swap": real("swap", "-l").stdout,
        "dump": real("dumpadm").stdout,
        "zpool": real("zpool", "status").stdout,
        "metadb": (metadb.returncode, metadb.stdout + metadb.stderr),
        "metastat_p": (metastat.returncode, metastat.stdout,
                       metastat.stderr),
        "vtoc": vtoc,
        "ramdisks": real("ramdiskadm").stdout,
        "instances": svmram_instances(),
        "service": real("svcprop", "-p", "startd/duration",
                        preflight.SERVICE).returncode == 0,
        "links": sorted(set(_listdir("/dev/dsk")) |
                        set(_listdir("/dev/rdsk"))),
        "journals": [name for name in _listdir("/var/svmram")
                     if name.endswith(".journal")],
        "installed": preflight.read_pairs(preflight.install_pairs(REPO)),
    }


def take_baseline():
    """What existed before a test, so that teardown removes only its own."""
    return {"ramdisks": re.findall(r"^/dev/ramdisk/(\S+)",
                                   real("ramdiskadm").stdout, re.M),
            "dsk": _listdir("/dev/dsk"), "rdsk": _listdir("/dev/rdsk"),
            "journals": _listdir("/var/svmram")}


def ramdisk_size_for(blocks):
    """The ramdisk size (ramdiskadm's syntax) that holds a mirror of
    `blocks`: the smallest whole MiB whose slice 0 is large enough, with
    the ramdisk driver's fake geometry (reference 6.3: ncyl = size / 300
    KiB from 2 MiB up, nsect = size / (512 * ncyl), slice = ncyl * nsect).
    Written from the reference, not from svmram's sizing.py."""
    mib = max(1, blocks * 512 // MIB)
    while True:
        size = mib * MIB
        ncyl = max(1, size // (300 * 1024 if size >= 2 * MIB else
                               100 * 1024))
        if ncyl * (size // (512 * ncyl)) >= blocks:
            return "%dg" % (mib // 1024) if mib % 1024 == 0 else "%dm" % mib
        mib += 1


class RealHost:
    """The illumos host the tests run on, as root, with real /usr/sbin
    commands (no SVMRAM_BINDIR, no SVMRAM_ROOT).

    build() makes the article's layout on the two spare slices: d11 and d12
    concats, d10 = two-way mirror of them (an n-way metainit, as the
    emulator's preset), a UFS on d10, mounted on /mnt for the "article"
    layout and left closed for "closed-article".  close() removes
    everything the test left (SMF instances, the mount, d10-d13, new
    ramdisks and /dev links to them, journals) and returns what it could not
    remove.  The tests run the checkout's sbin/svmram; the boot service runs
    the installed copy, which preflight requires to be the same.

    There is no data-safety monitor here: violations() is always [] and
    `monitored` is False.  sim() and reboot() raise EmulatorOnly."""

    kind = "real"
    monitored = False
    root = "/"
    MIRROR = "d10"
    LAYOUTS = {"article": True, "closed-article": False}   # mounted?

    def __init__(self, directory, slices, baseline=None):
        self.dir = str(directory)
        os.makedirs(self.dir, exist_ok=True)
        self.slices = tuple(slices)
        self.baseline = baseline if baseline is not None else take_baseline()
        self.env = {name: value for name, value in os.environ.items()
                    if name not in ("SVMRAM_BINDIR", "SVMRAM_ROOT",
                                    "SVMRAM_TRACE")
                    and not name.startswith("SVMSIM_")}
        self.trace_file = os.path.join(self.dir, "svmram.trace")
        self.env["SVMRAM_TRACE"] = self.trace_file
        self.env.setdefault("SVMRAM_POLL_SECONDS", "2")
        self.layout = None
        self.size_blocks = None

    # --- building and removing the layout -----------------------------------

    def build(self, layout="article"):
        if layout not in self.LAYOUTS:
            raise EmulatorOnly(
                "the host %r exists only on the emulator (a preset or "
                "tests/scenario/hosts/%s.json); a real host offers %s" % (
                    layout, layout, ", ".join(sorted(self.LAYOUTS))))
        found = preflight.problems(gather_facts(self.slices), self.slices)
        if found:
            raise preflight.Refusal("this host is not ready for a test:",
                                    found)
        try:
            slice_a, slice_b = self.slices
            self._must("metainit", "d11", "1", "1", slice_a)
            self._must("metainit", "d12", "1", "1", slice_b)
            self._must("metainit", self.MIRROR, "-m", "d11", "d12")
            self._must("newfs", "/dev/md/rdsk/" + self.MIRROR, stdin="y\n")
            if self.LAYOUTS[layout]:
                self._check(self.mount(self.MIRROR), "mount")
            self.size_blocks = self.mirror_size()
        except Exception as exc:
            left = self.close()
            if left:
                raise RuntimeError("%s; and teardown left: %s" % (
                    exc, "; ".join(left))) from exc
            raise
        self.layout = layout
        self.clear_trace()
        return self

    def close(self):
        """Remove what the test left; return what is left (with the
        commands that would remove it)."""
        held = self.__dict__.pop("held", None)     # test_refusals' lock
        if held is not None:
            held.close()
        for fmri in svmram_instances():
            real("svcadm", "disable", fmri, timeout=60)
            if real("svccfg", "delete", "-f", fmri, timeout=120).returncode:
                real("svccfg", "delete", fmri, timeout=120)
        if self._mounted():
            if real("umount", preflight.MOUNT_POINT).returncode:
                real("umount", "-f", preflight.MOUNT_POINT)
        deadline = time.time() + 900
        while self._ours() and time.time() < deadline:
            names = self._ours()
            if self.MIRROR in names:
                real("metaclear", "-f", "-r", self.MIRROR)
            for name in self._ours():
                real("metaclear", "-f", name)
            if self._ours():
                time.sleep(2)       # a resync may still hold the mirror
        for name in self._new_ramdisks():
            real("ramdiskadm", "-d", name)
        for directory in ("dsk", "rdsk"):
            for name in self._new_links(directory):
                os.unlink(os.path.join("/dev", directory, name))
        for name in _listdir("/var/svmram"):
            if name not in self.baseline["journals"] and \
                    name.endswith(".journal"):
                os.unlink(os.path.join("/var/svmram", name))
        return self.leftovers()

    def leftovers(self):
        left = ["SMF instance %s (svccfg delete -f %s)" % (fmri, fmri)
                for fmri in svmram_instances()]
        if self._mounted():
            left.append("%s mounted on %s (umount -f %s)" % (
                self.MIRROR, preflight.MOUNT_POINT, preflight.MOUNT_POINT))
        left += ["metadevice %s (metaclear -f -r %s)" % (name, name)
                 for name in self._ours()]
        left += ["ramdisk %s (ramdiskadm -d %s)" % (name, name)
                 for name in self._new_ramdisks()]
        left += ["link /dev/%s/%s (rm it)" % (directory, name)
                 for directory in ("dsk", "rdsk")
                 for name in self._new_links(directory)]
        return left

    def _ours(self):
        """Metadevices the tests made: d10-d13, and any other on the test
        slices or on svmram's links (c9Nt0d0s0)."""
        text = real("metastat", "-p").stdout
        names = []
        for line in text.splitlines():
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            name = fields[0]
            used = {"%ss%s" % (disk, number)
                    for disk, kind, number in preflight.devices(line)
                    if kind == "s"}
            if name in preflight.METADEVICES or used & set(self.slices) or \
                    any(re.match(r"c9[0-9]t0d0s0$", u) for u in used):
                names.append(name)
        return names

    def _mounted(self):
        return any(line.split("\t")[0] == "/dev/md/dsk/" + self.MIRROR
                   for line in _read("/etc/mnttab").splitlines())

    def _new_ramdisks(self):
        return [name for name in re.findall(r"^/dev/ramdisk/(\S+)",
                                            self.ramdisks(), re.M)
                if name not in self.baseline["ramdisks"]]

    def _new_links(self, directory):
        found = []
        for name in _listdir(os.path.join("/dev", directory)):
            path = os.path.join("/dev", directory, name)
            if name in self.baseline[directory] or not os.path.islink(path):
                continue
            if "ramdisk" in os.readlink(path):
                found.append(name)
        return found

    def _must(self, prog, *args, stdin=None):
        return self._check(real(prog, *args, stdin=stdin),
                           " ".join((prog,) + args))

    @staticmethod
    def _check(result, what):
        if result.returncode != 0:
            raise RuntimeError("%s failed (exit status %d): %s" % (
                what, result.returncode,
                (result.stderr or result.stdout).strip()))
        return result

    def mirror_size(self):
        match = re.search(r"Size: ([0-9]+) blocks",
                          self.cmd("metastat", self.MIRROR).stdout)
        if not match:
            raise RuntimeError("metastat %s shows no size" % self.MIRROR)
        return int(match.group(1))

    # --- running things ---------------------------------------------------

    svmram = EmulatedHost.svmram     # the checkout's sbin/svmram, self.env

    def cmd(self, prog, *args):
        """Run one of this host's commands as an administrator would; only
        on the test's own objects (see _guard)."""
        self._guard(prog, args)
        return real(prog, *args)

    def _guard(self, prog, args):
        def refuse(why):
            raise UnsafeOnRealHost(
                "RealHost.cmd(%s) refused: %s; a test that needs it must be "
                "marked @pytest.mark.emulator_only" % (
                    " ".join((prog,) + tuple(args)), why))
        if prog not in TEST_COMMANDS:
            refuse("%s is not one of the commands tests may run here" % prog)
        if prog == "metadb" and any(arg != "-i" for arg in args):
            refuse("state database replicas are the host's own")
        if prog == "dd" and "of=/dev/null" not in args:
            refuse("dd may only read")
        if prog == "lofiadm" and args:
            refuse("lofiadm may only list (the lofi devices are the host's)")
        if prog == "ramdiskadm" and "-d" in args and \
                args[-1] in self.baseline["ramdisks"]:
            refuse("the ramdisk %s is not the test's" % args[-1])
        for arg in args:
            for name in re.findall(r"(?<![\w-])d[0-9]+\b", arg):
                if name not in preflight.METADEVICES + preflight.ABSENT:
                    refuse("%s is not one of the test's metadevices" % name)
            for disk, kind, number in preflight.devices(arg):
                name = "%s%s%s" % (disk, kind or "", "" if number is None
                                   else number)
                if name not in self.slices and \
                        not re.match(r"c9[0-9]t0d0s0$", name):
                    refuse("%s is neither a test slice nor svmram's link"
                           % name)
            if arg.startswith("svc:/") and \
                    not arg.startswith(preflight.SERVICE):
                refuse("%s is not an svmram FMRI" % arg)

    def sim(self, *args):
        raise EmulatorOnly("host.sim(%s) needs the SVM emulator; mark the "
                           "test @pytest.mark.emulator_only" %
                           ", ".join(map(repr, args)))

    # --- looking at the host ----------------------------------------------

    metastat_p = EmulatedHost.metastat_p
    ramdisks = EmulatedHost.ramdisks
    trace = EmulatedHost.trace
    clear_trace = EmulatedHost.clear_trace

    def state_digest(self):
        """Everything a refused command must leave untouched (the svmram
        instances' states rather than all of `svcs -a`, whose other lines
        change on their own on a live host)."""
        services = [line for line in self.cmd(
            "svcs", "-a", "-H", "-o", "state,fmri").stdout.splitlines()
            if preflight.SERVICE in line]
        return (self.metastat_p(), self.ramdisks(),
                sorted(os.listdir("/dev/dsk")), services)

    def violations(self):
        """Always []: a real host has no data-safety monitor (the tests
        that rely on it are emulator-only in effect; `monitored` is False)."""
        return []

    def release(self):
        """illumos-2016 where /etc/release names an illumos distribution
        (metadetach compacts), else solaris11: svmram tests the slots
        first (a host that leaves holes shows as solaris10's commands)."""
        from svmram.svm.labels import release_compacts
        try:
            with open("/etc/release", encoding="utf-8",
                      errors="replace") as stream:
                text = stream.read(4096)
        except OSError:
            text = ""
        return "illumos-2016" if release_compacts(text) else "solaris11"

    def article(self, value):
        """`value` (text, or argv lists) written for the article's host
        (disks c0d1s0 and c1d0s0, d10 of 465885 blocks, ramdisk 228m), with
        this host's slices, mirror size and ramdisk size."""
        slice_a, slice_b = self.slices
        tokens = {"c0d1s0": slice_a, "c1d0s0": slice_b,
                  "465885": str(self.size_blocks),
                  "228m": ramdisk_size_for(self.size_blocks)}
        pattern = re.compile(r"\b(%s)\b" % "|".join(tokens))

        def convert(item):
            if isinstance(item, str):
                return pattern.sub(lambda m: tokens[m.group(1)], item)
            if isinstance(item, (list, tuple)):
                return type(item)(convert(part) for part in item)
            return item
        return convert(value)

    # --- events -------------------------------------------------------------

    def reboot(self, *options):
        raise EmulatorOnly("a real host cannot reboot inside pytest; mark "
                           "the test @pytest.mark.emulator_only and see "
                           "tests/illumos/reboot_check.py")

    def mount(self, mirror):
        if mirror != self.MIRROR:
            raise UnsafeOnRealHost("RealHost mounts only %s" % self.MIRROR)
        return real("mount", "-F", "ufs", "/dev/md/dsk/" + mirror,
                    preflight.MOUNT_POINT)

    def unmount(self, mirror):
        if mirror != self.MIRROR:
            raise UnsafeOnRealHost("RealHost unmounts only %s" % self.MIRROR)
        return real("umount", preflight.MOUNT_POINT)
