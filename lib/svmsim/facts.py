# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The inventory of the emulator's facts (issue 36 section 1).

Each Fact is one kind of output line, exit status or behaviour of an
emulated command that svmram or `svmram selftest` reads or relies on,
with where it comes from: an illumos-gate source line (`PATH:LINE
@a593473611`), the Solaris 11 snapshot (`Arquivotheca/solaris11 PATH:LINE`)
or a real capture (`capture: WHERE`), or GUESS and the real-host check
that settles it (`selftest: CHECK NAME` of lib/svmram/svm/selftest.py, or
`confirm.sh CHECK` of tests/illumos/confirm.sh).

A line fact's pattern is a regular expression that matches the whole of
one line of the stream (stdout or stderr); an exit fact's matches the exit
status written in decimal.  A behaviour fact matches no output: it is
listed here and in docs/uncertainties.md, and its check says how a real
host confirms it.

unsourced(records) is the gate: the lines and exit statuses that
svmsim/factlog.py recorded and that no fact matches
(tests/scenario/test_facts.py).  `python3 -m svmsim.facts --markdown`
prints the inventory's part of docs/uncertainties.md, which a test keeps
equal to it.  The emulator never imports this module.
"""

import re
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    id: str
    prog: tuple
    stream: str
    pattern: str
    source: str
    check: str
    note: str
    args: str


COMMIT = "@a593473611"
GUESS = "GUESS"
STREAMS = ("stdout", "stderr", "exit", "behaviour")

LIBMETA = "usr/src/lib/lvm/libmeta/common/"
LVMUTIL = "usr/src/cmd/lvm/util/"

META = ("metainit", "metattach", "metadetach", "metaclear", "metaparam",
        "metareplace", "metasync", "metastat", "metadb", "metaoffline",
        "metaonline")

# Name patterns of what the emulated host holds.
MD = r"d\d+"
CTD = r"c\d+(?:t\d+)?d\d+s\d+"
HOST = r"[A-Za-z0-9][A-Za-z0-9.-]*"


def at(*cites):
    """`PATH:LINE[-LINE] ... @a593473611` from (PATH, LINES) pairs."""
    return " ".join("%s:%s" % cite for cite in cites) + " " + COMMIT


def padded(names, width):
    """An alternation of names left-justified to `width` (printf %-Ns)."""
    return "(?:%s)" % "|".join(re.escape(name.ljust(width))
                               for name in names)


SM_STATES = ("Okay", "Resyncing", "Needs maintenance", "Resync cancelled",
             "Unavailable")
COMP_STATES = ("Okay", "Resyncing", "Maintenance", "Last Erred",
               "Unavailable")

_F = []


def fact(id, prog, stream, pattern, source, check="", note="", args=""):
    """`args`, when given, is a regex the command's arguments (joined by
    blanks) must match from their start: the fact is about that form of
    the command only."""
    if stream not in STREAMS:
        raise ValueError("fact %s: no stream %r" % (id, stream))
    _F.append(Fact(id, prog if isinstance(prog, tuple) else (prog,),
                   stream, pattern, source, check, note, args))


# --- metastat ---------------------------------------------------------------
fact("metastat.p.mirror", "metastat", "stdout",
     r"%s -m(?: /dev/md/rdsk/%s)+(?: -r| -g)?(?: -S)? \d+" % (MD, MD),
     at((LIBMETA + "meta_mirror.c", "633-661")),
     note="`metastat -p`: a mirror, its submirrors' raw paths, the read and "
     "write options when not the default, the pass number",
     check="selftest: metastat -p reads as built")
fact("metastat.p.stripe", "metastat", "stdout",
     r"%s \d+(?: \d+(?: /dev/rdsk/%s)+(?: -i \d+b)?)+" % (MD, CTD),
     at((LIBMETA + "meta_stripe.c", "578-604")),
     note="`metastat -p`: a concat/stripe, rows of components, raw paths, "
     "a row's interlace when it has more than one component",
     check="selftest: metastat -p reads as built")
fact("metastat.mirror.name", "metastat", "stdout", r"%s: Mirror" % MD,
     at((LIBMETA + "meta_mirror.c", 997)))
fact("metastat.mirror.submirror", "metastat", "stdout",
     r"    Submirror \d: %s" % MD, at((LIBMETA + "meta_mirror.c", 1021)))
fact("metastat.mirror.submirror-state", "metastat", "stdout",
     r"      State: %s " % padded(SM_STATES, 12),
     at((LIBMETA + "meta_mirror.c", "1040"),
        (LIBMETA + "meta_mirror.c", "697-735")),
     note="sm_state_to_name() printed %-12s, then an empty time")
fact("metastat.mirror.resync", "metastat", "stdout",
     r"    Resync in progress: \d+ % done",
     at((LIBMETA + "meta_mirror.c", "1071-1074")),
     note="a 32-bit unit's percentage (the 64-bit form is %2d.%1d)",
     check="confirm.sh 9")
fact("metastat.mirror.resync-cancelled", "metastat", "stdout",
     r"    Resync cancelled: \d+ % done",
     at((LIBMETA + "meta_mirror.c", "1056-1059")))
fact("metastat.mirror.pass", "metastat", "stdout", r"    Pass: \d+",
     at((LIBMETA + "meta_mirror.c", 845)))
fact("metastat.mirror.read-option", "metastat", "stdout",
     r"    Read option: (?:roundrobin \(default\)|first \(-r\)|"
     r"geometric \(-g\))",
     at((LIBMETA + "meta_mirror.c", "851"),
        (LIBMETA + "meta_mirror.c", "455-483")))
fact("metastat.mirror.write-option", "metastat", "stdout",
     r"    Write option: (?:parallel \(default\)|serial \(-S\))",
     at((LIBMETA + "meta_mirror.c", "857"),
        (LIBMETA + "meta_mirror.c", "519-527")))
fact("metastat.size", "metastat", "stdout",
     r"    Size: \d+ blocks \((?:\d+|\d\.\d) [ KMGTPE]B\)",
     at((LIBMETA + "meta_mirror.c", 1117), (LIBMETA + "meta_stripe.c", 1049),
        (LIBMETA + "meta_print.c", "308-339")),
     note="meta_number_to_string(): one decimal under 10 units")
fact("metastat.submirror.name", "metastat", "stdout",
     r"%s: Submirror of %s" % (MD, MD),
     at((LIBMETA + "meta_mirror.c", 1223)))
fact("metastat.submirror.state", "metastat", "stdout",
     r"    State: %s " % padded(SM_STATES, 12),
     at((LIBMETA + "meta_mirror.c", 1244)))
fact("metastat.submirror.invoke", "metastat", "stdout",
     r"    Invoke: (?:metareplace %s %s <new device>|metasync %s|"
     r"metaonline %s %s|after replacing \"Maintenance\" components:)"
     % (MD, CTD, MD, MD, MD),
     at((LIBMETA + "meta_mirror.c", 1255),
        (LIBMETA + "meta_mirror.c", "760-819")),
     note="what to type: the erred component's metareplace, metasync, "
     "metaonline of an offline submirror; a Last Erred component's "
     "metareplace goes on the next line")
fact("metastat.submirror.invoke-last-erred", "metastat", "stdout",
     r"\t\tmetareplace %s %s <new device>" % (MD, CTD),
     at((LIBMETA + "meta_mirror.c", "790-797")))
fact("metastat.stripe.row", "metastat", "stdout", r"    Stripe \d+:",
     at((LIBMETA + "meta_stripe.c", 1069)))
fact("metastat.stripe.header", "metastat", "stdout",
     r"\tDevice +Start Block  Dbase        State Reloc Hot Spare",
     at((LIBMETA + "meta_stripe.c", "697-709")),
     note="Device is as wide as the longest component name, plus 2")
fact("metastat.stripe.component", "metastat", "stdout",
     r"\t%s +\d+     (?:Yes  |No   ) +%s (?:  Yes|  No ) "
     % (CTD, "(?:%s)" % "|".join(COMP_STATES)),
     at((LIBMETA + "meta_stripe.c", "803-805"),
        (LIBMETA + "meta_stripe.c", "645-660")),
     note="start block, holds a replica, state, has a device id, hot "
     "spare (none)")
fact("metastat.reloc.title", "metastat", "stdout",
     r"Device Relocation Information:",
     at((LIBMETA + "meta_print.c", 390)))
fact("metastat.reloc.header", "metastat", "stdout",
     r"Device +Reloc\tDevice ID", at((LIBMETA + "meta_print.c", "406-409")))
fact("metastat.reloc.row", "metastat", "stdout",
     r"c\d+(?:t\d+)?d\d+ +(?:Yes  |No   )\t\S+",
     at((LIBMETA + "meta_print.c", "414-430")),
     note="`-` when the disk has no device id")
fact("metastat.blank", "metastat", "stdout", r"",
     at((LIBMETA + "meta_mirror.c", 1218), (LIBMETA + "meta_mirror.c", 1270),
        (LIBMETA + "meta_stripe.c", 1090), (LVMUTIL + "metastat.c",
                                              "400-403")),
     note="an empty line before each submirror's section, after each unit "
     "(so before the relocation list) and after the stale-replica banner")
fact("metastat.exit-ok", "metastat", "exit", r"0",
     at((LVMUTIL + "metastat.c", 446), (LVMUTIL + "metastat.c", 570)),
     note="without operands, and with each named unit found")
fact("metastat.smf-offline", "metastat", "stderr", r"metastat: %s: " % HOST,
     at((LVMUTIL + "metastat.c", "440-442"),
        (LVMUTIL + "metastat.c", "564-566"),
        (LIBMETA + "meta_error.c", 2216)),
     note="after printing everything, while a core SVM service is not "
     "online (at boot until inetd starts rpc/meta): the error names the "
     "services, each on a line of its own, and metastat exits 1")
fact("metastat.smf-offline-service", "metastat", "stderr",
     r"\t[a-z/-]+:default(?:: service\(s\) not online in SMF)?",
     at((LIBMETA + "meta_smf.c", "316-322"),
        (LIBMETA + "meta_error.c", 878)))
fact("metastat.stale-banner", "metastat", "stdout",
     r"\*\*\*\*|WARNING: Stale state database replicas\. Metastat output "
     r"may be inaccurate\.",
     at((LVMUTIL + "metastat.c", "398-403")),
     note="first, when fewer than a majority of the replicas were good at "
     "boot: the warning between two lines of four stars, then an empty "
     "line")
fact("metastat.not-set-up", "metastat", "stderr",
     r"metastat: %s: %s: unit not set up" % (HOST, MD),
     at((LVMUTIL + "metastat.c", "476-480"),
        (LIBMETA + "meta_error.c", "1219-1221"),
        (LIBMETA + "meta_error.c", 2216)),
     note="a named unit that does not exist; metastat exits 1")
fact("metastat.no-database", "metastat", "stderr",
     r"metastat: %s: there are no existing databases" % HOST,
     at((LVMUTIL + "metastat.c", "640-643"),
        ("usr/src/uts/common/io/lvm/md/md_mddb.c", 6620),
        ("usr/src/uts/common/io/lvm/md/md_error.c", "262-263"),
        (LIBMETA + "meta_error.c", "1686-1688"),
        (LIBMETA + "meta_error.c", 2216)),
     note="no state database replica: the kernel finds no database "
     "(MDDB_E_NODB, MDE_DB_NODB); metastat exits 1")
fact("metastat.exit-error", "metastat", "exit", r"1",
     at((LVMUTIL + "metastat.c", "476-480"), (LVMUTIL + "metastat.c", 570),
        (LVMUTIL + "metastat.c", "640-643")))
fact("metastat.exit-smf-offline", "metastat", "exit", r"1",
     at((LVMUTIL + "metastat.c", "440-442"),
        (LVMUTIL + "metastat.c", "564-566")))

# --- the changing meta* commands --------------------------------------------
fact("metainit.mirror-setup", "metainit", "stdout",
     r"%s: Mirror is setup" % MD, at((LIBMETA + "meta_mirror.c", 2662)))
fact("metainit.stripe-setup", "metainit", "stdout",
     r"%s: Concat/Stripe is setup" % MD,
     at((LIBMETA + "meta_stripe.c", 2350)))
fact("metainit.n-way-warning", "metainit", "stderr",
     r"metainit: %s: WARNING: This form of metainit is not recommended\."
     % MD, at((LIBMETA + "meta_mirror.c", "2590-2596"),
              (LIBMETA + "meta_error.c", 2289)))
fact("metainit.n-way-warning-2", "metainit", "stderr",
     r"The submirrors may not have the same data\.",
     at((LIBMETA + "meta_mirror.c", 2594)))
fact("metainit.n-way-warning-3", "metainit", "stderr",
     r"Please see ERRORS in metainit\(1M\) for additional information\.",
     at((LIBMETA + "meta_mirror.c", 2595)))
fact("metainit.dangling-link", "metainit", "stderr",
     r"metainit: %s: %s: No such file or directory" % (HOST, CTD),
     at((LIBMETA + "meta_name.c", "2174-2199"),
        (LIBMETA + "meta_error.c", 2216)),
     note="a cNtNdNsN link whose device node is gone: metaname() fails "
     "with ENOENT on the name, nothing on stdout, exit 1",
     check="selftest: metainit on a link that dangles")
fact("metattach.attached", "metattach", "stdout",
     r"%s: submirror %s is attached" % (MD, MD),
     at((LIBMETA + "meta_mirror.c", "1626-1630")))
fact("metadetach.detached", "metadetach", "stdout",
     r"%s: submirror %s is detached" % (MD, MD),
     at((LIBMETA + "meta_mirror.c", 1697)))
fact("metaclear.mirror", "metaclear", "stdout",
     r"%s: Mirror is cleared" % MD, at((LIBMETA + "meta_mirror.c", 2767)))
fact("metaclear.stripe", "metaclear", "stdout",
     r"%s: Concat/Stripe is cleared" % MD,
     at((LIBMETA + "meta_stripe.c", 2456)))
fact("metareplace.enabled", "metareplace", "stdout",
     r"%s: device %s is enabled" % (MD, CTD),
     at((LIBMETA + "meta_mirror.c", "2178-2181")))
fact("metareplace.replaced", "metareplace", "stdout",
     r"%s: device %s is replaced with %s" % (MD, CTD, CTD),
     at((LIBMETA + "meta_mirror.c", "2008-2011")))
fact("meta.stale-databases", META, "stderr",
     r"meta[a-z]+: %s: stale databases" % HOST,
     at((LIBMETA + "meta_error.c", "1694-1696"),
        (LIBMETA + "meta_error.c", 2216)),
     note="a change while the state database is stale (MDE_DB_STALE), "
     "without a unit's name")
fact("metattach.labeled", "metattach", "stderr",
     r"metattach: %s: %s: can't attach labeled submirror to an unlabeled "
     r"mirror" % (HOST, MD),
     at(("usr/src/uts/common/io/lvm/mirror/mirror_ioctl.c", "911-913"),
        (LIBMETA + "meta_error.c", "1269-1271"),
        (LIBMETA + "meta_error.c", 2216)))
fact("meta.error-blank", META, "stderr", r"",
     at((LIBMETA + "meta_error.c", "2122-2216")),
     note="mde_perror(): every SVM error message ends in a newline of its "
     "own, so an empty line follows it")
# metainit NAME ... (not -r: :866); metasync NAME (:291) and -r (:219)
for _prog, _lines in (("metainit", ("870-897",)), ("metattach", (543,)),
                      ("metadetach", (304,)), ("metaclear", ("345-349",)),
                      ("metaparam", (476,)), ("metareplace", (290,)),
                      ("metasync", (291, 219)), ("metadb", (816,))):
    fact("%s.exit-ok" % _prog, _prog, "exit", r"0",
         at(*[(LVMUTIL + _prog + ".c", _line) for _line in _lines]))
fact("metattach.exit-error", "metattach", "exit", r"1",
     at((LVMUTIL + "metattach.c", "522-526")), note="mirror_attach() "
     "failed: mde_perror, then md_exit(sp, 1)")
fact("metaparam.exit-error", "metaparam", "exit", r"1",
     at((LVMUTIL + "metaparam.c", "458-462")), note="mirror_params() "
     "failed: mde_perror, then md_exit(sp, 1)")
fact("metainit.exit-error", "metainit", "exit", r"1",
     at((LVMUTIL + "metainit.c", "872-885"), (LVMUTIL + "metainit.c", 897)),
     note="init_name() failed: mde_perror, then md_exit(sp, 1)")

# --- metadb ------------------------------------------------------------------
fact("metadb.header", "metadb", "stdout",
     r"\tflags\t\tfirst blk\tblock count",
     at((LVMUTIL + "metadb.c", "570-571")))
fact("metadb.replica", "metadb", "stdout",
     r"[RSFDMaWm pcluotBr]{20}\t\d+\t\t\d+\t\t/dev/dsk/%s" % CTD,
     at((LVMUTIL + "metadb.c", "574-593"),
        ("usr/src/uts/common/sys/lvm/mdiox.x", 755)),
     note="the flags are MDDB_FLAGS_STRING's letters or blanks")

# --- ramdiskadm --------------------------------------------------------------
fact("ramdiskadm.heading", "ramdiskadm", "stdout",
     re.escape("%-45.45s %20s  %-10s" % ("Block Device", "Size",
                                          "Removable")),
     at(("usr/src/cmd/ramdiskadm/main.c", "52-57"),
        ("usr/src/uts/common/sys/ramdisk.h", 127),
        ("usr/src/cmd/ramdiskadm/main.c", "172")),
     check="confirm.sh 6")
fact("ramdiskadm.row", "ramdiskadm", "stdout",
     r"/dev/ramdisk/\S+ +\d+    (?:Yes|No)",
     at(("usr/src/cmd/ramdiskadm/main.c", "56"),
        ("usr/src/cmd/ramdiskadm/main.c", "176-179")))
fact("ramdiskadm.created", "ramdiskadm", "stdout", r"/dev/ramdisk/\S+",
     at(("usr/src/cmd/ramdiskadm/main.c", 106)),
     note="`ramdiskadm -a` prints the block device's path")
fact("ramdiskadm.cap", "ramdiskadm", "stderr",
     r"ramdiskadm: couldn't create ramdisk \"\S+\": "
     r"Resource temporarily unavailable",
     at(("usr/src/cmd/ramdiskadm/main.c", 102),
        ("usr/src/cmd/ramdiskadm/utils.c", "66-81"),
        ("usr/src/uts/common/io/ramdisk.c", 1211)),
     note="past the memory cap the driver answers EAGAIN",
     check="selftest: ramdiskadm refuses past its cap")
fact("ramdiskadm.exit-ok", "ramdiskadm", "exit", r"0",
     at(("usr/src/cmd/ramdiskadm/main.c", 339)))
fact("ramdiskadm.exit-error", "ramdiskadm", "exit", r"1",
     at(("usr/src/cmd/ramdiskadm/utils.c", 81)), note="die(): E_ERROR")

# --- kstat -------------------------------------------------------------------
fact("kstat.p.system_pages", "kstat", "stdout",
     r"unix:0:system_pages:(?:(?:%s)\t\d+|class\tpages|"
     r"(?:crtime|snaptime)\t\d+(?:\.\d{9})?)" % "|".join((
         "physmem", "nalloc", "nfree", "nalloc_calls", "nfree_calls",
         "kernelbase", "econtig", "freemem", "availrmem", "lotsfree",
         "desfree", "minfree", "fastscan", "slowscan", "nscan", "desscan",
         "pp_kernel", "pagesfree", "pageslocked", "pagestotal")),
     at(("usr/src/cmd/stat/kstat/kstat.c", 769),
        ("usr/src/cmd/stat/kstat/kstat.h", 163),
        ("usr/src/cmd/stat/kstat/kstat.c", "669-690"),
        ("usr/src/uts/common/os/kstat_fr.c", "202-222")),
     note="the statistics of unix:0:system_pages (no kernel has a "
     "pagesize one), and the class, crtime and snaptime kstat -p adds "
     "for a whole kstat")
fact("kstat.p.boot_time", "kstat", "stdout",
     r"unix:0:system_misc:boot_time\t\d+",
     at(("usr/src/cmd/stat/kstat/kstat.c", 769),
        ("usr/src/uts/common/os/kstat_fr.c", 176)))
fact("kstat.p.md-writes", "kstat", "stdout", r"md:\d+:md\d+:writes\t\d+",
     at(("usr/src/cmd/stat/kstat/kstat.c", 769),
        ("usr/src/cmd/stat/kstat/kstat.c", 1560),
        ("usr/src/uts/common/io/lvm/md/md_subr.c", "3132-3160")),
     note="a mirror's I/O kstat, from its first open since boot",
     check="selftest: the mirror's write kstat")
fact("kstat.exit", "kstat", "exit", r"[01]",
     at(("usr/src/cmd/stat/kstat/kstat.c", 353)),
     note="0 when a statistic matched, else 1 (a mirror's I/O kstat before "
     "its first open since boot)")

# --- prtvtoc -----------------------------------------------------------------
fact("prtvtoc.h.slice", "prtvtoc", "stdout",
     r"      [ \d]\d  [ \d]{4}\d    [0-9a-f]{2}  [ \d]{8}\d [ \d]{8}\d "
     r"[ \d]{8}\d(?:   \S+)?",
     at(("usr/src/cmd/prtvtoc/prtvtoc.c", "519-525"),
        ("usr/src/cmd/prtvtoc/prtvtoc.c", "575-580")),
     note="`-h`: partition, tag, flags, first sector, count, last sector, "
     "mount point; ramdisks and lofi devices fake one slice 0 from sector "
     "0, tag 0, flags 01 (prtvtoc.c:363-420, lofi.c:2204-2276)")
fact("prtvtoc.exit-ok", "prtvtoc", "exit", r"0",
     at(("usr/src/cmd/prtvtoc/prtvtoc.c", 140)))

# --- the other commands svmram and selftest run ------------------------------
fact("fuser.name", "fuser", "stderr", r"/dev/md/r?dsk/%s: [crtomyan]*" % MD,
     at(("usr/src/cmd/fuser/fuser.c", 554), ("usr/src/cmd/fuser/fuser.c",
                                            "86-95"),
        ("usr/src/cmd/fuser/fuser.c", "210-214")),
     note="the name on stderr, then each process's letters (o: open)")
fact("fuser.pids", "fuser", "stdout", r"(?: +\d+)+",
     at(("usr/src/cmd/fuser/fuser.c", 207)),
     note="each process id as ` %7d`, on one line")
fact("fuser.exit-ok", "fuser", "exit", r"0",
     at(("usr/src/cmd/fuser/fuser.c", 594)))
fact("dd.records", "dd", "stderr", r"\d+\+\d+ records (?:in|out)",
     at(("usr/src/cmd/dd/dd.c", "1896-1897")))
fact("dd.exit-ok", "dd", "exit", r"0", at(("usr/src/cmd/dd/dd.c", 1177),
                                        ("usr/src/cmd/dd/dd.c", "1872-1876")))
fact("cmp.eof", "cmp", "stderr", r"cmp: EOF on /dev/md/rdsk/%s" % MD,
     at(("usr/src/lib/libcmd/common/cmp.c", "118-122")),
     note="the mirror is shorter than its ramdisk copy: exit 1")
fact("cmp.exit", "cmp", "exit", r"[01]",
     at(("usr/src/lib/libcmd/common/cmp.c", "119-122"),
        ("usr/src/lib/libcmd/common/cmp.c", 288)),
     check="selftest: cmp of the two submirrors")
fact("lofiadm.device", "lofiadm", "stdout", r"/dev/lofi/\d+",
     at(("usr/src/cmd/lofiadm/main.c", 468),
        ("usr/src/cmd/lofiadm/main.c", 543)),
     note="`lofiadm -a FILE` and `lofiadm FILE` print the block device")
fact("lofiadm.exit-ok", "lofiadm", "exit", r"0",
     at(("usr/src/cmd/lofiadm/main.c", 2166)))
fact("mkfile.exit-ok", "mkfile", "exit", r"0",
     at(("usr/src/cmd/mkfile/mkfile.c", 265)), note="main returns its "
     "error count")
fact("newfs.summary", "newfs", "stderr",
     r"/dev/md/rdsk/%s:\t\d+ sectors in \d+ cylinders of \d+ tracks, "
     r"\d+ sectors" % MD,
     at(("usr/src/cmd/fs.d/ufs/mkfs/mkfs.c", "2096-2105")),
     note="mkfs's first summary line, on stderr; the second is not "
     "emulated")
fact("newfs.exit-ok", "newfs", "exit", r"0",
     at(("usr/src/cmd/fs.d/ufs/newfs/newfs.c", "636-645"),
        ("usr/src/cmd/fs.d/ufs/mkfs/mkfs.c", 2397)),
     check="selftest: newfs on the scratch mirror")
fact("mount.exit-ok", "mount", "exit", r"0",
     at(("usr/src/cmd/fs.d/ufs/mount/mount.c", 608)),
     check="selftest: mount -F ufs of the scratch mirror")
fact("umount.exit-ok", "umount", "exit", r"0",
     at(("usr/src/cmd/fs.d/umount.c", "442-455")),
     note="ufs has no umount of its own (usr/src/cmd/fs.d/ufs), so the "
     "generic one calls umount2() and exits 0",
     check="selftest: umount of the scratch UFS")

# --- SMF --------------------------------------------------------------------
STATE = (r"(?:online|offline|disabled|maintenance|degraded|uninitialized|"
         r"legacy_run)\*?")
fact("svcs.h.inst-state", "svcs", "stdout",
     r"%s {1,20}%s" % (MD, STATE),
     at(("usr/src/cmd/svc/svcs/svcs.c", 1513),
        ("usr/src/cmd/svc/svcs/svcs.c", "1592-1608"),
        ("usr/src/cmd/svc/svcs/svcs.c", 1796),
        ("usr/src/cmd/svc/svcs/svcs.c", "1220-1240")),
     note="`-H -o inst,state`: the instance in a 20-wide column")
fact("svcs.h.inst", "svcs", "stdout", MD,
     at(("usr/src/cmd/svc/svcs/svcs.c", 1513),
        ("usr/src/cmd/svc/svcs/svcs.c", "1592-1608")))
fact("svcs.h.state", "svcs", "stdout", STATE,
     at(("usr/src/cmd/svc/svcs/svcs.c", 1796),
        ("usr/src/cmd/svc/svcs/svcs.c", "1220-1240")),
     note="a state, with `*` while the instance has a next state")
fact("svcs.h.fmri", "svcs", "stdout", r"svc:/\S+",
     at(("usr/src/cmd/svc/svcs/svcs.c", "1465-1493")),
     note="`-H -o fmri`: the instance's FMRI in a 50-wide column")
fact("svcs.h.state-fmri", "svcs", "stdout", STATE + r" +svc:/\S+",
     at(("usr/src/cmd/svc/svcs/svcs.c", 1796),
        ("usr/src/cmd/svc/svcs/svcs.c", "1465-1493")))
fact("svcs.no-match", "svcs", "stderr",
     r"svcs: Pattern '\S+' doesn't match any instances",
     at(("usr/src/lib/libscf/common/lowlevel.c", "6784-6786"),
        ("usr/src/lib/libscf/common/error.c", 175)))
fact("svcs.no-server", "svcs", "stderr",
     r"svcs: Could not bind to repository server: repository server "
     r"unavailable\.  Exiting\.",
     at(("usr/src/cmd/svc/svcs/svcs.c", "3703-3704"),
        ("usr/src/lib/libscf/common/error.c", 60)),
     note="svc.configd is not running: uu_die(), exit 1")
fact("svcs.exit", "svcs", "exit", r"[01]",
     at(("usr/src/cmd/svc/svcs/svcs.c", "3734-3736"),
        ("usr/src/lib/libscf/common/lowlevel.c", "6786-6788"),
        ("usr/src/cmd/svc/svcs/svcs.c", 3931)),
     note="1 when a pattern matched nothing")
fact("svcprop.f", "svcprop", "stdout",
     r"svc:/\S+/:properties/\S+/\S+ \S+ .*",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "238-244"),
        ("usr/src/cmd/svc/svcprop/svcprop.c", "262-296")),
     note="`-f`: property FMRI, type, values")
fact("svcprop.pg", "svcprop", "stdout", r"[^\s/]+/\S+ \S+ .*",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "247-296")),
     note="a property group: PG/PROP, type, values")
fact("svcprop.value", "svcprop", "stdout", r"\S.*",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "277-296")),
     note="one property: its values only (svmram's manifest gives "
     "general/entity_stability)", args=r"-p [a-z_]+/[a-z_]+ svc:/\S+$")
fact("svcprop.no-pg", "svcprop", "stderr",
     r"svcprop: Couldn't find property group `[a-z_]+' for (?:instance|"
     r"service) `svc:/\S+'\.",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "542-544"),
        ("usr/src/cmd/svc/svcprop/svcprop.c", "337-341")),
     note="an instance without svmram's property group: exit 1")
fact("svcprop.no-match", "svcprop", "stderr",
     r"svcprop: Pattern '\S+' doesn't match any entities",
     at(("usr/src/lib/libscf/common/lowlevel.c", "6777-6778"),
        ("usr/src/lib/libscf/common/lowlevel.c", "6786-6788"),
        ("usr/src/lib/libscf/common/error.c", 187)),
     note="no instance matched: exit 1")
fact("svcprop.no-server", "svcprop", "stderr",
     r"svcprop: Could not connect to configuration repository: repository "
     r"server unavailable\.",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "1121-1123"),
        ("usr/src/lib/libscf/common/error.c", 60)),
     note="svc.configd is not running: exit 1")
fact("svcprop.exit-error", "svcprop", "exit", r"1",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", "337-341"),
        ("usr/src/cmd/svc/svcprop/svcprop.c", "1142-1151")))
fact("svcprop.exit-ok", "svcprop", "exit", r"0",
     at(("usr/src/cmd/svc/svcprop/svcprop.c", 1151)))
fact("svcadm.no-server", "svcadm", "stderr",
     r"svcadm: Couldn't bind to configuration repository: repository "
     r"server unavailable\.",
     at(("usr/src/cmd/svc/svcadm/svcadm.c", "2302-2307"),
        ("usr/src/lib/libscf/common/error.c", 60)),
     note="svc.configd is not running: uu_die(), exit 1")
fact("svcadm.exit-error", "svcadm", "exit", r"1",
     at(("usr/src/cmd/svc/svcadm/svcadm.c", "2306-2307")),
     note="uu_die() exits UU_EXIT_FATAL (1)")
fact("svcadm.exit-ok", "svcadm", "exit", r"0",
     at(("usr/src/cmd/svc/svcadm/svcadm.c", 2683)),
     note="`enable -s`/`disable -s` print nothing")
fact("svccfg.exit-ok", "svccfg", "exit", r"0",
     at(("usr/src/cmd/svc/svccfg/svccfg_main.c", "216-234")),
     note="`-f FILE` and `delete FMRI` print nothing")

# --- behaviours and guesses (no output line: the real-host check) ------------
fact("metainit.mirror-size", "metainit", "behaviour", "",
     at((LIBMETA + "meta_mirror.c", "2409-2415"),
        (LIBMETA + "meta_mirror.c", "2314-2352")),
     check="confirm.sh 7",
     note="a mirror is its smallest submirror rounded down to its first "
     "submirror's cylinder (a ramdisk's is 600 blocks)")
fact("metadetach.compacts", "metadetach", "behaviour", "",
     at(("usr/src/uts/common/io/lvm/mirror/mirror_ioctl.c", "1123-1140")),
     check="selftest: slots after metadetach of slot 0",
     note="detach packs the slots on illumos; Solaris 10 leaves a hole "
     "(switch detach_compacts)")
fact("metastat.after-reboot", "metastat", "behaviour", "", GUESS,
     check="confirm.sh 3",
     note="after a reboot the RAM submirror shows Needs maintenance once "
     "the mirror is opened; Last Erred when there is no other readable "
     "source")
fact("devlinks.survive-reboot", "metainit", "behaviour", "", GUESS,
     check="confirm.sh 5",
     note="hand-made /dev/dsk links survive a reboot and devfsadm -C")
fact("ramdiskadm.empty-listing", "ramdiskadm", "behaviour", "",
     at(("usr/src/cmd/ramdiskadm/main.c", "167-175")),
     check="confirm.sh 6",
     note="with no ramdisk, ramdiskadm prints nothing, not even the "
     "heading")
fact("metareplace.okay-resyncs", "metareplace", "behaviour", "", GUESS,
     check="confirm.sh 8",
     note="metareplace -e on an Okay component resyncs it anyway")
fact("metareplace.rebind", "metareplace", "behaviour", "", GUESS,
     check="confirm.sh 10",
     note="a recreated ramdisk with the same minor is enabled (`is "
     "enabled`); another minor is replaced")
fact("kstat.md-lifetime", "kstat", "behaviour", "",
     at(("usr/src/uts/common/io/lvm/md/md_subr.c", "3132-3160")),
     check="confirm.sh 11a",
     note="a mirror's I/O kstat exists from its first open since boot, "
     "stays after the last close and after metaclear, and is gone after a "
     "reboot")
fact("ramdiskadm.cap-percent", "ramdiskadm", "behaviour", "", GUESS,
     check="selftest: ramdiskadm refuses past its cap",
     note="the emulated host's availrmem_initial is 15/16 of its memory; "
     "t_minarmem (25 pages) and throttlefree (physmem/256) are guesses")
fact("metainit.labeled-stripe", "metattach", "behaviour", "",
     at(("usr/src/uts/common/io/lvm/mirror/mirror_ioctl.c", "910-914")),
     note="a ramdisk stripe is labeled and cannot be attached to an "
     "unlabeled mirror")

FACTS = tuple(_F)
del _F


def _compiled():
    return [(f, re.compile(f.pattern), re.compile(f.args)) for f in FACTS
            if f.stream != "behaviour"]


def matching(prog, argv, stream, line, compiled=None):
    """The first fact that covers this line (or exit status) of `prog
    ARGV`, or None."""
    joined = " ".join(argv)
    for f, regex, args in compiled or _compiled():
        if prog in f.prog and f.stream == stream and \
                regex.fullmatch(line) and args.match(joined):
            return f
    return None


def unsourced(records):
    """[(prog, argv, stream, line)] of the recorded lines and exit
    statuses no fact covers; output a fault injected is skipped, and a
    command that died by an exception (exit None) is always reported."""
    compiled = _compiled()
    found = []
    seen = set()
    for record in records:
        if record.get("injected"):
            continue
        prog, argv = record["prog"], record["argv"]
        items = [(stream, line) for stream in ("stdout", "stderr")
                 for line in record[stream].split("\n")[:-1]]
        if record[("stdout")] and not record["stdout"].endswith("\n"):
            items.append(("stdout", record["stdout"].rsplit("\n", 1)[-1]))
        if record["stderr"] and not record["stderr"].endswith("\n"):
            items.append(("stderr", record["stderr"].rsplit("\n", 1)[-1]))
        status = record["exit"]
        items.append(("exit", "exception" if status is None else
                      str(status)))
        for stream, line in items:
            key = (prog, stream, line)
            if key in seen:
                continue
            if matching(prog, argv, stream, line, compiled) is None:
                seen.add(key)
                found.append((prog, argv, stream, line))
    return found


# --- the human face: docs/uncertainties.md ----------------------------------
BEGIN = "<!-- facts.py inventory: begin (python3 -m svmsim.facts " \
    "--markdown) -->"
END = "<!-- facts.py inventory: end -->"


def _cell(text):
    return text.replace("|", "\\|")


def markdown():
    """The inventory's section of docs/uncertainties.md."""
    out = [BEGIN, "", "## The inventory of emulated facts "
           "(`lib/svmsim/facts.py`)", "",
           "Paths and line numbers are illumos-gate's at a593473611.  A "
           "fact without a",
           "real-host check is read in the source only.", "",
           "### Guesses, and the real-host check that settles each", "",
           "| fact | command | what | settled by |", "|---|---|---|---|"]
    for f in FACTS:
        if f.source == GUESS:
            out.append("| `%s` | %s | %s | %s |" % (
                f.id, ", ".join(f.prog), _cell(f.note), _cell(f.check)))
    out += ["", "### Facts read in the source", "",
            "| fact | command | stream | what | source | checked on a "
            "real host by |", "|---|---|---|---|---|---|"]
    for f in FACTS:
        if f.source != GUESS:
            what = f.note or "`%s`" % f.pattern.replace("`", "'")
            if f.args:
                what += " (arguments `%s`)" % f.args
            out.append("| `%s` | %s | %s | %s | %s | %s |" % (
                f.id, ", ".join(f.prog), f.stream, _cell(what),
                _cell(f.source.replace(" " + COMMIT, "")),
                _cell(f.check) or "-"))
    out += ["", END]
    return "\n".join(out) + "\n"


def main(argv):
    if argv == ["--markdown"]:
        sys.stdout.write(markdown())
        return 0
    from svmsim import factlog
    if len(argv) != 1:
        sys.stderr.write("usage: python3 -m svmsim.facts --markdown | LOG\n")
        return 2
    missing = unsourced(factlog.read(argv[0]))
    for prog, args, stream, line in missing:
        sys.stdout.write("%s %s: %s %r\n" % (prog, " ".join(args), stream,
                                             line))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
