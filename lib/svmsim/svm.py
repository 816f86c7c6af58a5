# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The kernel/libmeta rules of the emulated SVM: units, sizes, slots,
submirror and component states, and the mirror operations (attach,
detach, replace, enable, offline, online, clear).  The unit model the
resync thread and the monitor share (state sets, component walks, the
first-open rule) is in units.py.

Every operation checks all its refusals before it changes anything.
"""

from svmsim import devices, regions, resync
# The unit model resync.py and monitor.py share; svm.X keeps naming them.
from svmsim.units import (READABLE, all_comps,  # noqa: F401
                          first_open, mirrors, open_kstats, recompute_sub)
from svmsim.messages import SvmError
from svmsim.state import REGIONS

NMIRROR = 4
RD_OPTS = ("roundrobin", "geometric", "first")
WR_OPTS = ("parallel", "serial")

# _is_name checks a name without re first, and imports re only for a
# name that check rejects (importing it costs every emulated command
# milliseconds, bench/emulator); falling back to _NAME_RE, it accepts
# exactly what the expression accepts.  is_component_name always uses
# _CTD_RE.
_NAME_RE = r"^[A-Za-z][A-Za-z0-9_.-]*$"
_CTD_RE = r"^c[0-9]+(t[0-9A-Fa-f]+)?d[0-9]+s[0-9]+$"
_ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGITS = frozenset("0123456789")
_NAME_CHARS = _ALPHA | _DIGITS | frozenset("_.-")


def _re():
    import re
    return re


def _is_name(a):
    """_NAME_RE matches a."""
    if a and a[0] in _ALPHA and all(c in _NAME_CHARS for c in a):
        return True
    return bool(_re().match(_NAME_RE, a))


def _digits(text):
    return text != "" and all(c in _DIGITS for c in text)


# --- names -------------------------------------------------------------------

def is_component_name(arg):
    return bool(_re().match(_CTD_RE, arg)) or arg.startswith("/dev/dsk/") \
        or arg.startswith("/dev/rdsk/") or arg.startswith("/") \
        and not arg.startswith("/dev/md/")


def md_name(arg):
    """Metadevice operand -> local-set cname (parse_device, 0.5)."""
    a = arg
    while "//" in a:                    # re.sub("/+", "/", arg)
        a = a.replace("//", "/")
    for pfx in ("/dev/md/dsk/", "/dev/md/rdsk/"):
        if a.startswith(pfx):
            a = a[len(pfx):]
    m = a.startswith("/dev/md/") and \
        _re().match(r"^/dev/md/([^/]+)/r?dsk/(.+)$", a)
    if m:
        _check_set(m.group(1))
        a = m.group(2)
    elif "/" in a:
        setname, a = a.split("/", 1)
        _check_set(setname)
    if not _is_name(a) or a in ("all", "ALL", "none", "NONE") \
            or len(a) > 255:
        raise SvmError("NAME_ILLEGAL", name=a)
    return a


def _check_set(setname):
    if setname != "local":
        raise SvmError("NO_SET", name='setname "%s"' % setname)


def unitnum(st, name):
    if name[:1] == "d" and _digits(name[1:]):
        return int(name[1:])
    m = _re().match(r"^d([0-9]+)$", name)
    if m:
        return int(m.group(1))
    # GUESS: "friendly" names get unit numbers from 8192 upwards.
    used = {u["num"] for u in st["units"].values()}
    n = 8192
    while n in used:
        n += 1
    return n


# --- lookups -----------------------------------------------------------------

def switch(st, name):
    """A release switch of the host (svmsim/presets.py PROFILES)."""
    return st["switches"][name]


def unit(st, name):
    return st["units"].get(name)


def require(st, name):
    u = unit(st, name)
    if u is None:
        raise SvmError("UNIT_NOT_SETUP", name=name)
    return u


def require_mirror(st, name):
    u = require(st, name)
    if u["type"] != "mirror":
        raise SvmError("NOT_MM", name=name)
    return u


def is_open(st, name):
    return st["opens"].get(name, 0) > 0


def find_sub(m, sname):
    for i, sub in enumerate(m["subs"]):
        if sub["name"] == sname:
            return i, sub
    return None, None


def busy(m):
    """RESYNC_ACTIVE or OPT_NOT_DONE: detach/replace/offline are refused."""
    return resync.active(m) or m["opt_not_done"]


def component_owner(st, cname):
    """The stripe that uses a physical component, if any."""
    for u in st["units"].values():
        if u["type"] == "stripe":
            for c in all_comps(u):
                if c["name"] == cname:
                    return u["name"]
    return None


# --- sizes -------------------------------------------------------------------

def stripe_size(rows):
    """rounddown(sum of row blocks, nhead*nsect of the first component)."""
    total = sum(regions.row_blocks(r) for r in rows)
    first = rows[0]["comps"][0]
    cyl = first["nhead"] * first["nsect"]
    return total // cyl * cyl


def mirror_size(st, subnames):
    """rounddown(smallest submirror, cylinder of the FIRST submirror)."""
    subs = [st["units"][n] for n in subnames]
    smallest = min(s["size"] for s in subs)
    cyl = subs[0]["nhead"] * subs[0]["nsect"]
    return smallest // cyl * cyl


# --- states (recompute_sub: units.py) ----------------------------------------

def sm_state_name(m, sub, opt_not_done):
    """sm_state_to_name (meta_mirror.c); tstate is never errored here."""
    state = sub["state"]
    if state == "RUNNING" and not (opt_not_done and sub["target"]):
        return "Okay"
    if state in ("COMP_RESYNC", "ATTACHED_RESYNC", "OFFLINE_RESYNC") \
            or opt_not_done:
        if resync.active(m):
            return "Resyncing"
        if resync.cancelled(m):
            return "Resync cancelled"
        return "Needs maintenance"
    if state in ("COMP_ERRED", "ATTACHED", "OFFLINE"):
        if resync.cancelled(m):
            return "Resync cancelled"
        return "Needs maintenance"
    return "0x0"


def sm_action(st, m, sub, opt_not_done):
    """sm_state_to_action: the Invoke text, or None."""
    state = sub["state"]
    if resync.active(m):
        return None
    if state == "RUNNING" and not opt_not_done:
        return None
    if resync.cancelled(m):
        return "metasync %s" % m["name"]
    if state == "COMP_ERRED":
        comp = find_erred_comp(st["units"][sub["name"]])
        if comp is not None:
            if comp["state"] == "Last Erred":
                return ('after replacing "Maintenance" components:\n'
                        '\t\tmetareplace %s %s <new device>'
                        % (m["name"], comp["name"]))
            return "metareplace %s %s <new device>" % (m["name"], comp["name"])
    if state in ("ATTACHED_RESYNC", "OFFLINE_RESYNC", "COMP_RESYNC",
                 "ATTACHED") or opt_not_done:
        return "metasync %s" % m["name"]
    if state == "OFFLINE":
        return "metaonline %s %s" % (m["name"], sub["name"])
    return "???"


def find_erred_comp(stripe):
    """meta_find_erred_comp: lowest lasterrcnt Maintenance, else Last Erred."""
    for wanted in ("Maintenance", "Last Erred"):
        best = None
        for c in all_comps(stripe):
            if c["state"] == wanted and (
                    best is None or c["lasterrcnt"] < best["lasterrcnt"]):
                best = c
        if best is not None:
            return best
    return None


# --- opens (the first-open rule, reference 9.1: units.py) ---------------------

def resync_unit(st, m):
    """mirror_resync.c mirror_resync_unit, where metattach, metareplace and
    metaonline end: it opens the mirror (mirror_internal_open), which is
    its first open if nothing opened it since boot (audit 6.2), then
    starts the resync."""
    resync.start(st, m)
    first_open(st, m)


def write_tab_files(st, root):
    """/etc/vfstab and /etc/mnttab in the fake root, from the state."""
    vfstab = "#device\tdevice\tmount\tFS\tfsck\tmount\tmount\n" \
        "#to mount\tto fsck\tpoint\ttype\tpass\tat boot\toptions\n"
    mnttab = ""
    for cname, mnt in sorted(st["mounts"].items()):
        mnttab += "/dev/dsk/%s\t%s\tufs\trw,intr,largefiles,logging," \
            "xattr,onerror=panic\t1226400000\n" % (cname, mnt)
    for name, mnt in sorted(st["vfstab"].items()):
        vfstab += "/dev/md/dsk/%s\t/dev/md/rdsk/%s\t%s\tufs\t2\tyes\t" \
            "logging\n" % (name, name, mnt)
        if name in st["units"] and st["opens"].get(name, 0) > 0:
            mnttab += "/dev/md/dsk/%s\t%s\tufs\trw,intr,largefiles," \
                "logging,xattr,onerror=panic\t1226400000\n" % (name, mnt)
    # mount(1M)'s mounts (ufs.mounts: its record is st["md_mounts"]); ufs,
    # which imports shutil and with it re, only when there are some: this
    # runs at every emulated command, most of them processes of their own.
    if st.setdefault("md_mounts", {}):
        from svmsim import ufs
        mnttab += ufs.mnttab_lines(st)
    for fname, text in (("vfstab", vfstab), ("mnttab", mnttab)):
        _write_if_changed(devices.host_path(root, "/etc/" + fname), text)


def _write_if_changed(path, text):
    """Write `text` to `path` unless it holds that already.  This runs at
    every command and the text rarely changes; truncating a file that has
    data makes ext4 flush it (auto_da_alloc): 1-2 ms of waiting per file,
    where reading it takes microseconds (bench/emulator)."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except (OSError, ValueError):
        pass                              # absent or unreadable: write it
    with open(path, "w") as f:
        f.write(text)


