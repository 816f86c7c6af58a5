# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg import: service manifests (service_bundle.dtd.1) into the emulated
repository, and the services every fresh repository starts with.

The mapping of manifest elements to property groups follows svccfg:

=====================  =============================================
element                property group (type) / properties
=====================  =============================================
single_instance        general (framework) single_instance boolean
restarter              general (framework) restarter fmri
stability              general (framework) entity_stability astring
dependency NAME        NAME (dependency) entities fmri, grouping,
                       restart_on, type astring
dependent NAME         dependents (framework) NAME fmri; and NAME
                       (dependency) in the target, if it exists
exec_method NAME       NAME (method) exec astring, timeout_seconds
                       count, type astring
property_group NAME    NAME (TYPE) with its propval/property children
template               tm_common_name / tm_description (template)
                       LANG ustring; tm_man_TITLE_SECTION, tm_doc_NAME
pg_pattern NAME TYPE   tm_pgpatnt_NAME (template_pg_pattern): name,
                       type, target astring, required boolean,
                       common_name_LANG / description_LANG ustring
prop_pattern PROP      tm_proppat_nt_NAME_PROP (template_prop_pattern):
                       pg_pattern, name, type astring, required boolean,
                       cardinality_min/_max count, visibility,
                       internal_separators, constraint_name (one value
                       per <value>), constraint_range ("MIN,MAX")
                       astring, common_name_LANG / description_LANG
instance enabled=      general (framework) enabled boolean
=====================  =============================================
"""

import os

from . import repo as R
from ..lean import MappingProxyType

# copy, re and xml.etree are imported where they are used: store.py imports
# this module for every emulated SMF command, and only svccfg import and
# validate (and a fresh repository) parse a manifest (bench/emulator).

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_LIST_ELEMENTS = MappingProxyType({t + "_list": t for t in R.TYPES})


class ImportError_(Exception):
    """A manifest svccfg refuses; str() is svccfg's message (ending in \\n)."""


def _norm_text(s):
    # GUESS: svccfg trims loctext and collapses runs of white space.
    return " ".join((s or "").split())


def _bool_attr(el, name):
    v = el.get(name)
    return v is not None and v.strip() == "true"


def _add(pgs, pgname, pgtype, prop, ty, values):
    R.set_prop(pgs, pgname, pgtype, prop, ty, values)


def _typed_values(ty, values, where):
    out = []
    for v in values:
        cv = R.value_from_string(ty, v)
        if cv is None:
            raise ImportError_('Invalid "%s" value "%s".\n' % (ty, v))
        out.append(cv)
    return out


def _prop_child(pgs, name, ty, child):
    """A <propval>, <property> or <stability> inside a group NAME."""
    tag = child.tag
    if tag == "propval":
        pty = child.get("type")
        if pty not in R.TYPES:
            raise ImportError_('Unknown type "%s".\n' % pty)
        _add(pgs, name, ty, child.get("name"), pty,
             _typed_values(pty, [child.get("value", "")], child))
    elif tag == "property":
        pty = child.get("type")
        if pty not in R.TYPES:
            raise ImportError_('Unknown type "%s".\n' % pty)
        vals = []
        for lst in child:
            if lst.tag in _LIST_ELEMENTS:
                for vn in lst:
                    if vn.tag == "value_node":
                        vals.append(vn.get("value", ""))
        _add(pgs, name, ty, child.get("name"), pty,
             _typed_values(pty, vals, child))
    elif tag == "stability":
        _add(pgs, name, ty, "stability", "astring", [child.get("value")])


def _property_group(pgs, el):
    name = el.get("name")
    ty = el.get("type")
    if not name or not ty:
        raise ImportError_("property group lacks name or type\n")
    if name not in pgs:
        pgs[name] = R.new_pg(ty)
    for child in el:
        _prop_child(pgs, name, ty, child)


