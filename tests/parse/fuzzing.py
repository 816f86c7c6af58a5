# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The fuzz harness of the parser tests, for SVM's (parse/test_fuzz.py)
and md's (md/test_fuzz.py): whatever the system prints, a parser returns
a value or raises svmram's ParseError, worded as svmram reports it;
nothing else escapes.

Each test file gives its parsers, its seeds (real outputs), and the
characters, words and numbers its system's output is made of; this
module mutates the seeds the way output goes wrong (lines lost, doubled
or swapped, numbers changed, blanks inserted, text cut short, words from
elsewhere), at random (`mutated`) and exhaustively (`single_mutations`).
Reproducible (derandomize) and bounded (max_examples).
"""

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from svmram.errors import ParseError


def fuzz(max_examples):
    """The settings of every fuzz test: reproducible, bounded."""
    return settings(max_examples=max_examples, deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


def parsed(parser, text):
    """("ok", parser(text)), or None for the parser's own error (which
    says "cannot parse" and gives advice); anything else raised is the
    bug the fuzz tests look for."""
    try:
        return "ok", parser(text)
    except ParseError as error:
        assert str(error).startswith("cannot parse ")
        assert error.advice
        return None


_NUMBER = re.compile(r"[0-9]+")
_WORD = re.compile(r"\S+")
MUTATIONS = ("delete", "duplicate", "swap", "number", "number", "number",
             "blank", "truncate", "cut", "word", "word", "token", "join",
             "char", "nbsp", "crlf", "indent")


def _mutate(draw, lines, alphabet, numbers, words):
    """One mutation of a list of lines (keeping their line ends)."""
    if not lines:
        return [draw(st.text(alphabet, max_size=20))]
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(MUTATIONS))
    line = lines[i]
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(j, line)
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "number":
        found = list(_NUMBER.finditer(line))
        if found:
            match = found[draw(st.integers(0, len(found) - 1))]
            lines[i] = line[:match.start()] + draw(numbers) + \
                line[match.end():]
    elif how in ("blank", "nbsp", "char"):
        at = draw(st.integers(0, len(line)))
        what = {"blank": draw(st.sampled_from([" ", "\t", "  \t"])),
                "nbsp": "\xa0",
                "char": draw(alphabet)}[how]
        lines[i] = line[:at] + what + line[at:]
    elif how == "truncate":
        del lines[i:]
    elif how == "cut":
        lines[i] = line[:draw(st.integers(0, len(line)))]
    elif how == "word":
        found = "".join(lines).split()
        mine = line.split(" ")
        if found and mine:
            k = draw(st.integers(0, len(mine) - 1))
            mine[k] = draw(st.sampled_from(found))
            lines[i] = " ".join(mine)
    elif how == "token":
        mine = line.split(" ")
        k = draw(st.integers(0, len(mine) - 1))
        mine[k] = draw(st.one_of(numbers, words))
        lines[i] = " ".join(mine)
    elif how == "join":
        if i + 1 < len(lines):
            lines[i:i + 2] = [line.rstrip("\n") + " " + lines[i + 1]]
    elif how == "crlf":
        lines[i] = line.replace("\n", "\r\n")
    elif how == "indent":
        lines[i] = line.lstrip() if line[:1].isspace() else "    " + line
    return lines


@st.composite
def mutated(draw, seeds, alphabet, numbers, words, most=4):
    """(kind, a seed of that kind after 1 to `most` mutations); each kind
    of `seeds` [(kind, text)] gets its share, however many seeds it
    has."""
    kind = draw(st.sampled_from(sorted({k for k, _ in seeds})))
    text = draw(st.sampled_from([t for k, t in seeds if k == kind]))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, most))):
        lines = _mutate(draw, lines, alphabet, numbers, words)
    return kind, "".join(lines)


@st.composite
def wordy(draw, words, separators):
    """Up to 40 of `words`, each followed by one of `separators`."""
    parts = draw(st.lists(st.tuples(words, separators), max_size=40))
    return "".join(word + sep for word, sep in parts)


def random_input_tests(outcome, kinds, alphabet, words, separators, fuzzed,
                       examples=()):
    """A parser test file's test_random_text and test_random_words:
    outcome(kind, text) for each kind of `kinds`, on random text of
    `alphabet` (and the (kind, text) `examples`, always tried) and on
    runs of `words` and `separators`, with the settings `fuzzed`."""
    def test_random_text(kind, text):
        outcome(kind, text)
    for kind, text in examples:
        test_random_text = example(kind, text)(test_random_text)

    def test_random_words(kind, text):
        outcome(kind, text)
    return (fuzzed(given(st.sampled_from(kinds),
                         st.text(alphabet, max_size=200))(test_random_text)),
            fuzzed(given(st.sampled_from(kinds),
                         wordy(words, separators))(test_random_words)))


def single_mutations(text, bad_numbers):
    """Each number replaced by each of `bad_numbers`, each word left out
    or doubled, each line left out: the damage a random mutation may
    take hundreds of examples to find, done exhaustively."""
    for match in _NUMBER.finditer(text):
        for bad in bad_numbers:
            yield text[:match.start()] + bad + text[match.end():]
    for match in _WORD.finditer(text):
        yield text[:match.start()] + text[match.end():]
        yield text[:match.end()] + " " + match.group() + text[match.end():]
    lines = text.splitlines(keepends=True)
    for i in range(len(lines)):
        yield "".join(lines[:i] + lines[i + 1:])
