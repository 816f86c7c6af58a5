# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fuzzing the parsers: whatever SVM prints, a parser returns a model or
raises its own error (svmram.errors.ParseError); nothing else escapes.

Inputs are random text and, more to the point, the real outputs in
fixtures/ mutated the way output goes wrong (lines lost, doubled or
swapped, numbers changed, blanks and tabs inserted, text cut short, words
from elsewhere).  The property covers what the `python3 -m svmram.svm.tojson`
front end does with a result too (to_json, json.dumps), and a few inputs
go through the front end itself as a process.

The harness (fuzz settings, mutations, the random-input tests) is
fuzzing.py, which md's parsers share (md/test_fuzz.py).  Reproducible
(derandomize) and bounded (max_examples): the whole file runs in well
under 20 seconds.
"""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzing import (fuzz, mutated, parsed, random_input_tests,
                     single_mutations)
from svmram.svm import tojson as front_end
from svmram.svm import record

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "fixtures")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

SVCPROP = "svcprop"          # record.parse: `svcprop -p svmram FMRI`
PARSERS = dict(front_end.KINDS)
PARSERS[SVCPROP] = record.parse

RECORD = ("svmram/mirror astring d10\nsvmram/ram astring d13\n"
          "svmram/ramdisk astring svmram_d10\n"
          "svmram/size_bytes count 239075328\n"
          "svmram/link astring c90t0d0s0\nsvmram/disks astring d11,d12\n")


def kind_of(name):
    """Which parser reads fixtures/NAME."""
    for word, kind in (("_p_", "metastat-p"), ("metaparam", "metaparam"),
                       ("metadb", "metadb"), ("ramdiskadm", "ramdiskadm")):
        if word in name:
            return kind
    return "metastat"


def _read(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8",
              newline="") as stream:
        return stream.read()


SEED_NAMES = sorted(name for name in os.listdir(FIXTURES)
                    if name.endswith(".txt")) + ["svcprop record"]
SEEDS = [(kind_of(name), _read(name)) for name in SEED_NAMES[:-1]] + [
    (SVCPROP, RECORD)]
KINDS = sorted(PARSERS)

FUZZ = fuzz(150)


def outcome(kind, text):
    """What the front end would print: the model as JSON (the front end's
    KINDS parse, then call to_json), or None for the parser's own error.
    Anything else raised is the bug this file looks for."""
    result = parsed(PARSERS[kind], text)
    if result is None:
        return None
    assert isinstance(result[1], dict)
    return json.dumps(result[1], sort_keys=True)


def test_every_seed_parses():
    """The mutations start from output each parser accepts."""
    assert {kind for kind, _ in SEEDS} == set(KINDS)
    for kind, text in SEEDS:
        assert outcome(kind, text) is not None, (kind, text[:80])


# --- random text --------------------------------------------------------------

# The characters SVM output is made of, and a few it is not.
ALPHABET = st.sampled_from(
    list("dcstp0123456789:-/ \t\n\\%().,_*") + ["\xa0", "\u00b2", "\u0661",
                                                 "\x00", "\r", "\ufffd"])
WORDS = st.sampled_from([
    "d10", "d13", "d8192", "hsp001", "blue/d10", "-m", "-r", "-g", "-S",
    "-p", "-o", "-b", "-i", "-h", "-k", "-t", "1", "0", "2", "32b",
    "/dev/rdsk/c0d1s0", "/dev/md/rdsk/d11", "c5t0d0s0", "Mirror", "Submirror",
    "State:", "Okay", "Resyncing", "Maintenance", "Pass:", "Size:", "blocks",
    "Stripe", "Device", "Start", "Block", "Dbase", "Reloc", "Hot", "Spare",
    "Read option:", "first (-r)", "roundrobin (default)", "Write option:",
    "parallel (default)", "Resync in progress:", "15 % done", "\\",
    "Concat/Stripe", "Soft Partition", "RAID", "Trans", "flags", "first blk",
    "block count", "a m p luo", "unknown", "Block Device", "Removable", "Yes",
    "/dev/ramdisk/svmram_d10", "svmram/ram", "astring", "count",
    "****", "WARNING: Stale state database replicas.", "Invoke:",
    "metareplace d10 c5t0d0s0 <new device>", "Device Relocation Information:",
    "Extent", "No", "oban/d100:", "d10:", "d13:"])
SEPARATORS = st.sampled_from([" ", "  ", "\t", "\n", "\n    ", "\n\t", ": "])


test_random_text, test_random_words = random_input_tests(
    outcome, KINDS, ALPHABET, WORDS, SEPARATORS, FUZZ, examples=[
        ("metastat-p", "d10 -m d11 \\\n"),
        ("metastat", "d10: Mirror\n    Submirror 9: d13\n"),
        ("metastat-p", "d13 \u00b2 1 c0d0s0\n")])


@FUZZ
@given(st.sampled_from(KINDS), st.text(max_size=120))
def test_any_unicode(kind, text):
    outcome(kind, text)


# --- mutations of real output -------------------------------------------------

NUMBERS = st.sampled_from(["0", "1", "4", "9", "10", "99", "8192", "-1",
                           "007", "2147483648", "9" * 25, "1.5", "", "x"])


@settings(FUZZ, max_examples=1500)
@given(mutated(SEEDS, ALPHABET, NUMBERS, WORDS))
def test_mutated_fixtures(case):
    kind, text = case
    outcome(kind, text)


@FUZZ
@given(st.sampled_from(SEEDS), st.sampled_from(KINDS))
def test_a_fixture_given_to_another_parser(seed, kind):
    outcome(kind, seed[1])


# --- every single mutation of the numbers, words and lines ----------------------

BAD_NUMBERS = ("", "x", "1.5", "-1", "\u00b2", "9" * 25, "0")


@pytest.mark.parametrize("kind, text", SEEDS, ids=SEED_NAMES)
def test_every_single_mutation(kind, text):
    for changed in single_mutations(text, BAD_NUMBERS):
        outcome(kind, changed)


# --- the front end as a process -------------------------------------------------

FRONT_END_INPUTS = [
    ("metastat-p", b"d10 -m d11 d12 1\nd11 1 1 c0d1s0\n"),
    ("metastat", _read("article_metastat_after_reboot.txt").encode()[:700]),
    ("metaparam", b"d10: Mirror current parameters are:\n    Pass: x\n"),
    ("metadb", b"\xff\xfe\x00flags first blk block count\n"),
    ("ramdiskadm", _read("illumos_man_ramdiskadm.txt").encode() + b"\t\n"),
    ("metastat-p", _read("reference_p_full.txt").encode()),
]


@pytest.mark.parametrize("kind, data", FRONT_END_INPUTS,
                         ids=[kind for kind, _ in FRONT_END_INPUTS])
def test_front_end_exits_0_or_1_and_never_with_a_traceback(kind, data):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "lib"))
    proc = subprocess.run([sys.executable, "-m", "svmram.svm.tojson", kind],
                          input=data, capture_output=True, env=env,
                          timeout=60)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in proc.stderr
    try:
        expected = outcome(kind, data.decode("utf-8"))
    except UnicodeDecodeError:
        expected = outcome(kind, data.decode("latin-1"))
    if expected is None:
        assert proc.returncode == 1
        assert proc.stdout == b""
        assert len(stderr.splitlines()) == 1
        assert stderr.startswith("svmram.svm.tojson: cannot parse ")
    else:
        assert (proc.returncode, stderr) == (0, "")
        assert json.loads(proc.stdout) == json.loads(expected)
