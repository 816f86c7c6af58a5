# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svcprop(1), after usr/src/cmd/svc/svcprop/svcprop.c."""

from . import _common as C
from . import repo as R
from .store import locked

USAGE = ("Usage: %1$s [-fqtv] [-C | -c | -s snapshot] [-z zone] "
         "[-p [name/]name]... \n"
         "         {FMRI | pattern}...\n"
         "       %1$s -w [-fqtv] [-z zone] [-p [name/]name] "
         "{FMRI | pattern}\n")

_METACHARS = ";&()|^<>\n \t\\\"'`"


def quote_for_shell(s):
    """svcprop.c quote_for_shell(): backslash the Bourne shell's
    metacharacters; the empty string becomes ""."""
    if s == "":
        return '""'
    return "".join("\\" + c if c in _METACHARS else c for c in s)


class _Ctx:
    def __init__(self, out):
        self.out = out
        self.quiet = False
        self.types = False
        self.verbose = False
        self.fmris = False
        self.snapshot = "running"
        self.Cflag = self.cflag = self.sflag = False
        self.props = []            # [(comp1, comp2-or-None)]
        self.return_code = 0

    def usage(self):
        self.out.err(USAGE.replace("%1$s", self.out.prog))
        raise C.Exit(C.UU_EXIT_USAGE)

    def warn(self, msg):
        if not self.quiet:
            self.out.warn(msg)

    def die(self, msg):
        if self.quiet:
            raise C.Exit(C.UU_EXIT_FATAL)
        self.out.die(msg)

    @property
    def print_noprop_errors(self):
        return not self.quiet or self.verbose

    def noprop_common_action(self):
        if not self.print_noprop_errors:
            raise C.Exit(C.UU_EXIT_FATAL)
        self.return_code = C.UU_EXIT_FATAL


def _add_prop(ctx, prop):
    slash = prop.find("/")
    if slash != -1 and prop.find("/", slash + 1) != -1:
        ctx.out.warn("-p argument `%s' has too many components.\n" % prop)
        ctx.usage()
    if slash == -1:
        c1, c2 = prop, None
    else:
        c1, c2 = prop[:slash], prop[slash + 1:]
    if not R.uu_check_name(c1, R.UU_NAME_DOMAIN):
        ctx.out.die("Invalid component name `%s'.\n" % c1, C.UU_EXIT_USAGE)
    if c2 is not None and not R.uu_check_name(c2, R.UU_NAME_DOMAIN):
        ctx.out.die("Invalid component name `%s'.\n" % c2, C.UU_EXIT_USAGE)
    if ctx.props:
        last = ctx.props[-1]
        if (last[1] is None) != (c2 is None):
            ctx.types = True
    ctx.props.append((c1, c2))


def _display_prop(ctx, ent_fmri, pgname, pname, prop):
    line = ""
    if ctx.types:
        if ctx.fmris:
            line += "%s/:properties/%s/%s" % (ent_fmri, pgname, pname)
        else:
            line += "%s/%s" % (pgname, pname)
        line += " %s " % prop["type"]
    line += " ".join(quote_for_shell(v) for v in prop["values"])
    ctx.out.out(line + "\n")


def _display_pg(ctx, ent_fmri, pgname, pg):
    ctx.types = True    # always for whole property groups (sticky)
    for pname, prop in pg["props"].items():
        _display_prop(ctx, ent_fmri, pgname, pname, prop)


def _entity_views(ctx, repo, wi):
    """(view, fallback) for an entity: the groups -p names are looked up in,
    and the current composed groups consulted for nonpersistent ones."""
    if wi.inst is None:
        if ctx.sflag:
            ctx.die("Only instances have snapshots.\n")
        return repo.services[wi.svc]["pgs"], None
    if ctx.Cflag:
        return repo.current_inst_pgs(wi.svc, wi.inst), None
    if ctx.snapshot is None:
        return repo.composed_current(wi.svc, wi.inst), None
    snap = repo.composed_running(wi.svc, wi.inst)
    if ctx.snapshot != "running" or (snap is None and ctx.sflag):
        # GUESS: only the "running" snapshot is kept by the emulator.
        ctx.die("No such snapshot.\n")
    if snap is None:
        return repo.composed_current(wi.svc, wi.inst), None
    return snap, repo.composed_current(wi.svc, wi.inst)


