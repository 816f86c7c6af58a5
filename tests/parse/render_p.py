# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""``metastat -p`` text for a parsed Config, for the round-trip tests
(test_render.py): parse-then-render gives the input back exactly, so the
parser (svmram.svm.metastat_p) keeps every field.  svmram itself never
writes this text; the line formats are the ones metastat_p.py's
docstring cites from libmeta.
"""

from svmram.svm.model import (HotSparePool, Mirror, Raid5, SoftPartition,
                              Stripe, Trans)

STALE_BANNER = ("****\nWARNING: Stale state database replicas. Metastat "
                "output may be inaccurate.\n****\n\n")


def raw_path(name, metadevice):
    """The full raw path metastat -p prints for a short name."""
    if name.startswith("/"):
        return name
    if metadevice:
        set_name, _, unit = name.rpartition("/")
        if set_name:
            return "/dev/md/%s/rdsk/%s" % (set_name, unit)
        return "/dev/md/rdsk/%s" % name
    return "/dev/rdsk/%s" % name



def render(config, paths="full"):
    """``metastat -p`` text for `config`, devices in their order.

    ``paths="full"`` prints raw paths where current illumos does;
    ``paths="short"`` prints cnames everywhere, like the 2005 code.
    """
    if paths not in ("full", "short"):
        raise ValueError("paths must be 'full' or 'short', not %r" % (paths,))
    metadevices = {d.name for d in config.devices
                   if not isinstance(d, HotSparePool)}
    full = paths == "full"

    def rname(name):
        return raw_path(name, name in metadevices) if full else name

    def cname(name):
        path = rname(name)
        if "/dev/rdsk" in path or "/dev/md/rdsk" in path:
            return name
        return path

    out = [STALE_BANNER] if config.stale_replicas else []
    for device in config.devices:
        out.append(_render_device(device, rname, cname))
    return "".join(out)


def _render_device(device, rname, cname):
    if isinstance(device, Mirror):
        options = {"first": " -r", "geometric": " -g"}.get(
            device.read_option, "")
        if device.write_option == "serial":
            options += " -S"
        return "%s -m%s%s %d\n" % (
            device.name, "".join(" " + rname(s) for s in device.submirrors),
            options, device.pass_num)
    if isinstance(device, Stripe):
        rows = []
        for row in device.rows:
            text = " %d%s" % (len(row.components), "".join(
                " " + rname(c.device) for c in row.components))
            if row.interlace_blocks is not None:
                text += " -i %db" % row.interlace_blocks
            rows.append(text)
        hsp = " -h %s" % device.hot_spare_pool if device.hot_spare_pool else ""
        return "%s %d%s%s\n" % (device.name, len(device.rows),
                                " \\\n\t".join(rows), hsp)
    if isinstance(device, SoftPartition):
        return "%s -p %s%s\n" % (device.name, rname(device.device), "".join(
            " -o %d -b %d " % (e.offset, e.length) for e in device.extents))
    if isinstance(device, Raid5):
        text = "%s -r%s -k" % (device.name, "".join(
            " " + rname(c.device) for c in device.columns))
        if device.interlace_blocks is not None:
            text += " -i %db" % device.interlace_blocks
        if device.prewrite_count is not None:
            text += " -w %d" % device.prewrite_count
        if device.hot_spare_pool:
            text += " -h %s" % device.hot_spare_pool
        if device.original_columns is not None:
            text += " -o %d" % device.original_columns
        return text + "\n"
    if isinstance(device, Trans):
        log = " " + cname(device.log) if device.log else ""
        return "%s -t %s%s\n" % (device.name, cname(device.master), log)
    if isinstance(device, HotSparePool):
        return "%s%s\n" % (device.name, "".join(
            " " + cname(s.device) for s in device.spares))
    raise TypeError("cannot render %r" % (device,))
