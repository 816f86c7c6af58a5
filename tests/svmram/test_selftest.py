# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svm/selftest.py's pure parts: the names it picks, and its refusals
before anything is made (fed with what a host would print)."""

import pytest

from svmram.errors import RefusedError
from svmram.svm import selftest

METADB = ("        flags           first blk       block count\n"
          "     a m  pc luo        16              8192            "
          "/dev/dsk/c0d0s7\n")
# What a real kernel prints: system_pages has no pagesize statistic
# (kstat_fr.c:201-222 @a593473611); the page size is the host's sysconf.
KSTAT = "unix:0:system_pages:freemem\t%d\n"


class FakeRunner:
    """What Runner.run answers, by program; records what ran."""

    def __init__(self, answers, root="/"):
        self.answers = answers
        self.root = root
        self.ran = []

    def run(self, name, args):
        self.ran.append([name] + list(args))
        return self.answers[name]

    def under(self, path):
        return self.root.rstrip("/") + path


def test_layout_takes_the_highest_free_names_and_controllers_from_90():
    layout = selftest.choose_layout(
        "/var/tmp/st", {"d127", "d10", "d125"}, frozenset({0, 1, 90}))
    assert (layout.mirror, layout.first, layout.second, layout.dangling) \
        == ("d126", "d124", "d123", "d122")
    assert layout.links == ("c91t0d0s0", "c92t0d0s0")
    assert layout.dangling_link == "c93t0d0s0"
    assert layout.files == ("/var/tmp/st/disk0", "/var/tmp/st/disk1")


def test_layout_refuses_when_names_are_short_and_says_how_many():
    used = {"d%d" % n for n in range(124)}
    with pytest.raises(RefusedError) as refused:
        selftest.choose_layout("/var/tmp/st", used, frozenset())
    assert refused.value.message == (
        "only 4 metadevice names of d0-d127 are free, and selftest needs 5")


def _selftest(answers, tmp_path):
    runner = FakeRunner(answers, str(tmp_path))
    return selftest.Selftest(runner, "/var/tmp/st", "release", True,
                             lambda: None), runner


def test_no_replicas_is_a_refusal_before_anything_runs(tmp_path):
    test, runner = _selftest({"metadb": (0, "", "")}, tmp_path)
    with pytest.raises(RefusedError) as refused:
        test.preconditions()
    assert refused.value.message.startswith(
        "there are no state database replicas")
    assert runner.ran == [["metadb"]]


def test_metadb_without_replicas_is_the_refusal_that_says_so(tmp_path):
    """metadb's own refusal without replicas (MDE_DB_NODB) is "none"."""
    test, runner = _selftest({"metadb": (
        1, "", "metadb: myhost: there are no existing databases\n")},
        tmp_path)
    with pytest.raises(RefusedError) as refused:
        test.preconditions()
    assert refused.value.message == (
        "there are no state database replicas (metadb lists none), and "
        "svmram selftest never creates them")
    assert runner.ran == [["metadb"]]


def test_a_metadb_that_fails_otherwise_is_not_taken_for_none(tmp_path):
    """Another failure of metadb says nothing of the replicas: the
    refusal shows what metadb printed instead of guessing "none"."""
    test, runner = _selftest({"metadb": (
        1, "", "metadb: myhost: /dev/md/admin: No such file or "
        "directory\n")}, tmp_path)
    with pytest.raises(RefusedError) as refused:
        test.preconditions()
    assert (refused.value.message, refused.value.advice) == (
        "metadb failed (exit status 1; stderr: metadb: myhost: "
        "/dev/md/admin: No such file or directory), so svmram selftest "
        "cannot tell whether there are state database replicas",
        "Run 'metadb' yourself and mend what it reports, then run svmram "
        "selftest again.")
    assert runner.ran == [["metadb"]]


def test_short_memory_is_a_refusal_that_says_how_much(tmp_path,
                                                       monkeypatch):
    monkeypatch.setattr(selftest, "PAGE_BYTES", 8192)
    test, runner = _selftest({"metadb": (0, METADB, ""),
                              "kstat": (0, KSTAT % 1000, "")}, tmp_path)
    with pytest.raises(RefusedError) as refused:
        test.preconditions()
    assert refused.value.message == (
        "only 8000 KiB of memory is free, and selftest needs 32768 KiB for "
        "its ramdisk and a margin")
    assert runner.ran == [["metadb"], ["kstat", "-p",
                                       "unix:0:system_pages:freemem"]]


def test_unreadable_kstat_is_a_refusal_not_a_guess(tmp_path):
    test, _ = _selftest({"metadb": (0, METADB, ""),
                         "kstat": (1, "", "kstat: not found\n")}, tmp_path)
    with pytest.raises(RefusedError) as refused:
        test.preconditions()
    assert refused.value.message == (
        "kstat does not show the free memory (exit status 1; stderr: "
        "kstat: not found)")


def test_an_md_host_is_refused_before_the_lock(tmp_path, monkeypatch):
    """md has no selftest: Backend.selftest's default refusal, in md's
    words, and no lock file."""
    import argparse
    from svmram.commands import common, selftest as command
    from svmram.md.backend import MdBackend
    monkeypatch.setattr(common, "host_backends", lambda: [MdBackend("/")])
    monkeypatch.setattr(command, "LOCK", str(tmp_path / "lock"))
    with pytest.raises(RefusedError) as refused:
        command.run(argparse.Namespace(directory=None, json=False))
    assert (refused.value.message, refused.value.advice) == (
        "svmram selftest has no checks for md arrays yet",
        "Run 'svmram check', which says what setup would verify on this "
        "host and changes nothing.")
    assert not (tmp_path / "lock").exists()


def test_selftest_runs_the_first_host_backend_that_has_one(monkeypatch):
    """On a host two backends own, selftest asks each: the one with a
    selftest runs it, wherever it is in the registry's order."""
    from svmram.commands import common
    from svmram.md.backend import MdBackend
    from svmram.svm.backend import SvmBackend
    md, svm = MdBackend("/"), SvmBackend("/")
    monkeypatch.setattr(common, "host_backends", lambda: [md, svm])
    assert common.selftest_backend() is svm
    monkeypatch.setattr(common, "host_backends", lambda: [md])
    assert common.selftest_backend() is md
