# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""kstat -p: the few unix:0:system_pages statistics svmram reads.

Not in the original command list: svmram's backend asks for physmem and
freemem and availrmem (pages) and the boot time.  GUESS: freemem is the
host's ``freemem`` field (default 3/4 of physical memory; the rest stands
for the kernel and applications) minus the pages held by ramdisks, and
availrmem is the host's availrmem_initial minus the ramdisks' pages (which
ramdisk.c rd_phys_alloc reserves with page_resv).  boot_time is the
emulated boot's wall clock, rounded up to a second (svmsim/drvconf.py).
"""

from svmsim.lean import fnmatchcase


def stats(st):
    page = st["pagesize"]
    physmem = st["physmem"] // page
    rd_pages = sum(rd["size"] // page for rd in st["ramdisks"].values())
    return {
        "unix:0:system_pages:physmem": physmem,
        "unix:0:system_pages:availrmem":
            st["availrmem_initial"] // page - rd_pages,
        "unix:0:system_pages:freemem":
            st.get("freemem_boot", st["physmem"] * 3 // 4) // page
            - rd_pages,
        "unix:0:system_pages:pagesize": page,
        "unix:0:system_misc:boot_time": st.get("boot_time", 0),
    }


def run(ctx, argv):
    args = [a for a in argv if a != "-p"]
    table = stats(ctx.st)
    wanted = args or ["*"]
    rc = 1
    for pattern in wanted:
        for name in sorted(table):
            if fnmatchcase(name, pattern):
                ctx.out("%s\t%d\n" % (name, table[name]))
                rc = 0
    return rc
