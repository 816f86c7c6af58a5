# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md backend's own entry point, which the boot unit runs (the svmram
command drives md through md/backend.py; docs/md-backend.md):

  python3 -m svmram.md.main setup ARRAY [DISK...]   set up (new or existing)
  python3 -m svmram.md.main restore ARRAY           the boot unit's ExecStart
  python3 -m svmram.md.main stop ARRAY              the boot unit's ExecStop
  python3 -m svmram.md.main teardown ARRAY          back to the original array
  python3 -m svmram.md.main status ARRAY            the status entry, as JSON

Options: -n (print the plan as a POSIX sh script, change nothing),
--record FILE (default /etc/svmram/md/ARRAY.json), --wait-disks SECONDS
(restore: how long to wait for the recorded disks to appear, default 20).

systemd/svmram@.service runs restore and stop; the tests in tests/vm run
every operation through run().  The record (md/record.py, shared with
the svmram command) is what setup decided (intent.Intent as JSON); setup
writes it before it changes anything, so a setup cut short by a power
cut resumes from it, and teardown removes it last.  There is no journal
or lock here (the svmram command has them): every planner is
convergent, so rerunning the operation continues it.  A teardown (this
one's or the command's) leaves a marker (the record's name +
".teardown") until it is done, and restore and stop refuse while it is
there, so that the boot unit never undoes half a teardown.
"""

import json
import os
import sys
import time

from ..errors import EXIT_FAILED, EXIT_USAGE, RefusedError, SvmramError
from ..execute import Polling, StepFailed, carry_out
from ..progress import Progress
from . import programs, planner, record, restore, script, status
from .host import WAIT_DISKS_SECONDS, MdHost, kernel_name, wait_for_disks

RECORD_DIR = record.RECORD_DIR
OPERATIONS = ("setup", "restore", "stop", "teardown", "status")
PLANNERS = {"setup": planner.plan_setup, "restore": restore.plan_restore,
            "stop": planner.plan_stop, "teardown": planner.plan_teardown}
ROUNDS = 4
# How advice names this entry point.
COMMAND = "PYTHONPATH=/usr/lib/svmram python3 -m svmram.md.main"




def record_path(array, directory=RECORD_DIR):
    return record.record_path(array, directory)


# The record store lives in record.py (the svmram command uses it too).
read_record = record.read_record
write_record = record.write_record
remove_record = record.remove_record
_mark_teardown = record.mark_teardown


def run(op, array, disks=(), record=None, dry_run=False, out=None,
        err=None, make_backend=MdHost,
        wait_disks=WAIT_DISKS_SECONDS, polling=None, sleep=time.sleep,
        clock=time.monotonic):
    """Carry out `op` on `array` (a kernel name such as md0); the exit
    status."""
    out = out or sys.stdout
    err = err or sys.stderr
    record = record or record_path(array)
    try:
        return _run(op, array, tuple(disks), record, dry_run, out,
                    make_backend, wait_disks, polling, sleep, clock)
    except SvmramError as error:
        err.write("svmram %s %s: %s\n" % (op, array, error.message))
        advice = error.advice or (isinstance(error, StepFailed) and (
            "Nothing is rolled back: every step is planned from what the "
            "kernel shows, so %s %s %s again continues from here once the "
            "cause is fixed." % (COMMAND, op, array)))
        if advice:
            err.write("  %s\n" % advice)
        err.flush()
        return error.exit_code


def _run(op, array, disks, record, dry_run, out, make_backend, wait_disks,
         polling, sleep, clock):
    it = read_record(record)
    if it is not None and it.array != array:
        raise RefusedError("the record %s is for %s, not %s" % (
            record, it.array, array), advice="Name the record of this array.")
    if op == "stop" and (it is None or os.path.exists(record + ".teardown")):
        # The unit's stop at shutdown, or when teardown disables it with
        # --now: nothing of svmram's to stop, or teardown's to finish.
        out.write("stop %s: %s; nothing to stop\n" % (array, (
            "not set up by svmram (no record %s)" % record if it is None
            else "a teardown of it is running or was cut short, and "
                 "finishes it")))
        return 0
    if it is None and op != "setup":
        raise RefusedError("%s is not set up by svmram (no record %s)" % (
            array, record), advice="%s setup %s sets it up." % (
                COMMAND, array))
    if it is not None and op in ("restore", "stop") and \
            os.path.exists(record + ".teardown"):
        raise RefusedError("a teardown of %s was cut short" % array,
                           advice="%s teardown %s finishes it; until "
                                  "then the array runs from its disks "
                                  "alone." % (COMMAND, array))
    if it is not None and op == "setup" and disks and \
            set(disks) != set(it.disks):
        raise RefusedError("%s is recorded with the disks %s" % (
            array, " ".join(it.disks)),
            advice="Run setup without disks to resume it, or teardown.")
    backend = make_backend(array, disks=disks or (it.disks if it else ()))
    if op == "status":
        entry = status.describe(backend.observe(), it)
        out.write(json.dumps(entry, indent=2, sort_keys=True) + "\n")
        return status.VERDICTS[entry["verdict"]]
    if op == "restore" and not dry_run:
        snap = wait_for_disks(backend, it, wait_disks, out, sleep, clock)
    else:
        snap = backend.observe()
    if op == "setup" and it is None:
        it, notes = planner.choose_setup(snap, array, disks)
        for note in notes:
            out.write("setup %s: %s\n" % (array, note))
        if not dry_run:
            write_record(record, it)
    elif op == "setup" and not PLANNERS[op](snap, it).steps:
        raise RefusedError("%s is set up already (record %s)" % (
            array, record), advice="%s status %s shows it; teardown "
                                   "undoes it." % (COMMAND, array))
    polling = polling or Polling(first=0.5, most=5.0)
    plan = PLANNERS[op](snap, it)
    if dry_run:
        out.write(script.render_script(plan, programs.command_path))
        return 0

    def noted(plan):
        for note in plan.notes:
            out.write("%s %s: %s\n" % (op, array, note))
        return plan

    if noted(plan).steps and op == "teardown":
        _mark_teardown(record)
    # Whole plans, each planned from what the kernel shows after the last
    # (an inactive array hides its members until it runs).
    total = carry_out(
        plan, lambda: noted(PLANNERS[op](backend.observe(), it)), backend,
        Progress(out), polling, sleep, whole=True, rounds=ROUNDS,
        too_many=lambda: SvmramError(
            "%s of %s did not converge in %d rounds" % (op, array, ROUNDS),
            advice="Run it again; if it says so again, report this as a bug "
                   "with mdadm --detail /dev/%s." % array))
    if op == "teardown":
        remove_record(record)
        remove_record(record + ".teardown")
    out.write("%s %s: done (%d step%s)\n" % (op, array, total,
                                              "" if total == 1 else "s"))
    out.flush()
    return 0


USAGE = """usage: python3 -m svmram.md.main [-n] [--record FILE] [--wait-disks S]
       setup|restore|stop|teardown|status ARRAY [DISK...]