def _man_pgname(title, section):
    import re
    # GUESS: characters not allowed in a property group name become '_'.
    raw = "tm_man_%s_%s" % (title, section)
    return re.sub(r"[^A-Za-z0-9_\-]", "_", raw)


def _loctexts(pgs, pgname, pgtype, el, fmt):
    """lxml_get_all_loctext(): one ustring property per language."""
    for lt in el:
        if lt.tag == "loctext":
            lang = lt.get(_XML_LANG) or lt.get("lang") or "C"
            _add(pgs, pgname, pgtype, fmt % lang, "ustring",
                 [_norm_text("".join(lt.itertext()))])


def _bool_prop(pgs, pgname, pgtype, prop, el, attr):
    """new_bool_prop_from_attr(): the DTD's default is false."""
    # GUESS: an absent attribute stores false (the DTD default).
    _add(pgs, pgname, pgtype, prop, "boolean",
         ["true" if _bool_attr(el, attr) else "false"])


def _pg_pattern_name(name, ty):
    """svccfg_xml.c lxml_get_tm_pg_pattern(): the prefix says which of
    name and type the pg_pattern has (SCF_PG_TM_PG_PATTERN_*_PREFIX)."""
    if not name:
        return "tm_pgpatt_" + ty if ty else "tm_pgpat_"
    return ("tm_pgpatnt_" if ty else "tm_pgpatn_") + name


def _prop_pattern(pgs, el, pgpat_name, sname):
    """svccfg_xml.c lxml_get_tm_prop_pattern(): group
    tm_proppat_ + the pg_pattern group name after "tm_pgpat" + "_" +
    the prop_pattern's name."""
    name = el.get("name")
    if not name:
        raise ImportError_("prop_pattern name is missing for %s\n"
                           % sname)
    pgname = "tm_proppat_%s_%s" % (pgpat_name[len("tm_pgpat"):], name)
    ty = "template_prop_pattern"
    pgs[pgname] = R.new_pg(ty)
    _add(pgs, pgname, ty, "pg_pattern", "astring", [pgpat_name])
    # lxml_get_prop_pattern_attributes(): name, type, required.
    _add(pgs, pgname, ty, "name", "astring", [name])
    if el.get("type"):
        _add(pgs, pgname, ty, "type", "astring", [el.get("type")])
    _bool_prop(pgs, pgname, ty, "required", el, "required")
    names, ranges = [], []
    for child in el:
        tag = child.tag
        if tag in ("common_name", "description"):
            _loctexts(pgs, pgname, ty, child, tag + "_%s")
        elif tag == "units":
            _loctexts(pgs, pgname, ty, child, "units_%s")
        elif tag == "visibility":
            _add(pgs, pgname, ty, "visibility", "astring",
                 [child.get("value", "")])
        elif tag == "internal_separators":
            _add(pgs, pgname, ty, "internal_separators", "astring",
                 [child.text or ""])
        elif tag == "cardinality":
            # lxml_get_tm_cardinality(): each attribute that is present.
            for attr in ("min", "max"):
                if child.get(attr) is not None:
                    v = R.value_from_string("count", child.get(attr))
                    if v is None:
                        raise ImportError_(
                            '"%s" is not a legal number for the %s '
                            'attribute of the %s element in %s.\n' % (
                                child.get(attr), attr,
                                "cardinality_" + attr, sname))
                    _add(pgs, pgname, ty, "cardinality_" + attr, "count",
                         [v])
        elif tag == "constraints":
            # lxml_get_tm_constraints(): <range> -> constraint_range
            # "MIN,MAX", <value name> -> constraint_name.
            for c in child:
                if c.tag == "range":
                    ranges.append("%s,%s" % (c.get("min"), c.get("max")))
                elif c.tag == "value":
                    names.append(c.get("name", ""))
            # GUESS: choices, values and include_values are not stored.
    if ranges:
        _add(pgs, pgname, ty, "constraint_range", "astring", ranges)
    if names:
        _add(pgs, pgname, ty, "constraint_name", "astring", names)


