# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Host descriptions: the built-in presets and the JSON loader.

A host description is a dict (or JSON file)::

    {"nodename": "myhost", "physmem": 1073741824,
     "release": "illumos-2016",          # a profile of PROFILES
     "switches": {"detach_compacts": false},   # each overrides the profile
     "availrmem_initial": 1006632960,      # bytes; default 15/16 of physmem
     "freemem": 805306368,                 # bytes free at boot; default 3/4
     "ramdisk_conf": "percent_physmem=\"50\";",  # lines added to
                                           # /kernel/drv/ramdisk.conf
     "disks": {"c0d1": {"nhead": 15, "nsect": 63,
                        "devid": "id1,cmdk@AQEMU_HARDDISK=QM00002",
                        "slices": {"0": 465885},
                        "starts": {"0": 0}}},  # first sector per slice;
                                           # default: switch disk_label
     "mounts": {"c0d0s0": "/"},            # physical slices in use
     "replicas": [{"slice": "c0d0s7", "count": 3}],
     "data": {"c0d1s0": 1},                 # initial data version per slice
     "metadevices": ["d11 1 1 c0d1s0", "d10 -m d11"],   # md.tab lines
     "vfstab": {"d10": "/mnt"}}             # mounted (opened) at boot

Metadevices are built by the emulated metainit itself, so a description
can only contain configurations metainit accepts.

