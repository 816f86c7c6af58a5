# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svc.startd for the emulated host: run the methods of SMF instances whose
programs are installed in the emulated root, and boot the services after
an emulated reboot.

Behaviour follows illumos' usr/src/cmd/svc/startd (method.c method_run()
and method_thread(), restarter.c, env.c set_smf_env(), expand.c, log.c
vlog_instance(), libscf.c libscf_get_method() and update_fault_count(),
startd.h).  Where the emulator had to choose, the code says ``# GUESS:``.

Entry points:

* ``start_hook(simdir, fmri, cause=..., prev_state=...)`` -- the hook
  through which the SMF stand-in (svcadm enable/clear/restart, svccfg
  import) runs start methods; dispatch.main installs it for svcadm and
  svccfg.
* ``boot(simdir, before_metasync=False, run_methods=True)`` -- what
  ``svmsim reboot`` does after SVM's own boot steps.
* ``installed_start_method(simdir, fmri)`` -- does the instance have a
  start method svmsim can run (its program exists in the emulated root, or
  it is ``:true``)?

Instances whose start method is not installed in the emulated root keep
the stand-in's behaviour: they go online at once and nothing is logged.

The emulated svc.startd's memory (fault counts and start times of each
instance, which svc.startd keeps in core) is ``DIR/startd.json``; a reboot
forgets it.
"""

import contextlib
import errno
import fcntl
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

from svmsim import state as _svm_state
from svmsim.smf import _common
from svmsim.smf import repo as R
from svmsim.smf.store import locked
from svmsim.smf import restarter as _restarter
from svmsim.smf._common import (
    SMF_EXIT_OK, SMF_EXIT_NODAEMON, SMF_EXIT_ERR_FATAL, SMF_EXIT_ERR_CONFIG,
    SMF_EXIT_ERR_NOSMF, SMF_EXIT_ERR_PERM, SMF_EXIT_DEGRADED)

NOT_RETRYABLE = (SMF_EXIT_ERR_CONFIG, SMF_EXIT_ERR_NOSMF, SMF_EXIT_ERR_PERM,
                 SMF_EXIT_ERR_FATAL)

FAULT_THRESHOLD = 3                     # startd.h
RINST_START_TIMES = 5                   # startd.h: failures to consider
RINST_FAILURE_RATE_NS = 600000000000    # startd.h: 1 failure/10 minutes

DEF_PATH = "/usr/sbin:/usr/bin"         # env.c DEF_PATH
SCF_SERVICE_STARTD = "svc:/system/svc/restarter:default"

# restarter.c timeout_ovr_svcs: these always get an infinite timeout.
TIMEOUT_OVR_SVCS = (
    "svc:/system/manifest-import:default",
    "svc:/network/initial:default",
    "svc:/network/service:default",
    "svc:/system/rmtmpfiles:default",
    "svc:/network/loopback:default",
    "svc:/network/physical:default",
    "svc:/system/device/local:default",
    "svc:/system/metainit:default",
    "svc:/system/filesystem/usr:default",
    "svc:/system/filesystem/minimal:default",
    "svc:/system/filesystem/local:default",
)

# What `svmsim reboot --before-metasync` holds back: metasync has not run
# and the vfstab mounts (filesystem/local) have not been done.
BEFORE_METASYNC_HELD = ("svc:/system/metasync:default",
                        "svc:/system/filesystem/local:default")

# Where the stand-in smf_include.sh goes in the emulated root.
SMF_INCLUDE = "/lib/svc/share/smf_include.sh"
SMF_INCLUDE_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "smf_include.sh")
SOLARIS11_BEGIN = "#@solaris11-begin\n"
SOLARIS11_END = "#@solaris11-end\n"
REPOSITORY_DOOR = "/etc/svc/volatile/repository_door"
LOG_DIR = "/var/svc/log"

# Interpreters named by a method's "#!" line, and what runs them here.
KSH_INTERPRETERS = ("/usr/bin/ksh93", "/bin/ksh93", "/usr/bin/ksh",
                    "/bin/ksh")
# GUESS: illumos' /sbin/sh and /usr/bin/sh are ksh93, so sh scripts also run
# with this machine's ksh (with /bin/sh as a fallback when there is none).
SH_INTERPRETERS = ("/sbin/sh", "/bin/sh", "/usr/bin/sh", "/usr/xpg4/bin/sh")

STATE_FILE = "startd.json"
LOCK_FILE = "startd.json.lock"

# method_run() results (errno names, as in method.c)
OK = 0
EAGAIN = "EAGAIN"       # failed due to an external cause (a signal): retry
EINVAL = "EINVAL"       # method could not be retrieved or expanded
ELOOP = "ELOOP"         # restarting too quickly
ERANGE = "ERANGE"       # timed out and startd/timeout_retry is false


# ---------------------------------------------------------------------------
# The emulated root

def root_dir(simdir):
    return os.path.join(simdir, "root")


def bin_dir(simdir):
    return os.path.join(simdir, "bin")


def host_path(root, path):
    return os.path.join(root, path.lstrip("/"))


def smf_include_text(degraded):
    """The stand-in smf_include.sh for a host: the Solaris 11.4 block
    (SMF_EXIT_DEGRADED, smf_method_exit) only when ``degraded``."""
    with open(SMF_INCLUDE_SOURCE) as f:
        text = f.read()
    begin = text.index(SOLARIS11_BEGIN)
    end = text.index(SOLARIS11_END) + len(SOLARIS11_END)
    if degraded:
        return text
    return text[:begin] + text[end:].lstrip("\n")


def degraded_exit(simdir):
    """Release switch smf_exit_degraded: does SMF know a degraded exit?"""
    try:
        switches = _svm_state.load(simdir)["switches"]
    except (OSError, ValueError, KeyError):
        return False
    return bool(switches.get("smf_exit_degraded", False))


def install_root_files(root):
    """What `svmsim init` puts into the emulated root for SMF methods:
    the stand-in smf_include.sh (for the release switch smf_exit_degraded
    of the host DIR whose root is DIR/root) and svc.configd's door (a
    directory, which passes smf_present's test)."""
    dest = host_path(root, SMF_INCLUDE)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if os.path.exists(dest):
        os.chmod(dest, 0o644)
    with open(dest, "w") as f:
        f.write(smf_include_text(degraded_exit(os.path.dirname(root))))
    os.chmod(dest, 0o444)
    os.makedirs(host_path(root, REPOSITORY_DOOR), exist_ok=True)
    os.makedirs(host_path(root, LOG_DIR), exist_ok=True)


