# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every refusal: exact message and stream, exit status, nothing changed."""

import os

import pytest


def refused(sim, cmd, stderr, rc=1, stdout=""):
    before = sim.config()
    p = sim.run(cmd)
    assert (p.returncode, p.stdout, p.stderr) == (rc, stdout, stderr), cmd
    assert sim.config() == before, cmd


def svm_err(prog, name, text):
    who = "%s: " % name if name else ""
    return "%s: myhost: %s%s\n\n" % (prog, who, text)


def add_ramdisk_d13(sim, size="230m"):
    sim.ok("ramdiskadm -a testdisk %s" % size)
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")


def test_no_replicas(make_sim):
    sim = make_sim("article-bare")
    sim.ok("metadb -d -f c0d0s7")
    refused(sim, "metadb", svm_err("metadb", None,
                                   "there are no existing databases"))
    for cmd in ("metainit d11 1 1 c0d1s0", "metastat", "metattach d10 d12",
                "metaclear d10", "metaparam d10", "metadetach d10 d11",
                "metareplace -e d10 c0d1s0", "metaoffline d10 d11"):
        prog = cmd.split()[0]
        refused(sim, cmd, svm_err(prog, None,
                                  "there are no existing databases"))
    refused(sim, "metasync d10", svm_err("metasync", None,
                                         "there are no existing databases"))
    # the first replicas need -f
    refused(sim, "metadb -a c0d0s7",
            svm_err("metadb", None, "there are no existing databases"))
    sim.ok("metadb -a -f -c 3 c0d0s7")
    assert sim.ok("metadb").count("/dev/dsk/c0d0s7") == 3


# metainit's refusals on the spare-disks host: (arguments, the name SVM
# blames, its words), each on the same host, which none changes.
TWICE = "has appeared more than once in the specification of d20"
METAINIT_REFUSALS = [
    ("d11 1 1 c2d0s0", "d11", "unit already set up"),
    ("d20 1 1 c0d1s0", "c0d1s0", TWICE),
    ("d20 2 1 c2d0s0 1 c2d0s0", "c2d0s0", TWICE),
    ("d20 1 1 c0d0s0", "c0d0s0", "is mounted on /"),
    ("d20 -m c2d0s0", "c2d0s0", "not a metadevice"),
    ("d20 -m d11", "d11", "invalid unit"),                # audit 7.5
    ("d20 -m d99", "d99", "unit not set up"),
    ("d20 -m", "d20", "not enough submirrors specified"),
    ("d20 1 2 c2d0s0", "d20", "not enough components specified"),
    ("d20 2 1 c2d0s0", "d20", "not enough stripes specified"),
    ("d20 1 2 c2d0s0 c3d0s0 -i 3b", "d20", "invalid interlace"),
    ("d20 -m d11 -r -g", "d20", "invalid read option"),
    ("d20 -m d10", "d10", "invalid unit"),
    ("1x 1 1 c2d0s0", "1x", "Invalid name for metadevice or hot spare pool."),
]


def test_metainit_refusals(make_sim):
    sim = make_sim("spare-disks")
    for args, name, text in METAINIT_REFUSALS:
        refused(sim, "metainit " + args, svm_err("metainit", name, text))
    # five submirrors: the fifth name is refused while parsing
    for n, disk in ((21, "c2d0s0"), (22, "c3d0s0")):
        sim.ok("metainit d%d 1 1 %s" % (n, disk))
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    p = sim.run("metainit d20 -m d11 d12 d21 d22 d23")
    assert p.returncode == 1
    assert p.stderr == svm_err("metainit", "d20",
                               "mirror has maximum number of submirrors")
    p = sim.run("metainit d20 -m d11 d12 d21 d22")
    assert p.returncode == 0 and p.stdout == "d20: Mirror is setup\n"
    assert p.stderr == (
        "metainit: d20: WARNING: This form of metainit is not recommended.\n"
        "The submirrors may not have the same data.\n"
        "Please see ERRORS in metainit(1M) for additional information.\n")


def test_metainit_usage(sim):
    p = sim.run("metainit")
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith("usage:\tmetainit [-s setname] [-n] [-f] "
                               "concat/stripe numstripes\n")
    assert p.stderr.endswith("\tmetainit -r\n")
    p = sim.run("metainit -x d1")
    assert p.returncode == 1
    assert p.stderr.startswith("metainit: illegal option -- x\nusage:\t")


