# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svcadm(8), after usr/src/cmd/svc/svcadm/svcadm.c."""

from . import _common as C
from . import repo as R
from .store import locked
from . import restarter

EXIT_SVC_FAILURE = 3
EXIT_DEP_FAILURE = 4

WALK_FLAGS = R.SCF_WALK_UNIPARTIAL | R.SCF_WALK_MULTIPLE

USAGE = (
    "Usage: %1$s [-S <state>] [-v] [-Z | -z zone] [cmd [args ... ]]\n\n"
    "\t%1$s enable [-rst] [<service> ...]\t- enable and online service(s)\n"
    "\t%1$s disable [-st] [<service> ...]\t- disable and offline service(s)\n"
    "\t%1$s restart [-d] [<service> ...]\t- restart specified service(s)\n"
    "\t%1$s refresh [<service> ...]\t\t- re-read service configuration\n"
    "\t%1$s mark [-It] <state> [<service> ...] - set maintenance state\n"
    "\t%1$s clear [<service> ...]\t\t- clear maintenance state\n"
    "\t%1$s milestone [-d] <milestone>\t- advance to a service milestone\n"
    "\n\t"
    "Services can be specified using an FMRI, abbreviation, or fnmatch(5)\n"
    "\tpattern, as shown in these examples for svc:/network/smtp:sendmail\n"
    "\n"
    "\t%1$s <cmd> svc:/network/smtp:sendmail\n"
    "\t%1$s <cmd> network/smtp:sendmail\n"
    "\t%1$s <cmd> network/*mail\n"
    "\t%1$s <cmd> network/smtp\n"
    "\t%1$s <cmd> smtp:sendmail\n"
    "\t%1$s <cmd> smtp\n"
    "\t%1$s <cmd> sendmail\n")

MILESTONES = ("svc:/milestone/single-user:default",
              "svc:/milestone/multi-user:default",
              "svc:/milestone/multi-user-server:default")

EMSG_NO_SERVICE = 'No such service "%s".\n'


class _Ctx:
    def __init__(self, out, simdir):
        self.out = out
        self.simdir = simdir
        self.exit_status = 0
        self.verbose = False
        self.svcstate = None
        self.pending = []

    def usage(self):
        self.out.err(USAGE.replace("%1$s", self.out.prog))
        raise C.Exit(C.UU_EXIT_USAGE)

    def warn(self, msg):
        self.out.warn(msg)


def _usage_milestone(ctx):
    text = ("Usage: svcadm milestone [-d] <milestone>\n\n"
            "\t-d\tmake the specified milestone the default for system boot"
            "\n\n\tMilestones can be specified using an FMRI or abbreviation."
            "\n\tThe major milestones are as follows:\n\n\tall\n\tnone\n")
    for ms in MILESTONES:
        text += "\t%s\n" % ms
    ctx.out.err(text)
    raise C.Exit(C.UU_EXIT_USAGE)


def _subopts(ctx, args, optstring):
    try:
        return C.getopt(ctx.out, args, optstring)
    except C.GetoptError:
        ctx.usage()


def _walk(ctx, repo, fmris, quiet=False):
    errfunc = (lambda m: None) if quiet else ctx.warn
    infos, err = R.walk(repo, fmris, WALK_FLAGS, errfunc)
    out = []
    for wi in infos:
        if wi.inst is None:
            continue
        if ctx.svcstate is not None:
            if repo.get_instance(wi.svc, wi.inst)["state"] != ctx.svcstate:
                continue
        out.append(wi)
    return out, err


def _get_inst_mult(ctx, repo, fmri):
    """get_inst_mult(): (svc, inst) or an errno name."""
    if fmri.startswith("lrc:"):
        ctx.warn('FMRI "%s" is a legacy service.\n' % fmri)
        ctx.exit_status = 1
        return "ENOTSUP"
    f = R.parse_svc_fmri(fmri)
    if f is None:
        ctx.warn('FMRI "%s" is invalid.\n' % fmri)
        ctx.exit_status = 1
        return "EINVAL"
    if f.service is None or f.pg is not None:
        ctx.warn('FMRI "%s" does not designate a service or instance.\n'
                 % fmri)
        ctx.exit_status = 1
        return "ENOTDIR"
    if f.instance is not None:
        if f.scope == "localhost" and \
                repo.get_instance(f.service, f.instance) is not None:
            return (f.service, f.instance)
        ctx.warn('No such instance "%s".\n' % fmri)
        ctx.exit_status = 1
        return "ENOENT"
    s = repo.get_service(f.service) if f.scope == "localhost" else None
    if s is None:
        ctx.warn(EMSG_NO_SERVICE % fmri)
        ctx.exit_status = 1
        return "ENOENT"
    insts = list(s["instances"])
    if not insts:
        ctx.warn('Service "%s" has no instances.\n' % fmri)
        ctx.exit_status = 1
        return "ENOENT"
    if len(insts) > 1:
        return "E2BIG"
    return (f.service, insts[0])