# ---------------------------------------------------------------------------
# svc.startd's memory: fault counts and start times

@contextlib.contextmanager
def _memory(simdir):
    fd = os.open(os.path.join(simdir, LOCK_FILE), os.O_RDWR | os.O_CREAT,
                 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        path = os.path.join(simdir, STATE_FILE)
        try:
            with open(path) as f:
                data = json.load(f)
        except (FileNotFoundError, ValueError):
            data = {"instances": {}}
        yield data
        tmp = path + ".tmp.%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _inst_memory(data, fmri):
    return data["instances"].setdefault(
        fmri, {"fault_count": 0, "start_index": 0, "start_times": []})


def forget(simdir):
    """svc.startd restarts (reboot): fault counts and start times are gone."""
    for name in (STATE_FILE,):
        try:
            os.unlink(os.path.join(simdir, name))
        except FileNotFoundError:
            pass


def _update_fault_count(simdir, fmri, reset=False):
    """libscf.c update_fault_count(): True when the threshold is reached."""
    with _memory(simdir) as data:
        m = _inst_memory(data, fmri)
        if reset:
            m["fault_count"] = 0
        else:
            m["fault_count"] += 1
        return m["fault_count"] >= FAULT_THRESHOLD


def _reset_start_times(simdir, fmri):
    with _memory(simdir) as data:
        m = _inst_memory(data, fmri)
        m["start_index"] = 0
        m["start_times"] = []


def _record_start_and_check_rate(simdir, fmri, crit):
    """method_record_start() then method_rate_critical().  ``crit`` is
    (count, period_ns) from startd/critical_failure_*, or None.
    # GUESS: the emulator clock (seconds) stands in for gethrtime()."""
    count, period = crit or (RINST_START_TIMES, RINST_FAILURE_RATE_NS)
    now_ns = int(_common.now() * 1e9)
    with _memory(simdir) as data:
        m = _inst_memory(data, fmri)
        times = m["start_times"]
        size = max(count, RINST_START_TIMES)
        while len(times) < size:
            times.append(0)
        times[m["start_index"] % size] = now_ns
        m["start_index"] += 1
        n = m["start_index"]
        if count < 2 or n < count:
            return False
        avg = (times[(n - 1) % count] - times[n % count]) // (count - 1)
        return avg < period


# ---------------------------------------------------------------------------
# The instance's method, as libscf_get_method() reads it

class Method:
    """One exec method of an instance, read from the running snapshot (the
    editing view without one) like libscf_get_method()."""

    def __init__(self):
        self.svc = self.inst = self.fmri = None
        self.name = "start"
        self.present = False        # method group and exec property exist
        self.exec = None            # expanded exec string
        self.error = None           # token expansion error
        self.raw_exec = None
        self.timeout = None         # seconds; None: infinite
        self.timeout_note = None    # a log line about the timeout
        self.timeout_retry = True
        self.critical = None        # (count, period_ns) or None
        self.logstem = None


def _prop_values(repo, svc, inst, view, spec):
    """get_prop_val_str(): values of a property for %{spec}."""
    if ":properties" in spec:
        f = R.parse_svc_fmri(spec)
        if f is None or f.service is None or f.pg is None or f.prop is None:
            raise ValueError("parse error")
        if f.instance is None:
            s = repo.get_service(f.service)
            pgs = s["pgs"] if s is not None else None
        elif repo.get_instance(f.service, f.instance) is None:
            pgs = None
        else:
            pgs = repo.composed_default(f.service, f.instance)
        pgname, pname = f.pg, f.prop
    else:
        pgs = view
        if "/" in spec:
            pgname, pname = spec.split("/", 1)
        else:
            pgname, pname = "application", spec
    p = None
    if pgs is not None and pgname in pgs:
        p = pgs[pgname]["props"].get(pname)
    if p is None and pgs is view:
        # get_prop(): not in the snapshot: try the editing view.
        cur = repo.composed_current(svc, inst)
        if pgname in cur:
            p = cur[pgname]["props"].get(pname)
    if p is None:
        raise ValueError('property "%s" not found' % spec)
    return p["values"]


_METACHARS = ";&()|^<>\n \t\\\"'`"


def _quote_for_shell(s):
    return "".join("\\" + c if c in _METACHARS else c for c in s)


def expand_tokens(repo, svc, inst, view, method_name, text):
    """expand.c expand_method_tokens().  Raises ValueError(message)."""
    out = []
    i = 0
    while True:
        k = text.find("%", i)
        if k == -1:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:k])
        if k + 1 >= len(text):
            return "".join(out)
        c = text[k + 1]
        if c == "%":
            out.append("%")
            i = k + 2
            continue
        if c == "s":
            out.append(svc)
        elif c == "i":
            out.append(inst)
        elif c == "f":
            out.append(R.inst_fmri(svc, inst))
        elif c == "m":
            out.append(method_name)
        elif c == "r":
            out.append("svc.startd")
        elif c == "{":
            close = text.find("}", k + 2)
            if close == -1:
                raise ValueError("parse error")
            spec = text[k + 2:close]
            sep = " "
            if spec and spec[-1] in ",:":
                sep, spec = spec[-1], spec[:-1]
            values = _prop_values(repo, svc, inst, view, spec)
            out.append(sep.join(_quote_for_shell(v) for v in values))
            i = close + 1
            continue
        else:
            raise ValueError("unknown method token")
        i = k + 2