Release profiles (docs/emulator-profiles.md): where SVM releases differ or
the source leaves doubt, the emulator follows a switch.  A profile is a
full set of switches; the host's ``switches`` override them one by one.
"""

import json
import os

from svmsim import devices, drvconf, svm
from svmsim.programs import Ctx, Exit, metainit
from svmsim.lean import MappingProxyType
from svmsim.messages import SvmError
from svmsim.state import REGIONS, new_state

GIB = 1024 ** 3

# meta_smf.c svm_core_svcs[]: what metastat requires once a local replica
# exists (meta_smf_getmask).
CORE_SERVICES = ("system/metainit:default", "system/metasync:default",
                 "system/mdmonitor:default", "network/rpc/meta:default")
# rpc.metad/meta.xml: network/rpc/meta runs under svc:/network/inetd;
# md_monitord/mdmonitor.xml: mdmonitor waits (optional_all) for it.  Both
# come online once the network and inetd are up, after the boot services
# that only need metasync and filesystem/local.
LATE_SERVICES = ("network/rpc/meta:default", "system/mdmonitor:default")

# disk_label: where a slice starts when the disk description gives no
# "starts".  Slices follow one another in slice order from the first
# slice's start: "smi-cyl0" sector 0 (SPARC SMI: s0 at cylinder 0),
# "smi-cyl1" one cylinder in (x86 SMI: cylinder 0 is the boot slice s8),
# "efi" sector 256 (GUESS: the usual EFI first usable sector for s0).
# On "efi" SVM sizes every disk slice with libmeta's fake geometry, not
# the description's (devices.EFI_NHEAD, EFI_NSECT).
DISK_LABELS = ("smi-cyl0", "smi-cyl1", "efi")
EFI_FIRST_SECTOR = 256

# cmp_program: which /usr/bin/cmp the host has (programs/cmp.py).
CMP_PROGRAMS = ("libcmd", "cmd-cmp", "cmd-cmp-ferror")

# lofi_nodes: how lofi names its devices' nodes (devices.lofi_node).
LOFI_NODES = ("instance", "lofi0-minor")

_ILLUMOS = MappingProxyType({
    # mirror_ioctl.c mirror_detach "Reshuffle the submirror devices"
    "detach_compacts": True,
    # GUESS: the layout of the article's host, whose metattach of a
    # ramdisk stripe worked (so its s0 must have started at sector 0).
    "disk_label": "smi-cyl0",
    # Blocks 0..DK_LABEL_LOC, which a labeled mirror's resync never copies
    # (mirror.c 3456-3472): DK_LABEL_LOC is 1 on x86 (_SUNOS_VTOC_16) and 0
    # on SPARC (_SUNOS_VTOC_8), dklabel.h 46/49.  Every profile's host is
    # x86 (its /etc/release says so); a SPARC host overrides it with 1.
    "label_blocks": 2,
    "metastat_services": CORE_SERVICES,
    "late_services": LATE_SERVICES,
    # ramdisk.c rd_init_tuneables: availrmem_initial * rd_percent_physmem
    "ramdisk_cap_basis": "availrmem_initial",
    # Whether the driver also reads /etc/driver/drv/ramdisk.conf (its
    # properties winning over /kernel/drv's): Oracle Solaris 11's local
    # driver configuration (driver.conf(5)); illumos has only /kernel/drv.
    "driver_conf_local": False,
    # illumos smf_include.sh defines no SMF_EXIT_DEGRADED; a start method
    # cannot put its instance in degraded (explain.c knows only "Degraded
    # by an administrator").
    "smf_exit_degraded": False,
    # /usr/bin/cmp: illumos's is the ksh93 builtin of libcmd (illumos-gate
    # 34f9b3eef6 replaced usr/src/cmd/cmp; programs/cmp.py).
    "cmp_program": "libcmd",
    # lofi's nodes: after illumos 6602 (406fc5100d, 2016-06-21) each lofi
    # device is an instance, lofi@N:disk[,raw], minor N << 6 ("instance");
    # before, minors N of lofi@0, lofi@0:N[,raw] ("lofi0-minor": the
    # Solaris 11 snapshot; devices.lofi_node).
    "lofi_nodes": "instance",
    # lofiadm -l (labeled lofi): illumos from 6602 (lofiadm/main.c:72-84,
    # :1938 @a593473611), Oracle Solaris 11.3/11.4 (lofiadm(1M)); not the
    # Solaris 11 snapshot nor Solaris 10 (programs/lofiadm.py).
    "lofi_labeled": True,
})
PROFILES = MappingProxyType({
    # The last illumos-gate SVM (removed by illumos 6396, late 2016): the
    # source the emulator follows.
    "illumos-2016": dict(_ILLUMOS),
    # GUESS: Solaris 11 is taken to behave as the illumos source (its SVM
    # source is not public).
    # Oracle Solaris 11.4's smf_include.sh defines SMF_EXIT_DEGRADED, and
    # a start method exiting with it leaves the instance degraded
    # (Oracle's smf_method(7); methods such as check-bind use it).
    # Its cmd/cmp/cmp.c reports a failed read (the Solaris 11 snapshot,
    # Arquivotheca/solaris11 rearg; 11.4's is not public).
    # GUESS: its lofi names nodes as the Solaris 11 snapshot does (11.4's
    # lofi.c is not public; settled by `ls -l /dev/rlofi/1` on a host).
    "solaris11": dict(_ILLUMOS, smf_exit_degraded=True,
                      driver_conf_local=True,
                      cmp_program="cmd-cmp-ferror",
                      lofi_nodes="lofi0-minor"),
    # GUESS: Solaris 10 is taken to keep the 2006 OpenSolaris
    # mirror_detach, which leaves a hole in the slots (andreiw/polaris
    # mirror_ioctl.c); which update changed it, if any, is unknown.
    # Its cmd/cmp/cmp.c takes a failed read for EOF (illumos-gate before
    # 34f9b3eef6).
    "solaris10": dict(_ILLUMOS, detach_compacts=False,
                      cmp_program="cmd-cmp", lofi_nodes="lofi0-minor",
                      lofi_labeled=False),
})
DEFAULT_RELEASE = "illumos-2016"

# /etc/release of each profile's host.  GUESS: the texts of OpenIndiana
# Hipster 2016.10, Oracle Solaris 11.4 and Solaris 10 1/13 as their
# release notes show them (leading blanks centre each line).
RELEASE_FILES = MappingProxyType({
    "illumos-2016": (
        "             OpenIndiana Hipster 2016.10 (powered by illumos)\n"
        "        OpenIndiana Project, part of The Illumos Foundation "
        "(C) 2010-2016\n"
        "                        Use is subject to license terms.\n"
        "                           Assembled 30 October 2016\n"),
    "solaris11": (
        "                             Oracle Solaris 11.4 X86\n"
        "  Copyright (c) 1983, 2018, Oracle and/or its affiliates.  All "
        "rights reserved.\n"
        "                            Assembled 16 August 2018\n"),
    "solaris10": (
        "                    Oracle Solaris 10 1/13 s10x_u11wos_24a X86\n"
        "  Copyright (c) 1983, 2013, Oracle and/or its affiliates. All "
        "rights reserved.\n"
        "                            Assembled 17 January 2013\n"),
})

_QEMU = "id1,cmdk@AQEMU_HARDDISK=QM0000%d"

# The presets: each call makes a new description, which its caller may
# change as it likes.

def _bare():
    """The article's host: its disks carry an SMI label with s0 at
    cylinder 0 (as on SPARC), so s0 starts at sector 0 and its stripes
    are labeled."""
    return {
        "nodename": "myhost",
        "physmem": GIB,
        "disks": {
            "c0d0": {"nhead": 16, "nsect": 63, "devid": _QEMU % 1,
                     "slices": {"0": 8388608, "1": 1048576, "7": 65520}},
            "c0d1": {"nhead": 15, "nsect": 63, "devid": _QEMU % 2,
                     "slices": {"0": 465885}, "starts": {"0": 0}},
            "c1d0": {"nhead": 15, "nsect": 63, "devid": _QEMU % 3,
                     "slices": {"0": 465885}, "starts": {"0": 0}},
        },
        "mounts": {"c0d0s0": "/"},
        "replicas": [{"slice": "c0d0s7", "count": 3}],
        "data": {},
        "metadevices": [],
        "vfstab": {},
    }


def _article():
    """The article's mirror d10 of d11 and d12, mounted on /mnt."""
    return dict(_bare(), **{
        "data": {"c0d1s0": 1, "c1d0s0": 1},
        "metadevices": ["d11 1 1 c0d1s0", "d12 1 1 c1d0s0",
                        "d10 -m d11 d12"],
        "vfstab": {"d10": "/mnt"},
    })