def open_device(st, name):
    u = require(st, name)
    if u["type"] == "mirror":
        first_open(st, u)
    else:
        open_kstats(st, u)
        if name not in st["opened_since_boot"]:
            st["opened_since_boot"].append(name)
    st["opens"][name] = st["opens"].get(name, 0) + 1


def close_device(st, name):
    require(st, name)
    n = st["opens"].get(name, 0)
    if n <= 1:
        st["opens"].pop(name, None)
    else:
        st["opens"][name] = n - 1


def open_for_write(st, name):
    """md.c mdopen: a write open of a metadevice in a stale set (1530) or
    of one with a parent, a submirror (1537, "don't allow writes to
    subdevices"), fails with EROFS.  Returns the errno name or None."""
    u = require(st, name)
    if st.get("stale_db") or u.get("parent"):
        return "EROFS"
    return None


def checkbuf(st, name, blkno, write):
    """md_subr.c md_checkbuf (2027-2067), which each driver's strategy
    calls for top-level I/O only (mirror.c 3905, 4200; stripe.c 744; a
    submirror's I/O comes with MD_STR_NOTTOP, md_subr.c 2315).  Returns
    None (go on), "EOF" (b_lblkno == total: done, nothing moved) or an
    errno name.  A write starting at block 0 of a labeled unit is refused
    whatever its length, reads of block 0 are not, and the driver logs
    "md: NAME: write to label" (CE_NOTE, 2054) into st["console"]."""
    u = require(st, name)
    if st.get("stale_db") and write:
        return "EROFS"                          # 2032-2034
    if blkno > u["size"]:
        return "EINVAL"                         # 2043-2044
    if blkno == u["size"]:
        return "EOF"                            # 2046-2047
    if blkno == 0 and write and u.get("labeled"):
        # 2052-2057: md_write_label (2024) is 0 unless set with a debugger
        st.setdefault("console", []).append(
            "NOTICE: md: %s: write to label" % name)
        return "EINVAL"
    return None