def load_method(simdir, fmri, name="start"):
    """The Method ``name`` of an instance (KeyError if it does not exist)."""
    m = Method()
    m.name = name
    with locked(simdir) as repo:
        found = repo.resolve(fmri)
        if found is None:
            raise KeyError(fmri)
        m.svc, m.inst = found
        m.fmri = R.inst_fmri(*found)
        m.logstem = R.logfile_for(m.fmri)
        view = repo.composed_default(*found)
        pg = view.get(name)
        if pg is None or pg["type"] != "method":
            return m
        ex = pg["props"].get("exec")
        if ex is None or not ex["values"]:
            return m
        m.present = True
        m.raw_exec = ex["values"][0]
        try:
            m.exec = expand_tokens(repo, m.svc, m.inst, view, name,
                                   m.raw_exec)
        except ValueError as e:
            m.error = str(e)
        to = pg["props"].get("timeout_seconds")
        if to is None:
            m.timeout = None
        elif to["type"] != "count" or len(to["values"]) != 1:
            m.timeout_note = ("%s/timeout_seconds is multi-valued or not of "
                              "type count.  Using infinite timeout." % name)
            m.timeout = None
        else:
            v = int(to["values"][0])
            m.timeout = None if v in (0, 2 ** 64 - 1) else v
        if m.timeout is not None and m.fmri in TIMEOUT_OVR_SVCS:
            m.timeout_note = ("Timeout override by svc.startd.  Using "
                              "infinite timeout.")
            m.timeout = None
        spg = view.get("startd")
        tr = R.single(spg, "timeout_retry", ("boolean",))
        m.timeout_retry = tr != "false"
        per = R.single(spg, "critical_failure_period", ("integer",))
        cnt = R.single(spg, "critical_failure_count", ("integer",))
        if per is not None and cnt is not None:
            m.critical = (int(cnt), int(per) * 1000000000)
    return m