def _set_inst_enabled(ctx, repo, fmri, svc, inst, temp, enable):
    repo.set_enabled(svc, inst, enable, temp)
    if ctx.verbose:
        if temp:
            ctx.out.out(("%s temporarily enabled.\n" if enable else
                         "%s temporarily disabled.\n") % fmri)
        else:
            ctx.out.out(("%s enabled.\n" if enable else
                         "%s disabled.\n") % fmri)
    if restarter.enabled_changed(repo, svc, inst):
        ctx.pending.append((svc, inst))


def _astring1(pg, name):
    """get_astring_prop(): the single astring value, or an errno name."""
    p = pg["props"].get(name)
    if p is None:
        return "ENOENT"
    if len(p["values"]) != 1:
        return "E2BIG"
    if p["type"] not in R.STRING_TYPES:
        return "EINVAL"
    return p["values"][0]


def _enable_rec(ctx, repo, fmri, temp, visited):
    f = R.parse_svc_fmri(fmri)
    if f is None:
        return "EINVAL"
    fmri = R.canonify(f)
    if fmri in visited:
        return "ELOOP" if visited[fmri] else 0
    visited[fmri] = True
    r = _get_inst_mult(ctx, repo, fmri)
    if r == "E2BIG":
        visited[fmri] = False
        return "E2BIG"
    if not isinstance(r, tuple):
        visited[fmri] = False
        return 0
    svc, inst = r
    _set_inst_enabled(ctx, repo, fmri, svc, inst, temp, True)
    view = repo.composed_default(svc, inst)
    gen = view.get("general")
    if gen is None:
        ctx.warn('"%s" is misconfigured (lacks "general" property group).\n'
                 % fmri)
        visited[fmri] = False
        return 0
    rst = _astring1(gen, "restarter")
    if rst == "E2BIG":
        ctx.warn('"%s" is misconfigured ("general/restarter" property is '
                 'not single-valued).\n' % fmri)
        visited[fmri] = False
        return 0
    if rst == "EINVAL":
        ctx.warn('"%s" is misconfigured ("general/restarter" property is '
                 'not of astring type).\n' % fmri)
        visited[fmri] = False
        return 0
    if rst != "ENOENT":
        r = _enable_rec(ctx, repo, rst, temp, visited)
        if r == "EINVAL":
            ctx.warn('Restarter FMRI for "%s" is invalid.\n' % fmri)
        elif r == "E2BIG":
            ctx.warn('Restarter FMRI for "%s" identifies a service with '
                     'multiple instances.\n' % fmri)
        elif r == "ELOOP":
            visited[fmri] = False
            return "ELOOP"
    for pgname, pg in view.items():
        if pg["type"] != "dependency":
            continue
        msgs = {
            "ENOENT": '"%s" is misconfigured ("%s" dependency lacks "%s" '
                      'property.)\n',
            "E2BIG": '"%s" is misconfigured ("%s/%s" property is not '
                     'single-valued.)\n',
            "EINVAL": '"%s" is misconfigured ("%s/%s" property is not of '
                      'astring type.)\n'}
        ty = _astring1(pg, "type")
        if ty in msgs:
            ctx.warn(msgs[ty] % (fmri, pgname, "type"))
            continue
        if ty != "service":
            continue
        grouping = _astring1(pg, "grouping")
        if grouping in msgs:
            ctx.warn(msgs[grouping] % (fmri, pgname, "grouping"))
            continue
        if grouping in ("exclude_all", "optional_all"):
            continue
        if grouping not in ("require_all", "require_any"):
            ctx.warn('Dependency "%s" of "%s" has unknown type "%s".\n'
                     % (pgname, fmri, grouping))
            continue
        ents = pg["props"].get("entities")
        if ents is None:
            ctx.warn('"%s" is misconfigured ("%s" dependency lacks '
                     '"entities" property.)\n' % (fmri, pgname))
            continue
        if ents["type"] != "fmri":
            ctx.warn('"%s" is misconfigured (property "%s/entities" is not '
                     'of fmri type).\n' % (fmri, pgname))
            continue
        if grouping == "require_any":
            count = 0
            multiple = False
            for v in ents["values"]:
                r = _get_inst_mult(ctx, repo, v)
                if isinstance(r, tuple):
                    count += 1
                    if count > 1:
                        multiple = True
                        break
                elif r == "E2BIG":
                    multiple = True
                    break
            if multiple:
                ctx.out.out("%s requires one of:\n" % fmri)
                for v in ents["values"]:
                    ctx.out.out("  %s\n" % v)
                continue
        for v in ents["values"]:
            r = _enable_rec(ctx, repo, v, temp, visited)
            if r == "EINVAL":
                ctx.warn('"%s" dependency of "%s" has invalid FMRI "%s".\n'
                         % (pgname, fmri, v))
            elif r == "E2BIG":
                ctx.warn("%s depends on %s, which has multiple instances.\n"
                         % (fmri, v))
            elif r == "ELOOP":
                visited[fmri] = False
                return "ELOOP"
    visited[fmri] = False
    return 0


