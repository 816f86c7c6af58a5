# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every file svmram replaces goes through atomic.write_atomically
(issue 36 section 4): md's record and teardown marker, and the SVM
selftest's record, as the journal does.  A link planted where a writer
puts its temporary file is never written through, and what is left is
the new file, whole."""

import json
import os

import pytest

from svmram.md import record
from svmram.md.intent import Intent
from svmram.svm import selftest_record

INTENT = {"array": "md0", "disks": ["vda", "vdb"], "ram": "ram0",
          "rd_size_kib": 131072, "offset_sectors": 2048, "created": False,
          "write_mostly_before": []}


@pytest.fixture
def victim(tmp_path):
    """A file svmram did not make, and links to it at every temporary
    name a writer of `path` has used (".new", ".tmp")."""
    path = tmp_path / "victim"
    path.write_text("not svmram's\n")

    def plant(target):
        for suffix in (".new", ".tmp"):
            os.symlink(str(path), target + suffix)
    plant.path = path
    return plant


def test_the_md_record_is_written_atomically_never_through_a_link(
        tmp_path, victim):
    path = str(tmp_path / "etc" / "svmram" / "md" / "md0.json")
    os.makedirs(os.path.dirname(path))
    victim(path)
    record.write_record(path, Intent.from_dict(INTENT))
    assert victim.path.read_text() == "not svmram's\n"
    with open(path, encoding="utf-8") as stream:
        assert json.load(stream) == INTENT
    assert not os.path.lexists(path + ".new")


def test_the_teardown_marker_is_written_atomically_never_through_a_link(
        tmp_path, victim):
    path = str(tmp_path / "md0.json")
    victim(record.marker_path(path))
    record.mark_teardown(path)
    assert victim.path.read_text() == "not svmram's\n"
    with open(record.marker_path(path), encoding="utf-8") as stream:
        assert stream.read() == ""


def test_the_selftest_record_is_written_atomically_never_through_a_link(
        tmp_path, victim):
    root = str(tmp_path)
    path = os.path.join(root, "etc", "svmram", "selftest.json")
    os.makedirs(os.path.dirname(path))
    victim(path)
    selftest_record.write(root, True)
    assert victim.path.read_text() == "not svmram's\n"
    with open(path, encoding="utf-8") as stream:
        assert json.load(stream) == {"release": "unknown (no /etc/release)",
                                     "passed": True}
    assert not os.path.lexists(path + ".new")
