# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""kstat -p: the few unix:0:system_pages statistics svmram reads, and
each metadevice's I/O kstat's `writes`.

unix:0:system_pages has no `pagesize` (its statistics are physmem ...
pagestotal, illumos usr/src/uts/common/os/kstat_fr.c:201-222
@a593473611); of them only physmem, freemem and availrmem are emulated,
and the pseudo-statistics class, crtime and snaptime kstat -p adds
(usr/src/cmd/stat/kstat/kstat.c:667-690) are not.  An operand is a
selector module:instance:name:statistic whose missing or empty fields
match anything (kstat.c:229-262 and new_selector :492-510), each field
a shell pattern; the exit status is 0 when anything matched, else 1
(kstat.c:350-353).

Not in the original command list: svmram's backend asks for physmem and
freemem and availrmem (pages) and the boot time.  GUESS: freemem is the
host's ``freemem`` field (default 3/4 of physical memory; the rest stands
for the kernel and applications) minus the pages held by ramdisks, and
availrmem is the host's availrmem_initial minus the ramdisks' pages (which
ramdisk.c rd_phys_alloc reserves with page_resv).  boot_time is the
emulated boot's wall clock, rounded up to a second (svmsim/drvconf.py).

A metadevice's I/O kstat is md:UNIT:mdUNIT (md_subr.c md_kstat_init_ui:
kstat_create("md", unit, NULL, "disk", KSTAT_TYPE_IO, ...), and a NULL
name is the module and the instance, kstat_create(9F)); of its fields
only `writes` is emulated, the top-level writes to the unit
(monitor.count_write).  It exists from the unit number's first open
since boot, not from metainit, and stays, dormant but readable with its
counts, after the last close and after metaclear (units.open_kstats);
a reboot drops it (cli.cmd_reboot).  So a pass-0 mirror, a one-way
mirror and a mirror made since boot and never opened have none, and
`kstat -p md:N:mdN:writes` exits 1 for them.
"""

from svmsim.lean import fnmatchcase


def stats(st):
    page = st["pagesize"]
    physmem = st["physmem"] // page
    rd_pages = sum(rd["size"] // page for rd in st["ramdisks"].values())
    table = {
        "unix:0:system_pages:physmem": physmem,
        "unix:0:system_pages:availrmem":
            st["availrmem_initial"] // page - rd_pages,
        "unix:0:system_pages:freemem":
            st.get("freemem_boot", st["physmem"] * 3 // 4) // page
            - rd_pages,
        "unix:0:system_misc:boot_time": st.get("boot_time", 0),
    }
    for unit, writes in st.get("md_kstats", {}).items():
        table["md:%s:md%s:writes" % (unit, unit)] = writes
    return table


def _selector(operand):
    """module:instance:name:statistic, a missing or empty field "*"."""
    fields = operand.split(":")[:4]
    fields += [""] * (4 - len(fields))
    return [field or "*" for field in fields]


def _matches(name, selector):
    return all(fnmatchcase(part, pattern)
               for part, pattern in zip(name.split(":", 3), selector))


def run(ctx, argv):
    args = [a for a in argv if a != "-p"]
    table = stats(ctx.st)
    wanted = [_selector(a) for a in args] or [_selector("")]
    rc = 1
    for selector in wanted:
        for name in sorted(table):
            if _matches(name, selector):
                ctx.out("%s\t%d\n" % (name, table[name]))
                rc = 0
    return rc
