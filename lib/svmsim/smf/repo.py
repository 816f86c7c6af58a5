# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated SMF repository: storage, FMRI parsing, value types, composed
views and the scf_walk_fmri() matcher the four tools share.

State lives in ``SIMDIR/smf.json``, read and written under a lock by
store.py (which seeds a fresh one with manifest.py's services).

Model (JSON)::

    {"version": 1,
     "services": {
       "system/svmram": {
         "pgs": {PG},                      # service-level editing view
         "last_import": {PG} | null,       # what the last manifest import set
         "instances": {
           "d10": {
             "pgs": {PG},                  # instance editing view (may hold
                                           #   the nonpersistent general_ovr)
             "running": null | {"instance": {PG}, "service": {PG}},
             "last_import": {PG} | null,
             "state": "online", "next_state": "none",
             "state_time": 1700000000.123, # float seconds
             "aux_state": "none",          # restarter/auxiliary_state
             "waitstatus": null | int      # start method wait(2) status
           }}}}}

    PG = {name: {"type": "application", "flags": 0,
                 "props": {name: {"type": "astring", "values": ["2g"]}}}}

Values are stored in the form scf_value_get_as_string() returns them
(booleans as "true"/"false", numbers in canonical decimal).
"""


from . import _common
from ..lean import fnmatchcase

# copy and re are imported where they are used: every emulated
# SMF command imports this module, and most never need them
# (bench/emulator).

MANIFEST_DTD_PATH = "/usr/share/lib/xml/dtd/service_bundle.dtd.1"
SCF_SERVICE_STARTD = "svc:/system/svc/restarter:default"
PG_FLAG_NONPERSISTENT = 1

STATES = ("uninitialized", "offline", "online", "degraded", "maintenance",
          "disabled")

# scf_type_to_string() names (libscf scf_type.c)
TYPES = ("boolean", "count", "integer", "time", "astring", "opaque",
         "ustring", "uri", "fmri", "host", "hostname", "net_address",
         "net_address_v4", "net_address_v6")
STRING_TYPES = ("astring", "ustring", "uri", "fmri", "host", "hostname",
                "net_address", "net_address_v4", "net_address_v6")



# ---------------------------------------------------------------------------
# Names: uu_check_name() from usr/src/lib/libuutil/common/uu_ident.c,
# ported with its quirks (a path component's last character before '/'
# is not examined, so one-character components are rejected).

UU_NAME_DOMAIN = 1
UU_NAME_PATH = 2


def _is_alpha(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _is_valid_ident(name, s, e, allowdot):
    if s >= e:
        return False
    if not _is_alpha(name[s]):
        return False
    for i in range(s + 1, e):
        c = name[i]
        if _is_alpha(c) or ("0" <= c <= "9") or c in "-_" or \
                (allowdot and c == "."):
            continue
        return False
    return True


def _is_valid_component(name, b, e, flags):
    if flags & UU_NAME_DOMAIN:
        sp = name.find(",", b)
        if sp != -1 and sp < e:
            if not _is_valid_ident(name, b, sp, True):
                return False
            b = sp + 1
    return _is_valid_ident(name, b, e, False)


def uu_check_name(name, flags=UU_NAME_DOMAIN):
    if not flags & UU_NAME_PATH:
        return _is_valid_component(name, 0, len(name), flags)
    start = 0
    while True:
        p = name.find("/", start)
        if p == -1:
            break
        if not _is_valid_component(name, start, p - 1, flags):
            return False
        start = p + 1
    return _is_valid_component(name, start, len(name), flags)


# ---------------------------------------------------------------------------
# FMRIs: scf_parse_svc_fmri() and scf_canonify_fmri() (libscf lowlevel.c)

class FMRI:
    __slots__ = ("scope", "service", "instance", "pg", "prop")

    def __init__(self, scope, service, instance, pg, prop):
        self.scope = scope
        self.service = service
        self.instance = instance
        self.pg = pg
        self.prop = prop


def parse_svc_fmri(fmri):
    """Return an FMRI, or None where libscf fails with INVALID_ARGUMENT."""
    s = fmri
    if s.startswith("svc:"):
        s = s[4:]
    scope = "localhost"
    if s.startswith("//"):
        s = s[2:]
        te = s.find("/")
        if te == -1:
            my_scope, s = s, ""
        else:
            my_scope, s = s[:te], s[te + 1:]
        at = my_scope.find("@")
        if at != -1 and at == len(my_scope) - 1:
            my_scope = my_scope[:at]
        if my_scope == "":
            my_scope = "localhost"
        elif not uu_check_name(my_scope, 0):
            return None
        scope = my_scope
    my_s = my_i = my_pg = my_p = None
    if s != "":
        if s.startswith("/"):
            s = s[1:]
        my_s = s
    pgpart = None
    tpg = s.find("/:properties/")
    te = s.find(":")
    if te != -1 and (tpg == -1 or te < tpg):
        if my_s is not None:
            my_s = s[:te]
        rest = s[te + 1:]
        my_i = rest
        t2 = rest.find("/:properties/")
        if t2 != -1:
            my_i = rest[:t2]
            pgpart = rest[t2 + len("/:properties/"):]
    elif tpg != -1:
        if my_s is not None:
            my_s = s[:tpg]
        pgpart = s[tpg + len("/:properties/"):]
    if pgpart is not None:
        my_pg = pgpart
        t3 = pgpart.find("/")
        if t3 != -1:
            my_pg = pgpart[:t3]
            my_p = pgpart[t3 + 1:]
    if my_s is not None and not uu_check_name(my_s,
                                              UU_NAME_DOMAIN | UU_NAME_PATH):
        return None
    for part in (my_i, my_pg, my_p):
        if part is not None and not uu_check_name(part, UU_NAME_DOMAIN):
            return None
    return FMRI(scope, my_s, my_i, my_pg, my_p)


def canonify(f):
    out = "svc:/"
    if f.service:
        out += f.service
    if f.instance is not None:
        out += ":" + f.instance
    if f.pg is not None:
        out += "/:properties/" + f.pg
    if f.prop is not None:
        out += "/" + f.prop
    return out


def svc_fmri(svc):
    return "svc:/" + svc


def inst_fmri(svc, inst):
    return "svc:/%s:%s" % (svc, inst)


def logfile_for(fmri):
    """svc.startd's log file name for an instance FMRI."""
    return "/var/svc/log/%s.log" % fmri[len("svc:/"):].replace("/", "-")


# ---------------------------------------------------------------------------
# Values: scf_value_set_from_string() (libscf lowlevel.c)

_WS = " \t\n\v\f\r"


def _c_strtol(s, unsigned):
    """strtoul(s, &end, 0) / strtol(s, &end, 0) with the caller's checks
    (errno == 0, end != s, *end == 0).  Returns an int or None."""
    i, n = 0, len(s)
    while i < n and s[i] in _WS:
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    if i + 2 < n + 1 and s[i:i + 2] in ("0x", "0X") and i + 2 < n and \
            s[i + 2] in "0123456789abcdefABCDEF":
        base, digits = 16, "0123456789abcdefABCDEF"
        i += 2
    elif i < n and s[i] == "0":
        base, digits = 8, "01234567"
    else:
        base, digits = 10, "0123456789"
    j = i
    while j < n and s[j] in digits:
        j += 1
    if j == i or j != n:
        return None
    v = int(s[i:j], base)
    if unsigned:
        if v > 2 ** 64 - 1:
            return None
        return (-v) % 2 ** 64 if neg else v
    v = -v if neg else v
    if not -2 ** 63 <= v <= 2 ** 63 - 1:
        return None
    return v


def value_from_string(ty, s):
    """Canonical stored form of ``s`` as a value of type ``ty``, or None if
    libscf would refuse it (svccfg then says: Invalid "TYPE" value "S".)."""
    if ty == "boolean":
        if s in ("true", "t", "1"):
            return "true"
        if s in ("false", "f", "0"):
            return "false"
        return None
    if ty == "count":
        v = _c_strtol(s, True)
        return None if v is None else "%d" % v
    if ty == "integer":
        v = _c_strtol(s, False)
        return None if v is None else "%d" % v
    if ty == "time":
        import re
        m = re.match(r"^([ \t\n\v\f\r]*[+-]?\d+)(?:\.(\d{1,9}))?$", s)
        if not m:
            return None
        sec = int(m.group(1))
        if not -2 ** 63 <= sec <= 2 ** 63 - 1:
            return None
        if m.group(2) is None:
            return "%d" % sec
        ns = int(m.group(2).ljust(9, "0"))
        return "%d" % sec if ns == 0 else "%d.%09d" % (sec, ns)
    if ty == "opaque":
        import re
        if len(s) % 2 or not re.match(r"^[0-9a-fA-F]*$", s):
            return None
        return s.lower()
    if ty in STRING_TYPES:
        # GUESS: scf_validate_encoded_value()'s checks of the string subtypes
        # (fmri, uri, host, ...) are not emulated; only the length limit is.
        if len(s.encode("utf-8")) > 4096:
            return None
        return s
    return None


# ---------------------------------------------------------------------------
# Property groups

# GUESS: the repository returns property groups and properties in the order
# they were created (svc.configd's order is not specified); every listing
# in the stand-ins follows that order.

def single(pg, name, types):
    """pg_get_single_val() (svcs.c; startd's libscf.c reads the same way):
    the property's one value, or None when the group or property is
    absent, of another type, or not single-valued."""
    if pg is None:
        return None
    p = pg["props"].get(name)
    if p is None or p["type"] not in types or len(p["values"]) != 1:
        return None
    return p["values"][0]


def new_pg(ty, flags=0):
    return {"type": ty, "flags": flags, "props": {}}


def set_prop(pgs, pgname, pgtype, prop, ty, values, flags=0):
    pg = pgs.get(pgname)
    if pg is None:
        pg = pgs[pgname] = new_pg(pgtype, flags)
    pg["props"][prop] = {"type": ty, "values": list(values)}
    return pg


def persistent(pgs):
    import copy
    return {n: copy.deepcopy(pg) for n, pg in pgs.items()
            if not pg.get("flags", 0) & PG_FLAG_NONPERSISTENT}


def compose(inst_pgs, svc_pgs):
    """The composed view: instance property groups shadow the service's,
    property by property.  # GUESS: iteration order is the instance's
    groups (in creation order) followed by service-only groups; within a
    composed group, instance properties come first."""
    out = {}
    for name, pg in inst_pgs.items():
        props = dict(pg["props"])
        spg = svc_pgs.get(name)
        if spg is not None:
            for pn, p in spg["props"].items():
                if pn not in props:
                    props[pn] = p
        out[name] = {"type": pg["type"], "flags": pg.get("flags", 0),
                     "props": props}
    for name, pg in svc_pgs.items():
        if name not in out:
            out[name] = pg
    return out


def restarter_pg(fmri, inst):
    """The nonpersistent "restarter" group svc.startd keeps for an instance.
    # GUESS: property order; svc.startd writes these in several places."""
    props = {
        "logfile": {"type": "astring", "values": [logfile_for(fmri)]},
        "state": {"type": "astring", "values": [inst["state"]]},
        "next_state": {"type": "astring", "values": [inst["next_state"]]},
        "state_timestamp": {"type": "time",
                            "values": [fmt_time(inst["state_time"])]},
        "auxiliary_state": {"type": "astring",
                            "values": [inst.get("aux_state") or "none"]},
    }
    if inst.get("waitstatus") is not None:
        props["start_method_waitstatus"] = {
            "type": "integer", "values": ["%d" % inst["waitstatus"]]}
    return {"type": "framework", "flags": PG_FLAG_NONPERSISTENT,
            "props": props}


def fmt_time(t):
    sec = int(t // 1)
    ns = int(round((t - sec) * 1e6)) * 1000
    if ns >= 1000000000:
        sec, ns = sec + 1, 0
    return "%d" % sec if ns == 0 else "%d.%09d" % (sec, ns)


# ---------------------------------------------------------------------------
# The repository object

def _new_instance(t):
    return {"pgs": {}, "running": None, "last_import": None,
            "state": "uninitialized", "next_state": "none",
            "state_time": t, "aux_state": "none", "waitstatus": None}


class Repo:
    def __init__(self, data, simdir):
        self.data = data
        self.simdir = simdir
        self.dirty = False

    @property
    def services(self):
        return self.data["services"]

    def touch(self):
        self.dirty = True

    # -- entities ----------------------------------------------------------
    def get_service(self, name):
        return self.services.get(name)

    def get_instance(self, svc, inst):
        s = self.services.get(svc)
        if s is None:
            return None
        return s["instances"].get(inst)

    def add_service(self, name):
        s = {"pgs": {}, "last_import": None, "instances": {}}
        self.services[name] = s
        self.touch()
        return s

    def add_instance(self, svc, name):
        i = _new_instance(_common.now())
        self.services[svc]["instances"][name] = i
        self.touch()
        return i

    def resolve(self, fmri):
        """(svcname, instname) of the one existing instance an FMRI, an
        abbreviation ("svmram:d10", "d10") or a pattern designates, else
        None (no match, or several)."""
        f = parse_svc_fmri(fmri)
        if f is not None and f.service is not None and \
                f.instance is not None and f.pg is None and \
                f.scope == "localhost" and \
                self.get_instance(f.service, f.instance) is not None:
            return f.service, f.instance
        infos, err = walk(self, [fmri], SCF_WALK_MULTIPLE, lambda m: None)
        infos = [wi for wi in infos if wi.inst is not None]
        if err or len(infos) != 1:
            return None
        return infos[0].svc, infos[0].inst

    # -- views ---------------------------------------------------------------
    def current_inst_pgs(self, svc, inst):
        """The instance's own current groups, nonpersistent ones included."""
        i = self.get_instance(svc, inst)
        pgs = dict(i["pgs"])
        pgs["restarter"] = restarter_pg(inst_fmri(svc, inst), i)
        return pgs

    def composed_current(self, svc, inst):
        return compose(self.current_inst_pgs(svc, inst),
                       self.services[svc]["pgs"])

    def composed_running(self, svc, inst):
        """Composed view of the running snapshot, or None without one."""
        r = self.get_instance(svc, inst)["running"]
        if r is None:
            return None
        return compose(r["instance"], r["service"])

    def composed_default(self, svc, inst):
        v = self.composed_running(svc, inst)
        return v if v is not None else self.composed_current(svc, inst)

    def take_running(self, svc, inst):
        """Take (or retake) the "running" snapshot: what a refresh does."""
        i = self.get_instance(svc, inst)
        i["running"] = {
            "instance": persistent(i["pgs"]),
            "service": persistent(self.services[svc]["pgs"]),
        }
        self.touch()

    # -- enabled -------------------------------------------------------------
    def enabled_flag(self, svc, inst, temp):
        """general/enabled (temp: general_ovr/enabled) of the instance's own
        current groups: True, False, or None when absent."""
        i = self.get_instance(svc, inst)
        pg = i["pgs"].get("general_ovr" if temp else "general")
        if pg is None:
            return None
        p = pg["props"].get("enabled")
        if p is None or p["type"] != "boolean" or len(p["values"]) != 1:
            return None
        return p["values"][0] == "true"

    def is_enabled(self, svc, inst):
        """What svc.startd acts on: the override if present, else general."""
        t = self.enabled_flag(svc, inst, True)
        if t is not None:
            return t
        return bool(self.enabled_flag(svc, inst, False))

    def set_enabled(self, svc, inst, enable, temp):
        i = self.get_instance(svc, inst)
        gen = i["pgs"].get("general")
        if gen is None or "enabled" not in gen["props"]:
            set_prop(i["pgs"], "general", "framework", "enabled", "boolean",
                     ["false"])
        if temp:
            set_prop(i["pgs"], "general_ovr", "framework", "enabled",
                     "boolean", ["true" if enable else "false"],
                     flags=PG_FLAG_NONPERSISTENT)
        else:
            set_prop(i["pgs"], "general", "framework", "enabled", "boolean",
                     ["true" if enable else "false"])
            ovr = i["pgs"].get("general_ovr")
            if ovr is not None:
                ovr["props"].pop("enabled", None)
        self.touch()

    # -- state -------------------------------------------------------------
    def set_state(self, svc, inst, state, aux="none", waitstatus=None,
                  next_state="none"):
        i = self.get_instance(svc, inst)
        i["state"] = state
        i["next_state"] = next_state
        i["state_time"] = _common.now()
        i["aux_state"] = aux or "none"
        i["waitstatus"] = waitstatus
        if state in ("online", "degraded") and i["running"] is None:
            # libscf_snapshots_poststart(): a started instance gets a
            # running snapshot if it has none.
            self.take_running(svc, inst)
        self.touch()


# ---------------------------------------------------------------------------
# scf_walk_fmri() (libscf lowlevel.c), enough of it for the four tools.

SCF_WALK_MULTIPLE = 0x01
SCF_WALK_LEGACY = 0x02
SCF_WALK_SERVICE = 0x04
SCF_WALK_PROPERTY = 0x08
SCF_WALK_NOINSTANCE = 0x10
SCF_WALK_EXPLICIT = 0x20
SCF_WALK_UNIPARTIAL = 0x40

MSG_ARGTOOLONG = "Argument '%s' is too long, ignoring\n"
MSG_NOINSTANCE = "Pattern '%s' doesn't match any instances\n"
MSG_NOINSTSVC = "Pattern '%s' doesn't match any instances or services\n"
MSG_NOSERVICE = "Pattern '%s' doesn't match any services\n"
MSG_NOENTITY = "Pattern '%s' doesn't match any entities\n"
MSG_MULTIMATCH = "Pattern '%s' matches multiple instances:\n"
MSG_LEGACY = "Operation not supported for legacy service '%s'\n"
MSG_MULTIPARTIAL = "Partial FMRI matches multiple instances\n"

MAX_FMRI_LENGTH = 628    # GUESS: SCF_LIMIT_MAX_FMRI_LENGTH on illumos


class WalkInfo:
    __slots__ = ("fmri", "svc", "inst", "pg", "prop", "count")

    def __init__(self, fmri, svc, inst=None, pg=None, prop=None):
        self.fmri = fmri
        self.svc = svc
        self.inst = inst
        self.pg = pg
        self.prop = prop
        self.count = 0


class _Pattern:
    def __init__(self):
        self.type = None        # "invalid", "exact", "glob", "partial"
        self.arg = None
        self.matches = []       # newest first, like the C list


def _cmp_pattern(fmri, p):
    if p.type == "glob":
        return fnmatchcase(fmri, p.arg)
    if p.type == "partial":
        k = fmri.find(p.arg)
        if k == -1:
            return False
        if k != 0 and fmri[k - 1] not in "/:" and fmri[k] != ":":
            return False
        end = k + len(p.arg)
        if end != len(fmri) and fmri[end] != ":" and fmri[end - 1] != ":":
            return False
        if end <= 4:
            return False
        return True
    return False


def _add_match(p, fmri, svc_explicit):
    if svc_explicit:
        p.matches = [m for m in p.matches
                     if not (fmri.startswith(m) and
                             fmri[len(m):len(m) + 1] == ":")]
    else:
        for m in p.matches:
            if fmri.startswith(m) and fmri[len(m):len(m) + 1] == ":":
                return
    p.matches.insert(0, fmri)


def _decode_exact_entity(repo, f):
    """scf_handle_decode_fmri(..., SCF_DECODE_FMRI_EXACT) for a service or
    instance FMRI: True if the entity exists."""
    if f.scope != "localhost" or f.service is None:
        return False
    if f.instance is None:
        return repo.get_service(f.service) is not None
    return repo.get_instance(f.service, f.instance) is not None


def _decode_property(repo, f):
    """Decode a property-group or property FMRI against the current
    (editing) groups; True if it names something that exists."""
    if f.scope != "localhost" or f.service is None:
        return False
    svc = repo.get_service(f.service)
    if svc is None:
        return False
    if f.instance is not None:
        if f.instance not in svc["instances"]:
            return False
        pgs = repo.current_inst_pgs(f.service, f.instance)
    else:
        pgs = svc["pgs"]
    pg = pgs.get(f.pg)
    if pg is None:
        return False
    if f.prop is not None and f.prop not in pg["props"]:
        return False
    return True


def walk(repo, args, flags, errfunc):
    """Return (infos, err): the WalkInfo list in callback order and
    UU_EXIT_FATAL if any pattern failed.  ``errfunc(msg)`` gets each error
    message (already formatted, ending in a newline)."""
    err = 0
    patterns = []
    pattern_search = False
    partial_fmri = wildcard_fmri = False
    svc_explicit = bool(flags & SCF_WALK_EXPLICIT)

    for arg in args:
        p = _Pattern()
        patterns.append(p)
        if len(arg) > MAX_FMRI_LENGTH:
            errfunc(MSG_ARGTOOLONG % arg)
            err = _common.UU_EXIT_FATAL
            p.type = "invalid"
            continue
        f = parse_svc_fmri(arg)
        ok = False
        if f is not None:
            if f.pg is not None or f.prop is not None:
                if flags & SCF_WALK_PROPERTY and _decode_property(repo, f):
                    _add_match(p, canonify(f), svc_explicit)
                    p.arg, p.type = arg, "exact"
                    ok = True
            elif f.scope is not None and f.service is not None:
                if f.instance is not None:
                    if not flags & SCF_WALK_NOINSTANCE and \
                            _decode_exact_entity(repo, f):
                        _add_match(p, canonify(f), svc_explicit)
                        p.arg, p.type = arg, "exact"
                        ok = True
                elif _decode_exact_entity(repo, f):
                    if flags & SCF_WALK_SERVICE:
                        _add_match(p, svc_fmri(f.service), svc_explicit)
                        p.arg, p.type = arg, "exact"
                        ok = True
                    elif not flags & SCF_WALK_NOINSTANCE:
                        for iname in repo.services[f.service]["instances"]:
                            _add_match(p, inst_fmri(f.service, iname),
                                       svc_explicit)
                        p.arg, p.type = arg, "exact"
                        partial_fmri = True
                        ok = True
        if ok:
            continue
        if any(c in arg for c in "*?["):
            wildcard_fmri = True
            p.type = "glob"
            if arg.startswith("*") or (len(arg) >= 4 and arg[3] == ":"):
                p.arg = arg
            else:
                p.arg = "svc:/" + arg
        else:
            partial_fmri = True
            p.type = "partial"
            p.arg = arg
        pattern_search = True

    infos = []
    if pattern_search or not args:
        for sname, s in repo.services.items():
            if flags & SCF_WALK_SERVICE:
                fm = svc_fmri(sname)
                if not args:
                    infos.append(WalkInfo(fm, sname))
                    continue
                for p in patterns:
                    if _cmp_pattern(fm, p):
                        _add_match(p, fm, svc_explicit)
            if flags & SCF_WALK_NOINSTANCE:
                continue
            for iname in s["instances"]:
                fm = inst_fmri(sname, iname)
                if not args:
                    infos.append(WalkInfo(fm, sname, iname))
                    continue
                for p in patterns:
                    if _cmp_pattern(fm, p):
                        _add_match(p, fm, svc_explicit)
    if not args:
        return infos, err

    count = 0
    seen = set()
    for p in patterns:
        if p.type == "invalid":
            continue
        if not p.matches:
            if not flags & SCF_WALK_LEGACY and p.arg.startswith("lrc:/"):
                msg = MSG_LEGACY
            elif flags & SCF_WALK_PROPERTY:
                msg = MSG_NOENTITY
            elif flags & SCF_WALK_NOINSTANCE:
                msg = MSG_NOSERVICE
            elif flags & SCF_WALK_SERVICE:
                msg = MSG_NOINSTSVC
            else:
                msg = MSG_NOINSTANCE
            errfunc(msg % p.arg)
            err = _common.UU_EXIT_FATAL
        elif not flags & SCF_WALK_MULTIPLE and len(p.matches) > 1:
            msg = MSG_MULTIMATCH % p.arg
            for m in p.matches:
                msg += "\t%s\n" % m
            errfunc(msg)
            err = _common.UU_EXIT_FATAL
        else:
            for m in p.matches:
                if m not in seen:
                    count += 1
                seen.add(m)

    if flags & SCF_WALK_UNIPARTIAL and count > 1:
        if partial_fmri and not wildcard_fmri:
            errfunc(MSG_MULTIPARTIAL)
            return [], _common.UU_EXIT_FATAL

    seen = set()
    for p in patterns:
        if not p.matches or (not flags & SCF_WALK_MULTIPLE and
                             len(p.matches) > 1):
            continue
        for m in p.matches:
            if m in seen:
                continue
            seen.add(m)
            f = parse_svc_fmri(m)
            if f is None:
                continue
            if f.instance is not None:
                if repo.get_instance(f.service, f.instance) is None:
                    continue
            elif repo.get_service(f.service) is None:
                continue
            wi = WalkInfo(m, f.service, f.instance, f.pg, f.prop)
            wi.count = count
            infos.append(wi)
    return infos, err
