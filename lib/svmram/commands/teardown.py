# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram teardown: remove the RAM copy and restore the target.

Backend-neutral: the intent comes from the journal of an unfinished
operation or from the backend's record; the backend plans."""


from ..errors import EXIT_OK, RefusedError
from . import common

def add_arguments(parser, argv=()):
    backend = common.arguments_backend(argv)
    common.add_target_argument(parser, backend)
    backend.add_teardown_arguments(parser)
    common.add_change_arguments(parser, backend)


def run(args):
    context = common.context_for(args.target)
    backend, target = context.backend, context.name
    options = backend.teardown_options(args)
    if not args.dry_run:
        common.require_root(backend)
    with common.host_lock(dry_run=args.dry_run, args=args):
        host = context.host = backend.host(target)
        if not args.dry_run:
            common.tidy(context)
        journal = context.journal = common.journal_for(backend,
                                                       context.target)
        stored = journal.load()
        if stored is not None:
            where = journal.path
            intent = backend.intent_from_json(stored["intent"], where)
        else:
            where = backend.record_name(target)
            intent = backend.recorded_intent(host)
            if intent is None:
                refusal = backend.unrecorded(host)
                if refusal is not None:
                    raise refusal
                raise RefusedError(
                    "%s is not set up by svmram (%s does not exist)" % (
                        target, where),
                    advice="svmram status lists the %ss it manages."
                    % backend.words.target)
        plan = backend.plan_teardown(host, intent, where, stored is not None,
                                     options, args.dry_run or not args.yes)
        if stored is not None:
            plan.notes.insert(0, "Resuming the %s recorded in %s." % (
                stored["operation"], journal.path))
        if args.dry_run:
            return common.print_plan(context, plan)
        common.confirm(args, plan)
        if plan.provisional:
            plan = common.confirm_again(args, plan, backend.plan_teardown(
                host, intent, where, stored is not None, options, False))
        # plan.intent: the backend's, which may keep what the target
        # has now (SVM: the copy method's mirror's options).
        journal.start("teardown", plan.intent.to_json())
        common.carry_out(context, plan, None)
    common.say_done(plan.done or backend.teardown_done(intent),
                    *("%s: %s" % (target, sentence) for sentence in plan.left))
    return EXIT_OK