def _cmd_enable(ctx, args, enable):
    opts, fmris = _subopts(ctx, args, "rst" if enable else "st")
    recursive = temp = wait = False
    for o, _ in opts:
        if o == "r":
            recursive = True
        elif o == "t":
            temp = True
        elif o == "s":
            wait = True
    if not fmris and ctx.svcstate is None:
        ctx.usage()
    if fmris and ctx.svcstate is not None:
        ctx.usage()
    error = 0
    with locked(ctx.simdir) as repo:
        infos, error = _walk(ctx, repo, fmris)
        if not enable:
            ctx.exit_status = error or ctx.exit_status
        for wi in infos:
            if recursive:
                r = _enable_rec(ctx, repo, wi.fmri, temp, {})
                if r == "E2BIG":
                    ctx.warn("operation on service %s is ambiguous; "
                             "instance specification needed.\n" % wi.fmri)
                elif r == "ELOOP":
                    ctx.warn("%s: Dependency cycle detected.\n" % wi.fmri)
            else:
                _set_inst_enabled(ctx, repo, wi.fmri, wi.svc, wi.inst, temp,
                                  enable)
    if ctx.pending:
        restarter.run_pending(ctx.simdir, ctx.pending)
        ctx.pending = []
    if wait and ctx.exit_status == 0:
        with locked(ctx.simdir) as repo:
            infos, _ = _walk(ctx, repo, fmris, quiet=True)
            for wi in infos:
                i = repo.get_instance(wi.svc, wi.inst)
                st = i["state"]
                on = repo.is_enabled(wi.svc, wi.inst)
                if enable:
                    if st in ("online", "degraded"):
                        continue
                    if st == "maintenance":
                        ctx.warn('Instance "%s" is in maintenance state.\n'
                                 % wi.fmri)
                        ctx.exit_status = EXIT_SVC_FAILURE
                    elif not on:
                        ctx.warn('Instance "%s" has been disabled by another'
                                 ' entity.\n' % wi.fmri)
                        ctx.exit_status = EXIT_SVC_FAILURE
                    else:
                        # GUESS: the stand-in never waits; an instance that
                        # is not up counts as having unsatisfied dependencies.
                        ctx.warn('Instance "%s" has unsatisfied dependencies.'
                                 '\n' % wi.fmri)
                        if ctx.exit_status == 0:
                            ctx.exit_status = EXIT_DEP_FAILURE
                else:
                    if st == "disabled":
                        continue
                    if on:
                        ctx.warn('Instance "%s" has been enabled by another '
                                 'entity.\n' % wi.fmri)
                        ctx.exit_status = EXIT_SVC_FAILURE
                    else:
                        ctx.warn('Restarter for instance "%s" is '
                                 'unavailable.\n' % wi.fmri)
                        if ctx.exit_status == 0:
                            ctx.exit_status = EXIT_DEP_FAILURE
    if error > 0:
        ctx.exit_status = error


def _action(ctx, fmris, fn, action_name=None):
    if not fmris and ctx.svcstate is None:
        ctx.usage()
    if fmris and ctx.svcstate is not None:
        ctx.usage()
    with locked(ctx.simdir) as repo:
        infos, err = _walk(ctx, repo, fmris)
        if err:
            ctx.exit_status = err
        for wi in infos:
            name = fn(repo, wi)
            if ctx.verbose and (name or action_name):
                ctx.out.out("Action %s set for %s.\n"
                            % (name or action_name, wi.fmri))
    if ctx.pending:
        restarter.run_pending(ctx.simdir, ctx.pending)
        ctx.pending = []