def _argv0(exec_string):
    try:
        words = shlex.split(exec_string)
    except ValueError:
        return None
    return words[0] if words else None


def _is_null(exec_string):
    """restarter_is_null_method()"""
    return exec_string.strip() == ":true"


def method_installed(m, root):
    """Can the emulator run this method?  ``:true``, or a program given by
    an absolute path that exists in the emulated root."""
    if not m.present:
        return False
    if m.error is not None:
        # GUESS: a method whose tokens cannot be expanded is run (and
        # fails like svc.startd) only if its program is installed.
        prog = _argv0(m.raw_exec)
    elif _is_null(m.exec):
        return True
    else:
        prog = _argv0(m.exec)
    return bool(prog) and prog.startswith("/") and \
        os.path.isfile(host_path(root, prog))


def installed_start_method(simdir, fmri):
    return method_installed(load_method(simdir, fmri, "start"),
                            root_dir(simdir))


# ---------------------------------------------------------------------------
# The instance log

_MON = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def log_time(t=None):
    """strftime "%b %e %T" in the C locale (log.c vlog_instance())."""
    tm = time.localtime(int(_common.now() if t is None else t))
    return "%s %2d %02d:%02d:%02d" % (_MON[tm.tm_mon - 1], tm.tm_mday,
                                      tm.tm_hour, tm.tm_min, tm.tm_sec)


def log_path(simdir, fmri):
    return host_path(root_dir(simdir), R.logfile_for(fmri))


def log_instance(simdir, fmri, message):
    """log_instance(): "[ %b %e %T message ]" appended to the instance's
    log, /var/svc/log/<service-with-dashes>:<instance>.log."""
    path = log_path(simdir, fmri)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, ("[ %s %s ]\n" % (log_time(), message)).encode())
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------
# Running one method: method_run()

def _ksh():
    return shutil.which("ksh93") or shutil.which("ksh")


def _shebang(path):
    try:
        with open(path, "rb") as f:
            first = f.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    return first[2:].decode("utf-8", "replace").strip()


def command_for(program, args):
    """argv that runs an installed method program on this machine, or
    (None, message) when it cannot run here."""
    line = _shebang(program)
    if line is None:
        return [program] + args, None
    parts = line.split(None, 1)
    interp = parts[0] if parts else ""
    opt = parts[1:]                     # the kernel passes one argument
    if interp == "/usr/bin/env" and opt:
        envparts = opt[0].split(None, 1)
        interp = "/usr/bin/" + envparts[0]
        opt = envparts[1:]
    if interp in KSH_INTERPRETERS or interp in SH_INTERPRETERS:
        ksh = _ksh()
        if ksh is None:
            if interp in SH_INTERPRETERS:
                return ["/bin/sh"] + opt + [program] + args, None
            return None, ("svmsim: no ksh93 on this machine to run %s"
                          % interp)
        return [ksh] + opt + [program] + args, None
    if interp.startswith("/usr/bin/python3") or interp == "/usr/bin/python":
        return [sys.executable] + opt + [program] + args, None
    return [program] + args, None


