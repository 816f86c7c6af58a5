# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fuzzing the md parsers with SVM's harness (tests/parse/fuzzing.py):
whatever the kernel or mdadm prints, a parser returns a value or raises
svmram's ParseError; nothing else escapes.

Seeds are the real outputs in fixtures/ (captured on Debian's 6.1 kernel
by tests/vm, see fixtures/README.md), mutated the way output goes wrong,
plus random text.  Reproducible (derandomize) and bounded.
"""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import (fuzz, mutated, parsed, random_input_tests,
                     single_mutations)
from svmram.md import parse

from faketree import FIXTURES


def _sysfs(function, *args):
    return lambda text: function(text, *args)


PARSERS = {
    "mdstat": parse.mdstat,
    "meminfo": parse.meminfo,
    "level": parse.level,
    "raid_disks": parse.raid_disks,
    "array_state": parse.array_state,
    "sync_action": parse.sync_action,
    "sync_completed": parse.sync_completed,
    "metadata_version": parse.metadata_version,
    "state": parse.member_state,
    "slot": parse.slot,
    "location": parse.bitmap_location,
    "osrelease": parse.kernel_release,
    "sync_speed_min": _sysfs(parse.sync_speed, "md/sync_speed_min"),
    "resync_start": _sysfs(parse.none_or_uint, "md/resync_start"),
    "degraded": _sysfs(parse.uint_attr, "md/degraded"),
}


def _read(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8",
              newline="") as stream:
        return stream.read()


def _seeds():
    seeds = []
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".mdstat.txt"):
            seeds.append(("mdstat", _read(name)))
        elif name.endswith(".sysfs.txt"):
            for line in _read(name).splitlines():
                kind, _, rest = line.partition(" ")
                path, _, value = rest.partition(" ")
                attr = path.rsplit("/", 1)[-1]
                if kind == "F" and attr in PARSERS:
                    seeds.append((attr, value + "\n"))
                elif kind == "E" and attr in PARSERS:
                    seeds.append((attr, ""))
    seeds.append(("meminfo", "MemTotal:        1000000 kB\nMemFree:   "
                              "       900000 kB\nMemAvailable:     900000 kB\n"
                              "HugePages_Total:       0\n"))
    return seeds


SEEDS = _seeds()
KINDS = sorted(PARSERS)
FUZZ = fuzz(200)


def outcome(kind, text):
    """("ok", value), or None for the parser's own error; anything else
    raised is the bug this file looks for."""
    return parsed(PARSERS[kind], text)


def test_every_seed_parses_and_every_parser_has_one():
    assert {kind for kind, _ in SEEDS} == set(KINDS)
    for kind, text in SEEDS:
        assert outcome(kind, text) is not None, (kind, text[:80])


ALPHABET = st.sampled_from(list("md0123456789:[]()/=_ \t\nUWSF.%,+-") + [
    "\xa0", "\x00", "\r", "\u0661"])
WORDS = st.sampled_from([
    "md0", "md127", ":", "active", "inactive", "(auto-read-only)", "raid1",
    "raid5", "vda[1](W)", "ram0[0]", "vdb[2](S)", "blocks", "super", "1.2",
    "[3/3]", "[UUU]", "[3/2]", "[_UU]", "bitmap:", "0/1", "pages", "[0KB],",
    "65536KB", "chunk", "recovery", "=", "49.9%", "(130560/261120)",
    "finish=0.3min", "speed=12345K/sec", "[==>......]", "unused", "devices:",
    "<none>", "Personalities", "[raid1]", "MD_LEVEL=raid1", "MD_DEVICES=3",
    "MD_DEVICE_vda_ROLE=1", "MD_DEVICE_vda_DEV=/dev/vda", "MD_UUID=", "none",
    "in_sync", "write_mostly", "spare", "faulty", "+8", "1000", "(system)",
    "idle", "recover", "clean"])
SEPARATORS = st.sampled_from([" ", "  ", "\t", "\n", "\n      ", ",", "="])


test_random_text, test_random_words = random_input_tests(
    outcome, KINDS, ALPHABET, WORDS, SEPARATORS, FUZZ)


NUMBERS = st.sampled_from(["0", "1", "9", "-1", "007", "1.5", "", "x",
                           "9" * 25, "18446744073709551615"])


@settings(FUZZ, max_examples=1000)
@given(mutated(SEEDS, ALPHABET, NUMBERS, WORDS, most=3))
def test_mutated_real_output(case):
    outcome(*case)


@FUZZ
@given(st.sampled_from(SEEDS), st.sampled_from(KINDS))
def test_one_output_given_to_another_parser(seed, kind):
    outcome(kind, seed[1])


# --- every single mutation of the numbers, words and lines -------------------

BAD_NUMBERS = ("", "x", "1.5", "-1", "9" * 25)
WHOLE = sorted({(kind, text) for kind, text in SEEDS
                if kind == "mdstat"})


@pytest.mark.parametrize("kind, text", WHOLE,
                         ids=["%s-%d" % (k, i) for i, (k, _)
                              in enumerate(WHOLE)])
def test_every_single_mutation(kind, text):
    for mutation in single_mutations(text, BAD_NUMBERS):
        outcome(kind, mutation)
