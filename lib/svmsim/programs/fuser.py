# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""fuser FILE...: who has a metadevice open (usr/src/cmd/fuser/fuser.c).

For each file, the name and ": " go to stderr, each process's pid to
stdout as " %7d" with its usage letters ("o": open) on stderr, and a
newline to stderr; a file that cannot be looked up gets perror("fuser")
and the exit status 1.  The emulator's users of a metadevice are its
opens (`svmsim open`) less the mount of a metadevice in the vfstab,
whose file system is the user; each open counts as one process.
GUESS: pid numbers (from 1001) and every user shown as a process; real
kernel users (a zpool, swap) appear as " [module]" on stderr instead.
"""

from svmsim import devices

_MD = r"/dev/md/r?dsk/(d[0-9]+)\Z"     # re is imported where it is used
USAGE = ("Usage:  fuser [-[k|s sig]un[c|f|d]] files "
         "[-[[k|s sig]un[c|f|d]] files]..\n")
FIRST_PID = 1001


def run(ctx, argv):
    files = [arg for arg in argv if not arg.startswith("-")]
    if not files or len(files) != len(argv):
        ctx.err(USAGE)            # GUESS: options are not emulated
        return 1
    import re
    errors = 0
    for path in files:
        ctx.err("%s: " % path)
        match = re.match(_MD, path)
        if devices.resolve(ctx.root, path) is None or match is None or \
                match.group(1) not in ctx.st["units"]:
            ctx.err("fuser: No such file or directory\n")
            errors = 1
            continue
        for pid in range(FIRST_PID, FIRST_PID + users(ctx.st, match.group(1))):
            ctx.out(" %7d" % pid)
            ctx.err("o")
        ctx.err("\n")
    return errors


def users(st, name):
    """The processes: the opens less a mount's (the vfstab's, or
    mount(1M)'s: svmsim/ufs.py), whose file system is the user."""
    from svmsim import ufs
    opens = st["opens"].get(name, 0)
    mounted = (name in st["vfstab"] or name in ufs.mounts(st)) and opens > 0
    return opens - 1 if mounted else opens
