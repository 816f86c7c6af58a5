#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r"""
module: svmram
short_description: Serve a mirror's reads from RAM with svmram(8), or stop
description:
  - Sets a Solaris Volume Manager mirror (C(d10)) or a Linux md RAID-1 array
    (C(/dev/md0)) up so that its reads come from a RAM copy, or tears that
    setup down, by running C(svmram setup -y) or C(svmram teardown -y) on the
    target host.
  - It reads C(svmram status --json) first. A target that is set up already
    is C(changed=false), also while its boot service still copies it into RAM
    after a boot. A setup or teardown that was interrupted (its journal
    C(/var/svmram/TARGET.journal) is left) is finished by the next run.
  - A target set up already whose boot service does not run it (SVM's SMF
    instance not C(online), md's unit not C(active)) is not set up as asked,
    so the module does what C(svmram setup) does. On SVM the task fails with
    setup's refusal (the boot service's state, and C(svmram status) to see
    what to do); on md setup starts the unit, and the task is
    C(changed=true).
  - A refusal fails the task with svmram's own message and advice, verbatim.
  - In check mode it runs C(svmram check --json) (a target that setup would
    refuse fails the task, so C(--check) predicts the refusal) and returns the
    plan of C(svmram setup -n) or C(svmram teardown -n); nothing changes.
version_added: 0.1.0
author:
  - The svmram authors (!UNKNOWN)
extends_documentation_fragment:
  - ansible.builtin.action_common_attributes
  - svmram.svmram.svmram
attributes:
  check_mode:
    support: full
    details:
      - Runs C(svmram check --json) and C(svmram setup -n) or C(teardown -n),
        which change nothing, and returns their plan as RV(plan).
  diff_mode:
    support: full
    details:
      - Before and after of what svmram sets, from C(svmram status --json).
        In check mode the after state is the one asked for (only
        C(configured)), and the plan is the diff's C(prepared) text.
options:
  target:
    description:
      - The mirror or array, as svmram takes it, for example C(d10) or
        C(/dev/md0).
    type: str
    required: true
  state:
    description:
      - V(present) sets the target up, V(absent) tears it down.
    type: str
    choices: [present, absent]
    default: present
  method:
    description:
      - SVM only. How setup puts the RAM submirror into slot 0
        (C(svmram setup --method)).
      - On a target set up already with another method the task fails
        (C(already set up differently)); tear it down first.
    type: str
    choices: [auto, swap, rotate]
  allow_label:
    description:
      - SVM only. For a mirror none of whose submirrors is labeled, accept
        that setup copies it into RAM while it is closed and recreates it
        labeled (C(svmram setup --allow-label)).
    type: bool
    default: false
  disks:
    description:
      - md only. Create the array from these disks (C(svmram setup --disks));
        B(their contents are overwritten).
      - Leave it out to add a RAM member to an existing RAID-1 array. On an
        array set up already with other disks the task fails.
    type: list
    elements: str
  wait:
    description:
      - After a setup, or when the target is set up already, wait up to this
        many seconds until its reads come from RAM (RV(serving_from_ram)),
        for example while the boot service copies it into RAM after a boot.
      - The task fails if they do not by then. V(0) does not wait.
    type: int
    default: 0
notes:
  - svmram runs as root, so use C(become) where you do not
    log in as root.
  - Each setup copies the whole target into RAM; on a fleet, run it in
    small batches (C(serial)). See the collection's C(docs/fleet.md).
seealso:
  - module: svmram.svmram.svmram_info
"""

EXAMPLES = r"""
- name: Serve d10's reads from RAM
  svmram.svmram.svmram:
    target: d10

- name: Serve md0's reads from RAM, and wait until they are
  svmram.svmram.svmram:
    target: /dev/md0
    wait: 1800

- name: Create md1 from two empty disks, with a RAM member
  svmram.svmram.svmram:
    target: /dev/md1
    disks: [/dev/sdb, /dev/sdc]

- name: Stop serving d10's reads from RAM
  svmram.svmram.svmram:
    target: d10
    state: absent
"""

RETURN = r"""
target:
  description: The target as svmram reports it (C(d10), C(md0)).
  returned: always
  type: str
  sample: d10
status:
  description:
    - The target's object of C(svmram status --json) (format 2, svmram's
      C(docs/status-json.md)) after the task; in check mode, before it.
  returned: always
  type: dict
  sample: {"target": "d10", "configured": true, "verdict": "serving",
           "serving_from_ram": true, "reasons": []}
verdict:
  description: C(status.verdict), C(serving), C(not_serving), C(degraded)
    or C(only_copy_in_ram).
  returned: always
  type: str
  sample: serving
serving_from_ram:
  description: Whether the target's reads come from RAM.
  returned: always
  type: bool
  sample: true
plan:
  description: The plan of C(svmram setup -n) or C(teardown -n), the script
    svmram would run.
  returned: in check mode, when something would change
  type: str
  sample: "#!/bin/ksh93\n# svmram setup d10: the plan ..."
