#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r"""
module: svmram_info
short_description: What svmram(8) reports of each mirror or array
description:
  - Runs C(svmram status --json) and C(svmram check --json) on the target
    host and returns both, changing nothing.
  - A host whose state svmram cannot read fails the task with svmram's own
    message and advice; it is never reported as healthy or as having nothing
    set up.
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
      - It only reads, and runs the same in check mode.
  diff_mode:
    support: N/A
    details:
      - It changes nothing.
options:
  target:
    description:
      - Only this mirror or array (C(d10), C(/dev/md0)); by default every
        target svmram set up (status) and every one it could set up (check).
    type: str
seealso:
  - module: svmram.svmram.svmram
"""

EXAMPLES = r"""
- name: Read svmram's status and check
  svmram.svmram.svmram_info:
  register: svmram

- name: Every target that does not serve its reads from RAM
  ansible.builtin.debug:
    msg: "{{ svmram.targets | rejectattr('serving_from_ram') | map(attribute='target') }}"
"""

RETURN = r"""
targets:
  description:
    - C(targets) of C(svmram status --json) (format 2, svmram's
      C(docs/status-json.md)), worst verdict first.
  returned: always
  type: list
  elements: dict
  sample: [{"target": "d10", "configured": true, "verdict": "serving",
            "serving_from_ram": true, "reasons": []}]
status_rc:
  description: The exit status of C(svmram status), the worst verdict's
    (0 serving, 4 not serving, 5 degraded, 6 only copy in RAM).
  returned: always
  type: int
  sample: 0
checks:
  description: C(checks) of C(svmram check --json), what the host offers.
  returned: always
  type: list
  elements: dict
  sample: [{"check": "replicas", "verdict": "ok",
            "detail": "the state database is readable"}]
verdicts:
  description: C(mirrors) of C(svmram check --json), each target's verdict
    (C(ready), C(set up), C(refused)) with its detail and advice.
  returned: always
  type: list
  elements: dict
  sample: [{"mirror": "d10", "verdict": "set up",
            "detail": "svmram status d10 reports it"}]
check_rc:
  description: The exit status of C(svmram check), 0 or 3 (a check failed
    or a target would be refused).
  returned: always
  type: int
  sample: 0
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.svmram.svmram.plugins.module_utils.svmram import (
    SvmramFailed, check, status, svmram_argv0)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            target=dict(type="str"),
            svmram_path=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    argv0 = svmram_argv0(module)
    target = module.params["target"]
    try:
        status_rc, found = status(module, argv0, target)
        check_rc, checked = check(module, argv0, target)
    except SvmramFailed as failure:
        module.fail_json(**failure.result())
    module.exit_json(changed=False, targets=found["targets"],
                     status_rc=status_rc,
                     checks=checked.get("checks") or [],
                     verdicts=checked.get("mirrors") or [],
                     check_rc=check_rc)


if __name__ == "__main__":
    main()
