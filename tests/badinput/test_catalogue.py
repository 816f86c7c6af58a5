# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The bad-input catalogue: every entry point refuses bad input before
changing anything, with a clear message and a documented exit status, and
never with a traceback.

One table, one line per case:

    (entry point and arguments, preparation, exit status, message)

The entry points are `svmram SUBCOMMAND ...` (sbin/svmram), `parse KIND`
(python3 -m svmram.svm.tojson, stdin from the preparation) and `smf METHOD`
(the ksh93 SMF method smf/svmram).  A preparation is a function of the
host; the helpers below make one-line preparations (feed, fault, setprop,
journal...).  Each runs on a copy of one base host (conftest.py): `fresh`
unless the preparation says `set_up` or `rebooted`.

For every case the test checks the exit status, the message (stderr; for
`svmram status` with exit 4, stdout), the message's form (`svmram: what
happened` and `svmram: what to do` for exit 1 and 3), that there is no
traceback, that svmram ran no command that changes anything, that the
host is exactly as before (SVM, ramdisks, links, SMF, journals), that the
data-safety monitor saw nothing, and that every fault armed did fire.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

import inprocess  # noqa: E402  (on sys.path)
from hosts import LIB, REPO, SVMRAM  # noqa: E402
from refusing import (degrade_d12, drop_replicas, hold_lock,  # noqa: E402
                      locked, nothing, start_a_resync)

FAILED, USAGE, REFUSED, NOT_SERVING = 1, 2, 3, 4
SMF_FATAL, SMF_CONFIG, SMF_NOSMF = 95, 96, 99     # smf_include.sh
FMRI = "svc:/system/svmram:d10"
NOBODY = 65534
METHOD = os.path.join(REPO, "smf", "svmram")


# --- preparations ---------------------------------------------------------

def on(base):
    """Decorator: the preparation runs on a copy of the base host `base`."""
    def mark(function):
        function.base = base
        return function
    return mark


def named(name, base="fresh"):
    """Decorator for the preparations the helpers below build."""
    def mark(function):
        function.__name__ = name
        function.base = base
        return function
    return mark


@on("set_up")
def set_up(host):
    """d10 is set up (serving reads from RAM)."""


@on("rebooted")
def rebooted(host):
    """d10 was set up; the host rebooted and its boot service did not run."""


@on("set_up")
@locked
def set_up_and_locked(host):
    pass


@on("rebooted")
@locked
def rebooted_and_locked(host):
    pass


@on("set_up")
def set_up_no_replicas(host):
    drop_replicas(host)


@on("set_up")
def set_up_and_a_submirror_attached(host):
    """After setup, the administrator attached a fourth submirror d14
    (c0d0s1, free on the article's host), resynced: teardown's planner
    refuses it before its first step."""
    for argv in (("metainit", "d14", "1", "1", "c0d0s1"),
                 ("metattach", "d10", "d14")):
        result = host.cmd(*argv)
        assert result.returncode == 0, (argv, result.stderr)
    assert host.sim("tick").returncode == 0


@on("rebooted")
def rebooted_no_replicas(host):
    drop_replicas(host)


def feed(text):
    """stdin for `parse` (bytes are fed as they are)."""
    @named("stdin %r" % (text[:30],))
    def prepare(host):
        host.stdin = text
    return prepare


def commands_without(*progs, base="fresh"):
    """SVMRAM_BINDIR holds the host's commands except `progs`."""
    @named("no %s" % " ".join(progs) if progs else "no commands", base)
    def prepare(host):
        real = os.path.join(host.env["SVMSIM_DIR"], "bin")
        bindir = os.path.join(host.dir, "partbin")
        os.mkdir(bindir)
        for prog in os.listdir(real):
            if progs and prog not in progs:
                os.symlink(os.path.join(real, prog),
                           os.path.join(bindir, prog))
        host.extra_env["SVMRAM_BINDIR"] = bindir
    return prepare


def not_root(base="fresh"):
    """The real uid check: no SVMRAM_ROOT (which skips it), and an
    unprivileged uid if the tests run as root."""
    @named("not root", base)
    def prepare(host):
        host.unset.append("SVMRAM_ROOT")
        host.as_nobody = os.geteuid() == 0
    return prepare


def fault(prog, base="fresh", nth=1, code=0, stdout=None, message=None):
    """The nth call of `prog` prints `stdout` (and `message` on stderr)
    instead of its output, and exits with `code`.  A stdout of the form
    '+TEXT' is the command's real output followed by TEXT."""
    @named("%s call %d prints %r" % (
        prog, nth, (stdout if stdout is not None else message)[:30]), base)
    def prepare(host):
        text = stdout
        if text is not None and text.startswith("+"):
            text = host.cmd(prog, "-p").stdout + text[1:]
        args = ["faults", "add", prog, "--nth", str(nth), "--exit",
                str(code)]
        if text is not None:
            args += ["--stdout", text]
        if message is not None:
            args += ["--message", message]

        def arm():
            result = host.sim(*args)
            assert result.returncode == 0, result.stderr
        # Armed after the test's first look at the host, which would
        # count as calls too.
        host.arm.append(arm)
    return prepare


def setprop(prop, value, kind="astring", base="set_up"):
    """Change one property of d10's SMF record."""
    @named("record %s=%s" % (prop, value), base)
    def prepare(host):
        result = host.cmd("svccfg", "-s", FMRI, "setprop", "svmram/" + prop,
                          "=", kind + ":", value)
        assert result.returncode == 0, result.stderr
        assert host.cmd("svcadm", "refresh", FMRI).returncode == 0
    return prepare


def delprop(prop, base="set_up"):
    @named("record without %s" % prop, base)
    def prepare(host):
        result = host.cmd("svccfg", "-s", FMRI, "delprop", "svmram/" + prop)
        assert result.returncode == 0, result.stderr
        assert host.cmd("svcadm", "refresh", FMRI).returncode == 0
    return prepare


def record_intent(host):
    """d10's SMF record as a journal's intent."""
    props = {}
    for line in host.cmd("svcprop", "-p", "svmram", FMRI).stdout.splitlines():
        name, _, value = line.split(" ", 2)
        props[name.split("/", 1)[1]] = value
    intent = {k: props[k] for k in ("mirror", "ram", "ramdisk", "link",
                                    "method", "read_option", "write_option")}
    intent.update({k: int(props[k]) for k in ("size_bytes", "size_blocks",
                                              "pass_num")})
    intent["disks"] = props["disks"].split(",")
    return intent


def journal(text=None, base="set_up", operation="teardown", **changes):
    """A journal for d10: `text` as it is, or a teardown journal whose
    intent is d10's record with `changes`."""
    what = text if text is not None else "%s %s" % (operation, " ".join(
        "%s=%s" % item for item in sorted(changes.items())))
    @named("journal %r" % (what[:40],), base)
    def prepare(host):
        content = text
        if content is None:
            intent = record_intent(host)
            intent.update(changes)
            content = json.dumps({"format": 1, "operation": operation,
                                  "intent": intent, "completed": [],
                                  "failed": None})
        if isinstance(content, str):
            content = content.encode("utf-8")
        path = os.path.join(host.root, "var", "svmram", "d10.journal")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as stream:
            stream.write(content)
    return prepare


def installed_method(fmri=None, base="fresh", install=True):
    """The SMF method's environment: SMF_FMRI (left out if None) and
    svmram installed as ROOT/usr/sbin/svmram (what `make install` puts
    there)."""
    @named("method for %s%s" % (fmri, "" if install else ", not installed"),
           base)
    def prepare(host):
        if install:
            sbin = os.path.join(host.root, "usr", "sbin")
            os.makedirs(sbin, exist_ok=True)
            os.symlink(SVMRAM, os.path.join(sbin, "svmram"))
        if fmri is not None:
            host.extra_env["SMF_FMRI"] = fmri
    return prepare


def both(first, second):
    @named("%s, %s" % (first.__name__, second.__name__),
           second.base if first.base == "fresh" else first.base)
    def prepare(host):
        first(host)
        second(host)
    return prepare


# The metastat -p of the article's host with a soft partition and a RAID-5
# metadevice added (the emulator does not make them).
SOFTPART = "+d50 -p /dev/rdsk/c0d0s1 -o 1 -b 2048 \n"
RAID5 = "+d60 -r /dev/rdsk/c2t0d0s0 /dev/rdsk/c2t1d0s0 /dev/rdsk/c2t2d0s0 " \
        "-k -i 32b\n"


# --- the catalogue ----------------------------------------------------------

CASES = [
    # (entry point and arguments, preparation, exit status, message)

    # names: metadevices
    (("setup", "-y", "d1;0"), nothing, USAGE, "mirror 'd1;0' is not a metadevice name"),
    (("setup", "-y", "d10$(reboot)"), nothing, USAGE, "is not a metadevice name"),
    (("setup", "-y", "d10 d11"), nothing, USAGE, "mirror 'd10 d11' is not a metadevice name"),
    (("setup", "-y", "mirror10"), nothing, USAGE, "is not a metadevice name"),
    (("setup", "-y", "d8192"), nothing, USAGE, "use dN with N from 0 to 8191"),
    (("setup", "-y", "d010"), nothing, USAGE, "'d010' is not a metadevice name"),
    # ".." passes SVM's set-name check (meta_set_hst.c meta_set_checkname)
    (("setup", "-y", "../d10"), nothing, USAGE, "mirror '../d10': disk sets are not supported"),
    (("setup", "-y", "../../d10"), nothing, USAGE, "mirror '../../d10' is not a metadevice name"),
    (("setup", "-y", "blue/d10"), nothing, USAGE, "disk sets are not supported"),
    (("setup", "-y", "d10", "--submirror", "ram1"), nothing, USAGE, "submirror 'ram1' is not a metadevice name"),
    (("setup", "-y", "d10", "--submirror", "blue/d13"), nothing, USAGE, "disk sets are not supported"),
    (("setup", "-y", "d10", "--submirror="), nothing, USAGE, "submirror '' is not a metadevice name"),
    (("teardown", "-y", "d1x"), nothing, USAGE, "is not a metadevice name"),
    (("teardown", "-y", "d10;ls"), set_up, USAGE, "mirror 'd10;ls' is not a metadevice name"),
    (("teardown", "-y", "blue/d10"), set_up, USAGE, "disk sets are not supported"),
    (("status", "d1 0"), set_up, USAGE, "mirror 'd1 0' is not a metadevice name"),
    (("status", "blue/d10"), set_up, USAGE, "disk sets are not supported"),
    (("restore", "d10`id`"), rebooted, USAGE, "is not a metadevice name"),
    (("restore", "blue/d10"), rebooted, USAGE, "disk sets are not supported"),
    # names: ramdisks and links
    (("setup", "-y", "d10", "--name", "../x"), nothing, USAGE, "ramdisk name '../x' is invalid"),
    (("setup", "-y", "d10", "--name", "/etc/passwd"), nothing, USAGE, "ramdisk name '/etc/passwd' is invalid"),
    (("setup", "-y", "d10", "--name", "a b"), nothing, USAGE, "ramdisk name 'a b' is invalid"),
    (("setup", "-y", "d10", "--name", "x;rm -rf /"), nothing, USAGE, "ramdisk name 'x;rm -rf /' is invalid"),
    (("setup", "-y", "d10", "--name", "x" * 33), nothing, USAGE, "is invalid; use up to 32"),
    (("setup", "-y", "d10", "--name=-x"), nothing, USAGE, "not starting with '-'"),
    (("setup", "-y", "d10", "--name="), nothing, USAGE, "ramdisk name '' is invalid"),
    (("setup", "-y", "d10", "--link", "c5t0d0"), nothing, USAGE, "link name 'c5t0d0' is invalid"),
    (("setup", "-y", "d10", "--link", "../../etc/c0t0d0s0"), nothing, USAGE, "link name '../../etc/c0t0d0s0' is invalid"),
    # names: unknown mirrors, and things that are not mirrors
    (("setup", "-y", "d99"), nothing, REFUSED, "there is no mirror d99"),
    (("setup", "-y", "d11"), nothing, REFUSED, "d11 is a concat/stripe, not a mirror"),
    (("setup", "-y", "d50"), fault("metastat", stdout=SOFTPART), REFUSED, "d50 is a soft partition, not a mirror"),
    (("setup", "-y", "d60"), fault("metastat", stdout=RAID5), REFUSED, "d60 is a RAID-5 metadevice, not a mirror"),
    (("teardown", "-y", "d10"), nothing, REFUSED, "d10 is not set up by svmram"),
    (("teardown", "-y", "d11"), set_up, REFUSED, "d11 is not set up by svmram"),
    (("status", "d99"), set_up, NOT_SERVING, "svc:/system/svmram:d99 does not exist"),
    (("restore", "d99"), rebooted, REFUSED, "d99 is not set up by svmram"),
    (("restore", "d12"), rebooted, REFUSED, "d12 is not set up by svmram"),
    # names that are valid but taken
    (("setup", "-y", "d10", "--submirror", "d11"), nothing, REFUSED, "d11 is already in use"),
    (("setup", "-y", "d10", "--submirror", "d10"), nothing, REFUSED, "d10 is already in use"),
    (("setup", "-y", "d10", "--link", "c0t0d0s0"), nothing, REFUSED, "controller c0 is in use"),
    (("setup", "-y", "d10", "--name", "other"), set_up, REFUSED, "d10 is already set up differently (--name other, recorded svmram_d10)"),

    # sizes
    (("setup", "-y", "d10", "--size", "0"), nothing, USAGE, "size '0' is invalid"),
    (("setup", "-y", "d10", "--size", "0m"), nothing, USAGE, "size '0m' is invalid"),
    (("setup", "-y", "d10", "--size=-5m"), nothing, USAGE, "size '-5m' is invalid"),
    (("setup", "-y", "d10", "--size", "lots"), nothing, USAGE, "size 'lots' is invalid"),
    (("setup", "-y", "d10", "--size", "1.5g"), nothing, USAGE, "size '1.5g' is invalid"),
    (("setup", "-y", "d10", "--size", "2G"), nothing, USAGE, "size '2G' is invalid"),
    (("setup", "-y", "d10", "--size", "512M"), nothing, USAGE, "size '512M' is invalid"),
    (("setup", "-y", "d10", "--size", "1t"), nothing, USAGE, "size '1t' is invalid"),
    (("setup", "-y", "d10", "--size", "10kb"), nothing, USAGE, "size '10kb' is invalid"),
    (("setup", "-y", "d10", "--size", "²m"), nothing, USAGE, "size '²m' is invalid"),
    (("setup", "-y", "d10", "--size="), nothing, USAGE, "size '' is invalid"),
    (("setup", "-y", "d10", "--size", "100m"), nothing, REFUSED, "a ramdisk of 100m is too small for d10 (465885 blocks)"),
    (("setup", "-y", "d10", "--size", "465884b"), nothing, REFUSED, "is too small for d10"),
    (("setup", "-y", "d10", "--size", "300m"), nothing, REFUSED, "would exceed the ramdisk memory cap"),
    (("setup", "-y", "d10", "--size", "9" * 30 + "g"), nothing, REFUSED, "would exceed the ramdisk memory cap"),
    (("restore", "--copy-size", "4096", "d10"), rebooted, USAGE, "copy size '4096' is invalid"),
    (("restore", "--copy-size=-1", "d10"), rebooted, USAGE, "copy size '-1' is invalid"),
    (("restore", "--copy-size", "²", "d10"), rebooted, USAGE, "copy size '²' is invalid"),
    (("restore", "--wait", "1h", "d10"), rebooted, USAGE, "wait '1h' is invalid"),
    (("restore", "--wait", "١٠", "d10"), rebooted, USAGE, "wait '١٠' is invalid"),
    (("restore", "--deadline", "4m", "d10"), rebooted, USAGE, "deadline '4m' is invalid"),
    (("restore", "--deadline", "-1", "d10"), rebooted, USAGE, "deadline '-1' is invalid"),

    # other options and preconditions of setup
    (("setup", "-y", "d10", "--method", "fast"), nothing, USAGE, "invalid choice: 'fast'"),
    (("setup", "-y", "d10", "--method", "swap"), nothing, REFUSED, "cannot use swap: d10 is mounted on /mnt"),
    (("setup", "d10"), nothing, REFUSED, "Add -y to go ahead, or -n to see the plan."),
    (("teardown", "d10"), set_up, REFUSED, "Add -y to go ahead, or -n to see the plan."),
    (("setup", "-y", "d10"), start_a_resync, REFUSED, "d10 has a resync in progress or pending"),
    (("setup", "-y", "d10"), degrade_d12, REFUSED, "d10 has 1 healthy disk submirror; svmram needs two"),

    # environment: not root
    (("setup", "-y", "d10"), not_root(), REFUSED, "svmram must run as root to change SVM"),
    (("teardown", "-y", "d10"), not_root("set_up"), REFUSED, "svmram must run as root to change SVM"),
    (("restore", "d10"), not_root("rebooted"), REFUSED, "svmram must run as root to change SVM"),
    # environment: no state database replicas
    (("setup", "-y", "d10"), drop_replicas, REFUSED, "there are no state database replicas"),
    (("teardown", "-y", "d10"), set_up_no_replicas, REFUSED, "there are no state database replicas"),
    # the planner's own refusal, once the record is read
    (("teardown", "-y", "d10"), set_up_and_a_submirror_attached, REFUSED, "d10 has the submirror d14, which svmram did not create or record"),
    (("restore", "d10"), rebooted_no_replicas, REFUSED, "there are no state database replicas"),
    (("status", "d10"), set_up_no_replicas, NOT_SERVING, "there are no state database replicas"),
    # environment: SVM (or SMF) commands missing
    (("setup", "-y", "d10"), commands_without(), REFUSED, "cannot run"),
    (("setup", "-y", "d10"), commands_without("metastat"), REFUSED, "metastat: No such file or directory"),
    (("teardown", "-y", "d10"), commands_without("metastat", base="set_up"), REFUSED, "this system has no Solaris Volume Manager"),
    (("restore", "d10"), commands_without("ramdiskadm", base="rebooted"), REFUSED, "ramdiskadm: No such file or directory"),
    (("status",), commands_without(base="set_up"), REFUSED, "svcs: No such file or directory"),
    (("status", "d10"), commands_without("metastat", base="set_up"), REFUSED, "metastat: No such file or directory"),
    # environment: another svmram holds the lock
    (("setup", "-y", "d10"), hold_lock, REFUSED, "another svmram command is running"),
    (("teardown", "-y", "d10"), set_up_and_locked, REFUSED, "another svmram command is running"),
    (("restore", "d10"), rebooted_and_locked, REFUSED, "another svmram command is running"),
    # environment: a corrupt journal, or one naming what is not there
    (("setup", "-y", "d10"), journal("{not json", base="fresh"), REFUSED, "d10.journal is unreadable"),
    (("teardown", "-y", "d10"), journal("{not json"), REFUSED, "d10.journal is unreadable"),
    (("teardown", "-y", "d10"), journal(b"\xff\xfe{}"), REFUSED, "d10.journal is unreadable"),
    (("teardown", "-y", "d10"), journal("[]"), REFUSED, "d10.journal is corrupt"),
    (("teardown", "-y", "d10"), journal('{"format": 1, "intent": {}, "completed": []}'), REFUSED, "d10.journal is corrupt"),
    (("setup", "-y", "d10"), journal('{"format": 1, "operation": "x", "intent": {}, "completed": []}', base="fresh"), REFUSED, "d10.journal is corrupt"),
    (("teardown", "-y", "d10"), journal('{"format": 1, "operation": "teardown", "intent": {"mirror": "d10"}, "completed": []}'), REFUSED, "does not hold a complete svmram record ('ram')"),
    (("restore", "d10"), journal("{not json", base="rebooted"), REFUSED, "d10.journal is unreadable"),
    (("teardown", "-y", "d10"), journal(ramdisk="../../etc"), REFUSED, "(ramdisk name '../../etc' is invalid)"),
    (("teardown", "-y", "d10"), journal(ram="d14"), REFUSED, "d13 is on its ramdisk svmram_d10 but is not its RAM submirror d14"),
    (("teardown", "-y", "d10"), journal(disks=["d11", "d99"]), REFUSED, "its disk submirror d99 does not exist"),
    (("setup", "-y", "d10"), journal(operation="setup", disks=["d11", "d99"]), REFUSED, "its disk submirror d99 does not exist"),
    # environment: a corrupt SMF record, or one naming what is not there
    (("teardown", "-y", "d10"), setprop("ramdisk", "../etc"), REFUSED, "(ramdisk name '../etc' is invalid)"),
    (("teardown", "-y", "d10"), setprop("ram", "d11"), REFUSED, "d11 is both the RAM submirror and a disk submirror"),
    (("teardown", "-y", "d10"), setprop("read_option", "bogus"), REFUSED, "read option 'bogus' is not one of"),
    (("teardown", "-y", "d10"), setprop("size_bytes", "lots"), REFUSED, "size_bytes is not a whole number"),
    (("teardown", "-y", "d10"), setprop("mirror", "d20"), REFUSED, "does not match the host: it is about d20, not d10"),
    (("teardown", "-y", "d10"), setprop("ram", "d14"), REFUSED, "d13 is on its ramdisk svmram_d10 but is not its RAM submirror d14"),
    (("teardown", "-y", "d10"), setprop("disks", "d11,d99"), REFUSED, "its disk submirror d99 does not exist"),
    (("teardown", "-y", "d10"), setprop("ramdisk", "other"), REFUSED, "/dev/dsk/c90t0d0s0 points at /dev/ramdisk/svmram_d10, not at /dev/ramdisk/other"),
    (("teardown", "-y", "d10"), setprop("link", "c91t0d0s0"), REFUSED, "its RAM submirror d13 is on c90t0d0s0, not on its link c91t0d0s0"),
    (("teardown", "-y", "d10"), delprop("ram"), REFUSED, "does not hold a complete svmram record ('ram')"),
    (("restore", "d10"), setprop("ramdisk", "x;reboot", base="rebooted"), REFUSED, "does not hold a valid svmram record (ramdisk name 'x"),
    (("restore", "d10"), setprop("ram", "d14", base="rebooted"), REFUSED, "not its RAM submirror d14"),
    (("restore", "d10"), setprop("ramdisk", "other", base="rebooted"), REFUSED, "not at /dev/ramdisk/other"),
    (("restore", "d10"), setprop("link", "c91t0d0s0", base="rebooted"), REFUSED, "not on its link c91t0d0s0"),
    (("restore", "d10"), setprop("disks", "d99,d12", base="rebooted"), REFUSED, "its disk submirror d99 does not exist"),
    (("restore", "d10"), delprop("link", base="rebooted"), REFUSED, "does not hold a complete svmram record ('link')"),
    (("status", "d10"), setprop("ramdisk", "../etc"), NOT_SERVING, "(ramdisk name '../etc' is invalid)"),
    (("status", "d10"), setprop("ram", "d14"), NOT_SERVING, "d13 is on its ramdisk svmram_d10 but is not its RAM submirror d14"),
    (("status",), setprop("link", "c91t0d0s0"), NOT_SERVING, "not on its link c91t0d0s0"),

    # output: SVM says what the parsers do not understand
    (("setup", "-y", "d10"), fault("metastat", stdout="d10 -m d11 d12 1 what"), FAILED, "cannot parse metastat -p output: line 1"),
    (("setup", "-y", "d10"), fault("metastat", nth=2, stdout="d10: Mirror\n    Submirror 0: d11\n      State: Fine\n"), FAILED, "cannot parse metastat output"),
    (("setup", "-y", "d10"), fault("ramdiskadm", stdout="Block Device  Size\n"), FAILED, "cannot parse ramdiskadm output"),
    (("setup", "-y", "d10"), fault("kstat", stdout="unix:0:system_pages:physmem\t²\n"), FAILED, "cannot parse kstat output"),
    (("setup", "-y", "d10"), fault("metastat", stdout=""), REFUSED, "there is no mirror d10"),
    (("teardown", "-y", "d10"), fault("metastat", base="set_up", stdout="garbage"), FAILED, "cannot parse metastat -p output"),
    (("teardown", "-y", "d10"), fault("svcprop", base="set_up", stdout="svmram/ram"), FAILED, "cannot parse svcprop output"),
    (("restore", "d10"), fault("metastat", base="rebooted", nth=2, stdout="d10: Mirror\n\tSubmirror 9: d13\n"), FAILED, "cannot parse metastat output"),
    (("restore", "d10"), fault("ramdiskadm", base="rebooted", stdout="Block Device Size Removable\n/dev/ramdisk/x 12 maybe\n"), FAILED, "cannot parse ramdiskadm output: line 2"),
    (("status", "d10"), fault("metastat", base="set_up", stdout="d10 -m d11 d11 1"), FAILED, "names a submirror twice"),
    (("status",), fault("svcs", base="set_up", stdout="d10 d11\n"), FAILED, "cannot parse svcs output"),
    (("status",), fault("svcs", base="set_up", stdout="d1;0 online\n"), NOT_SERVING, "svc:/system/svmram:d1;0 is not named after a mirror"),
    # output: the parsers' own entry point
    (("parse", "metastat-p"), feed("d10 -m d11 1\n"), FAILED, "d11 is not defined"),
    (("parse", "metastat-p"), feed("\x00\x01\x02"), FAILED, "cannot parse metastat -p output"),
    (("parse", "metastat"), feed("d10: Mirror\n    Pass: 11\n"), FAILED, "cannot parse metastat output"),
    (("parse", "metaparam"), feed(""), FAILED, "no output"),
    (("parse", "metadb"), feed("flags first blk block count\n a m x 16 8192 /dev/dsk/c0d0s7\n"), FAILED, "cannot parse metadb output: line 2"),
    (("parse", "ramdiskadm"), feed(b"Block Device Size Removable\n\xff\xfe\n"), FAILED, "bad ramdisk line"),
    (("parse", "metastat -p"), feed(""), USAGE, "usage: python3 -m svmram.svm.tojson"),
    (("parse",), feed(""), USAGE, "usage: python3 -m svmram.svm.tojson"),

    # the SMF method (ksh93) maps svmram's refusals to SMF exit codes
    (("smf", "start"), installed_method(None), SMF_NOSMF, "runs only under SMF; to restore by hand, run 'svmram restore MIRROR'"),
    (("smf", "start"), installed_method("svc:/system/svmram:d10", install=False), SMF_CONFIG, "usr/sbin/svmram is missing; reinstall svmram"),
    (("smf", "start"), installed_method("svc:/system/svmram:d1;0"), SMF_FATAL, "mirror 'd1;0' is not a metadevice name"),
    (("smf", "start"), installed_method("svc:/system/svmram:d99"), SMF_CONFIG, "d99 is not set up by svmram"),
    (("smf", "start"), both(setprop("ram", "d14", base="rebooted"), installed_method(FMRI)), SMF_CONFIG, "not its RAM submirror d14"),
    (("smf", "refresh"), installed_method(FMRI), SMF_FATAL, "Usage:"),
]


# --- running one case -----------------------------------------------------

def _nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def python_for_nobody():
    """A Python interpreter an unprivileged user can run."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        try:
            if subprocess.run([candidate, "-c", "import json"],
                              preexec_fn=_nobody, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                return candidate
        except OSError:         # e.g. under /root, which uid 65534 cannot enter
            continue
    pytest.skip("no Python interpreter that uid %d can run" % NOBODY)


def run_entry(host, args):
    env = dict(host.env, **host.extra_env)
    for name in host.unset:
        env.pop(name, None)
    python, preexec = sys.executable, None
    if host.as_nobody:
        python, preexec = python_for_nobody(), _nobody
    if args[0] == "parse":
        argv = [python, "-m", "svmram.svm.tojson"] + list(args[1:])
        env["PYTHONPATH"] = LIB
    elif args[0] == "smf":
        argv = [shutil.which("ksh") or pytest.skip("no ksh93"), METHOD] + \
            list(args[1:])
    else:
        argv = [python, SVMRAM] + list(args)
    stdin = host.stdin
    if preexec is None and args[0] not in ("parse", "smf") and \
            inprocess.enabled():
        if isinstance(stdin, bytes):
            stdin = stdin.decode("utf-8", "surrogateescape")
        return inprocess.svmram(args, env, stdin or "")
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    proc = subprocess.run(argv, env=env, input=stdin, preexec_fn=preexec,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"))


def emulated(host, prog, *args):
    """(status, stdout) of an emulated command, run in this process: the
    same code as DIR/bin/PROG without starting a Python for it (the
    catalogue looks at the host four times per case)."""
    if prog == "svmsim":
        result = inprocess.simulate([args[0], host.dir] + list(args[1:]),
                                    host.env)
    else:
        result = inprocess.command(prog, args, host.env)
    return result[:2]


def digest(host):
    """What host.state_digest() compares (metastat -p, ramdiskadm, the
    /dev/dsk names, svcs -a), plus what the catalogue's preparations
    touch: the SMF record, both link directories with the link targets,
    and the journals."""
    state = tuple(emulated(host, *argv) for argv in (
        ("metastat", "-p"), ("ramdiskadm",), ("svcs", "-a"),
        ("svcprop", "-p", "svmram", FMRI)))
    links = {}
    for kind in ("dsk", "rdsk"):
        directory = os.path.join(host.root, "dev", kind)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            links[kind + "/" + name] = os.readlink(path) \
                if os.path.islink(path) else None
    journals = {}
    directory = os.path.join(host.root, "var", "svmram")
    for name in sorted(os.listdir(directory)) \
            if os.path.isdir(directory) else ():
        with open(os.path.join(directory, name), "rb") as stream:
            journals[name] = stream.read()
    return state, links, journals


def check_form(args, status, stdout, stderr):
    """The message has the documented form."""
    if args[0] == "smf":
        return
    lines = stderr.splitlines()
    if args[0] == "parse":
        if status == FAILED:
            assert len(lines) == 1 and lines[0].startswith("svmram.svm.tojson: ")
        return
    if status in (FAILED, REFUSED):
        # svmram: what happened / svmram: what to do
        assert len(lines) == 2, stderr
        assert all(line.startswith("svmram: ") for line in lines), stderr
        assert lines[1][-1] in ".)", stderr
    elif status == USAGE:
        assert lines and lines[-1].startswith("svmram: "), stderr
    elif status == NOT_SERVING:
        assert stderr == ""
        assert all(": NOT serving reads from RAM: " in line
                   for line in stdout.splitlines()
                   if not line.startswith(" ")), stdout


def case_id(case):
    args, prepare = case[0], case[1]
    return "%s / %s" % (" ".join(args), prepare.__name__)


@pytest.mark.parametrize("args, prepare, status, message", CASES,
                         ids=[case_id(case) for case in CASES])
def test_bad_input(host_from, lock_holder, args, prepare, status, message):
    host = host_from(getattr(prepare, "base", "fresh"))
    host.stdin, host.extra_env, host.unset = "", {}, []
    host.as_nobody, host.arm = False, []
    prepare(host)
    if getattr(prepare, "locked", False):
        lock_holder(host)
    host.clear_trace()
    before = digest(host)
    for arm in host.arm:
        arm()
    code, stdout, stderr = run_entry(host, args)
    assert "Traceback" not in stderr, stderr
    assert code == status, (stdout, stderr)
    # The SMF method sends restore's output, errors too, to its log
    # (stdout) as it comes; its own refusals go to stderr.
    shown = stdout if status == NOT_SERVING else \
        stdout + stderr if args[0] == "smf" else stderr
    assert message in shown, shown
    check_form(args, status, stdout, stderr)
    assert host.trace() == []
    assert digest(host) == before
    assert emulated(host, "svmsim", "monitor") == (0, "no violations\n")
    if host.arm:
        faults = emulated(host, "svmsim", "faults", "list")[1]
        assert "armed" not in faults, "a fault did not fire:\n" + faults


def test_the_catalogue_covers_every_entry_point():
    """At least 40 cases, and each entry point is in it."""
    assert len(CASES) >= 40
    assert len({case_id(case) for case in CASES}) == len(CASES)
    for entry in ("setup", "teardown", "status", "restore", "parse", "smf"):
        assert any(case[0][0] == entry for case in CASES), entry