def _spare_disks():
    """The article's host with two more disks, c2d0 and c3d0."""
    desc = _article()
    for n, ctd in ((4, "c2d0"), (5, "c3d0")):
        desc["disks"][ctd] = {"nhead": 15, "nsect": 63, "devid": _QEMU % n,
                              "slices": {"0": 465885}}
    return desc


def _article_x86():
    """The article's mirror on the usual x86 layout: SMI label with s0 at
    cylinder 1, so no stripe of d10 is labeled (and neither is d10)."""
    desc = _article()
    desc["switches"] = {"disk_label": "smi-cyl1"}
    for disk in desc["disks"].values():
        disk.pop("starts", None)
    return desc


PRESETS = MappingProxyType({"article": _article, "article-bare": _bare,
                            "article-x86": _article_x86,
                            "spare-disks": _spare_disks})


def preset(name):
    """A new description of the preset `name` (one of PRESETS)."""
    return PRESETS[name]()


def host_switches(desc, release=None):
    """The switches of a host: its release profile, then its overrides."""
    release = release or desc.get("release") or DEFAULT_RELEASE
    if release not in PROFILES:
        raise SystemExit("svmsim: unknown release profile %r (known: %s)"
                         % (release, ", ".join(sorted(PROFILES))))
    switches = dict(PROFILES[release])
    for name, value in desc.get("switches", {}).items():
        if name not in switches:
            raise SystemExit("svmsim: unknown switch %r (known: %s)"
                             % (name, ", ".join(sorted(switches))))
        switches[name] = value
    for name, known in (("disk_label", DISK_LABELS),
                        ("cmp_program", CMP_PROGRAMS),
                        ("lofi_nodes", LOFI_NODES)):
        if switches[name] not in known:
            raise SystemExit("svmsim: %s must be one of %s"
                             % (name, ", ".join(known)))
    return release, switches


