# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram setup: add a RAM copy to a target and serve its reads from it.

Backend-neutral: the backend (backend.py) observes the host, chooses the
intent and plans; this module holds the lock, resumes from the journal,
prints (-n) or confirms and carries the plan out, with rollback.  A
target set up already the way it is asked for is "nothing to do" (exit
0), so that automation can run setup again and again; set up otherwise,
it is a refusal."""

import sys

from ..errors import EXIT_OK, AlreadySetUp, RefusedError
from . import common

def add_arguments(parser, argv=()):
    backend = common.arguments_backend(argv)
    common.add_target_argument(parser, backend)
    backend.add_setup_arguments(parser)
    common.add_change_arguments(parser, backend)


def run(args):
    context = common.context_for(args.target)
    backend, target = context.backend, context.name
    options = backend.setup_options(args)
    if not args.dry_run:
        common.require_root(backend)
        hint = backend.setup_hint()
        if hint:
            sys.stderr.write("svmram: %s\n" % hint)
    with common.host_lock(dry_run=args.dry_run, args=args):
        host = context.host = backend.host(target)
        if not args.dry_run:
            common.tidy(context)
        journal = context.journal = common.journal_for(backend,
                                                       context.target)
        stored = journal.load()
        resumed = None
        if stored is not None:
            if stored["operation"] != "setup":
                raise RefusedError(
                    "a teardown of %s has not finished" % target,
                    advice="Run 'svmram teardown %s' to finish it." % target)
            resumed = (backend.intent_from_json(stored["intent"],
                                                journal.path), journal.path)
        # Without -y nothing changes before the admin confirms: a plan
        # that needs a test first (-n's assumption) is shown, then made
        # for real and shown again if it differs.
        try:
            plan = backend.plan_setup(host, options, resumed,
                                      args.dry_run or not args.yes)
        except AlreadySetUp as refusal:
            return nothing_to_do(context, options, refusal, args.dry_run)
        intent = plan.intent
        if args.dry_run:
            return common.print_plan(context, plan)
        common.confirm(args, plan)
        if plan.provisional:
            plan = common.confirm_again(args, plan, backend.plan_setup(
                host, options, resumed, False))
            intent = plan.intent
        if stored is None:
            journal.start("setup", intent.to_json())
        common.carry_out(context, plan,
                         lambda observed: backend.plan_rollback(observed,
                                                                intent))
    common.run_afterwards(context, plan)
    common.say_done(backend.setup_done(intent))
    return EXIT_OK


def nothing_to_do(context, options, refusal, dry_run):
    """Setup of a target set up already: "nothing to do" when the options
    asked match its record, else the refusal, saying what differs."""
    backend, target = context.backend, context.name
    intent = backend.recorded_intent(context.host)
    differences = backend.setup_differences(intent, options) \
        if intent is not None else None
    if differences is None:
        raise refusal
    if differences:
        raise RefusedError(
            "%s is already set up differently (%s)" % (
                target, "; ".join(differences)),
            advice="Run setup without those options to keep it as it is, "
                   "or 'svmram teardown %s' first to set it up anew." %
                   context.target.typed)
    sys.stdout.write("%s%s is already set up; nothing to do.\n" % (
        "# " if dry_run else "", target))
    return EXIT_OK