def _process_ent(ctx, repo, wi):
    etype = "service" if wi.inst is None else "instance"
    view, current = _entity_views(ctx, repo, wi)
    if not ctx.props:
        if ctx.quiet:
            return
        for pgname, pg in view.items():
            _display_pg(ctx, wi.fmri, pgname, pg)
        if current is not None:
            for pgname, pg in current.items():
                if pg.get("flags", 0) & R.PG_FLAG_NONPERSISTENT:
                    _display_pg(ctx, wi.fmri, pgname, pg)
        return
    for c1, c2 in ctx.props:
        pg = view.get(c1)
        if pg is None and current is not None:
            cpg = current.get(c1)
            if cpg is not None and cpg.get("flags", 0) & \
                    R.PG_FLAG_NONPERSISTENT:
                pg = cpg
        if pg is None:
            if ctx.print_noprop_errors:
                ctx.out.warn("Couldn't find property group `%s' for %s "
                             "`%s'.\n" % (c1, etype, wi.fmri))
            ctx.noprop_common_action()
            continue
        if c2 is None:
            if not ctx.quiet:
                _display_pg(ctx, wi.fmri, c1, pg)
            continue
        prop = pg["props"].get(c2)
        if prop is None:
            if ctx.print_noprop_errors:
                ctx.out.warn("Couldn't find property `%s/%s' for %s `%s'.\n"
                             % (c1, c2, etype, wi.fmri))
            ctx.noprop_common_action()
            continue
        if not ctx.quiet:
            _display_prop(ctx, wi.fmri, c1, c2, prop)


def _pg_of(repo, wi):
    if wi.inst is not None:
        return repo.current_inst_pgs(wi.svc, wi.inst)[wi.pg]
    return repo.services[wi.svc]["pgs"][wi.pg]


def _ent_fmri(wi):
    return R.svc_fmri(wi.svc) if wi.inst is None else \
        R.inst_fmri(wi.svc, wi.inst)


def _process_pg(ctx, repo, wi):
    pg = _pg_of(repo, wi)
    ent = _ent_fmri(wi)
    pgfmri = "%s/:properties/%s" % (ent, wi.pg)
    if not ctx.props:
        if not ctx.quiet:
            _display_pg(ctx, ent, wi.pg, pg)
        return
    for c1, c2 in ctx.props:
        if c2 is not None:
            ctx.out.die("-p argument `%s/%s' has too many components for "
                        "property group `%s'.\n" % (c1, c2, pgfmri),
                        C.UU_EXIT_USAGE)
        prop = pg["props"].get(c1)
        if prop is not None:
            if not ctx.quiet:
                _display_prop(ctx, ent, wi.pg, c1, prop)
            continue
        if ctx.print_noprop_errors:
            ctx.out.warn("Couldn't find property `%s' in property group "
                         "`%s'.\n" % (c1, pgfmri))
        ctx.noprop_common_action()


def _process_prop(ctx, repo, wi):
    if ctx.props:
        ctx.out.warn("The -p option cannot be used with property operands.\n")
        ctx.usage()
    if ctx.quiet:
        return
    prop = _pg_of(repo, wi)["props"][wi.prop]
    _display_prop(ctx, _ent_fmri(wi), wi.pg, wi.prop, prop)


def main(out, argv, simdir):
    ctx = _Ctx(out)
    try:
        # -w (it would block until the group changes) and -z are not
        # emulated: svmram passes neither (a usage error).
        opts, operands = C.getopt(out, argv, "Ccfp:qs:tv")
    except C.GetoptError:
        ctx.usage()
    for o, a in opts:
        if o == "C":
            if ctx.cflag or ctx.sflag:
                ctx.usage()
            ctx.Cflag = True
            ctx.snapshot = None
        elif o == "c":
            if ctx.Cflag or ctx.sflag:
                ctx.usage()
            ctx.cflag = True
            ctx.snapshot = None
        elif o == "f":
            ctx.types = ctx.fmris = True
        elif o == "p":
            _add_prop(ctx, a)
        elif o == "q":
            ctx.quiet = True
        elif o == "s":
            if ctx.Cflag or ctx.cflag:
                ctx.usage()
            ctx.snapshot = a
            ctx.sflag = True
        elif o == "t":
            ctx.types = True
        elif o == "v":
            ctx.verbose = True
    if not operands:
        ctx.usage()

    flags = R.SCF_WALK_PROPERTY | R.SCF_WALK_SERVICE | R.SCF_WALK_EXPLICIT | \
        R.SCF_WALK_MULTIPLE
    with locked(simdir) as repo:
        infos, err = R.walk(repo, operands, flags, ctx.warn)
        if err:
            ctx.return_code = err
        for wi in infos:
            if wi.count > 1:
                ctx.types = ctx.fmris = True
            if wi.prop is not None:
                _process_prop(ctx, repo, wi)
            elif wi.pg is not None:
                _process_pg(ctx, repo, wi)
            else:
                _process_ent(ctx, repo, wi)
    return ctx.return_code
