# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metastat: plain report, -p (md.tab form), -c (concise).

Each invocation first advances every active resync by the configured step
(unless frozen), so a tool that polls metastat sees resyncs finish.
"""

from svmsim import report, resync, svm
from svmsim.smf import store as smf_store
from svmsim.svm import switch
from svmsim.messages import SvmError
from svmsim.lean import MappingProxyType

USAGE = ("usage:\t%s [-s setname] [-a][-c][-B][-D][-r][-i][-p] [-t] "
         "[metadevice...]\n")


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "acSs:hpBDrtiq?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    if "a" in flags and "s" in flags:
        ctx.err("%s: incompatible options: -a and -s\n" % ctx.prog)
        return 1
    if "s" in flags:
        svm.md_name(flags["s"] + "/d0")
    ctx.need_replicas()
    if ctx.st.get("stale_db"):
        # metastat.c main: check_replica_state() found MDDB_C_STALE.
        ctx.out("****\nWARNING: Stale state database replicas. Metastat "
                "output may be inaccurate.\n****\n\n")
    auto = ctx.st["auto"]
    if not auto["frozen"]:
        resync.advance_all(ctx.st, auto["step"])
    # GUESS: -t (timestamps), -B and -D are accepted and print as without.
    rc = 0
    shown = []
    if args:
        for arg in args:
            try:
                shown.append(svm.require(ctx.st, svm.md_name(arg)))
            except SvmError as e:
                ctx.perror(e)
                rc = 1
                shown.append(None)
    else:
        shown = report.toplevel_order(ctx.st)
    if "c" in flags:
        ctx.out(concise(ctx.st, [u for u in shown if u]))
    else:
        comps = []
        for u in shown:
            if u is None:
                continue
            if "p" in flags:
                ctx.out(report.short(ctx.st, u))
            else:
                ctx.out(report.report(ctx.st, u))
            comps.extend(report.components_of(ctx.st, u))
        # GUESS: for all devices the relocation list follows the printing
        # order (meta_getalldevs walks the kernel unit list).
        if not ("p" in flags or "q" in flags) and rc == 0:
            ctx.out(report.devid_section(ctx.st, comps))
    # metastat.c main: after printing, meta_smf_isonline(meta_smf_getmask())
    # (the core services, as a local replica exists); meta_smf.c online()
    # names each instance that is not online as "\n\t%s" (no "svc:/").
    down = services_not_online(ctx.simdir, switch(ctx.st, "metastat_services"))
    if down:
        ctx.perror(SvmError("SMF_NO_SERVICE",
                            name="".join("\n\t" + s for s in down)))
        rc = 1
    return rc


def services_not_online(simdir, services):
    """meta_smf.c is_online(): smf_get_state() must be "online"."""
    with smf_store.locked(simdir) as repo:
        down = []
        for fmri in services:
            svc, _, inst = fmri.partition(":")
            i = repo.get_instance(svc, inst)
            if i is None or i["state"] != "online":
                down.append(fmri)
    return down


# --- concise (-c) ------------------------------------------------------------

def _entry(indent, name, letter, size):
    width = 16 - indent
    size_s = "-" if size is None else \
        report.number_to_string(size).replace(" ", "")
    return "%s%-*s %s %6s" % (" " * indent, width, name, letter, size_s)


def _sub_suffix(m, sub):
    if sub["state"] == "OFFLINE":
        return " (offline)"
    name = svm.sm_state_name(m, sub, m["opt_not_done"])
    if name == "Resyncing":
        return " (resync-%d%%)" % m["resync"]["pct"]
    if name in ("Needs maintenance", "Resync cancelled"):
        return " (maint)"
    return ""


_COMP_SUFFIX = MappingProxyType({
    "Maintenance": " (maint)", "Last Erred": " (last-erred)",
    "Resyncing": " (resyncing)"})


def _stripe_line(stripe, indent):
    line = _entry(indent, stripe["name"], "s", stripe["size"])
    for c in svm.all_comps(stripe):
        line += " " + c["name"] + _COMP_SUFFIX.get(c["state"], "")
    return line + "\n"


def concise(st, units):
    out = ""
    for u in [x for x in units if x["type"] == "mirror"]:
        out += _entry(0, u["name"], "m", u["size"])
        for sub in u["subs"]:
            out += " " + sub["name"] + _sub_suffix(u, sub)
        out += "\n"
        for sub in u["subs"]:
            out += _stripe_line(st["units"][sub["name"]], 4)
    for u in [x for x in units if x["type"] == "stripe"]:
        out += _stripe_line(u, 0)
    return out
