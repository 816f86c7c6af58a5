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


def test_every_file_named_after_a_target_is_named_by_its_slug():
    """md's record and SVM's svccfg command file are named by the slug, as
    the journal is (issue 29 section 1); a byte outside [A-Za-z0-9_.-]
    is escaped.  md's and SVM's name parsers take no such name, so this
    is tested at the functions that make the paths."""
    from svmram.md import record
    from svmram.svm import smf
    assert record.record_path("vg0/lv root") == \
        "/etc/svmram/md/vg0%2Flv%20root.json"
    assert record.record_path("%") == "/etc/svmram/md/%25.json"
    assert record.record_path("..") == "/etc/svmram/md/%2E%2E.json"
    assert [a.path for a in smf.update_actions(
        "blue/d10", "c90t0d0s0", "250,2")] == \
        ["/var/run/svmram.blue%2Fd10.svccfg"]


def test_an_existing_md_record_keeps_its_name(tmp_path):
    """Every md name is its own slug, so the record an older svmram wrote
    (/etc/svmram/md/md0.json) is the one this one reads and lists; the
    boot unit's ConditionPathExists=/etc/svmram/md/%i.json names it."""
    from svmram.md import names, record
    from svmram.md.intent import Intent
    for number in (0, 1, 9, 10, 127, 999999999):
        name = "md%d" % number
        assert names.KERNEL_NAME.match(name)
        assert record.record_path(name) == "/etc/svmram/md/%s.json" % name
    it = Intent("md0", ("vda", "vdb"), "ram0", 131072, 2048, True)
    directory = tmp_path / "etc" / "svmram" / "md"
    directory.mkdir(parents=True)
    (directory / "md0.json").write_text(record.record_text(it))
    (directory / "md127.json").write_text(record.record_text(
        Intent("md127", ("vdc",), "ram1", 1024, 2048, False)))
    assert record.recorded_arrays(str(tmp_path)) == ["md0", "md127"]
    assert record.recorded_intent(str(tmp_path), "md0") == it


def test_the_record_store_lists_names_by_their_slugs(tmp_path):
    """A record file named by a slug with escapes lists as its name; a
    .json file no name's slug names is refused, never taken for a name
    it does not stand for."""
    from svmram.errors import RefusedError
    from svmram.md import record
    directory = tmp_path / "etc" / "svmram" / "md"
    directory.mkdir(parents=True)
    (directory / "vg0%2Flv%20root.json").write_text("{}")
    (directory / "md0.json").write_text("{}")
    (directory / "md0.json.teardown").write_text("")
    (directory / "md0.json.tmp").write_text("")
    assert record.recorded_arrays(str(tmp_path)) == ["md0", "vg0/lv root"]
    for stray in ("my array.json", "md%30.json", "a%2f.json", "%zz.json"):
        (directory / stray).write_text("{}")
        with pytest.raises(RefusedError) as refused:
            record.recorded_arrays(str(tmp_path))
        assert (refused.value.message, refused.value.advice) == (
            "/etc/svmram/md/%s is not a record svmram wrote: no array's "
            "record is named so" % stray,
            "Move it out of /etc/svmram/md.")
        (directory / stray).unlink()


def test_unslug_gives_back_the_name_and_nothing_else():
    from svmram.target import unslug
    for name in ("d10", "md0", "vg0/lv", "a b", "%", "%2F", ".", "..",
                 "\u00e9t\u00e9", ""):
        assert unslug(slug(name)) == name, name
    for text in ("a%2Eb", "%zz", "%2f", "a b", "\u00e9", "%C3", "%", "%2",
                 "md%30"):
        assert unslug(text) is None, text