check:
  description: The target's verdict of C(svmram check --json) (its C(mirrors)
    entry).
  returned: in check mode, when a setup of a target not set up would run
  type: dict
  sample: {"mirror": "d10", "verdict": "ready", "method": "rotate"}
stdout:
  description: What the svmram command that changed the target printed.
  returned: when svmram setup or teardown ran
  type: str
  sample: "d10: reads are served from the RAM submirror d13 (ramdisk svmram_d10).\n"
stderr:
  description: Its progress lines and messages.
  returned: when svmram setup or teardown ran, and on failure
  type: str
  sample: "setup d10: step 1 of 10: Create the ramdisk svmram_d10 of 228m.\n"
rc:
  description: Its exit status (svmram(8) EXIT STATUS).
  returned: when svmram setup or teardown ran, and on failure
  type: int
  sample: 0
"""

import time

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.svmram.svmram.plugins.module_utils.svmram import (
    SvmramFailed, boot_service_running, check, nothing_to_do, run_or_fail,
    summary, svmram_argv0, target_status, unfinished)


def options_of(params):
    """setup's options, as svmram takes them."""
    args = []
    if params["method"]:
        args += ["--method", params["method"]]
    if params["allow_label"]:
        args.append("--allow-label")
    for disk in params["disks"] or ():
        args += ["--disks", disk]
    return args


def predict(module, argv0, name, present):
    """Check mode: fail where setup would be refused; the plan."""
    result = {}
    if present and not unfinished(name):
        rc, found = check(module, argv0, module.params["target"])
        mine = [verdict for verdict in found.get("mirrors") or ()
                if verdict.get("mirror") == name]
        if mine:
            result["check"] = mine[0]
            if mine[0].get("verdict") == "refused":
                words = "svmram: %s" % mine[0].get("detail")
                if mine[0].get("advice"):
                    words += "\nsvmram: %s" % mine[0]["advice"]
                raise SvmramFailed(words, rc)
    command = ["setup" if present else "teardown", "-n"]
    command += options_of(module.params) if present else []
    result["plan"] = run_or_fail(module, argv0, command +
                                 [module.params["target"]])[1]
    return result


def wait_until_serving(module, argv0, found):
    deadline = time.time() + module.params["wait"]
    while not found.get("serving_from_ram") and time.time() < deadline:
        time.sleep(min(5, max(0, deadline - time.time())))
        found = target_status(module, argv0, module.params["target"])
    return found


def main():
    module = AnsibleModule(
        argument_spec=dict(
            target=dict(type="str", required=True),
            state=dict(type="str", default="present",
                       choices=["present", "absent"]),
            method=dict(type="str", choices=["auto", "swap", "rotate"]),
            allow_label=dict(type="bool", default=False),
            disks=dict(type="list", elements="str"),
            wait=dict(type="int", default=0),
            svmram_path=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    params = module.params
    present = params["state"] == "present"
    argv0 = svmram_argv0(module)
    result = dict(changed=False)
    try:
        before = target_status(module, argv0, params["target"])
        name = before["target"]
        result.update(target=name)
        todo = unfinished(name) or bool(before.get("configured")) != present
        after = before
        plan = None
        if present and not todo and (options_of(params) or
                                     not boot_service_running(before)):
            # Set up already, but with options, or its boot service does
            # not run it: svmram setup decides, as on the command line. It
            # refuses options the record does not hold ("already set up
            # differently") and, on SVM, a boot service that failed (its
            # words fail the task); md's setup starts a unit that is not
            # running (a change).
            plan = run_or_fail(module, argv0, ["setup", "-n"] +
                               options_of(params) + [params["target"]])[1]
            todo = not nothing_to_do(plan)
        if todo and module.check_mode:
            result.update(dict(plan=plan) if plan else
                          predict(module, argv0, name, present))
        elif todo:
            command = ["setup" if present else "teardown", "-y"]
            command += options_of(params) if present else []
            rc, out, err = run_or_fail(module, argv0,
                                       command + [params["target"]])
            result.update(rc=rc, stdout=out, stderr=err)
            after = target_status(module, argv0, params["target"])
        if present and params["wait"] and not module.check_mode:
            after = wait_until_serving(module, argv0, after)
    except SvmramFailed as failure:
        result.update(failure.result())
        module.fail_json(**result)
    result.update(changed=todo, status=after, verdict=after.get("verdict"),
                  serving_from_ram=bool(after.get("serving_from_ram")))
    if module._diff:
        shown_after = summary(after) if not module.check_mode or not todo \
            else dict(summary(before), configured=present)
        result["diff"] = dict(before=summary(before), after=shown_after)
        if result.get("plan"):
            result["diff"]["prepared"] = result["plan"]
    if present and params["wait"] and not module.check_mode and \
            not after.get("serving_from_ram"):
        result["msg"] = "%s does not serve its reads from RAM after %d " \
                        "seconds: %s" % (name, params["wait"], "; ".join(
                            after.get("reasons") or ()))
        module.fail_json(**result)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
