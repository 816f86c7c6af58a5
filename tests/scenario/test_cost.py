# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The cost a plan announces (`# Cost: resyncs copy N blocks`) against
what the emulator's resyncs really copied while svmram carried it out
(state["copied_blocks"], counted in lib/svmsim/resync.py)."""

import json
import re

import pytest

import releases

pytestmark = pytest.mark.emulator_only(
    "counts the blocks the emulator's resyncs copy")


def copied(host):
    state = json.loads(host.sim("state").stdout)
    return state["copied_blocks"].get("d10", 0)


def announced(script):
    lines = [line for line in script.splitlines()
             if line.startswith("# Cost: ")]
    assert len(lines) == 1, script
    match = re.match(r"# Cost: resyncs copy ([0-9]+) blocks \(", lines[0])
    return lines[0], int(match.group(1)) if match else 0


@pytest.mark.parametrize("name, line", [
    ("article", "# Cost: resyncs copy 1397655 blocks (682.4 MiB) in all."),
    ("swap", "# Cost: resyncs copy 453600 blocks (221.5 MiB) in all."),
])
def test_the_plan_copies_what_it_says(host_factory, name, line):
    host = host_factory(name)
    plan, blocks = announced(host.svmram("setup", "-n", "d10").stdout)
    assert plan == line
    assert copied(host) == 0
    assert host.svmram("setup", "-y", "d10").returncode == 0
    # -n assumes slots compact; where they do not (solaris10), setup fills
    # the hole after its test: one disk resync fewer than announced.
    assert copied(host) == releases.on(
        host, blocks, solaris10=blocks - (465885 if name == "article" else 0))

    # Where setup filled a hole, teardown puts d11 first again: one resync.
    before = copied(host)
    plan, blocks = announced(host.svmram("teardown", "-n", "d10").stdout)
    assert plan == releases.on(
        host, "# Cost: no resync copies any data.",
        solaris10="# Cost: resyncs copy 465885 blocks (227.5 MiB) in all."
        if name == "article" else "# Cost: no resync copies any data.")
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert copied(host) == before + blocks