def _pg_pattern(pgs, el, sname):
    """svccfg_xml.c lxml_get_tm_pg_pattern() and
    lxml_get_pg_pattern_attributes()."""
    name, ty = el.get("name"), el.get("type")
    pgname = _pg_pattern_name(name, ty)
    pty = "template_pg_pattern"
    if pgname in pgs:
        raise ImportError_('pg_pattern with name "%s" and type "%s" is not '
                           'unique in %s\n' % (name, ty, sname))
    pgs[pgname] = R.new_pg(pty)
    if name:
        _add(pgs, pgname, pty, "name", "astring", [name])
    if ty:
        _add(pgs, pgname, pty, "type", "astring", [ty])
    # The DTD's default target is "this".
    _add(pgs, pgname, pty, "target", "astring", [el.get("target", "this")])
    _bool_prop(pgs, pgname, pty, "required", el, "required")
    for child in el:
        if child.tag in ("common_name", "description"):
            _loctexts(pgs, pgname, pty, child, child.tag + "_%s")
        elif child.tag == "prop_pattern":
            _prop_pattern(pgs, child, pgname, sname)


def _template(pgs, el, sname):
    for child in el:
        if child.tag == "pg_pattern":
            _pg_pattern(pgs, child, sname)
            continue
        if child.tag in ("common_name", "description"):
            pgname = "tm_" + child.tag
            for lt in child:
                if lt.tag == "loctext":
                    lang = lt.get(_XML_LANG) or lt.get("lang") or "C"
                    _add(pgs, pgname, "template", lang, "ustring",
                         [_norm_text("".join(lt.itertext()))])
        elif child.tag == "documentation":
            for d in child:
                if d.tag == "manpage":
                    pgname = _man_pgname(d.get("title", ""),
                                         d.get("section", ""))
                    pgs[pgname] = R.new_pg("template")
                    for a in ("manpath", "section", "title"):
                        if d.get(a) is not None:
                            _add(pgs, pgname, "template", a, "astring",
                                 [d.get(a)])
                elif d.tag == "doc_link":
                    import re
                    pgname = "tm_doc_" + re.sub(r"[^A-Za-z0-9_\-]", "_",
                                                d.get("name", ""))
                    pgs[pgname] = R.new_pg("template")
                    _add(pgs, pgname, "template", "name", "astring",
                         [d.get("name", "")])
                    _add(pgs, pgname, "template", "uri", "astring",
                         [d.get("uri", "")])


def _entity_pgs(el, own_fmri, dependents_out):
    """Property groups an <instance> or <service> element defines."""
    pgs = {}
    for child in el:
        tag = child.tag
        if tag == "single_instance":
            _add(pgs, "general", "framework", "single_instance", "boolean",
                 ["true"])
        elif tag == "restarter":
            for sf in child:
                if sf.tag == "service_fmri":
                    _add(pgs, "general", "framework", "restarter", "fmri",
                         [sf.get("value")])
        elif tag == "stability":
            _add(pgs, "general", "framework", "entity_stability", "astring",
                 [child.get("value")])
        elif tag == "dependency":
            name = child.get("name")
            pgs[name] = R.new_pg("dependency")
            ents = [sf.get("value") for sf in child
                    if sf.tag == "service_fmri"]
            _add(pgs, name, "dependency", "entities", "fmri", ents)
            _add(pgs, name, "dependency", "grouping", "astring",
                 [child.get("grouping")])
            _add(pgs, name, "dependency", "restart_on", "astring",
                 [child.get("restart_on")])
            _add(pgs, name, "dependency", "type", "astring",
                 [child.get("type", "service")])
        elif tag == "dependent":
            name = child.get("name")
            target = None
            for sf in child:
                if sf.tag == "service_fmri":
                    target = sf.get("value")
            _add(pgs, "dependents", "framework", name, "fmri", [target])
            dependents_out.append((name, target, child.get("grouping"),
                                   child.get("restart_on"), own_fmri))
        elif tag == "exec_method":
            name = child.get("name")
            pgs[name] = R.new_pg("method")
            _add(pgs, name, "method", "exec", "astring", [child.get("exec")])
            t = R.value_from_string("count",
                                    child.get("timeout_seconds", "0"))
            if t is None:
                # GUESS: svccfg rejects a bad timeout like any count value.
                raise ImportError_('Invalid "count" value "%s".\n'
                                   % child.get("timeout_seconds"))
            _add(pgs, name, "method", "timeout_seconds", "count", [t])
            _add(pgs, name, "method", "type", "astring",
                 [child.get("type", "method")])
            for pv in child:
                if pv.tag in ("propval", "property"):
                    _prop_child(pgs, name, "method", pv)
        elif tag == "property_group":
            _property_group(pgs, child)
        elif tag == "template":
            _template(pgs, child, own_fmri[len("svc:/"):])
        # method_context, notification_parameters, instance,
        # create_default_instance: not property groups of this entity.
        # GUESS: method_context is not emulated.
    return pgs