def test_metainit_dry_run(sim):
    p = sim.run("metainit -n d20 1 1 c0d1s0")     # in use: still checked
    assert p.returncode == 1
    sim.sim("close", "d10")
    sim.ok("metaclear d10")
    before = sim.config()
    assert sim.ok("metainit -n d20 -m d11") == ""
    assert sim.config() == before


# Audit 4 row S11: rawname() stat()s only the raw path (meta_name.c:
# 121-142 @a593473611); a name it cannot resolve ends in setup_slice's
# fixup, ENOENT on the name typed (:2174-2199), on stderr.
NO_SUCH_LINK = svm_err("metainit", "c5t0d0s0", "No such file or directory")


@pytest.mark.parametrize("how,operand", [
    ("missing", "c5t0d0s0"), ("dangling", "c5t0d0s0"),
    ("dangling", "/dev/dsk/c5t0d0s0"), ("noraw", "c5t0d0s0"),
    ("rawblock", "c5t0d0s0")])
def test_a_component_that_does_not_resolve_is_enoent(sim, how, operand):
    sim.ok("ramdiskadm -a one 10m")
    dsk = os.path.join(sim.root, "dev/dsk/c5t0d0s0")
    rdsk = os.path.join(sim.root, "dev/rdsk/c5t0d0s0")
    if how == "dangling":
        os.symlink("/dev/ramdisk/gone", dsk)
        os.symlink("/dev/rramdisk/gone", rdsk)
    elif how == "noraw":
        os.symlink("/dev/ramdisk/one", dsk)
    elif how == "rawblock":
        os.symlink("/dev/ramdisk/one", dsk)
        os.symlink("/dev/ramdisk/one", rdsk)
    refused(sim, "metainit d13 1 1 " + operand, NO_SUCH_LINK)


def test_rawname_compares_no_device_numbers(sim):
    """Since ff5ca3bd17 rawname() no longer compares st_rdev: block and
    raw links to different ramdisks are taken, on the raw one's."""
    sim.ok("ramdiskadm -a one 10m")
    sim.ok("ramdiskadm -a two 10m")
    os.symlink("/dev/ramdisk/one", os.path.join(sim.root,
                                                "dev/dsk/c5t0d0s0"))
    os.symlink("/dev/rramdisk/two", os.path.join(sim.root,
                                                 "dev/rdsk/c5t0d0s0"))
    assert sim.ok("metainit d13 1 1 c5t0d0s0") == \
        "d13: Concat/Stripe is setup\n"


def test_ramdisk_path_is_not_a_component(sim):
    sim.ok("ramdiskadm -a testdisk 10m")
    refused(sim, "metainit d13 1 1 /dev/ramdisk/testdisk",
            svm_err("metainit", "/dev/ramdisk/testdisk",
                    "No such file or directory"))


def test_metattach_refusals(sim):
    refused(sim, "metattach d10 d99",
            svm_err("metattach", "d99", "unit not set up"))
    refused(sim, "metattach d99 d11",
            svm_err("metattach", "d99", "unit not set up"))
    refused(sim, "metattach d10 d11",       # audit 7.5
            svm_err("metattach", "d11", "invalid unit"))
    add_ramdisk_d13(sim, "200m")
    refused(sim, "metattach d10 d13",
            svm_err("metattach", "d13", "submirror too small to attach"))
    sim.sim("open", "d13")
    refused(sim, "metattach d10 d13",
            svm_err("metattach", "d13", "metadevice is open"))
    p = sim.run("metattach")
    assert p.returncode == 1 and p.stderr.startswith(
        "usage:\tmetattach [-s setname] mirror [metadevice]\n")


def test_metadetach_refusals(sim):
    sim.sim("freeze")
    refused(sim, "metadetach d10 d99",
            svm_err("metadetach", "d10", "can't find submirror in mirror"))
    add_ramdisk_d13(sim)
    refused(sim, "metadetach d10 d13",
            svm_err("metadetach", "d10", "can't find submirror in mirror"))
    sim.ok("metattach d10 d13")
    refused(sim, "metadetach d10 d11",
            svm_err("metadetach", "d10", "resync in progress"))
    sim.sim("tick")
    sim.ok("metadetach d10 d12")
    sim.ok("metadetach d10 d13")
    refused(sim, "metadetach d10 d11",
            svm_err("metadetach", "d10",
                    "attempt to detach last running submirror"))


