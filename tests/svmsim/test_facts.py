# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The inventory of the emulator's facts (lib/svmsim/facts.py): each fact
is well formed, cites a source or names a real-host check that exists,
the gate reports what no fact covers, and docs/uncertainties.md shows the
inventory as it is (issue 36 section 1)."""

import os
import re
import subprocess
import sys

import pytest

from svmsim import dispatch, facts, factlog

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
SELFTEST = os.path.join(REPO, "lib", "svmram", "svm", "selftest.py")
CONFIRM = os.path.join(REPO, "tests", "illumos", "confirm.sh")
UNCERTAINTIES = os.path.join(REPO, "docs", "uncertainties.md")

# One or more PATH:LINE[-LINE] of illumos-gate, then the commit.
ILLUMOS = re.compile(r"(?:usr/src/\S+\.(?:c|h|x|y|l|sh|xml):\d+(?:-\d+)? )+"
                     r"@a593473611")
SOURCE = re.compile(r"%s|Arquivotheca/solaris11 \S+:\d+(?:-\d+)?|"
                    r"capture: \S.*" % ILLUMOS.pattern)


def _read(path):
    with open(path, encoding="utf-8") as stream:
        return stream.read()


def test_each_fact_is_well_formed():
    ids = [f.id for f in facts.FACTS]
    assert len(ids) == len(set(ids))
    for f in facts.FACTS:
        assert f.stream in facts.STREAMS, f
        assert f.prog and set(f.prog) <= set(dispatch.PROGRAMS), f
        re.compile(f.pattern)
        re.compile(f.args)
        if f.stream == "exit":
            assert re.fullmatch(r"[\d\[\]]+", f.pattern), f
        if f.stream == "behaviour":
            assert f.note, f


def test_each_fact_has_a_source_or_a_guess_and_its_check():
    for f in facts.FACTS:
        if f.source == facts.GUESS:
            assert f.check, "%s: a GUESS names the check that settles it" \
                % f.id
        else:
            assert SOURCE.fullmatch(f.source), f


def test_each_named_check_exists():
    """`selftest: NAME` is a check name of selftest.py (the literal it
    passes to check() or fact()); `confirm.sh ID` a check_header of
    confirm.sh."""
    selftest = _read(SELFTEST)
    headers = set(re.findall(r'check_header "?([0-9a-z]+)', _read(CONFIRM)))
    assert headers >= {"2a", "3", "5", "7", "9", "11a"}
    named = [f for f in facts.FACTS if f.check]
    assert named
    for f in named:
        kind, _, name = f.check.partition(" ")
        if kind == "selftest:":
            assert '"%s"' % name in selftest, f
        else:
            assert kind == "confirm.sh" and name in headers, f


def record(prog, stdout="", stderr="", status=0, injected=False):
    return {"prog": prog, "argv": ["x"], "stdout": stdout, "stderr": stderr,
            "exit": status, "injected": injected}


def test_the_gate_reports_what_no_fact_covers():
    covered = record("metaclear", "d10: Mirror is cleared\n")
    assert facts.unsourced([covered]) == []
    assert facts.unsourced([record(
        "metaclear", "d10: Mirror is cleared now\n")]) == [
        ("metaclear", ["x"], "stdout", "d10: Mirror is cleared now")]
    # A fact covers its own program only, its stream only.
    assert facts.unsourced([record("metattach", "d10: Mirror is cleared\n"),
                            record("metaclear", "",
                                   "d10: Mirror is cleared\n")]) == [
        ("metattach", ["x"], "stdout", "d10: Mirror is cleared"),
        ("metaclear", ["x"], "stderr", "d10: Mirror is cleared")]
    # An exit status no fact names, a last line without its newline, and
    # a command that died by an exception.
    assert facts.unsourced([record("metaclear", status=2),
                            record("metaclear", "d10: Mirror is cleared"),
                            record("metaclear", status=None)]) == [
        ("metaclear", ["x"], "exit", "2"),
        ("metaclear", ["x"], "exit", "exception")]
    # A fact about one form of a command covers that form only.
    value = "Evolving\n"
    assert facts.unsourced([dict(record("svcprop", value), argv=[
        "-p", "general/entity_stability", "svc:/system/svmram"])]) == []
    assert facts.unsourced([dict(record("svcprop", value), argv=[
        "-p", "svmram", "svc:/system/svmram:d10"])]) == [
        ("svcprop", ["-p", "svmram", "svc:/system/svmram:d10"], "stdout",
         "Evolving")]
    # What a fault of the test harness injected is no fact.
    assert facts.unsourced([record("metaclear", "", "invented\n", 7,
                                   injected=True)]) == []


def test_the_recorder_marks_injected_output(tmp_path, capsys):
    """dispatch.main records a command's output when the state names a
    log, and a fault's output as injected."""
    simdir = tmp_path / "host"
    subprocess.run([sys.executable, "-m", "svmsim", "init", str(simdir)],
                   check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=os.path.join(REPO,
                                                                "lib")))
    from svmsim import cli
    log = tmp_path / "facts.jsonl"
    assert dispatch.main("metastat", ["-p"], str(simdir)) == 0
    assert not log.exists()
    assert cli.main(["record-facts", str(simdir), str(log)]) == 0
    assert cli.main(["faults", str(simdir), "add", "metastat", "--exit",
                     "3", "--message", "invented"]) == 0
    assert dispatch.main("metastat", ["-p", "d10"], str(simdir)) == 3
    assert dispatch.main("metastat", ["-p", "d10"], str(simdir)) == 0
    assert dispatch.main("svcs", ["-H", "-o", "state", "svc:/nothing"],
                         str(simdir)) == 1
    assert cli.main(["record-facts", str(simdir)]) == 0
    assert dispatch.main("metastat", ["-p"], str(simdir)) == 0
    records = factlog.read(str(log))
    captured = capsys.readouterr()
    assert [(r["prog"], r["exit"], r["injected"]) for r in records] == [
        ("metastat", 3, True), ("metastat", 0, False), ("svcs", 1, False)]
    assert records[0]["stderr"] == "invented\n"
    assert records[1]["stdout"].startswith(
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n")
    assert records[2]["stderr"] in captured.err
    assert facts.unsourced(records) == []


def test_uncertainties_md_shows_the_inventory():
    text = _read(UNCERTAINTIES)
    start, end = text.find(facts.BEGIN), text.find(facts.END)
    assert 0 <= start < end, "docs/uncertainties.md lacks the inventory"
    assert text[start:end + len(facts.END) + 1] == facts.markdown(), (
        "docs/uncertainties.md differs from lib/svmsim/facts.py: replace "
        "its inventory section with `PYTHONPATH=lib python3 -m "
        "svmsim.facts --markdown`")


@pytest.mark.parametrize("guess", [f for f in facts.FACTS
                                   if f.source == facts.GUESS],
                         ids=lambda f: f.id)
def test_each_guess_is_listed_with_its_check(guess):
    assert "| `%s` |" % guess.id in _read(UNCERTAINTIES)