class Bundle:
    def __init__(self):
        self.services = []    # [(name, svc_pgs, [(inst, enabled, pgs)])]
        self.dependents = []  # [(pgname, target, grouping, restart_on, fmri)]


def parse(text):
    """Parse a manifest; raise ImportError_ with svccfg's message."""
    import re
    import xml.etree.ElementTree as ET
    m = re.search(r"<!DOCTYPE\s+service_bundle\s+SYSTEM\s+"
                  r"(['\"])([^'\"]*)\1", text)
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        raise ImportError_("couldn't parse document\n")
    if "<!DOCTYPE" not in text:
        raise ImportError_("document has no DTD\n")
    if m is None or m.group(2) != R.MANIFEST_DTD_PATH:
        raise ImportError_("document DTD unknown; not service bundle?\n")
    if root.tag != "service_bundle":
        raise ImportError_("document is not a service bundle\n")
    # GUESS: DTD validation ("Document is not valid.") is not emulated.
    if root.get("type") != "manifest":
        raise ImportError_("document is not a manifest.\n")
    if not root.get("name"):
        raise ImportError_("service bundle lacks name attribute\n")
    b = Bundle()
    for sel in root:
        if sel.tag != "service":
            continue
        sname = sel.get("name")
        if not sname or not R.uu_check_name(sname, R.UU_NAME_DOMAIN |
                                            R.UU_NAME_PATH):
            raise ImportError_('Service name "%s" is invalid.\n'
                               % (sname or ""))
        sfmri = R.svc_fmri(sname)
        svc_pgs = _entity_pgs(sel, sfmri, b.dependents)
        insts = []
        for child in sel:
            if child.tag == "create_default_instance":
                insts.append(("default", _bool_attr(child, "enabled"), {}))
            elif child.tag == "instance":
                iname = child.get("name")
                ipgs = _entity_pgs(child, R.inst_fmri(sname, iname),
                                   b.dependents)
                insts.append((iname, _bool_attr(child, "enabled"), ipgs))
        b.services.append((sname, svc_pgs, insts))
    return b


# ---------------------------------------------------------------------------
# Upgrade: a three-way merge of the manifest (new), what the last import
# set (old) and what is in the repository now (cur).  An administrator's
# change (cur != old) survives a re-import.  # GUESS: svccfg's upgrade rules
# are richer (conflict messages, dependents); this keeps their effect.