def method_environment(simdir, fmri, method_name):
    """set_smf_env(): what a method runs with.  PATH is env.c's DEF_PATH
    with the emulated commands first (they stand in for /usr/sbin and
    /usr/bin); SVMRAM_ROOT and SVMRAM_BINDIR point the installed svmram at
    the emulated host."""
    bindir = bin_dir(simdir)
    env = {
        "PATH": bindir + ":" + DEF_PATH,
        "SMF_FMRI": fmri,
        "SMF_METHOD": method_name,
        "SMF_RESTARTER": SCF_SERVICE_STARTD,
        # GUESS: the emulated host is a global zone.
        "SMF_ZONENAME": "global",
        "SVMRAM_ROOT": root_dir(simdir),
        "SVMRAM_BINDIR": bindir,
    }
    # Emulator seams passed through from the caller: how fast svmram polls,
    # its command trace, the frozen SMF clock, and the time zone (which
    # /etc/default/init gives methods on illumos).
    for var in ("SVMRAM_POLL_SECONDS", "SVMRAM_TRACE", "SVMSIM_SMF_CLOCK",
                "TZ"):
        if var in os.environ:
            env[var] = os.environ[var]
    return env


def _signame(sig):
    try:
        return signal.Signals(sig).name[3:]
    except ValueError:
        return str(sig)


def method_run(simdir, m):
    """Run method ``m`` once.  Returns (result, exit_code, waitstatus):
    result OK, EAGAIN, EINVAL, ELOOP or ERANGE; waitstatus None when the
    method did not run."""
    root = root_dir(simdir)
    if m.timeout_note:
        log_instance(simdir, m.fmri, m.timeout_note)
    if m.error is not None:
        log_instance(simdir, m.fmri, 'Could not expand method tokens in '
                     '"%s": %s.' % (m.raw_exec, m.error))
        return EINVAL, 0, None
    if _is_null(m.exec):
        log_instance(simdir, m.fmri, "Executing %s method (null)." % m.name)
        return OK, 0, 0
    if m.name == "start" and _record_start_and_check_rate(
            simdir, m.fmri, m.critical):
        log_instance(simdir, m.fmri, "Restarting too quickly, changing "
                     "state to maintenance.")
        return ELOOP, 0, None

    log_instance(simdir, m.fmri, 'Executing %s method ("%s").'
                 % (m.name, m.exec))
    path = log_path(simdir, m.fmri)
    logfd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        # GUESS: the exec string is split like a simple shell command
        # (svc.startd runs "/sbin/sh -c 'exec METHOD'"); its program is
        # taken from the emulated root.
        try:
            words = shlex.split(m.exec)
        except ValueError as e:
            os.write(logfd, ("/sbin/sh: syntax error: %s\n" % e).encode())
            words = None
        argv, problem = (None, None) if not words else command_for(
            host_path(root, words[0]), words[1:])
        if words is None:
            status = 2 << 8
        elif argv is None:
            os.write(logfd, (problem + "\n").encode())
            status = 127 << 8
        else:
            status = _spawn(simdir, m, argv, logfd)
    finally:
        os.close(logfd)

    if status == "timeout":
        sig_status = signal.SIGKILL
        if not m.timeout_retry:
            return ERANGE, 0, sig_status
        log_instance(simdir, m.fmri, 'Method "%s" failed due to signal %s.'
                     % (m.name, _signame(signal.SIGKILL)))
        return EAGAIN, 0, sig_status
    if status & 0x7f:
        log_instance(simdir, m.fmri, 'Method "%s" failed due to signal %s.'
                     % (m.name, _signame(status & 0x7f)))
        return EAGAIN, 0, status
    code = (status >> 8) & 0xff
    log_instance(simdir, m.fmri, 'Method "%s" exited with status %d.'
                 % (m.name, code))
    return OK, code, status