# --- region coverage ---------------------------------------------------------

def comp_ok_at(st, sub, r):
    stripe = st["units"][sub["name"]]
    return regions.comp_for_region(stripe, r)["state"] == "Okay"


def readable_everywhere(st, subs):
    """Can these submirrors serve every region from an Okay component?"""
    for r in range(REGIONS):
        if not any(s["state"] in READABLE and comp_ok_at(st, s, r)
                   for s in subs):
            return False
    return True


# --- mirror operations -------------------------------------------------------

def attach(st, mname, sname):
    m = require_mirror(st, mname)
    s = require(st, sname)
    if s["type"] != "stripe":
        raise SvmError("INVAL_UNIT", name=sname)
    if s["parent"]:
        # meta_mirror.c meta_check_submirror refuses a parented stripe
        # before the ioctl: MDE_INVAL_UNIT (audit 7.5)
        raise SvmError("INVAL_UNIT", name=sname)
    if len(m["subs"]) >= NMIRROR:
        raise SvmError("MIRROR_FULL", name=mname)
    if is_open(st, sname):
        raise SvmError("IS_OPEN", name=sname)
    if s["size"] < m["size"]:
        raise SvmError("SM_TOO_SMALL", name=sname)
    if s.get("labeled") and not m.get("labeled"):
        # mirror_ioctl.c mirror_attach: "Don't attach labeled sm to
        # unlabeled mirrors" (MDE_NO_LABELED_SM names the submirror)
        raise SvmError("NO_LABELED_SM", name=sname)
    if is_open(st, mname) and any(
            devices.kernel_device(st, c["dev"]) is None for c in all_comps(s)):
        raise SvmError("SM_OPEN_ERR", name=sname)
    slot = min(set(range(NMIRROR)) - {x["slot"] for x in m["subs"]})
    m["subs"].append({"name": sname, "state": "ATTACHED_RESYNC",
                      "target": False, "dirty": [], "slot": slot})
    m["subs"].sort(key=lambda x: x["slot"])
    s["parent"] = mname
    build_submirror(m, s)
    resync_unit(st, m)


