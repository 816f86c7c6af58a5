# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fuzzing the md parsers, as tests/parse/test_fuzz.py does for SVM's:
whatever the kernel or mdadm prints, a parser returns a value or raises
svmram's ParseError; nothing else escapes.

Seeds are the real outputs in fixtures/ (captured on Debian's 6.1 kernel
by tests/vm, see fixtures/README.md), mutated the way output goes wrong,
plus random text.  Reproducible (derandomize) and bounded.
"""

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svmram.errors import ParseError
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
fuzz = settings(max_examples=200, deadline=None, derandomize=True,
                database=None, suppress_health_check=list(HealthCheck))


def outcome(kind, text):
    """("ok", value), or None for the parser's own error; anything else
    raised is the bug this file looks for."""
    try:
        return "ok", PARSERS[kind](text)
    except ParseError as error:
        assert str(error).startswith("cannot parse ")
        assert error.advice
        return None


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


@fuzz
@given(st.sampled_from(KINDS), st.text(ALPHABET, max_size=200))
def test_random_text(kind, text):
    outcome(kind, text)


@fuzz
@given(st.sampled_from(KINDS), st.lists(st.tuples(WORDS, SEPARATORS),
                                        max_size=40))
def test_random_words(kind, parts):
    outcome(kind, "".join(word + sep for word, sep in parts))


_NUMBER = re.compile(r"[0-9]+")
NUMBERS = st.sampled_from(["0", "1", "9", "-1", "007", "1.5", "", "x",
                           "9" * 25, "18446744073709551615"])


@st.composite
def mutated(draw):
    kind, text = draw(st.sampled_from(SEEDS))
    lines = text.splitlines(keepends=True) or [text]
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            lines = [draw(st.text(ALPHABET, max_size=10))]
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "duplicate", "number", "cut",
                                    "char", "join", "crlf", "indent"]))
        line = lines[i]
        if how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, line)
        elif how == "number":
            found = list(_NUMBER.finditer(line))
            if found:
                match = found[draw(st.integers(0, len(found) - 1))]
                lines[i] = line[:match.start()] + draw(NUMBERS) + \
                    line[match.end():]
        elif how == "cut":
            lines[i] = line[:draw(st.integers(0, len(line)))]
        elif how == "char":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(ALPHABET) + line[at:]
        elif how == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [line.rstrip("\n") + " " + lines[i + 1]]
        elif how == "crlf":
            lines[i] = line.replace("\n", "\r\n")
        elif how == "indent":
            lines[i] = line.lstrip() if line[:1].isspace() else "  " + line
    return kind, "".join(lines)


@settings(fuzz, max_examples=1000)
@given(mutated())
def test_mutated_real_output(case):
    outcome(*case)


@fuzz
@given(st.sampled_from(SEEDS), st.sampled_from(KINDS))
def test_one_output_given_to_another_parser(seed, kind):
    outcome(kind, seed[1])


# --- every single mutation of the numbers, words and lines -------------------

BAD_NUMBERS = ("", "x", "1.5", "-1", "9" * 25)
_WORD = re.compile(r"\S+")
WHOLE = sorted({(kind, text) for kind, text in SEEDS
                if kind == "mdstat"})


def single_mutations(text):
    """Each number replaced by each of BAD_NUMBERS, each word left out or
    doubled, each line left out."""
    for match in _NUMBER.finditer(text):
        for bad in BAD_NUMBERS:
            yield text[:match.start()] + bad + text[match.end():]
    for match in _WORD.finditer(text):
        yield text[:match.start()] + text[match.end():]
        yield text[:match.end()] + " " + match.group() + text[match.end():]
    lines = text.splitlines(keepends=True)
    for i in range(len(lines)):
        yield "".join(lines[:i] + lines[i + 1:])


@pytest.mark.parametrize("kind, text", WHOLE,
                         ids=["%s-%d" % (k, i) for i, (k, _)
                              in enumerate(WHOLE)])
def test_every_single_mutation(kind, text):
    for mutation in single_mutations(text):
        outcome(kind, mutation)