def _merge(cur, old, new):
    import copy
    old = old or {}
    for pgname, npg in new.items():
        cpg = cur.get(pgname)
        opg = old.get(pgname)
        if cpg is None:
            cur[pgname] = copy.deepcopy(npg)
            continue
        if opg is None or cpg["type"] == opg["type"]:
            cpg["type"] = npg["type"]
        for pn, np in npg["props"].items():
            cp = cpg["props"].get(pn)
            op = opg["props"].get(pn) if opg else None
            if cp is None or op is None or cp == op:
                cpg["props"][pn] = copy.deepcopy(np)
    for pgname, opg in old.items():
        cpg = cur.get(pgname)
        if cpg is None:
            continue
        npg = new.get(pgname)
        for pn, op in opg["props"].items():
            if (npg is None or pn not in npg["props"]) and \
                    cpg["props"].get(pn) == op:
                del cpg["props"][pn]
        if npg is None and not cpg["props"]:
            del cur[pgname]


def apply(repo, bundle, refresh=True):
    """Import ``bundle`` into ``repo`` (silently, as svccfg import is
    without -v).  Returns [(svc, inst)] of instances
    the restarter should start (new instances declared enabled)."""
    import copy
    to_start = []
    for sname, svc_pgs, insts in bundle.services:
        s = repo.get_service(sname)
        if s is None:
            s = repo.add_service(sname)
            s["pgs"] = copy.deepcopy(svc_pgs)
        else:
            _merge(s["pgs"], s.get("last_import"), svc_pgs)
        s["last_import"] = copy.deepcopy(svc_pgs)
        for iname, enabled, ipgs in insts:
            i = repo.get_instance(sname, iname)
            if i is None:
                i = repo.add_instance(sname, iname)
                # GUESS: "general" comes first, then the manifest's groups
                # in document order.
                pgs = {}
                R.set_prop(pgs, "general", "framework", "enabled",
                           "boolean", ["true" if enabled else "false"])
                for pgname, pg in ipgs.items():
                    if pgname == "general":
                        pgs["general"]["props"].update(
                            copy.deepcopy(pg["props"]))
                    else:
                        pgs[pgname] = copy.deepcopy(pg)
                i["pgs"] = pgs
                if enabled:
                    to_start.append((sname, iname))
                else:
                    repo.set_state(sname, iname, "disabled")
            else:
                # general/enabled of an existing instance is left alone.
                _merge(i["pgs"], i.get("last_import"), ipgs)
            i["last_import"] = copy.deepcopy(ipgs)
        if refresh:
            for iname in s["instances"]:
                repo.take_running(sname, iname)
        repo.touch()
    for pgname, target, grouping, restart_on, fmri in bundle.dependents:
        f = R.parse_svc_fmri(target or "")
        if f is None or f.service is None:
            continue
        # GUESS: a dependent's target that does not exist is not created.
        if f.instance is not None:
            t = repo.get_instance(f.service, f.instance)
        else:
            t = repo.get_service(f.service)
        if t is None:
            continue
        pgs = t["pgs"]
        pgs[pgname] = R.new_pg("dependency")
        _add(pgs, pgname, "dependency", "entities", "fmri", [fmri])
        _add(pgs, pgname, "dependency", "grouping", "astring", [grouping])
        _add(pgs, pgname, "dependency", "restart_on", "astring",
             [restart_on])
        _add(pgs, pgname, "dependency", "type", "astring", ["service"])
        # svccfg refreshes the target so the dependency takes effect.
        if f.instance is not None:
            repo.take_running(f.service, f.instance)
        else:
            for iname in t["instances"]:
                repo.take_running(f.service, iname)
        repo.touch()
    return to_start


# ---------------------------------------------------------------------------
# The services a fresh emulated system has.  metainit and metasync follow
# usr/src/cmd/lvm/util/metainit.xml and metasync.xml.

_HEAD = ("<?xml version='1.0'?>\n<!DOCTYPE service_bundle SYSTEM "
         "'%s'>\n<service_bundle type='manifest' name='svmsim:%%s'>\n"
         % R.MANIFEST_DTD_PATH)


