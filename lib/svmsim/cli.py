# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""``python3 -m svmsim``: set up and drive an emulated host.

  init DIR [--preset NAME | --host FILE.json] [--release PROFILE]
  env DIR
  reboot DIR [--before-metasync] [--no-services]
             [--boot-ramdisk NAME=BYTES]...
  open DIR dN | close DIR dN
  tick DIR [N] | freeze DIR | thaw DIR [--step N]
  faults DIR add PROG --nth N --exit CODE
                       [--message TEXT | --svm-error TEXT [--name NAME]]
                       [--stdout TEXT]   (at least one of the three)
  faults DIR list | faults DIR clear
  monitor DIR [--reset]
  write DIR dN [--region R]
  fail-replicas DIR cNtNdNsN
  smf DIR down | smf DIR up
  state DIR
"""

import argparse
import os
import sys

# startd (subprocess, signal, shlex, json...), shutil and json are imported
# by the subcommands that use them: the tests run `svmsim monitor`, `tick`
# or `faults add` far more often than `init` and `reboot`.
from svmsim import (dispatch, devices, drvconf, faults, monitor, presets,
                    regions, resync, state, svm, ufs)
from svmsim.programs.metasync import boot_resync
from svmsim.messages import SvmError

LIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Each command is a process that imports the emulator: its compiled
# bytecode is always written and read (sys.dont_write_bytecode, whatever
# PYTHONDONTWRITEBYTECODE says), in lib/svmsim/__pycache__, or in
# sys.pycache_prefix where that is not writable (see pycache_prefix());
# without it every command compiled the emulator anew (bench/emulator).
SCRIPT = """#!%(python)s -S
import sys
sys.path.insert(0, %(lib)r)
sys.dont_write_bytecode = False
%(pycache)sfrom svmsim.dispatch import main
sys.exit(main(%(prog)r, sys.argv[1:], %(simdir)r))
"""


_PARSER = []


def parser():
    """The command line's parser, built once per process: building it
    (argparse looks up message catalogues for each of its twenty parsers)
    cost each `svmsim reboot` or `tick` the tests run in their own process
    tens of milliseconds.  Nothing in it depends on the call."""
    if not _PARSER:
        _PARSER.append(_build_parser())
    return _PARSER[0]


def _build_parser():
    p = argparse.ArgumentParser(prog="svmsim", description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("init")
    a.add_argument("dir")
    g = a.add_mutually_exclusive_group()
    g.add_argument("--preset", default="article",
                   choices=sorted(presets.PRESETS))
    g.add_argument("--host")
    a.add_argument("--release", choices=sorted(presets.PROFILES),
                   help="release profile (default: the host's, else %s)"
                   % presets.DEFAULT_RELEASE)
    sub.add_parser("env").add_argument("dir")
    a = sub.add_parser("reboot")
    a.add_argument("dir")
    a.add_argument("--before-metasync", action="store_true")
    a.add_argument("--no-services", action="store_true",
                   help="do not run the start methods of SMF instances")
    a.add_argument("--boot-ramdisk", metavar="NAME=BYTES", action="append",
                   default=[], help="a ramdisk another service creates "
                   "during boot, before the SMF instances start (it takes "
                   "from the ramdisk memory cap)")
    for name in ("open", "close"):
        a = sub.add_parser(name)
        a.add_argument("dir")
        a.add_argument("device")
    for name in ("hold", "release"):      # a process's open file or cwd
        a = sub.add_parser(name)
        a.add_argument("dir")
        a.add_argument("path")
    a = sub.add_parser("tick")
    a.add_argument("dir")
    a.add_argument("n", nargs="?", type=int)
    sub.add_parser("freeze").add_argument("dir")
    a = sub.add_parser("thaw")
    a.add_argument("dir")
    a.add_argument("--step", type=int)
    a = sub.add_parser("faults")
    a.add_argument("dir")
    fs = a.add_subparsers(dest="action", required=True)
    f = fs.add_parser("add")
    f.add_argument("prog", choices=dispatch.PROGRAMS)
    f.add_argument("--nth", type=int, default=1)
    f.add_argument("--exit", type=int, required=True)
    m = f.add_mutually_exclusive_group()
    m.add_argument("--message")
    m.add_argument("--svm-error")
    f.add_argument("--name")
    f.add_argument("--stdout", help="text the command prints on stdout "
                   "instead of its own output")
    fs.add_parser("list")
    fs.add_parser("clear")
    a = sub.add_parser("monitor")
    a.add_argument("dir")
    a.add_argument("--reset", action="store_true")
    a = sub.add_parser("write")
    a.add_argument("dir")
    a.add_argument("device")
    a.add_argument("--region", type=int)
    a = sub.add_parser("fail-replicas",
                       help="the replicas on a slice get write errors; "
                            "with fewer than a majority left, the next "
                            "boot finds the state database stale")
    a.add_argument("dir")
    a.add_argument("slice")
    a = sub.add_parser("smf", help="down: svc.configd is unavailable, so "
                       "svcs, svcprop, svcadm and svccfg fail as they do "
                       "when they cannot bind to it; up: it is back")
    a.add_argument("dir")
    a.add_argument("action", choices=("down", "up"))
    a = sub.add_parser("record-facts", help="each emulated command "
                       "appends what it printed and its exit status to "
                       "FILE, one JSON line (svmsim/factlog.py); without "
                       "FILE, recording stops")
    a.add_argument("dir")
    a.add_argument("file", nargs="?")
    sub.add_parser("state").add_argument("dir")
    return p


def main(argv):
    args = parser().parse_args(argv)
    simdir = os.path.abspath(args.dir)
    handler = globals()["cmd_" + args.cmd.replace("-", "_")]
    try:
        return handler(args, simdir) or 0
    except SvmError as e:
        sys.stderr.write("svmsim: %s\n" % e)
        return 1
    except FileNotFoundError as e:
        sys.stderr.write("%s\n" % e)
        return 1


# --- set-up ------------------------------------------------------------------

def cmd_init(args, simdir):
    import shutil
    from svmsim import startd
    desc = presets.load_host_file(args.host) if args.host \
        else presets.preset(args.preset)
    if os.path.isdir(os.path.join(simdir, "root")):
        shutil.rmtree(os.path.join(simdir, "root"))
    os.makedirs(simdir, exist_ok=True)
    st = presets.build(desc, simdir, args.release)
    state.create(simdir, st)
    startd.forget(simdir)                 # a new host: svc.startd restarts
    startd.install_root_files(state.root_dir(simdir))
    bindir = os.path.join(simdir, "bin")
    os.makedirs(bindir, exist_ok=True)
    prefix = pycache_prefix()
    pycache = "" if prefix is None else \
        "sys.pycache_prefix = %r\n" % prefix
    for prog in dispatch.PROGRAMS:
        path = os.path.join(bindir, prog)
        with open(path, "w") as f:
            f.write(SCRIPT % {"python": sys.executable, "lib": LIB,
                              "prog": prog, "simdir": simdir,
                              "pycache": pycache})
        os.chmod(path, 0o755)
    return 0


def pycache_prefix():
    """Where the commands keep the emulator's bytecode: PYTHONPYCACHEPREFIX
    if set (the commands svmram starts get a bare environment, so it is
    written into them), else None (lib/svmsim/__pycache__) if that can be
    written, else a directory of this user's in the temporary directory."""
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    if prefix:
        return os.path.abspath(prefix)
    here = os.path.dirname(os.path.abspath(__file__))
    cache = os.path.join(here, "__pycache__")
    if os.access(cache if os.path.isdir(cache) else here, os.W_OK):
        return None
    import tempfile
    prefix = os.path.join(tempfile.gettempdir(),
                          "svmsim-pycache-%d" % os.getuid())
    try:
        os.mkdir(prefix, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    info = os.lstat(prefix)
    if not os.path.isdir(prefix) or os.path.islink(prefix) or \
            info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None                       # not ours: compile every time
    return prefix


def cmd_env(args, simdir):
    import shlex
    bindir = os.path.join(simdir, "bin")
    root = os.path.join(simdir, "root")
    path = bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin")
    for var, value in (("PATH", path), ("SVMSIM_DIR", simdir),
                       ("SVMSIM_ROOT", root), ("SVMRAM_BINDIR", bindir),
                       ("SVMRAM_ROOT", root)):
        print("export %s=%s" % (var, shlex.quote(value)))
    return 0


# --- host events -------------------------------------------------------------

def _event(st, what):
    st["seq"] += 1
    st["last_command"] = "svmsim " + what


def cmd_reboot(args, simdir):
    from svmsim import startd
    root = state.root_dir(simdir)
    with state.locked(simdir) as st:
        _event(st, "reboot" + (" --before-metasync"
                               if args.before_metasync else ""))
        st["boot"] += 1
        for name, rd in st["ramdisks"].items():   # RAM is gone
            devices.remove_ramdisk_nodes(root, name)
            regions.forget_device(st, [devices.RAMDISK_MAJOR, rd["minor"]])
        st["ramdisks"] = {}
        _forget_lofi_mappings(st, root)
        drvconf.boot(st, root)                    # ramdisk rd_attach
        ufs.unmount_all(st, simdir)               # mount(1M)'s mounts
        st["opens"] = {}
        st["opened_since_boot"] = []
        st["md_kstats"] = {}                      # kstats live in the kernel
        svm.load_replicas(st)
        svm.snarf(st)                             # metainit -r
        monitor.check(st)
        if not args.before_metasync:
            boot_resync(st, None)                 # svc:/system/metasync
            for name in st["vfstab"]:             # filesystem/local
                if name in st["units"]:
                    svm.open_device(st, name)
            monitor.check(st)
        for spec in args.boot_ramdisk:            # another boot service
            _boot_ramdisk(st, simdir, spec)
        monitor.check(st)       # a boot ramdisk can take a recorded minor
        svm.write_tab_files(st, root)
        warning = st.get("ramdisk_warning")
    if warning:                                   # cmn_err(CE_WARN, ...)
        sys.stderr.write(warning + "\n")
    # SMF: svc.startd starts the enabled instances (svmsim/startd.py); the
    # emulated SVM boot services above count as online.
    startd.boot(simdir, before_metasync=args.before_metasync,
                run_methods=not args.no_services, console=sys.stderr)
    return 0


def _forget_lofi_mappings(st, root):
    """A reboot loses every lofi mapping: the driver keeps them in its
    soft state only (usr/src/uts/common/io/lofi.c:56-57, lofi_statep and
    lofi_list :192-195 @a593473611), its attach at boot makes only the
    control node (lofi_attach :1946-1981), and only lofiadm's
    LOFI_MAP_FILE ioctl (lofi_map_file :2775) makes one; no boot service
    of that tree runs lofiadm.  The data stays in the file
    (`lofi_unmapped` keeps which, for the monitor)."""
    for minor, lofi in st.get("lofis", {}).items():
        st.setdefault("lofi_unmapped", {})[minor] = lofi["file"]
        dev = [devices.LOFI_MAJOR, devices.lofi_minor(st, int(minor))]
        data = st["devdata"].pop(devices.devkey(dev), None)
        if data is not None:
            st.setdefault("lofi_files", {})[lofi["file"]] = data
        regions.forget_device(st, dev)
        devices.remove_lofi_nodes(root, st, int(minor))
    st["lofis"] = {}


def _boot_ramdisk(st, simdir, spec):
    from svmsim.programs import Ctx, ramdiskadm
    name, _, size = spec.partition("=")
    if not size.isdigit():
        raise SvmError("USAGE", text="--boot-ramdisk wants NAME=BYTES, "
                       "not %r" % spec)
    if ramdiskadm.create(Ctx("ramdiskadm", st, simdir), name, int(size)):
        raise SvmError("USAGE", text="the boot ramdisk %s could not be "
                       "created" % name)


def cmd_open(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "open " + args.device)
        svm.open_device(st, svm.md_name(args.device))
        monitor.check(st)
        svm.write_tab_files(st, state.root_dir(simdir))
    return 0


def cmd_close(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "close " + args.device)
        name = svm.md_name(args.device)
        if not svm.is_open(st, name):
            sys.stderr.write("svmsim: %s is not open\n" % name)
            return 1
        svm.close_device(st, name)
        monitor.check(st)
        svm.write_tab_files(st, state.root_dir(simdir))
    return 0


def cmd_hold(args, simdir):
    """A process opens PATH (a file, or its working directory) and keeps
    it open: a file system it is in is busy (svmsim/ufs.py)."""
    with state.locked(simdir) as st:
        _event(st, "hold " + args.path)
        ufs.held(st).append(args.path)
    return 0


def cmd_release(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "release " + args.path)
        if args.path not in ufs.held(st):
            sys.stderr.write("svmsim: %s is not held\n" % args.path)
            return 1
        ufs.held(st).remove(args.path)
    return 0


def cmd_tick(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "tick" + ("" if args.n is None else " %d" % args.n))
        if args.n is None:
            for m in svm.mirrors(st):
                resync.run_to_end(st, m)
        else:
            for _ in range(args.n):
                resync.advance_all(st, st["auto"]["step"])
        monitor.check(st)
    return 0


def cmd_freeze(args, simdir):
    with state.locked(simdir) as st:
        st["auto"]["frozen"] = True
    return 0


def cmd_thaw(args, simdir):
    with state.locked(simdir) as st:
        st["auto"]["frozen"] = False
        if args.step is not None:
            st["auto"]["step"] = max(1, min(100, args.step))
    return 0


def cmd_write(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "write " + args.device)
        m = svm.require_mirror(st, svm.md_name(args.device))
        svm.first_open(st, m)
        monitor.app_write(st, m, args.region)
        monitor.check(st)
    return 0


def cmd_fail_replicas(args, simdir):
    with state.locked(simdir) as st:
        _event(st, "fail-replicas " + args.slice)
        hit = [r for r in st["replicas"] if r["slice"] == args.slice]
        if not hit:
            sys.stderr.write("svmsim: no replica on %s\n" % args.slice)
            return 1
        for replica in hit:
            replica["failed"] = True
    return 0


def cmd_smf(args, simdir):
    from svmsim import smf
    smf.set_repository(simdir, args.action == "up")
    return 0


# --- inspection --------------------------------------------------------------

def cmd_faults(args, simdir):
    with state.locked(simdir) as st:
        if args.action == "add":
            faults.add(st, args.prog, args.nth, args.exit, args.message,
                       args.svm_error, args.name, args.stdout)
        elif args.action == "list":
            for f in st["faults"]:
                print(faults.describe(f))
        else:
            faults.clear(st)
    return 0


def cmd_record_facts(args, simdir):
    with state.locked(simdir) as st:
        if args.file:
            st["facts_log"] = os.path.abspath(args.file)
        else:
            st.pop("facts_log", None)
    return 0


def cmd_monitor(args, simdir):
    with state.locked(simdir) as st:
        found = list(st["violations"])
        if args.reset:
            monitor.reset(st)
    for v in found:
        print(monitor.format_violation(v))
    if not found:
        print("no violations")
    return 1 if found else 0


def cmd_state(args, simdir):
    import json
    print(json.dumps(state.load(simdir), indent=1, sort_keys=True))
    return 0
