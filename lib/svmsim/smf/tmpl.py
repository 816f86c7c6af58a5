# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Template validation of an instance, after libscf's
usr/src/lib/libscf/common/scf_tmpl.c: scf_tmpl_validate_fmri(),
_check_pg(), _check_property(), _validate_cardinality(),
_value_in_constraint() and scf_tmpl_strerror().

The templates are the pg_pattern and prop_pattern property groups
svccfg import stores (manifest.py, after svccfg_xml.c).  What is checked,
in scf_tmpl_validate_fmri()'s order:

1. every property group of the instance's composed current view that a
   pg_pattern describes: the group's type, then each of its properties a
   prop_pattern describes (type, cardinality, then each value against
   the range and value-name constraints), then the prop_patterns marked
   required that have no property;
2. the pg_patterns marked required whose group is missing.

Each finding is a template error; ``strerror()`` renders it as
scf_tmpl_strerror() does.  # GUESS: only the instance's own service's
templates are consulted (no restarter or global ones: svc.startd's
restarter templates and _scf_tmpl_check_pg_redef() are not emulated), and
a pg_pattern applies to an instance's group when its target is
"instance" or "this".
"""

from . import repo as R
from ..lean import MappingProxyType

PG_PATTERN = "template_pg_pattern"
PROP_PATTERN = "template_prop_pattern"
UINT64_MAX = 2 ** 64 - 1

# scf_tmpl_error_type_t (the ones the emulator can find)
MISSING_PG = "MISSING_PG"
WRONG_PG_TYPE = "WRONG_PG_TYPE"
MISSING_PROP = "MISSING_PROP"
WRONG_PROP_TYPE = "WRONG_PROP_TYPE"
CARDINALITY_VIOLATION = "CARDINALITY_VIOLATION"
VALUE_CONSTRAINT_VIOLATED = "VALUE_CONSTRAINT_VIOLATED"
RANGE_VIOLATION = "RANGE_VIOLATION"

# scf_tmpl.c em_desc[]: message and the labels of ev1, ev2 and actual
# (None: the item is not printed; dgettext() of NULL is NULL).
EM_DESC = MappingProxyType({
    MISSING_PG: ("Required property group missing",
                 "Name of missing property group",
                 "Type of missing property group", None),
    WRONG_PG_TYPE: ("Property group has bad type", "Specified type", None,
                    "Actual type"),
    MISSING_PROP: ("Required property missing", "Name of missing property",
                   None, None),
    WRONG_PROP_TYPE: ("Property has bad type", "Specified property type",
                      None, "Actual property type"),
    CARDINALITY_VIOLATION: (
        "Number of property values violates cardinality restriction",
        "Cardinality minimum", "Cardinality maximum",
        "Actual number of values"),
    VALUE_CONSTRAINT_VIOLATED: ("Property has illegal value", None, None,
                                "Illegal value"),
    RANGE_VIOLATION: ("Property value is out of range", None, None,
                      "Actual value"),
})

# The _get_*_desc() functions: which of the error-independent items each
# error type prints.
_PG_NAME_TYPES = (WRONG_PG_TYPE, MISSING_PROP, WRONG_PROP_TYPE,
                  CARDINALITY_VIOLATION, VALUE_CONSTRAINT_VIOLATED,
                  RANGE_VIOLATION)
_PROP_NAME_TYPES = (WRONG_PROP_TYPE, CARDINALITY_VIOLATION,
                    VALUE_CONSTRAINT_VIOLATED, RANGE_VIOLATION)
_TMPL_PROP_TYPES = (MISSING_PROP, WRONG_PROP_TYPE, CARDINALITY_VIOLATION,
                    VALUE_CONSTRAINT_VIOLATED, RANGE_VIOLATION)
_EV1_TYPES = (MISSING_PG, WRONG_PG_TYPE, MISSING_PROP, WRONG_PROP_TYPE,
              CARDINALITY_VIOLATION, RANGE_VIOLATION)
_EV2_TYPES = (MISSING_PG, CARDINALITY_VIOLATION, RANGE_VIOLATION)

STRERROR_HUMAN = 1      # SCF_TMPL_STRERROR_HUMAN (interactive svccfg)


class TmplError:
    """struct scf_tmpl_error."""

    def __init__(self, etype, fmri, pg_name=None, prop_name=None, ev1=None,
                 ev2=None, actual=None, tmpl_fmri=None, tmpl_pg_name=None,
                 tmpl_pg_type=None, tmpl_prop_name=None,
                 tmpl_prop_type=None):
        self.type = etype
        self.fmri = fmri
        self.pg_name, self.prop_name = pg_name, prop_name
        self.ev1, self.ev2, self.actual = ev1, ev2, actual
        self.tmpl_fmri = tmpl_fmri
        self.tmpl_pg_name, self.tmpl_pg_type = tmpl_pg_name, tmpl_pg_type
        self.tmpl_prop_name = tmpl_prop_name
        self.tmpl_prop_type = tmpl_prop_type

    def items(self):
        """(label, value) in _tmpl_error_items[] order, printed ones only."""
        _, l1, l2, la = EM_DESC[self.type]
        t = self.type
        out = [("FMRI", self.fmri)]
        if t in _PG_NAME_TYPES:
            out.append(("Property group", self.pg_name))
        if t in _PROP_NAME_TYPES:
            out.append(("Property name", self.prop_name))
        if t in _EV1_TYPES and l1 is not None:
            out.append((l1, self.ev1))
        if t in _EV2_TYPES and l2 is not None:
            out.append((l2, self.ev2))
        if la is not None:
            out.append((la, self.actual))
        out += [("Template source", self.tmpl_fmri),
                ("pg_pattern name", self.tmpl_pg_name),
                ("pg_pattern type", self.tmpl_pg_type)]
        if t in _TMPL_PROP_TYPES:
            out += [("prop_pattern name", self.tmpl_prop_name),
                    ("prop_pattern type", self.tmpl_prop_type)]
        return out


def strerror(err, flag=0, prefix=""):
    """scf_tmpl_strerror(): 'MESSAGE: Label="value"; ...' (flag 0, as
    non-interactive svccfg asks) or one item per tab-indented line
    (STRERROR_HUMAN)."""
    s0, s1 = (":\n\t", "\n\t") if flag == STRERROR_HUMAN else (": ", "; ")
    out = prefix + EM_DESC[err.type][0]
    sep = s0
    for label, value in err.items():
        out += '%s%s="%s"' % (sep, label, "" if value is None else value)
        sep = s1
    return out


# ---------------------------------------------------------------------------
# Reading the templates

def _single(pg, name):
    p = pg["props"].get(name)
    if p is None or len(p["values"]) != 1:
        return None
    return p["values"][0]


class _PgPattern:
    def __init__(self, pgname, pg):
        self.pgname = pgname
        self.name = _single(pg, "name")
        self.type = _single(pg, "type")
        self.target = _single(pg, "target") or "this"
        self.required = _single(pg, "required") == "true"
        self.props = []             # _PropPattern, in repository order

    @property
    def name_str(self):
        return self.name if self.name is not None else "*"

    @property
    def type_str(self):
        return self.type if self.type is not None else "*"


def _number(text):
    """strtoull()/strtoll() base 0, as svccfg checked the range."""
    return R._c_strtol(text, not text.strip().startswith("-"))


class _PropPattern:
    def __init__(self, pg):
        self.name = _single(pg, "name")
        self.type = _single(pg, "type")
        self.required = _single(pg, "required") == "true"
        cmin = _single(pg, "cardinality_min")
        cmax = _single(pg, "cardinality_max")
        # scf_tmpl_prop_cardinality(): absent min 0, absent max UINT64_MAX.
        self.card_min = int(cmin) if cmin is not None else 0
        self.card_max = int(cmax) if cmax is not None else UINT64_MAX
        self.names = list(pg["props"].get("constraint_name",
                                          {"values": []})["values"])
        self.ranges = []
        for r in pg["props"].get("constraint_range", {"values": []})[
                "values"]:
            lo, _, hi = r.partition(",")
            lo, hi = _number(lo), _number(hi)
            if lo is not None and hi is not None:
                self.ranges.append((lo, hi))

    @property
    def type_str(self):
        # SCF_TMPL_WILDCARD when the prop_pattern has no type.
        return self.type if self.type else "*"


def patterns(svc_pgs):
    """The service's pg_patterns with their prop_patterns."""
    pats = {}
    for pgname, pg in svc_pgs.items():
        if pg["type"] == PG_PATTERN:
            pats[pgname] = _PgPattern(pgname, pg)
    for pg in svc_pgs.values():
        if pg["type"] == PROP_PATTERN:
            owner = pats.get(_single(pg, "pg_pattern") or "")
            if owner is not None:
                owner.props.append(_PropPattern(pg))
    return [p for p in pats.values() if p.target in ("instance", "this")]


