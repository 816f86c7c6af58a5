# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The target as a value (issue 29 section 1): a file-safe slug that never
makes a directory and that two names never share, the journal named by
it, and a command that parses its target once."""

import itertools
import os

import pytest

from svmram.commands import common
from svmram.errors import UsageError
from svmram.journal import Journal, journal_path
from svmram.target import Target, slug


def test_the_names_of_today_s_backends_are_their_own_slugs():
    # The journals of existing hosts keep their names.
    for name in ("d10", "d0", "md0", "md127", "md_d0", "my-array.1"):
        assert slug(name) == name
    assert journal_path(Target("svm", "d10")) == "/var/svmram/d10.journal"
    assert journal_path(Target("md", "md0", "/dev/md0")) == \
        "/var/svmram/md0.journal"


def test_a_slash_never_makes_a_directory():
    target = Target("lvm", "vg0/lv_root")
    assert target.slug == "vg0%2Flv_root"
    assert "/" not in os.path.basename(journal_path(target))
    assert os.path.dirname(journal_path(target)) == "/var/svmram"
    for name in (".", "..", "../..", "/", "a/../b"):
        assert "/" not in slug(name) and slug(name) not in (".", ".."), name


def test_two_different_names_never_share_a_slug():
    # Every short name over the bytes that need care, and some longer.
    alphabet = ["a", "/", "%", "2F", ".", "-", "_", " ", "\u00e9", "25"]
    names = {"".join(p) for n in range(4)
             for p in itertools.product(alphabet, repeat=n)}
    names |= {"vg/lv", "vg%2Flv", "vg%252Flv", "vg_lv", "vg-lv", ".", ".."}
    slugs = {}
    for name in names:
        assert slugs.setdefault(slug(name), name) == name, (
            name, slugs[slug(name)])


def test_a_journal_of_a_name_with_a_slash_is_one_file(tmp_path):
    target = Target("lvm", "vg0/lv")
    journal = Journal(str(tmp_path) + journal_path(target))
    journal.start("setup", {"target": target.name})
    assert sorted(os.listdir(str(tmp_path) + "/var/svmram")) == \
        ["vg0%2Flv.journal"]
    assert journal.load()["intent"] == {"target": "vg0/lv"}


def test_the_target_keeps_what_was_typed_and_compares_by_name():
    typed = Target("md", "md0", "/dev/md0")
    assert (typed.backend, typed.name, typed.typed, str(typed)) == \
        ("md", "md0", "/dev/md0", "md0")
    assert typed == Target("md", "md0")
    assert Target("md", "md0").typed == "md0"
    assert typed != Target("svm", "md0")


def test_a_command_parses_its_target_once_through_its_backend(
        tmp_path, monkeypatch):
    monkeypatch.setenv("SVMRAM_ROOT", str(tmp_path))
    (tmp_path / "sys" / "block").mkdir(parents=True)     # a Linux tree
    context = common.context_for("/dev/md0")
    assert context.target == Target("md", "md0", "/dev/md0")
    assert context.target.typed == "/dev/md0"
    assert (context.backend.name, context.name) == ("md", "md0")
    assert context.words is context.backend.words
    assert context.deadline is context.backend.deadline
    assert context.polling.sync == "recovery"
    with pytest.raises(UsageError):
        common.context_for("/dev/md/../sda")
    svm = common.context_for("d10")
    assert svm.target == Target("svm", "d10")
    assert svm.polling.sync == "resync"