"""


def main(argv):
    options = {"dry_run": False}
    words = []
    args = iter(argv)
    try:
        for arg in args:
            if arg == "-n":
                options["dry_run"] = True
            elif arg == "--record":
                options["record"] = next(args)
            elif arg == "--wait-disks":
                options["wait_disks"] = float(next(args))
            elif arg.startswith("-"):
                raise ValueError(arg)
            else:
                words.append(arg)
        if len(words) < 2 or words[0] not in OPERATIONS or \
                (words[0] != "setup" and len(words) > 2):
            raise ValueError(" ".join(words))
    except (StopIteration, ValueError):
        sys.stderr.write(USAGE)
        return EXIT_USAGE
    op = words[0]
    try:
        names = [kernel_name("/", w) if w.startswith("/") else w
                 for w in words[1:]]
    except SvmramError as error:
        sys.stderr.write("svmram %s: %s\n  %s\n" % (op, error.message,
                                                    error.advice))
        return error.exit_code
    try:
        return run(op, names[0], names[1:], **options)
    except Exception:                   # pylint: disable=broad-except
        if os.environ.get("SVMRAM_DEBUG") == "1":
            raise
        sys.stderr.write("svmram %s: internal error; this is a bug, please "
                         "report it (SVMRAM_DEBUG=1 shows the traceback)\n"
                         % op)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