def _svc(name, common, body="", transient=False, manpage=None,
         instance=None):
    tm = ("<template><common_name><loctext xml:lang='C'>%s</loctext>"
          "</common_name>%s</template>" % (
              common,
              "" if manpage is None else
              "<documentation><manpage title='%s' section='%s' "
              "manpath='/usr/share/man'/></documentation>" % manpage))
    startd = ("<property_group name='startd' type='framework'>"
              "<propval name='duration' type='astring' value='transient'/>"
              "</property_group>") if transient else ""
    inst = "<create_default_instance enabled='true'/><single_instance/>" \
        if instance is None else \
        "<instance name='%s' enabled='true'/>" % instance
    return (_HEAD % name.replace("/", "-")) + (
        "<service name='%s' type='service' version='1'>"
        "%s%s%s<stability value='Unstable'/>%s</service></service_bundle>\n"
        % (name, inst, body, startd, tm))


def _dep(name, fmri, grouping="require_all"):
    return ("<dependency name='%s' type='service' grouping='%s' "
            "restart_on='none'><service_fmri value='%s'/></dependency>"
            % (name, grouping, fmri))


def _meth(path):
    return ("<exec_method type='method' name='start' exec='%s' "
            "timeout_seconds='180'/><exec_method type='method' name='stop' "
            "exec=':true' timeout_seconds='2'/>" % path)


# GUESS: common names of restarter, identity, filesystem/minimal and
# /local and multi-user; none of their dependencies are recorded.
PREREGISTERED = (
    _svc("system/svc/restarter", "master restarter"),
    _svc("system/identity", "system identity (nodename)", transient=True,
         instance="node"),
    _svc("system/filesystem/minimal", "minimal file system mounts",
         transient=True),
    _svc("system/filesystem/local", "local file system mounts",
         transient=True),
    _svc("milestone/multi-user", "multi-user milestone", transient=True),
    _svc("system/metainit", "SVM initialization",
         _dep("identity", "svc:/system/identity:node") +
         "<dependent name='metainit_single-user' grouping='optional_all' "
         "restart_on='none'><service_fmri value='svc:/milestone/single-user'"
         "/></dependent><dependent name='metainit-root' "
         "grouping='optional_all' restart_on='none'><service_fmri "
         "value='svc:/system/filesystem/root'/></dependent>" +
         _meth("/lib/svc/method/svc-metainit"),
         transient=True, manpage=("metainit", "1M")),
    _svc("system/metasync", "SVM metasync",
         _dep("usr", "svc:/system/filesystem/minimal") +
         _dep("metainit", "svc:/system/metainit") +
         "<dependent name='metasync_multi-user' grouping='optional_all' "
         "restart_on='none'><service_fmri value='svc:/milestone/multi-user'"
         "/></dependent>" + _meth("/lib/svc/method/svc-metasync"),
         transient=True, manpage=("metasync", "1M")),
    # The other two SVM core services metastat requires (meta_smf.c
    # svm_core_svcs).  rpc.metad/meta.xml: network/rpc/meta has inetd as
    # its restarter (GUESS: modelled as a require_all dependency on
    # network/inetd) and requires network/rpc/bind;
    # md_monitord/mdmonitor.xml: an optional_all dependency on rpc/meta.
    # GUESS: common names; no other dependency of these is recorded.
    _svc("network/rpc/bind", "RPC bindings"),
    _svc("network/inetd", "inetd"),
    _svc("network/rpc/meta", "SVM remote metaset services",
         _dep("rpcbind", "svc:/network/rpc/bind") +
         _dep("inetd", "svc:/network/inetd")),
    _svc("system/mdmonitor", "SVM monitor",
         _dep("rpcmeta", "svc:/network/rpc/meta", "optional_all")),
)


def preregister(repo):
    for text in PREREGISTERED:
        for sname, iname in apply(repo, parse(text)):
            repo.set_state(sname, iname, "online")


def manifests_in(path):
    """Files svccfg import takes from a directory: *.xml, recursively."""
    out = []
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.endswith(".xml"):
                out.append(os.path.join(dirpath, fn))
    return out


__all__ = ["parse", "apply", "preregister", "ImportError_", "manifests_in"]