def _spawn(simdir, m, argv, logfd):
    """fork/exec the method in its own process group ("contract") with its
    output appended to the log; kill the group on timeout.  Returns the
    wait status, or "timeout"."""
    env = method_environment(simdir, m.fmri, m.name)
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=logfd, stderr=logfd,
            env=env, cwd=root_dir(simdir), start_new_session=True,
            close_fds=True)
    except OSError as e:
        # GUESS: what sh prints when it cannot exec the program.
        os.write(logfd, ("/sbin/sh: %s: %s\n" % (
            argv[0], os.strerror(e.errno or errno.ENOEXEC))).encode())
        return (126 if e.errno in (errno.EACCES, errno.ENOEXEC)
                else 127) << 8
    try:
        rc = _wait(proc, m.timeout)
    except subprocess.TimeoutExpired:
        # restarter.c timeout_now(); GUESS: the process group id stands in
        # for the contract id.
        log_instance(simdir, m.fmri, "Method or service exit timed out.  "
                     "Killing contract %d." % proc.pid)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        return "timeout"
    if rc < 0:
        return -rc & 0x7f
    return (rc & 0xff) << 8


def _wait(proc, timeout):
    """proc.wait(timeout=timeout).  Popen.wait with a timeout looks at the
    process every 50 ms at most (sleeping between the looks), so a method
    was seen to end 25 ms late on average, at every boot of every test.
    Where the kernel gives a descriptor that becomes readable when the
    process ends (Linux's pidfd_open), poll() waits on that instead."""
    if timeout is None:
        return proc.wait()
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        return proc.wait(timeout=timeout)
    try:
        import select
        waiting = select.poll()
        waiting.register(fd, select.POLLIN)
        deadline = time.monotonic() + timeout
        while not waiting.poll(max(0, min(deadline - time.monotonic(),
                                          86400)) * 1000):
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(proc.args, timeout)
    finally:
        os.close(fd)
    return proc.wait()


# ---------------------------------------------------------------------------
# method_thread(): retries and the resulting state

def _transition_message(fmri, result, code, retryable):
    """log.c log_transition() for a start that ends in maintenance."""
    if result == ELOOP:
        what = "failed repeatedly"
    elif result == ERANGE:
        what = "timed out"
    elif code == SMF_EXIT_ERR_CONFIG:
        what = "misconfigured"
    elif code == SMF_EXIT_ERR_FATAL:
        what = "failed fatally"
    else:
        what = "failed"
    return "[ %s %s: transitioned to maintenance (see 'svcs -xv' for " \
        "details) ]" % (fmri[len("svc:/"):], what)


def method_thread(simdir, fmri, name="start", console=None):
    """Run a method until it succeeds, fails for good or reaches the fault
    threshold.  Returns (state, aux_state, waitstatus) for a start method;
    for another method, None on success."""
    while True:
        m = load_method(simdir, fmri, name)
        if not m.present:
            # GUESS: a method group that vanished meanwhile succeeds, as
            # svc.startd treats a missing method group.
            result, code, ws = OK, 0, None
        else:
            result, code, ws = method_run(simdir, m)
        if result == OK and code in (SMF_EXIT_OK, SMF_EXIT_NODAEMON):
            _update_fault_count(simdir, fmri, reset=True)
            return ("online", "none", ws) if name == "start" else None
        if result == OK and code == SMF_EXIT_DEGRADED and \
                name == "start" and degraded_exit(simdir):
            # Solaris 11.4: the instance runs, in a limited way.
            # GUESS: the auxiliary state's name; no fault is counted.
            _update_fault_count(simdir, fmri, reset=True)
            return "degraded", "method_degraded", ws
        if result not in (OK, EAGAIN):
            retryable = False
        else:
            retryable = code not in NOT_RETRYABLE
        if retryable and not _update_fault_count(simdir, fmri):
            continue
        if result == ELOOP:
            reason = "restarting_too_quickly"
        elif retryable:
            reason = "fault_threshold_reached"
        else:
            reason = "method_failed"
        if console is not None:
            console.write(_transition_message(fmri, result, code, retryable)
                          + "\n")
        return "maintenance", reason, ws


# ---------------------------------------------------------------------------
# The start hook of the SMF stand-in