def detach(st, mname, sname, force):
    m = require_mirror(st, mname)
    if busy(m):
        raise SvmError("RESYNC_ACTIVE", name=mname)
    idx, sub = find_sub(m, sname)
    if sub is None:
        raise SvmError("CANT_FIND_SM", name=mname)
    if len(m["subs"]) == 1:
        raise SvmError("LAST_SM", name=mname)
    rest = [s for s in m["subs"] if s is not sub]
    if not readable_everywhere(st, rest):
        raise SvmError("NO_READABLE_SM", name=mname)
    if sub["state"] == "COMP_ERRED" and not force:
        # mirror_ioctl.c mirror_detach: mdmderror(.., MDE_SM_FAILED_COMPS,
        # mnum) names the mirror (audit 7.4)
        raise SvmError("SM_FAILED_COMPS", name=mname)
    del m["subs"][idx]
    # mirror_detach: reset_comp_states() makes every component Okay
    # (audit 4.5)
    for comp in all_comps(st["units"][sname]):
        comp.update({"state": "Okay", "lasterrcnt": 0})
    if switch(st, "detach_compacts"):
        # mirror_ioctl.c mirror_detach "Reshuffle the submirror devices":
        # the slots above move down one place.  The 2006 OpenSolaris code
        # leaves the slot empty (switch detach_compacts).
        for i, x in enumerate(m["subs"]):
            x["slot"] = i
    st["units"][sname]["parent"] = None


def comp_name(m, cname):
    """metacookerror names an MDEC_COMP kernel error "mdname: devname"
    (audit 7.6)."""
    return "%s: %s" % (m["name"], cname)