def slice_starts(disk, label):
    """First sector of each slice: the description's, else laid out from
    the label's first sector in slice order."""
    given = {str(k): v for k, v in disk.get("starts", {}).items()}
    cyl = disk["nhead"] * disk["nsect"]
    pos = {"smi-cyl0": 0, "smi-cyl1": cyl, "efi": EFI_FIRST_SECTOR}[label]
    starts = {}
    for s in sorted(disk["slices"], key=int):
        starts[s] = given.get(s, pos)
        pos = starts[s] + disk["slices"][s]
        if label != "efi":
            pos = (pos + cyl - 1) // cyl * cyl
    return starts


def load_host_file(path):
    with open(path) as f:
        return json.load(f)


class _QuietCtx(Ctx):
    """metainit run while building a host: output goes nowhere."""

    def out(self, text):
        pass

    def err(self, text):
        pass


def build(desc, simdir, release=None):
    """Create the state and the fake root for a host description."""
    physmem = desc.get("physmem", GIB)
    # GUESS: the kernel keeps 1/16 of physical memory at boot; the real
    # share varies (`echo availrmem_initial/E | mdb -k` tells).
    st = new_state(desc.get("nodename", "myhost"), physmem,
                   desc.get("availrmem_initial", physmem * 15 // 16))
    st["release"], st["switches"] = host_switches(desc, release)
    st["freemem_boot"] = desc.get("freemem", physmem * 3 // 4)
    root = simdir + "/root"
    devices.ensure_root(root)
    devices.add_ramdisk_ctl(root)
    drvconf.install_shipped(root, desc.get("ramdisk_conf"))
    if st["switches"]["driver_conf_local"]:
        # Oracle Solaris 11's directory for local driver settings (empty).
        os.makedirs(devices.host_path(root, "/etc/driver/drv"),
                    exist_ok=True)
    drvconf.boot(st, root)
    for index, (ctd, d) in enumerate(sorted(desc.get("disks", {}).items())):
        disk = {"index": d.get("index", index), "nhead": d["nhead"],
                "nsect": d["nsect"], "devid": d.get("devid"),
                "slices": {str(k): v for k, v in d["slices"].items()}}
        disk["starts"] = slice_starts(dict(d, slices=disk["slices"]),
                                      st["switches"]["disk_label"])
        st["disks"][ctd] = disk
        devices.add_disk_nodes(root, ctd, disk["index"], disk["slices"])
    st["mounts"] = dict(desc.get("mounts", {}))
    for rep in desc.get("replicas", []):
        for i in range(rep.get("count", 1)):
            st["replicas"].append({"slice": rep["slice"],
                                   "blkno": 16 + i * 8192, "nblk": 8192})
    for cname, version in desc.get("data", {}).items():
        ctd, n = devices.split_slice(cname)
        disk = st["disks"][ctd]
        key = devices.devkey([devices.DISK_MAJOR,
                              devices.disk_minor(disk["index"], n)])
        st["devdata"][key] = [version] * REGIONS
        if disk["starts"][str(n)] != 0:
            # A slice from sector 0 holds the disk label in its first
            # blocks; elsewhere they are data like the rest.
            st.setdefault("devhead", {})[key] = version
        st["version"] = max(st["version"], version)
    ctx = _QuietCtx("metainit", st, simdir)
    for line in desc.get("metadevices", []):
        try:
            rc = metainit.run(ctx, line.split())
        except (SvmError, Exit) as e:
            raise SystemExit("svmsim: host description: metainit %s: %s"
                             % (line, e))
        if rc:
            raise SystemExit("svmsim: host description: metainit %s failed"
                             % line)
    st["vfstab"] = dict(desc.get("vfstab", {}))
    for name in st["vfstab"]:
        svm.open_device(st, name)
    svm.write_tab_files(st, root)
    with open(devices.host_path(root, "/etc/release"), "w") as f:
        f.write(RELEASE_FILES[st["release"]])
    return st