def start_hook(simdir, fmri, cause="enable", prev_state=None):
    """Start an instance as svc.startd would for svcadm enable/clear/
    restart.  Returns what restarter.apply_result() takes."""
    m = load_method(simdir, fmri, "start")
    if not method_installed(m, root_dir(simdir)):
        return 0                        # the stand-in's behaviour
    if cause == "clear":
        log_instance(simdir, fmri, "Leaving maintenance because clear "
                     "requested.")
        # GUESS: after maint_off the instance is uninitialized, and the
        # graph engine's enable event logs "Enabled." before the start.
        log_instance(simdir, fmri, "Enabled.")
    elif cause == "restart":
        log_instance(simdir, fmri, "Stopping because service restarting.")
        stop = load_method(simdir, fmri, "stop")
        if method_installed(stop, root_dir(simdir)):
            failed = method_thread(simdir, fmri, "stop")
            if failed is not None:
                return failed
        _reset_start_times(simdir, fmri)
    elif prev_state in (None, "uninitialized", "disabled"):
        # restarter.c enable_inst()
        log_instance(simdir, fmri, "Enabled.")
        if prev_state == "disabled":
            # An administrative disable reset the start times
            # (restarter_process_events(), ADMIN_DISABLE).
            _reset_start_times(simdir, fmri)
    return method_thread(simdir, fmri, "start")


start_hook.wants_cause = True


# ---------------------------------------------------------------------------
# Boot

def _reset_repository(simdir):
    """What a reboot does to the repository: nonpersistent property groups
    (general_ovr of svcadm enable/disable -t, restarter) are gone, and
    every instance starts from scratch: offline if enabled, disabled if
    not.  Returns [fmri] of the enabled instances, in repository order."""
    enabled = []
    with locked(simdir) as repo:
        for sname, s in repo.services.items():
            for pgname in [n for n, pg in s["pgs"].items()
                           if pg.get("flags", 0) & R.PG_FLAG_NONPERSISTENT]:
                del s["pgs"][pgname]
            for iname, i in s["instances"].items():
                for pgname in [n for n, pg in i["pgs"].items()
                               if pg.get("flags", 0) &
                               R.PG_FLAG_NONPERSISTENT]:
                    del i["pgs"][pgname]
                if i["state"] == "maintenance" and \
                        i.get("aux_state") == "administrative_request":
                    # GUESS: `svcadm mark maintenance` without -t lasts
                    # across reboots; the stand-in does not record -t.
                    continue
                if repo.is_enabled(sname, iname):
                    repo.set_state(sname, iname, "offline")
                    enabled.append(R.inst_fmri(sname, iname))
                else:
                    repo.set_state(sname, iname, "disabled")
        repo.touch()
    return enabled


def _dependencies(repo, svc, inst):
    """[(grouping, type, [entity FMRI])] of an instance's dependency
    groups (composed running view)."""
    deps = []
    for pgname, pg in repo.composed_default(svc, inst).items():
        if pg["type"] != "dependency":
            continue
        grouping = R.single(pg, "grouping", R.STRING_TYPES)
        dtype = R.single(pg, "type", R.STRING_TYPES) or "service"
        ents = pg["props"].get("entities")
        if grouping is None or ents is None:
            continue
        deps.append((grouping, dtype, list(ents["values"])))
    return deps


def _entity_instances(repo, fmri):
    """Instance FMRIs a dependency entity stands for ([] if none)."""
    f = R.parse_svc_fmri(fmri)
    if f is None or f.service is None or f.pg is not None:
        return []
    s = repo.get_service(f.service)
    if s is None:
        return []
    if f.instance is not None:
        return [R.inst_fmri(f.service, f.instance)] \
            if f.instance in s["instances"] else []
    return [R.inst_fmri(f.service, n) for n in s["instances"]]


def _order(nodes, edges):
    """Kahn's algorithm; ties and cycles in ``nodes`` order.
    # GUESS: members of a dependency cycle are started in repository order
    (svc.startd would put them in maintenance, dependency_cycle)."""
    indeg = {n: 0 for n in nodes}
    for n in nodes:
        for d in edges[n]:
            indeg[n] += 1
    done, order = set(), []
    while len(order) < len(nodes):
        ready = [n for n in nodes if n not in done and indeg[n] == 0]
        if not ready:
            ready = [next(n for n in nodes if n not in done)]
        n = ready[0]
        done.add(n)
        order.append(n)
        for m in nodes:
            if m not in done and n in edges[m]:
                indeg[m] -= edges[m].count(n)
    return order


def _status(repo, fmri, pending):
    """"up", "pending" or "down" for one instance during boot."""
    if fmri in pending:
        return "pending"
    found = repo.resolve(fmri)
    if found is None:
        return "down"
    st = repo.get_instance(*found)["state"]
    return "up" if st in ("online", "degraded") else "down"