def _replace_checks(st, m, cname):
    if busy(m):
        raise SvmError("RESYNC_ACTIVE", name=m["name"])
    for sub in m["subs"]:
        for comp in all_comps(st["units"][sub["name"]]):
            if comp["name"] == cname:
                break
        else:
            continue
        break
    else:
        raise SvmError("CANT_FIND_COMP", name=comp_name(m, cname))
    if len(m["subs"]) == 1:
        raise SvmError("LAST_SM_RE", name=m["name"])
    stripe = st["units"][sub["name"]]
    others = [s for s in m["subs"] if s is not sub]
    for r in range(REGIONS):
        if regions.comp_for_region(stripe, r) is comp and not any(
                s["state"] in READABLE and comp_ok_at(st, s, r)
                for s in others):
            raise SvmError("REPL_INVAL_STATE", name=comp_name(m, cname))
    if sub["state"] in ("OFFLINE", "OFFLINE_RESYNC"):
        raise SvmError("ILLEGAL_SM_STATE", name=m["name"])
    return sub, comp


def enable(st, mname, cname, dev, info):
    """metareplace -e.  Returns True when the dev_t changed (a rebind)."""
    m = require_mirror(st, mname)
    sub, comp = _replace_checks(st, m, cname)
    if info["blocks"] - comp["start"] < comp["blocks"]:
        raise SvmError("COMP_TOO_SMALL", name=comp_name(m, cname))
    # GUESS: enabling a component that is already Okay also resyncs it
    # (not traced in the source; svmram must only enable erred components).
    rebind = list(dev) != list(comp["dev"])
    _put_in_resync(st, m, sub, comp, cname, dev, info)
    return rebind


def replace(st, mname, oldname, newname, dev, info):
    m = require_mirror(st, mname)
    sub, comp = _replace_checks(st, m, oldname)
    if info["blocks"] < comp["blocks"]:
        raise SvmError("COMP_TOO_SMALL", name=comp_name(m, newname))
    _put_in_resync(st, m, sub, comp, newname, dev, info)


def _put_in_resync(st, m, sub, comp, cname, dev, info):
    comp.update({"name": cname, "dev": list(dev), "state": "Resyncing",
                 "devid": info.get("devid")})
    recompute_sub(st, sub)
    resync_unit(st, m)


def offline(st, mname, sname, force):
    m = require_mirror(st, mname)
    if busy(m):
        raise SvmError("RESYNC_ACTIVE", name=mname)
    idx, sub = find_sub(m, sname)
    if sub is None:
        raise SvmError("CANT_FIND_SM", name=mname)
    if sub["state"] != "RUNNING" and not force:
        raise SvmError("ILLEGAL_SM_STATE", name=mname)
    if not readable_everywhere(st, [s for s in m["subs"] if s is not sub]):
        raise SvmError("NO_READABLE_SM", name=mname)
    sub.update({"state": "OFFLINE", "target": False, "dirty": []})


def online(st, mname, sname):
    m = require_mirror(st, mname)
    idx, sub = find_sub(m, sname)
    if sub is None:
        raise SvmError("CANT_FIND_SM", name=mname)
    if sub["state"] != "OFFLINE":
        raise SvmError("ILLEGAL_SM_STATE", name=mname)
    # GUESS: the state check comes before the resync check.
    if busy(m):
        raise SvmError("RESYNC_ACTIVE", name=mname)
    sub.update({"state": "OFFLINE_RESYNC", "target": True})
    m["opt_not_done"] = True
    resync_unit(st, m)


def set_params(m, read=None, write=None, pass_=None):
    if read is not None:
        m["read"] = read
    if write is not None:
        m["write"] = write
    if pass_ is not None:
        m["pass"] = pass_


# --- creation and removal ----------------------------------------------------

def add_unit(st, root, u):
    st["units"][u["name"]] = u
    st["unit_order"].insert(0, u["name"])   # kernel list: newest first
    devices.add_md_nodes(root, u["name"], u["num"])


def remove_unit(st, root, name):
    u = st["units"].pop(name)
    st["unit_order"].remove(name)
    st["opens"].pop(name, None)
    if name in st["opened_since_boot"]:
        st["opened_since_boot"].remove(name)
    devices.remove_md_nodes(root, name, u["num"])


