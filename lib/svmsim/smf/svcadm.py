# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svcadm(8), after usr/src/cmd/svc/svcadm/svcadm.c: what svmram, its
start method and the tests of its boot service run -- enable and disable
(-s, -t), refresh, restart, clear and mark maintenance -- with the
refusals of those.  Not emulated (a usage error, exit 2): the global
options -S, -v, -z and -Z, enable -r, restart -d, mark degraded and
milestone."""

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


class _Ctx:
    def __init__(self, out, simdir):
        self.out = out
        self.simdir = simdir
        self.exit_status = 0
        self.pending = []

    def usage(self):
        self.out.err(USAGE.replace("%1$s", self.out.prog))
        raise C.Exit(C.UU_EXIT_USAGE)

    def warn(self, msg):
        self.out.warn(msg)


def _subopts(ctx, args, optstring):
    try:
        return C.getopt(ctx.out, args, optstring)
    except C.GetoptError:
        ctx.usage()


def _walk(ctx, repo, fmris, quiet=False):
    errfunc = (lambda m: None) if quiet else ctx.warn
    infos, err = R.walk(repo, fmris, WALK_FLAGS, errfunc)
    return [wi for wi in infos if wi.inst is not None], err


def _set_inst_enabled(ctx, repo, fmri, svc, inst, temp, enable):
    repo.set_enabled(svc, inst, enable, temp)
    if restarter.enabled_changed(repo, svc, inst):
        ctx.pending.append((svc, inst))


def _cmd_enable(ctx, args, enable):
    opts, fmris = _subopts(ctx, args, "st")
    temp = any(o == "t" for o, _ in opts)
    wait = any(o == "s" for o, _ in opts)
    if not fmris:
        ctx.usage()
    error = 0
    with locked(ctx.simdir) as repo:
        infos, error = _walk(ctx, repo, fmris)
        if not enable:
            ctx.exit_status = error or ctx.exit_status
        for wi in infos:
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


def _action(ctx, fmris, fn):
    if not fmris:
        ctx.usage()
    with locked(ctx.simdir) as repo:
        infos, err = _walk(ctx, repo, fmris)
        if err:
            ctx.exit_status = err
        for wi in infos:
            fn(repo, wi)
    if ctx.pending:
        restarter.run_pending(ctx.simdir, ctx.pending)
        ctx.pending = []


def _cmd_restart(ctx, args):
    _, fmris = _subopts(ctx, args, "")

    def fn(repo, wi):
        if restarter.restart(repo, wi.svc, wi.inst):
            ctx.pending.append((wi.svc, wi.inst))
    _action(ctx, fmris, fn)


def _cmd_refresh(ctx, args):
    def fn(repo, wi):
        # svc.startd: update the running snapshot from the editing view;
        # an online instance would then run its refresh method (none here).
        repo.take_running(wi.svc, wi.inst)
    _action(ctx, args, fn)


def _cmd_mark(ctx, args):
    _, rest = _subopts(ctx, args, "It")
    if len(rest) < 2 or rest[0] != "maintenance":
        ctx.usage()

    # GUESS: -I and -t make no difference to the resulting state.
    def fn(repo, wi):
        repo.set_state(wi.svc, wi.inst, "maintenance",
                       "administrative_request")
    _action(ctx, rest[1:], fn)


def _cmd_clear(ctx, args):
    def fn(repo, wi):
        i = repo.get_instance(wi.svc, wi.inst)
        if i["state"] not in ("maintenance", "degraded"):
            ctx.warn('Instance "%s" is not in a maintenance or degraded '
                     'state.\n' % wi.fmri)
            ctx.exit_status = 1
            return
        if restarter.clear(repo, wi.svc, wi.inst):
            ctx.pending.append((wi.svc, wi.inst))
    _action(ctx, args, fn)


def main(out, argv, simdir):
    ctx = _Ctx(out, simdir)
    if len(argv) < 1:
        ctx.usage()
    # svcadm's global options (-S, -v, -z, -Z) are not emulated: svmram
    # passes none, and the usage error says so loudly.
    try:
        _, rest = C.getopt(out, argv, "")
    except C.GetoptError:
        ctx.usage()
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
    else:
        ctx.usage()
    return ctx.exit_status