def _pattern_for(pats, pgname, pgtype):
    """scf_tmpl_get_by_pg_name(): the most specific pg_pattern: name and
    type, name only, type only, neither (SCF_TMPL_PG_NT, _N, _T, _WILD).
    # GUESS: failing those, a pg_pattern whose name matches is taken
    whatever its type, so that _check_pg() reports the wrong type."""
    for name, ty in ((pgname, pgtype), (pgname, None), (None, pgtype),
                     (None, None)):
        for p in pats:
            if p.name == name and p.type == ty:
                return p
    for p in pats:
        if p.name == pgname:
            return p
    return None


# ---------------------------------------------------------------------------
# Validation

def validate(repo, svc, inst, fmri):
    """scf_tmpl_validate_fmri() with SCF_TMPL_VALIDATE_FLAG_CURRENT: the
    template errors of instance ``inst`` ([] when it conforms).  ``fmri``
    is how the errors name the instance."""
    svc_pgs = repo.get_service(svc)["pgs"]
    pats = patterns(svc_pgs)
    tmpl_fmri = R.svc_fmri(svc)
    view = repo.composed_current(svc, inst)
    errs = []

    def err(etype, pat, prop_pat=None, **kw):
        errs.append(TmplError(
            etype, fmri, tmpl_fmri=tmpl_fmri, tmpl_pg_name=pat.name_str,
            tmpl_pg_type=pat.type_str,
            tmpl_prop_name=prop_pat.name if prop_pat else None,
            tmpl_prop_type=prop_pat.type_str if prop_pat else None, **kw))

    for pgname, pg in view.items():
        pat = _pattern_for(pats, pgname, pg["type"])
        if pat is None:
            continue
        # _check_pg()
        if pat.type is not None and pat.type != pg["type"]:
            err(WRONG_PG_TYPE, pat, pg_name=pgname, ev1=pat.type,
                actual=pg["type"])
        by_name = {pp.name: pp for pp in pat.props}
        for pname, prop in pg["props"].items():
            pp = by_name.get(pname)
            if pp is not None:
                _check_property(err, pat, pp, pgname, pname, prop)
        for pp in pat.props:
            if pp.required and pp.name not in pg["props"]:
                err(MISSING_PROP, pat, pp, pg_name=pgname, ev1=pp.name)
    for pat in pats:
        if pat.required and pat.name is not None and pat.name not in view:
            err(MISSING_PG, pat, ev1=pat.name, ev2=pat.type_str)
    return errs


