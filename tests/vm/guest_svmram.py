# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Runs svmram's md backend inside the VM guest (python3 from the
initramfs, svmram's lib/ under /opt/svmram/lib) until the CLI is wired:

  guest_svmram.py setup ARRAY [DISK...] --intent-out FILE
  guest_svmram.py restore|teardown ARRAY --intent FILE

It observes the real kernel with MdBackend, plans with md.planner, prints
the -n script (lines prefixed "PLAN <op>| "), carries the plan out with
svmram's own executor, and prints "RESULT py.<op> ok" or the error with
exit status 3 (refused) or 1 (failed).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))

from svmram.errors import SvmramError           # noqa: E402
from svmram.execute import Polling, execute     # noqa: E402
from svmram.md import commands, planner, script  # noqa: E402
from svmram.md.backend import MdBackend         # noqa: E402
from svmram.md.intent import Intent             # noqa: E402
from svmram.progress import Progress            # noqa: E402


def main(argv):
    op, array = argv[0], argv[1]
    option, disks, args = {}, [], iter(argv[2:])
    for arg in args:
        if arg.startswith("--"):
            option[arg] = next(args)
        else:
            disks.append(arg)
    disks = tuple(disks)
    backend = MdBackend(array, disks=disks)
    intent, total = None, 0
    try:
        # Plan and carry out until a plan is empty: a restore that starts
        # an inactive array plans again from what the array then shows,
        # and for every operation the last, empty plan shows convergence.
        for round_ in range(1, 5):
            snap = backend.observe()
            if op == "setup" and intent is None:
                intent, notes = planner.choose_setup(snap, array, disks)
            elif op == "setup":
                notes = []
            elif intent is None:
                with open(option["--intent"], encoding="utf-8") as stream:
                    intent = Intent.from_dict(json.load(stream))
            if op == "setup":
                plan = planner.plan_setup(snap, intent)
                plan.notes += notes
            else:
                plan = (planner.plan_restore if op == "restore"
                        else planner.plan_teardown)(snap, intent)
            for line in script.render_script(
                    plan, commands.command_path).splitlines():
                print("PLAN %s %d| %s" % (op, round_, line))
            sys.stdout.flush()
            if not plan.steps:
                break
            execute(plan, backend, None, Progress(sys.stdout),
                    polling=Polling(first=0.5, most=2.0, limit=1200))
            total += len(plan.steps)
        else:
            print("RESULT py.%s error: no empty plan after 4 rounds" % op)
            return 1
    except SvmramError as error:
        print("RESULT py.%s error exit=%d %s%s" % (
            op, error.exit_code, error.message,
            " -- " + error.advice if error.advice else ""))
        return error.exit_code
    if "--intent-out" in option:
        with open(option["--intent-out"], "w", encoding="utf-8") as stream:
            json.dump(intent.to_dict(), stream, sort_keys=True)
        print("RESULT intent %s" % json.dumps(intent.to_dict(),
                                              sort_keys=True,
                                              separators=(",", ":")))
    print("RESULT py.%s ok steps=%d rounds=%d" % (op, total, round_))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
