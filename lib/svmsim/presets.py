"""Host descriptions: the built-in presets and the JSON loader.

A host description is a dict (or JSON file)::

    {"nodename": "myhost", "physmem": 1073741824,
     "disks": {"c0d1": {"nhead": 15, "nsect": 63,
                        "devid": "id1,cmdk@AQEMU_HARDDISK=QM00002",
                        "slices": {"0": 465885}}},
     "mounts": {"c0d0s0": "/"},            # physical slices in use
     "replicas": [{"slice": "c0d0s7", "count": 3}],
     "data": {"c0d1s0": 1},                 # initial data version per slice
     "metadevices": ["d11 1 1 c0d1s0", "d10 -m d11"],   # md.tab lines
     "vfstab": {"d10": "/mnt"}}             # mounted (opened) at boot

Metadevices are built by the emulated metainit itself, so a description
can only contain configurations metainit accepts.
"""

import copy
import json

from svmsim import devices, svm
from svmsim.commands import Ctx, Exit, metainit
from svmsim.messages import SvmError
from svmsim.state import REGIONS, new_state

GIB = 1024 ** 3

_QEMU = "id1,cmdk@AQEMU_HARDDISK=QM0000%d"

BARE = {
    "nodename": "myhost",
    "physmem": GIB,
    "disks": {
        "c0d0": {"nhead": 16, "nsect": 63, "devid": _QEMU % 1,
                 "slices": {"0": 8388608, "1": 1048576, "7": 65520}},
        "c0d1": {"nhead": 15, "nsect": 63, "devid": _QEMU % 2,
                 "slices": {"0": 465885}},
        "c1d0": {"nhead": 15, "nsect": 63, "devid": _QEMU % 3,
                 "slices": {"0": 465885}},
    },
    "mounts": {"c0d0s0": "/"},
    "replicas": [{"slice": "c0d0s7", "count": 3}],
    "data": {},
    "metadevices": [],
    "vfstab": {},
}

ARTICLE = dict(copy.deepcopy(BARE), **{
    "data": {"c0d1s0": 1, "c1d0s0": 1},
    "metadevices": ["d11 1 1 c0d1s0", "d12 1 1 c1d0s0", "d10 -m d11 d12"],
    "vfstab": {"d10": "/mnt"},
})

SPARE_DISKS = copy.deepcopy(ARTICLE)
SPARE_DISKS["disks"]["c2d0"] = {"nhead": 15, "nsect": 63,
                                "devid": _QEMU % 4, "slices": {"0": 465885}}
SPARE_DISKS["disks"]["c3d0"] = {"nhead": 15, "nsect": 63,
                                "devid": _QEMU % 5, "slices": {"0": 465885}}

PRESETS = {"article": ARTICLE, "article-bare": BARE,
           "spare-disks": SPARE_DISKS}


def load_host_file(path):
    with open(path) as f:
        return json.load(f)


class _QuietCtx(Ctx):
    """metainit run while building a host: output goes nowhere."""

    def out(self, text):
        pass

    def err(self, text):
        pass


def build(desc, simdir):
    """Create the state and the fake root for a host description."""
    st = new_state(desc.get("nodename", "myhost"), desc.get("physmem", GIB))
    root = simdir + "/root"
    devices.ensure_root(root)
    devices.add_ramdisk_ctl(root)
    for index, (ctd, d) in enumerate(sorted(desc.get("disks", {}).items())):
        disk = {"index": d.get("index", index), "nhead": d["nhead"],
                "nsect": d["nsect"], "devid": d.get("devid"),
                "slices": {str(k): v for k, v in d["slices"].items()}}
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
    return st
