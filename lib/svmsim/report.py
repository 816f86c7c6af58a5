# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Output formats: metastat (plain and -p), metaparam, metadb, ramdiskadm.

Format strings follow meta_mirror.c, meta_stripe.c, meta_print.c,
metadb.c and ramdiskadm/main.c (reference section 1, 2.5, 2.9, 6.1).
"""

from svmsim import resync, svm


def number_to_string(blocks, blksize=512):
    """meta_number_to_string: '229 MB', '2.0 GB', '512  B'."""
    units = " KMGTPE"
    total = blocks * blksize
    save = 0
    i = 0
    while total >= 1024 and units[i] != "E":
        i += 1
        save = total
        total //= 1024
    if save and save // 1024 < 10:
        import struct             # only for sizes under 10 units
        fnum = struct.unpack("f", struct.pack("f", save / 1024.0))[0]
        return "%1.1f %sB" % (fnum, units[i])
    return "%d %sB" % (total, units[i])


# --- metastat -p -------------------------------------------------------------

def stripe_short(stripe):
    out = "%s %d" % (stripe["name"], len(stripe["rows"]))
    for i, row in enumerate(stripe["rows"]):
        out += " %d" % len(row["comps"])
        for c in row["comps"]:
            out += " /dev/rdsk/%s" % c["name"]
        if len(row["comps"]) > 1:
            out += " -i %db" % (row.get("interlace") or 1024)
        if i != len(stripe["rows"]) - 1:
            out += " \\\n\t"
    if stripe.get("hsp"):
        out += " -h %s" % stripe["hsp"]
    return out + "\n"


def mirror_short(st, m):
    out = "%s -m" % m["name"]
    for sub in m["subs"]:
        out += " /dev/md/rdsk/%s" % sub["name"]
    if m["read"] == "first":
        out += " -r"
    elif m["read"] == "geometric":
        out += " -g"
    if m["write"] == "serial":
        out += " -S"
    out += " %d\n" % m["pass"]
    for sub in m["subs"]:
        out += stripe_short(st["units"][sub["name"]])
    return out


def short(st, u):
    if u["type"] == "mirror":
        return mirror_short(st, u)
    return stripe_short(u)


# --- plain metastat ----------------------------------------------------------

def has_replica(st, cname):
    return any(r["slice"] == cname for r in st["replicas"])


def _reloc(comp):
    return "Yes" if comp.get("devid") else "No "


def stripe_report(st, stripe, header):
    """meta_stripe.c stripe_report: the header when printed on its own; the
    rows with State/Reloc/Hot Spare whenever the stripe has a parent
    (MD_HAS_PARENT), not only inside its mirror (audit 1.3)."""
    toplevel = not stripe["parent"]
    out = ""
    if header:
        out += "%s: Concat/Stripe\n" % stripe["name"]
    if stripe.get("hsp"):
        out += "    Hot spare pool: %s\n" % stripe["hsp"]
    out += "    Size: %d blocks (%s)\n" % (
        stripe["size"], number_to_string(stripe["size"]))
    for i, row in enumerate(stripe["rows"]):
        comps = row["comps"]
        if len(comps) > 1:
            out += "    Stripe %d: (interlace: %d blocks)\n" % (
                i, row.get("interlace") or 1024)
        else:
            out += "    Stripe %d:\n" % i
        w = max([len(c["name"]) for c in comps] + [len("Device")]) + 2
        if toplevel:
            out += "\t%-*.*s %-12.12s %-5.5s\t%s\n" % (
                w, w, "Device", "Start Block", "Dbase", "Reloc")
        else:
            out += "\t%-*.*s %-12.12s %5.5s %12.12s %5.5s %s\n" % (
                w, w, "Device", "Start Block", "Dbase", "State", "Reloc",
                "Hot Spare")
        for c in comps:
            dbase = "Yes" if has_replica(st, c["name"]) else "No"
            if toplevel:
                out += "\t%-*s %8d     %-5.5s\t%s\n" % (
                    w, c["name"], c["start"], dbase, _reloc(c))
            else:
                out += "\t%-*s %8d     %-5.5s %12.12s %5.5s %s\n" % (
                    w, c["name"], c["start"], dbase, c["state"], _reloc(c),
                    "")
    return out + "\n"


def mirror_report(st, m):
    out = "%s: Mirror\n" % m["name"]
    opt = m["opt_not_done"]
    for sub in m["subs"]:
        if sub["state"] == "OFFLINE":
            opt = False        # an offline submirror masks OPT_NOT_DONE
        out += "    Submirror %d: %s\n" % (sub["slot"], sub["name"])
        out += "      State: %-12s %s\n" % (svm.sm_state_name(m, sub, opt), "")
    job = m.get("resync")
    if resync.cancelled(m):
        out += "    Resync cancelled: %d %% done\n" % job["pct"]
    elif resync.active(m):
        out += "    Resync in progress: %d %% done\n" % job["pct"]
    out += params_lines(m)
    out += "    Size: %d blocks (%s)\n" % (m["size"],
                                          number_to_string(m["size"]))
    for sub in m["subs"]:
        out += "\n%s: Submirror of %s\n" % (sub["name"], m["name"])
        out += "    State: %-12s %s\n" % (svm.sm_state_name(m, sub, opt), "")
        action = svm.sm_action(st, m, sub, opt)
        if action is not None:
            out += "    Invoke: %s\n" % action
        out += stripe_report(st, st["units"][sub["name"]], False)
    return out + "\n"


def report(st, u):
    if u["type"] == "mirror":
        return mirror_report(st, u)
    return stripe_report(st, u, True)


def params_lines(m):
    rd = {"roundrobin": "default", "geometric": "-g", "first": "-r"}
    wr = {"parallel": "default", "serial": "-S"}
    return ("    Pass: %d\n    Read option: %s (%s)\n"
            "    Write option: %s (%s)\n" % (
                m["pass"], m["read"], rd[m["read"]], m["write"],
                wr[m["write"]]))


def components_of(st, u):
    if u["type"] == "mirror":
        for sub in u["subs"]:
            yield from svm.all_comps(st["units"][sub["name"]])
    else:
        yield from svm.all_comps(u)


def devid_section(st, comps):
    """Device Relocation Information (meta_print_devid)."""
    seen = []
    info = {}
    for c in comps:
        ctd = c["name"]
        i = ctd.rfind("s")
        if i > 0:
            ctd = ctd[:i]
        if ctd not in info:
            seen.append(ctd)
            info[ctd] = c.get("devid")
    if not seen:
        return ""
    width = max(len(n) for n in seen) + 2
    out = "Device Relocation Information:\n"
    out += "%-*s %-5s\t%s\n" % (width, "Device  ", "Reloc", "Device ID")
    for ctd in seen:
        devid = info[ctd]
        out += "%-*s %-5s\t%s\n" % (width, ctd, "Yes" if devid else "No ",
                                    devid or "-")
    return out


def toplevel_order(st):
    """meta_print_all: mirrors, then concats/stripes; kernel list order."""
    order = [st["units"][n] for n in st["unit_order"]]
    tops = [u for u in order if not u["parent"]]
    return [u for u in tops if u["type"] == "mirror"] + \
        [u for u in tops if u["type"] == "stripe"]


# --- metaparam ---------------------------------------------------------------

def metaparam_display(st, u):
    if u["type"] == "mirror":
        return "%s: Mirror current parameters are:\n%s" % (
            u["name"], params_lines(u))
    # GUESS: stripe display mirrors meta_print_stripe_options.
    return "%s: Concat/Stripe current parameters are:\n" \
        "    Hot spare pool: %s\n" % (u["name"], u.get("hsp") or "none")


# --- metadb ------------------------------------------------------------------

FLAGS = "RSFDMaWm  pc luo tBr"
# a replica that is active, up to date, locator read, patched, old-active;
# the first one is also the master.
_ACTIVE_BITS = (5, 10, 13, 14, 15)
# GUESS: a replica with write errors: W, patched, locator read.
_FAILED_BITS = (6, 10, 13)


def metadb_listing(st, legend):
    out = "\t%5.5s\t\t%9.9s\t%11.11s\n" % ("flags", "first blk",
                                            "block count")
    good = [r for r in st["replicas"] if not r.get("failed")]
    for r in st["replicas"]:
        bits = set(_FAILED_BITS if r.get("failed") else _ACTIVE_BITS)
        if good and r is good[0]:
            bits.add(7)
        flags = "".join(FLAGS[b] if b in bits else " "
                        for b in range(len(FLAGS)))
        out += flags + "\t%d\t\t%d\t" % (r["blkno"], r["nblk"])
        out += "\t/dev/dsk/%s\n" % r["slice"]
    if legend:
        out += (" r - replica does not have device relocation information\n"
                " o - replica active prior to last mddb configuration change\n"
                " u - replica is up to date\n"
                " l - locator for this replica was read successfully\n"
                " c - replica's location was in /etc/lvm/mddb.cf\n"
                " p - replica's location was patched in kernel\n"
                " m - replica is master, this is replica selected as input\n"
                " t - tagged data is associated with the replica\n"
                " W - replica has device write errors\n"
                " a - replica is active, commits are occurring to this "
                "replica\n"
                " M - replica had problem with master blocks\n"
                " D - replica had problem with data blocks\n"
                " F - replica had format problems\n"
                " S - replica is too small to hold current data base\n"
                " R - replica had device read errors\n"
                " B - tagged data associated with the replica is not valid\n")
    return out


# --- ramdiskadm --------------------------------------------------------------

RD_FW = len("/dev/ramdisk/") + 32


def ramdisk_listing(st):
    # GUESS: the device tree walk meets ramdisks in minor number order
    rds = sorted(st["ramdisks"].items(), key=lambda kv: kv[1]["minor"])
    if not rds:
        return ""
    out = "%-*.*s %20s  %-10s\n" % (RD_FW, RD_FW, "Block Device", "Size",
                                     "Removable")
    for name, rd in rds:
        out += "%-*.*s %20d    %s\n" % (RD_FW, RD_FW, "/dev/ramdisk/" + name,
                                        rd["size"], "Yes")
    return out