def new_stripe(st, name, rows, hsp=None):
    first = rows[0]["comps"][0]
    # meta_stripe.c meta_create_stripe: row 0, component 0 decides MD_LABELED
    return {"type": "stripe", "name": name, "num": unitnum(st, name),
            "rows": rows, "size": stripe_size(rows), "nhead": first["nhead"],
            "nsect": first["nsect"], "parent": None, "hsp": hsp,
            "labeled": first["labeled"]}


def build_submirror(m, stripe):
    """mirror.c build_submirror: a labeled submirror makes its mirror
    labeled, for good (detach does not clear it)."""
    m["labeled"] = bool(m.get("labeled") or stripe.get("labeled"))


def new_mirror(st, name, subnames, read, write, pass_):
    first = st["units"][subnames[0]]
    truth = [0] * REGIONS
    for sn in subnames:
        for r in range(REGIONS):
            v = regions.read(st, st["units"][sn], r) or 0
            truth[r] = max(truth[r], v)
    m = {"type": "mirror", "name": name, "num": unitnum(st, name),
            "subs": [{"name": n, "state": "RUNNING", "target": False,
                      "dirty": [], "slot": i} for i, n in enumerate(subnames)],
            "read": read, "write": write, "pass": pass_,
            "size": mirror_size(st, subnames), "nhead": first["nhead"],
            "nsect": first["nsect"], "parent": None, "opt_not_done": False,
            "resync": None, "truth": truth, "cursor": 0, "errcnt": 0,
            "labeled": False, "head": 0}
    for sn in subnames:
        build_submirror(m, st["units"][sn])
        # metainit -m with several submirrors starts no resync (it only
        # warns, meta_mirror.c 2590-2596): each keeps its own blocks.
        m["head"] = max(m["head"], regions.head_read(
            st, st["units"][sn]) or 0)
    return m


def clear(st, root, name, force):
    """mirror_reset / stripe reset.  Returns the cleared unit."""
    u = require(st, name)
    if u["parent"]:
        raise SvmError("IN_USE", name=name)
    if is_open(st, name) or u["type"] == "mirror" and resync.active(u):
        # mirror_resync.c mirror_resync_unit: the resync thread holds an
        # OTYP_LYR open, and mirror_reset checks md_unit_isopen before the
        # state check, -f or not (audit 5.4)
        raise SvmError("IS_OPEN", name=name)
    if u["type"] == "mirror" and not force and any(
            s["state"] != "RUNNING" for s in u["subs"]):
        raise SvmError("C_WITH_INVAL_SM", name=name)
    if u["type"] == "mirror":
        for s in u["subs"]:
            st["units"][s["name"]]["parent"] = None
    remove_unit(st, root, name)
    return u


# --- boot --------------------------------------------------------------------

def load_replicas(st):
    """At boot the state database is stale unless a majority (half plus
    one) of the replicas is good (Solaris Volume Manager Administration
    Guide, "The Majority Consensus Algorithm"; svc-metainit then exits
    66).  GUESS: the emulated boot goes on to multi-user regardless, so
    that svmram's boot service meets the stale database too."""
    good = sum(1 for r in st["replicas"] if not r.get("failed"))
    st["stale_db"] = good < len(st["replicas"]) // 2 + 1


def snarf(st):
    """metainit -r: rebuild in-core units from the replicas.

    GUESS: every emulated reboot is a clean shutdown (empty dirty-region
    bitmaps) and OFFLINE submirrors stay OFFLINE; an active resync is
    resumed from its last percentage by the next resync request."""
    for m in mirrors(st):
        job = m["resync"]
        if job is not None and job["active"]:
            job["active"] = False          # the thread died with the kernel
            job["interrupted"] = True
        if m["pass"] >= 1 and len(m["subs"]) >= 2:
            m["opt_not_done"] = True
            for sub in m["subs"]:
                if sub["state"] in READABLE:
                    sub["target"] = True