def _check_property(err, pat, pp, pgname, pname, prop):
    """_check_property(): type, cardinality, then every value."""
    where = dict(pg_name=pgname, prop_name=pname)
    if pp.type and prop["type"] != pp.type:
        err(WRONG_PROP_TYPE, pat, pp, ev1=pp.type, actual=prop["type"],
            **where)
    n = len(prop["values"])
    if not (pp.card_min == 0 and pp.card_max == UINT64_MAX) and \
            (n < pp.card_min or n > pp.card_max):
        err(CARDINALITY_VIOLATION, pat, pp, ev1=str(pp.card_min),
            ev2=str(pp.card_max), actual=str(n), **where)
    for value in prop["values"]:
        # _value_in_constraint(): a value of another type than the
        # template's is reported again, value by value.
        if pp.type and prop["type"] != pp.type:
            err(WRONG_PROP_TYPE, pat, pp, ev1=pp.type, actual=prop["type"],
                **where)
            continue
        out_of_range = False
        if prop["type"] in ("count", "integer") and pp.ranges:
            v = int(value)
            if any(lo <= v <= hi for lo, hi in pp.ranges):
                continue
            out_of_range = True
        not_named = False
        if pp.names:
            if value in pp.names:
                continue
            not_named = True
        if out_of_range:
            err(RANGE_VIOLATION, pat, pp, actual=str(v), **where)
        if not_named:
            err(VALUE_CONSTRAINT_VIOLATED, pat, pp, actual=value, **where)