def _entity_status(repo, root, dtype, fmri, pending):
    if dtype == "path":
        path = fmri[len("file://localhost"):] \
            if fmri.startswith("file://localhost/") else \
            fmri[len("file://"):] if fmri.startswith("file://") else fmri
        return "up" if os.path.exists(host_path(root, path)) else "down"
    states = [_status(repo, f, pending)
              for f in _entity_instances(repo, fmri)]
    # A service stands for any of its instances (graph.c).
    if "up" in states:
        return "up"
    if "pending" in states:
        return "pending"
    return "down"


def _satisfied(repo, root, deps, pending):
    """Are an instance's dependencies satisfied?  require_all: every entity
    up; require_any: one up; optional_all: none still to come up;
    exclude_all: none up."""
    for grouping, dtype, ents in deps:
        sts = [_entity_status(repo, root, dtype, e, pending) for e in ents]
        if grouping == "require_all" and any(s != "up" for s in sts):
            return False
        if grouping == "require_any" and sts and "up" not in sts:
            return False
        if grouping == "optional_all" and "pending" in sts:
            return False
        if grouping == "exclude_all" and "up" in sts:
            return False
    return True


def _late_last(enabled, late):
    """Switch late_services: network/rpc/meta runs under inetd and
    mdmonitor waits for it, so both come online after the instances that
    only need metasync and filesystem/local (the ties of the start order
    are broken in this order)."""
    late = ["svc:/" + f for f in late]
    return [f for f in enabled if f not in late] + \
        [f for f in enabled if f in late]


def boot(simdir, before_metasync=False, run_methods=True, console=None):
    """The SMF part of an emulated boot.  Call with no lock held.

    svc.startd forgets its fault counts; the repository loses its
    nonpersistent state; enabled instances are offline, then, in
    dependency order: an instance whose start method is installed in the
    emulated root runs it (online or maintenance from its exit status);
    any other goes online, as the emulator's SVM boot steps have done its
    work.  Instances whose require dependencies are not up stay offline.

    ``before_metasync``: the boot stops before svc:/system/metasync; it,
    filesystem/local and whatever depends on them stay offline, and no
    method runs.  ``run_methods=False`` (--no-services): instances with an
    installed start method stay offline.
    """
    forget(simdir)
    enabled = _late_last(_reset_repository(simdir),
                         _svm_state.load(simdir)["switches"]["late_services"])
    root = root_dir(simdir)
    installed = {f: installed_start_method(simdir, f) for f in enabled}
    nodes = set(enabled)
    with locked(simdir) as repo:
        deps = {}
        edges = {}
        for f in enabled:
            svc, inst = repo.resolve(f)
            deps[f] = _dependencies(repo, svc, inst)
            edges[f] = []
            for grouping, dtype, ents in deps[f]:
                if dtype != "service" or grouping == "exclude_all":
                    continue
                for e in ents:
                    edges[f].extend(x for x in _entity_instances(repo, e)
                                    if x in nodes and x != f)
    order = _order(enabled, edges)
    held = set()
    if before_metasync:
        held.update(f for f in enabled if f in BEFORE_METASYNC_HELD)
    pending = set(order)
    for f in order:
        pending.discard(f)
        with locked(simdir) as repo:
            svc, inst = repo.resolve(f)
            ok = _satisfied(repo, root, deps[f], pending | held)
            will_run = ok and f not in held and installed[f] and \
                run_methods and not before_metasync
            if f in held or (installed[f] and not will_run and ok):
                held.add(f)             # waits: stays offline
                continue
            if not ok:
                continue                # unsatisfied: stays offline
            if not installed[f]:
                repo.set_state(svc, inst, "online")
                continue
            repo.set_state(svc, inst, "offline", next_state="online")
        # restarter.c enable_inst(): the instance was uninitialized.
        log_instance(simdir, f, "Enabled.")
        result = method_thread(simdir, f, "start", console=console)
        with locked(simdir) as repo:
            svc, inst = repo.resolve(f)
            _restarter.apply_result(repo, svc, inst, result)


__all__ = ["start_hook", "boot", "installed_start_method",
           "install_root_files", "load_method", "method_environment",
           "log_instance", "log_time", "log_path", "forget"]
