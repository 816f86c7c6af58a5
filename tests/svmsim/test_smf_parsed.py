# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The SMF repository a process read and did not change is handed to the
next command of that process that reads the same smf.json (svmsim/smf/
store.py), instead of parsing it again (issue 29 section 6).  Each
command must still get exactly what parsing the file gives, shared with
no one: whatever changed the kept repository makes it a miss."""

import json
import os

import pytest

from svmsim.smf import store


@pytest.fixture
def simdir(make_sim):
    sim = make_sim()
    sim.ok("svcs")               # writes smf.json
    store._parsed.clear()
    read(sim.dir)                # a process keeps from its second read on
    yield sim.dir
    store._parsed.clear()


def on_disk(simdir):
    with open(os.path.join(simdir, store.STATE_FILE)) as f:
        return json.load(f)


def read(simdir):
    with store.locked(simdir) as repo:
        return repo


def test_an_unchanged_repository_is_read_once(simdir):
    first = read(simdir)
    second = read(simdir)
    assert second.data is first.data
    assert second.data == on_disk(simdir)


def test_a_change_not_marked_dirty_is_not_handed_on(simdir):
    with store.locked(simdir) as repo:
        inst = repo.get_instance("system/metasync", "default")
        inst["state"] = "maintenance"         # not repo.touch()ed
    again = read(simdir)
    assert again.data is not repo.data
    assert again.get_instance("system/metasync", "default")["state"] == \
        "online"
    assert again.data == on_disk(simdir)


def test_a_change_after_the_lock_is_not_handed_on(simdir):
    repo = read(simdir)
    read(simdir)                 # kept again, unchanged
    repo.data["services"].pop("system/metasync")
    again = read(simdir)
    assert "system/metasync" in again.data["services"]
    assert again.data == on_disk(simdir)


def equal_places(data):
    """Two places (container, key) of the repository holding equal but
    distinct dicts or lists."""
    seen = {}
    stack = [data]
    while stack:
        node = stack.pop()
        for key, value in (node.items() if isinstance(node, dict)
                           else enumerate(node)):
            if isinstance(value, (dict, list)):
                text = json.dumps(value, sort_keys=True)
                if text in seen:
                    return seen[text], (node, key)
                seen[text] = (node, key)
                stack.append(value)
    raise AssertionError("no two equal places")


def test_two_places_sharing_one_object_are_not_handed_on(simdir):
    """Equal in value to what the file parses to, but two of its places
    are one object: a change through one would show in the other."""
    with store.locked(simdir) as repo:
        (one, one_key), (other, other_key) = equal_places(repo.data)
        other[other_key] = one[one_key]
        assert repo.data == on_disk(simdir)
    with store.locked(simdir) as again:
        assert again.data is not repo.data
        assert again.data == on_disk(simdir)
        (one, one_key), (other, other_key) = equal_places(again.data)
        assert other[other_key] is not one[one_key]
    del one, other


def test_what_another_process_wrote_is_read(simdir):
    read(simdir)
    data = on_disk(simdir)
    data["services"]["system/metasync"]["instances"]["default"][
        "state"] = "disabled"
    with open(os.path.join(simdir, store.STATE_FILE), "w") as f:
        json.dump(data, f)
    assert read(simdir).get_instance("system/metasync", "default")[
        "state"] == "disabled"


def test_a_written_repository_is_read_from_its_file(simdir):
    with store.locked(simdir) as repo:
        repo.get_instance("system/metasync", "default")["state"] = \
            "disabled"
        repo.touch()
    again = read(simdir)
    assert again.data is not repo.data
    assert again.data == on_disk(simdir) == repo.data