def _cmd_restart(ctx, args):
    opts, fmris = _subopts(ctx, args, "d")
    dump = any(o == "d" for o, _ in opts)

    def fn(repo, wi):
        if restarter.restart(repo, wi.svc, wi.inst):
            ctx.pending.append((wi.svc, wi.inst))
        return "restart"
    if dump:
        _action(ctx, fmris, lambda repo, wi: "dodump")
    _action(ctx, fmris, fn)


def _cmd_refresh(ctx, args):
    def fn(repo, wi):
        # svc.startd: update the running snapshot from the editing view;
        # an online instance would then run its refresh method (none here).
        repo.take_running(wi.svc, wi.inst)
        return "refresh"
    _action(ctx, args, fn)


def _cmd_mark(ctx, args):
    opts, rest = _subopts(ctx, args, "It")
    immediate = any(o == "I" for o, _ in opts)
    temporary = any(o == "t" for o, _ in opts)
    if len(rest) < 2:
        ctx.usage()
    what, fmris = rest[0], rest[1:]
    if what == "degraded":
        if temporary:
            ctx.out.die("-t may not be used with degraded.\n",
                        C.UU_EXIT_USAGE)

        def fn(repo, wi):
            i = repo.get_instance(wi.svc, wi.inst)
            if i["state"] != "online":
                ctx.warn('Instance "%s" is not online.\n' % wi.fmri)
                ctx.exit_status = 1
                return None
            repo.set_state(wi.svc, wi.inst, "degraded",
                           "administrative_request")
            return "degrade_immediate" if immediate else "degraded"
    elif what == "maintenance":
        # GUESS: -I and -t make no difference to the resulting state.
        def fn(repo, wi):
            repo.set_state(wi.svc, wi.inst, "maintenance",
                           "administrative_request")
            if immediate:
                return "maint_on_immtemp" if temporary else \
                    "maint_on_immediate"
            return "maint_on_temporary" if temporary else "maint_on"
    else:
        ctx.usage()
    _action(ctx, fmris, fn)


def _cmd_clear(ctx, args):
    if not args and ctx.svcstate is None:
        ctx.usage()
    if ctx.svcstate is not None:
        if args:
            ctx.usage()
        if ctx.svcstate not in ("maintenance", "degraded"):
            ctx.out.die("State must be 'maintenance' or 'degraded'\n")

    def fn(repo, wi):
        i = repo.get_instance(wi.svc, wi.inst)
        if i["state"] == "maintenance":
            name = "maint_off"
        elif i["state"] == "degraded":
            name = "restore"
        else:
            ctx.warn('Instance "%s" is not in a maintenance or degraded '
                     'state.\n' % wi.fmri)
            ctx.exit_status = 1
            return None
        if restarter.clear(repo, wi.svc, wi.inst):
            ctx.pending.append((wi.svc, wi.inst))
        return name
    _action(ctx, args, fn)


def _cmd_milestone(ctx, args):
    opts, rest = _subopts(ctx, args, "d")
    if not rest:
        _usage_milestone(ctx)
    ms = rest[0]
    if ms in ("all", "none"):
        return
    for m in MILESTONES:
        k = m.find(ms)
        if k != -1:
            end = k + len(ms)
            if (k == 0 or m[k - 1] == "/") and \
                    (end == len(m) or m[end] == ":"):
                # GUESS: the stand-in has no milestone machinery; a valid
                # milestone request is accepted and changes nothing.
                return
    ctx.out.err('"%s" is not a valid major milestone.\n' % ms)
    _usage_milestone(ctx)


def main(out, argv, simdir):
    ctx = _Ctx(out, simdir)
    if len(argv) < 1:
        ctx.usage()
    try:
        opts, rest = C.getopt(out, argv, "S:vZz:")
    except C.GetoptError:
        ctx.usage()
    for o, a in opts:
        if o == "S":
            ctx.svcstate = a[:79]
        elif o == "v":
            ctx.verbose = True
        elif o == "z":
            if a != "global":
                # GUESS: only the global zone exists in the emulator.
                out.die("invalid zone '%s'\n" % a)
        elif o == "Z":
            pass
    if not rest:
        ctx.usage()
    cmd, args = rest[0], rest[1:]
    if cmd == "enable":
        _cmd_enable(ctx, args, True)
    elif cmd == "disable":
        _cmd_enable(ctx, args, False)
    elif cmd == "restart":
        _cmd_restart(ctx, args)
    elif cmd == "refresh":
        _cmd_refresh(ctx, args)
    elif cmd == "mark":
        _cmd_mark(ctx, args)
    elif cmd == "clear":
        _cmd_clear(ctx, args)
    elif cmd == "milestone":
        _cmd_milestone(ctx, args)
    else:
        ctx.usage()
    return ctx.exit_status