def test_metadetach_erred_and_unreadable(sim):
    add_ramdisk_d13(sim)
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    sim.sim("reboot")                 # d13 errs at the first open
    refused(sim, "metadetach d10 d13",      # audit 7.4: names the mirror
            svm_err("metadetach", "d10", "attempt an operation on a "
                    "submirror that has erred components"))
    sim.ok("metadetach d10 d12")
    refused(sim, "metadetach d10 d11",
            svm_err("metadetach", "d10",
                    "operation would result in no readable submirrors"))
    assert sim.ok("metadetach -f d10 d13") == \
        "d10: submirror d13 is detached\n"
    # audit 4.5, mirror_detach reset_comp_states(): Okay again
    comp = sim.state()["units"]["d13"]["rows"][0]["comps"][0]
    assert (comp["state"], comp["lasterrcnt"]) == ("Okay", 0)


def test_metaclear_refusals(sim):
    refused(sim, "metaclear d10", svm_err("metaclear", "d10",
                                          "metadevice is open"))
    refused(sim, "metaclear d11", svm_err("metaclear", "d11",
                                          "metadevice in use"))
    refused(sim, "metaclear d99", svm_err("metaclear", "d99",
                                          "unit not set up"))
    sim.sim("close", "d10")
    add_ramdisk_d13(sim)
    sim.ok("metattach d10 d13")
    # audit 5.4: the resync thread holds the mirror open, -f or not
    for cmd in ("metaclear d10", "metaclear -f d10", "metaclear -f -r d10"):
        refused(sim, cmd, svm_err("metaclear", "d10", "metadevice is open"))
    sim.ok("metasync -c d10")
    refused(sim, "metaclear d10", svm_err(
        "metaclear", "d10",
        "attempted to clear mirror with submirror(s) in invalid state"))
    assert sim.ok("metaclear -f -r d10") == (
        "d10: Mirror is cleared\nd11: Concat/Stripe is cleared\n"
        "d12: Concat/Stripe is cleared\nd13: Concat/Stripe is cleared\n")


def test_metaclear_continues_after_error(sim):
    sim.sim("close", "d10")
    p = sim.run("metaclear d99 d10")
    assert p.returncode == 1
    assert p.stderr == svm_err("metaclear", "d99", "unit not set up")
    assert p.stdout == "d10: Mirror is cleared\n"


