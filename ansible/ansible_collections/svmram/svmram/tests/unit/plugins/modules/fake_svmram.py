# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A fake svmram for the unit tests: it prints what the real one printed
on svmram's SVM emulator and on md's fake kernel (fixtures/*.json,
recorded by svmram's tests/ansible/record_fixtures.py: each maps the
arguments to rc, stdout and stderr) in the host state named in
$FAKE_SVMRAM_DIR/state, logs its arguments to $FAKE_SVMRAM_DIR/calls,
and moves the state on as a setup or teardown does.  Arguments it has
no recording for exit 99, so that a test fails on them."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import sys

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "fixtures")
# What a successful setup or teardown leaves (SVM's d10, md's md0).
NEXT = {("not_set_up", "setup -y d10"): "set_up",
        ("set_up", "teardown -y d10"): "not_set_up",
        ("md_not_set_up", "setup -y /dev/md0"): "md_set_up",
        ("md_set_up", "teardown -y /dev/md0"): "md_not_set_up",
        ("md_failed_unit", "setup -y /dev/md0"): "md_set_up"}


def main(args):
    directory = os.environ["FAKE_SVMRAM_DIR"]
    with open(os.path.join(directory, "state")) as stream:
        state = stream.read().strip()
    line = " ".join(args)
    with open(os.path.join(directory, "calls"), "a") as stream:
        stream.write(line + "\n")
    with open(os.path.join(FIXTURES, state + ".json")) as stream:
        table = json.load(stream)
    if line not in table and (state, line) in NEXT:
        moves = "md_transitions" if state.startswith("md_") \
            else "transitions"
        with open(os.path.join(FIXTURES, moves + ".json")) as stream:
            table = json.load(stream)
    if line not in table:
        sys.stderr.write("fake svmram: no recording of '%s' in %s\n"
                         % (line, state))
        return 99
    found = table[line]
    if found["rc"] == 0 and (state, line) in NEXT:
        with open(os.path.join(directory, "state"), "w") as stream:
            stream.write(NEXT[(state, line)])
    sys.stdout.write(found["stdout"])
    sys.stderr.write(found["stderr"])
    return found["rc"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
