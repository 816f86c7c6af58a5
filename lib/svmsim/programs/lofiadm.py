# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""lofiadm: map a file to a block device (-a FILE), unmap it (-d FILE |
DEVICE), show one mapping or all (illumos usr/src/cmd/lofiadm/main.c
main, add_mapping, delete_mapping, print_mappings; utils.c die).

The lofi driver (usr/src/uts/common/io/lofi.c): instances are the first
free from 1; a file is mapped once (a second map is EBUSY); an open
device is not unmapped (EBUSY); an unlabeled lofi device fakes one big
partition from sector 0 (fake_disk_vtoc) with the ramdisk driver's
geometry (fake_disk_geometry).  Nodes: /dev/lofi/N and /dev/rlofi/N.  Exit 0
success, 1 error, 2 usage (utils.h E_ERROR, E_USAGE).

Labeled lofi (-l: lofi.c cmlb_attach, a VTOC of its own and /dev/dsk
cXtYd0 names) is in illumos from 6602 (406fc5100d, 2016-06-21; so
OpenIndiana 2016.10) and in Oracle Solaris 11.3 and 11.4 (their
lofiadm(1M)), not in Solaris 10 nor the Solaris 11 snapshot: switch
lofi_labeled.  With it the usage is main.c:72-84 and the options
"a:c:Cd:efk:lrs:T:U" (:1938, -l :1993, @a593473611; for solaris11 the
text is a GUESS, 11.4's source is not public); without it the usage and
options before 6602 (406fc5100d^ main.c:70-82, :1875; for solaris10 a
GUESS: its lofiadm is closed, and may lack -r and -c).

Not emulated: labeled lofi, encryption (-c -k -T -e) and compression
(-C -U), which exit 1 saying so.  The data of a mapping lives in its
file: it is kept with the file across an unmap and a reboot, which
unmaps every file (cli.py _forget_lofi_mappings).
"""

import errno
import os

from svmsim import devices, regions, svm
from svmsim.messages import strerror
from svmsim.programs import ramdiskadm
from svmsim.state import REGIONS

E_ERROR = 1
E_USAGE = 2
DEV_BSIZE = 512
USAGE = (
    "Usage: %s [-r]%s -a file [ device ]\n"
    "       %s [-r] -c crypto_algorithm -a file [device]\n"
    "       %s [-r] -c crypto_algorithm -k raw_key_file -a file [device]\n"
    "       %s [-r] -c crypto_algorithm -T [token]:[manuf]:[serial]:key "
    "-a file [device]\n"
    "       %s [-r] -c crypto_algorithm -T [token]:[manuf]:[serial]:key "
    "-k wrapped_key_file -a file [device]\n"
    "       %s [-r] -c crypto_algorithm -e -a file [device]\n"
    "       %s -d file | device\n"
    "       %s -C [gzip|gzip-6|gzip-9|lzma] [-s segment_size] file\n"
    "       %s -U file\n"
    "       %s [ file | device ]\n")
FORMAT = "%-20s     %-30s\t%s\n"


class _Die(Exception):
    pass


def run(ctx, argv):
    try:
        return _run(ctx, argv)
    except _Die:
        return E_ERROR


def _die(ctx, text, err=None):
    """utils.c die(): the program name, the text, and ": strerror(errno)"
    unless the text ends the line itself."""
    line = "%s: %s" % (ctx.prog, text)
    if not text.endswith("\n"):
        line += ": %s\n" % strerror(err)
    ctx.err(line)
    raise _Die()


def _options(ctx):
    """getopt()'s option letters (a colon after those taking a value)."""
    if ctx.st["switches"]["lofi_labeled"]:
        return "a:c:Cd:efk:lrs:T:U"
    return "a:c:Cd:efk:rs:T:U"


def _usage(ctx):
    labeled = " [-l]" if ctx.st["switches"]["lofi_labeled"] else ""
    text = USAGE.replace("%s", ctx.prog, 1).replace("%s", labeled, 1)
    ctx.err(text.replace("%s", ctx.prog))
    return E_USAGE


def name_to_minor(name):
    """main.c name_to_minor: sscanf "/dev/lofi/%d" or "/dev/rlofi/%d"."""
    for prefix in ("/dev/lofi/", "/dev/rlofi/"):
        if name.startswith(prefix):
            digits = ""
            for char in name[len(prefix):]:
                if not char.isdigit():
                    break
                digits += char
            return int(digits) if digits else 0
    return 0


def _realpath(ctx, name):
    """realpath(3C) in the fake root, or die("%s", name) with its errno."""
    path = name if name.startswith("/") else "/" + name
    real = devices.resolve(ctx.root, path)
    if real is None:
        _die(ctx, name, errno.ENOENT)
    return os.path.normpath(real)


def _run(ctx, argv):
    add = delete = False
    device = filename = None
    errflag = False
    letters = _options(ctx)
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        option = arg[1]
        takes = letters.find(option + ":") >= 0
        if option == ":" or option not in letters:
            ctx.err("%s: illegal option -- %s\n" % (ctx.prog, option))
            errflag = True
            i += 1
            continue
        optarg = None
        if takes:
            if len(arg) > 2:
                optarg = arg[2:]
            elif i + 1 < len(argv):
                i += 1
                optarg = argv[i]
            else:
                ctx.err("%s: option requires an argument -- %s\n" % (
                    ctx.prog, option))
                errflag = True
                i += 1
                continue
        i += 1
        if option == "a":
            add = True
            filename = _realpath(ctx, optarg)
            if i < len(argv) and not argv[i].startswith("-"):
                device = argv[i]          # the optional device
                i += 1
        elif option == "d":
            delete = True
            if name_to_minor(optarg):
                device = optarg
            else:
                filename = _realpath(ctx, optarg)
        elif option in "cCekTsUl":
            # The emulator has no crypto, compression or labeled lofi.
            ctx.err("%s: -%s is not emulated\n" % (ctx.prog, option))
            return E_ERROR
    if errflag or (add and delete):
        return _usage(ctx)
    rest = argv[i:]
    if len(rest) > 1 or (rest and (add or delete)):
        return _usage(ctx)
    if rest:
        if name_to_minor(rest[0]):
            device = rest[0]
        else:
            filename = _realpath(ctx, rest[0])
    if add:
        _check_file(ctx, filename)
    lofis = ctx.st.setdefault("lofis", {})
    if add:
        return _add(ctx, lofis, filename, device)
    if delete:
        return _delete(ctx, lofis, filename, device)
    if filename or device:
        return _show_one(ctx, lofis, filename, device)
    ctx.out(FORMAT % ("Block Device", "File", "Options"))
    for minor in sorted(lofis, key=int):
        ctx.out(FORMAT % ("/dev/lofi/%s" % minor, lofis[minor]["file"], "-"))
    return 0


def _check_file(ctx, filename):
    """main.c check_file_validity."""
    host = devices.host_path(ctx.root, filename)
    if not os.path.isfile(host):
        _die(ctx, "%s is not a regular file, block, or character device\n"
             % filename)
    if os.path.getsize(host) % DEV_BSIZE:
        _die(ctx, "size of %s is not a multiple of %d\n" % (filename,
                                                          DEV_BSIZE))


def _by_file(lofis, filename):
    for minor, lofi in lofis.items():
        if lofi["file"] == filename:
            return int(minor)
    return None


def _add(ctx, lofis, filename, device):
    if device is not None:
        minor = name_to_minor(device)
        if minor == 0:
            _die(ctx, "malformed device name %s\n" % device)
        if str(minor) in lofis or _by_file(lofis, filename) is not None:
            _die(ctx, "could not map file %s to %s" % (filename, device),
                 errno.EBUSY)
    else:
        if _by_file(lofis, filename) is not None:
            _die(ctx, "could not map file %s" % filename, errno.EBUSY)
        minor = 1
        while str(minor) in lofis:
            minor += 1
    size = os.path.getsize(devices.host_path(ctx.root, filename))
    lofis[str(minor)] = {"file": filename, "size": size}
    ctx.st.get("lofi_unmapped", {}).pop(str(minor), None)
    dev = [devices.LOFI_MAJOR, devices.lofi_minor(ctx.st, minor)]
    regions.forget_device(ctx.st, dev)
    kept = ctx.st.setdefault("lofi_files", {}).pop(filename, None)
    if kept is not None:
        ctx.st["devdata"][devices.devkey(dev)] = kept
    devices.add_lofi_nodes(ctx.root, ctx.st, minor)
    if kept is None:
        _file_data(ctx, dev, filename)
    if device is None:
        ctx.out("/dev/lofi/%d\n" % minor)
    return 0


def _file_data(ctx, dev, filename):
    """A lofi device reads its file's bytes (lofi.c lofi_strategy_task
    :1281, lofi_mapped_rdwr :1025, @a593473611): each region of the
    device (and its label blocks) whose bytes in the file are not all
    zero, written by something other than an emulated command, gets a
    version of its own; all-zero bytes (mkfile's) are blank (0)."""
    info = devices.kernel_device(ctx.st, dev)
    data = regions.device_data(ctx.st, dev)
    if info is None or data is None:
        return
    blocks, label = info["blocks"], svm.switch(ctx.st, "label_blocks")
    with open(devices.host_path(ctx.root, filename), "rb") as stream:
        def written(first, last):
            stream.seek(first * DEV_BSIZE)
            return any(stream.read((last - first) * DEV_BSIZE))
        if written(0, label):
            ctx.st["version"] += 1
            ctx.st.setdefault("devhead", {})[devices.devkey(dev)] = \
                ctx.st["version"]
        for r in range(REGIONS):
            first = max(r * blocks // REGIONS, label if r == 0 else 0)
            if written(first, (r + 1) * blocks // REGIONS):
                ctx.st["version"] += 1
                data[r] = ctx.st["version"]


def _delete(ctx, lofis, filename, device):
    if device is not None:
        minor = name_to_minor(device)
        if str(minor) not in lofis:
            _die(ctx, "could not unmap device %s" % device, errno.ENXIO)
    else:
        minor = _by_file(lofis, filename)
        if minor is None:
            _die(ctx, "could not unmap file %s" % filename, errno.ENOENT)
    dev = [devices.LOFI_MAJOR, devices.lofi_minor(ctx.st, minor)]
    if ramdiskadm.held_by_svm(ctx.st, dev):
        what = ("device %s" % device) if device is not None else \
            ("file %s" % filename)
        _die(ctx, "could not unmap %s" % what, errno.EBUSY)
    lofi = lofis.pop(str(minor))
    data = ctx.st["devdata"].pop(devices.devkey(dev), None)
    if data is not None:
        ctx.st.setdefault("lofi_files", {})[lofi["file"]] = data
    devices.remove_lofi_nodes(ctx.root, ctx.st, minor)
    return 0


def _show_one(ctx, lofis, filename, device):
    """main.c print_one_mapping."""
    if device is not None:
        minor = name_to_minor(device)
        if str(minor) not in lofis:
            _die(ctx, "could not find filename for %s" % device, errno.ENXIO)
        ctx.out("%s\n" % lofis[str(minor)]["file"])
        return 0
    minor = _by_file(lofis, filename)
    if minor is None:
        _die(ctx, "could not find device for %s" % filename, errno.ENOENT)
    ctx.out("/dev/lofi/%d\n" % minor)
    return 0