def test_metaparam(sim):
    refused(sim, "metaparam -r xyz d10",
            svm_err("metaparam", "d10", '"xyz": invalid read option'))
    refused(sim, "metaparam -w fast d10",
            svm_err("metaparam", "d10", '"fast": invalid write option'))
    refused(sim, "metaparam -p 10 d10",
            svm_err("metaparam", "d10", '"10": invalid pass number'))
    assert sim.ok("metaparam -r FIRST -w Serial -p 3 d10") == ""
    assert sim.ok("metaparam d10") == (
        "d10: Mirror current parameters are:\n    Pass: 3\n"
        "    Read option: first (-r)\n    Write option: serial (-S)\n")
    assert sim.ok("metastat -p d10").startswith(
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r -S 3\n")
    sim.ok("metaparam -r geometric -w parallel -p 0 d10")
    assert sim.ok("metastat -p d10").startswith(
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 -g 0\n")


def test_metareplace_refusals(make_sim):
    sim = make_sim("spare-disks")
    sim.sim("freeze")
    refused(sim, "metareplace -e d10 c2d0s0",
            svm_err("metareplace", "d10: c2d0s0",     # audit 7.6
                    "can't find component in unit"))
    refused(sim, "metareplace d10 c0d1s0 c1d0s0", svm_err(
        "metareplace", "c1d0s0",
        "has appeared more than once in the specification of d10"))
    refused(sim, "metareplace -e d10 c9d9s0",
            svm_err("metareplace", "c9d9s0", "No such file or directory"))
    assert sim.ok("metareplace d10 c0d1s0 c2d0s0") == \
        "d10: device c0d1s0 is replaced with c2d0s0\n"
    refused(sim, "metareplace -e d10 c1d0s0",
            svm_err("metareplace", "d10", "resync in progress"))
    sim.sim("tick")
    sim.ok("metadetach d10 d12")
    refused(sim, "metareplace -e d10 c2d0s0", svm_err(
        "metareplace", "d10",
        "attempt to replace a component on the last running submirror"))


def test_metareplace_no_other_source(sim):
    sim.ok("metaoffline d10 d12")
    refused(sim, "metareplace -e d10 c0d1s0", svm_err(
        "metareplace", "d10: c0d1s0",
        "component in invalid state to replace - "
        'Replace "Maintenance" components first'))
    refused(sim, "metareplace -e d10 c1d0s0", svm_err(
        "metareplace", "d10",
        "attempt operation on a submirror in illegal state"))


def test_metareplace_too_small(sim):
    sim.ok("ramdiskadm -a testdisk 230m")
    sim.link("testdisk")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    sim.ok("metattach d10 d13")
    sim.sim("tick")
    sim.sim("reboot")
    sim.ok("ramdiskadm -a testdisk 200m")
    refused(sim, "metareplace -e d10 c5t0d0s0", svm_err(
        "metareplace", "d10: c5t0d0s0",
        "replace failure, new component is too small"))


def test_offline_online_refusals(sim):
    sim.sim("freeze")
    refused(sim, "metaonline d10 d11", svm_err(
        "metaonline", "d10",
        "attempt operation on a submirror in illegal state"))
    refused(sim, "metaoffline d10 d13",
            svm_err("metaoffline", "d10", "can't find submirror in mirror"))
    assert sim.ok("metaoffline d10 d11") == "d10: submirror d11 is offlined\n"
    refused(sim, "metaoffline d10 d12", svm_err(
        "metaoffline", "d10",
        "operation would result in no readable submirrors"))
    out = sim.ok("metastat d10")
    assert "    Invoke: metaonline d10 d11\n" in out
    sim.sim("write", "d10")
    assert sim.ok("metaonline d10 d11") == "d10: submirror d11 is onlined\n"
    refused(sim, "metaoffline d10 d12",
            svm_err("metaoffline", "d10", "resync in progress"))
    sim.sim("tick")
    assert sim.sim("monitor").returncode == 0


def test_metasync_errors(sim):
    p = sim.run("metasync d99 d10")
    assert p.returncode == 255
    assert p.stderr == svm_err("metasync", "d99", "unit not set up")
    p = sim.run("metasync")
    assert p.returncode == 1 and p.stderr.startswith(
        "usage:\tmetasync [-s setname] -r [buffer_size]\n")


def test_metastat_errors(sim):
    p = sim.run("metastat d99 d10")
    assert p.returncode == 1
    assert p.stderr == svm_err("metastat", "d99", "unit not set up")
    assert "Device Relocation Information" not in p.stdout
    assert p.stdout.startswith("d10: Mirror\n")
    p = sim.run("metastat -a -s blue")
    assert (p.returncode, p.stderr) == (
        1, "metastat: incompatible options: -a and -s\n")
    p = sim.run("metastat -s blue")
    assert p.stderr == svm_err("metastat", 'setname "blue"', "no such set")


def test_metastat_smf_check(sim):
    """Audit 1.10/7.7, metastat.c main and meta_smf.c: after printing
    everything, exit 1 naming each core service that is not online."""
    full = sim.ok("metastat -p d10")
    sim.ok("svcadm disable svc:/network/rpc/meta:default")
    sim.ok("svcadm disable svc:/system/mdmonitor:default")
    p = sim.run("metastat -p d10")
    assert (p.returncode, p.stdout) == (1, full)
    assert p.stderr == (
        "metastat: myhost: \n\tsystem/mdmonitor:default"
        "\n\tnetwork/rpc/meta:default: service(s) not online in SMF\n\n")
    sim.ok("svcadm enable svc:/network/rpc/meta:default")
    sim.ok("svcadm enable svc:/system/mdmonitor:default")
    assert sim.ok("metastat -p d10") == full
