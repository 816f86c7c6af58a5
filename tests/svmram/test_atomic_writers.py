# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every file svmram replaces goes through atomic.write_atomically
(issue 36 section 4): md's record and teardown marker, and the SVM
selftest's record, as the journal does.  A link or a file planted where a
writer once put its temporary file is neither written through nor
removed, and what is left is the new file, whole, and no temporary
file."""

import errno
import json
import os

import pytest

from svmram import atomic
from svmram.md import record
from svmram.md.intent import Intent
from svmram.svm import selftest_record

INTENT = {"array": "md0", "disks": ["vda", "vdb"], "ram": "ram0",
          "rd_size_kib": 131072, "offset_sectors": 2048, "created": False,
          "write_mostly_before": []}


@pytest.fixture
def victim(tmp_path):
    """A file svmram did not make, and links to it at every temporary
    name a writer of `path` has used (".new", ".tmp"), which stay."""
    path = tmp_path / "victim"
    path.write_text("not svmram's\n")

    def plant(target):
        for suffix in (".new", ".tmp"):
            os.symlink(str(path), target + suffix)
        plant.planted = [os.path.basename(target) + suffix
                         for suffix in (".new", ".tmp")]
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
    assert sorted(os.listdir(os.path.dirname(path))) == sorted(
        [os.path.basename(path)] + victim.planted)


def test_the_teardown_marker_is_written_atomically_never_through_a_link(
        tmp_path, victim):
    path = str(tmp_path / "md0.json")
    victim(record.marker_path(path))
    record.mark_teardown(path)
    assert victim.path.read_text() == "not svmram's\n"
    with open(record.marker_path(path), encoding="utf-8") as stream:
        assert stream.read() == ""
    assert sorted(os.listdir(str(tmp_path))) == sorted(
        ["victim", os.path.basename(record.marker_path(path))] +
        victim.planted)


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
    assert sorted(os.listdir(os.path.dirname(path))) == sorted(
        [os.path.basename(path)] + victim.planted)


def test_the_file_is_made_with_the_mode_asked_whatever_the_umask(tmp_path):
    path = str(tmp_path / "svmram.prom")
    before = os.umask(0o077)
    try:
        atomic.write_atomically(path, "svmram_up 1\n")
    finally:
        os.umask(before)
    assert os.stat(path).st_mode & 0o777 == 0o644
    assert os.listdir(str(tmp_path)) == ["svmram.prom"]


def test_a_failed_write_removes_its_own_temporary_file_only(
        tmp_path, monkeypatch):
    """A write that fails (here: fsync, as on a full disk) leaves the old
    file and every other file as they were, and no temporary file."""
    path = tmp_path / "svmram.prom"
    path.write_text("old\n")
    (tmp_path / "svmram.prom.new").write_text("the administrator's\n")
    stale = tmp_path / (atomic.temporary_prefix(str(path)) + "killed01")
    stale.write_text("a killed run's\n")

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(atomic.os, "fsync", fsync)
    with pytest.raises(OSError):
        atomic.write_atomically(str(path), "new\n")
    assert path.read_text() == "old\n"
    assert sorted(os.listdir(str(tmp_path))) == sorted(
        ["svmram.prom", "svmram.prom.new", stale.name])
    assert stale.read_text() == "a killed run's\n"


def test_a_temporary_name_a_killed_run_left_is_left_alone(tmp_path):
    """A killed run of this pid left .FILE.svmram-PID (a link here): it
    is neither written through nor removed; the next name is used."""
    path = str(tmp_path / "md0.json")
    taken = path[:-len("md0.json")] + atomic.temporary_prefix(path) + \
        str(os.getpid())
    (tmp_path / "other").write_text("not svmram's\n")
    os.symlink("other", taken)
    atomic.write_atomically(path, "{}\n")
    assert (tmp_path / "md0.json").read_text() == "{}\n"
    assert (tmp_path / "other").read_text() == "not svmram's\n"
    assert sorted(os.listdir(str(tmp_path))) == sorted(
        ["md0.json", "other", os.path.basename(taken)])


REPLACING = {("os", "replace"), ("os", "rename"), ("os", "renames"),
             ("shutil", "move")}


def replacing_calls(package):
    """(module path, line) of each call that puts a file in another's
    place (os.replace, os.rename, os.renames, shutil.move) in `package`."""
    import ast
    found = []
    for directory, _, names in os.walk(package):
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as stream:
                tree = ast.parse(stream.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and \
                        isinstance(node.func, ast.Attribute) and \
                        isinstance(node.func.value, ast.Name) and \
                        (node.func.value.id, node.func.attr) in REPLACING:
                    found.append((os.path.relpath(path, package),
                                  node.lineno))
    return found


def test_atomic_py_is_the_only_writer_that_replaces_a_file():
    """One atomic writer for every journal and record (issue 36 section
    4): no other module of svmram renames a file into place."""
    package = os.path.dirname(os.path.abspath(atomic.__file__))
    assert [module for module, _ in replacing_calls(package)] == \
        ["atomic.py"]


def test_the_scan_finds_a_writer_of_its_own(tmp_path):
    (tmp_path / "journal.py").write_text(
        "import os\n\ndef save(temp, path):\n    os.replace(temp, path)\n")
    (tmp_path / "atomic.py").write_text(
        "import os\n\ndef write(temp, path):\n    os.rename(temp, path)\n")
    assert sorted(replacing_calls(str(tmp_path))) == [
        ("atomic.py", 4), ("journal.py", 4)]
