# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""python3 -m svmram.svm.tojson KIND as a subprocess."""

import json
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def run(args, stdin):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "lib"))
    return subprocess.run([sys.executable, "-m", "svmram.svm.tojson"] + args,
                          input=stdin.encode("utf-8"), capture_output=True,
                          cwd=REPO, env=env, timeout=60)


def run_ok(kind, text):
    result = run([kind], text)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    return json.loads(result.stdout)


def test_metastat_p(fixture_text):
    data = run_ok("metastat-p", fixture_text("reference_p_full.txt"))
    assert set(data) >= {"devices"}
    d10, d13 = data["devices"][:2]
    assert (d10["name"], d10["type"], d10["submirrors"], d10["read_option"],
            d10["write_option"], d10["pass"]) == (
        "d10", "mirror", ["d13", "d12", "d11"], "first", "parallel", 1)
    assert d13 == {"name": "d13", "type": "stripe",
                   "rows": [{"components": ["c5t0d0s0"],
                             "interlace_blocks": None}],
                   "hot_spare_pool": None, "parent": "d10"}


def test_metastat(fixture_text):
    data = run_ok("metastat", fixture_text(
        "article_metastat_after_reboot.txt"))
    d10 = data["devices"][0]
    assert (d10["state"], d10["size_blocks"], d10["submirror_states"],
            d10["resync_percent"], d10["resync"], d10["invoke"]) == (
        "Needs maintenance", 460800, ["Needs maintenance", "Okay", "Okay"],
        None, None, None)
    d13 = data["devices"][1]
    assert d13["parent"] == "d10"
    assert d13["invoke"] == "metareplace d10 c5t0d0s0 <new device>"
    assert d13["rows"][0]["components"][0] == {
        "device": "c5t0d0s0", "state": "Maintenance", "start_block": 0,
        "dbase": False, "reloc": False, "hot_spare": None}


def test_metastat_soft_partition_and_hsp(fixture_text):
    data = run_ok("metastat", fixture_text(
        "synthetic_metastat_all_types.txt"))
    by_name = {d["name"]: d for d in data["devices"]}
    assert by_name["d100"]["extents"] == [{"offset": 1, "length": 1024},
                                          {"offset": 2050, "length": 2048}]
    assert by_name["hsp000"]["spares"][0] == {
        "device": "c4t0d0s0", "state": "In use", "size_blocks": 4194304,
        "reloc": True}
    assert by_name["d20"]["resync_tenths"] == 15
    assert data["stale_replicas"] is True


def test_metaparam(fixture_text):
    assert run_ok("metaparam", fixture_text(
        "article_metaparam_first.txt")) == {
        "name": "d10", "pass": 1, "read_option": "first",
        "write_option": "parallel", "resync_option": None}


def test_metadb(fixture_text):
    data = run_ok("metadb", fixture_text("solaris11_metadb_i.txt"))
    assert data["replicas"][0] == {"flags": "au", "first_block": 16,
                                   "block_count": 8192, "device": "c1t0d0s6"}
    assert len(data["replicas"]) == 3
    assert data["problems"] == []


def test_metadb_problems(fixture_text):
    data = run_ok("metadb", fixture_text(
        "solaris9_metadb_i_write_error.txt"))
    assert data["problems"] == [{
        "device": "c2t3d0s1", "first_block": 16, "flags": "W",
        "problems": [
            {"flag": "W", "meaning": "replica has device write errors"},
            {"flag": "a", "meaning": "not active (no a flag)"},
            {"flag": "u", "meaning": "not up to date (no u flag)"}]}]


def test_ramdiskadm(fixture_text):
    data = run_ok("ramdiskadm", fixture_text("illumos_man_ramdiskadm.txt"))
    assert data["ramdisks"][2] == {"name": "mydisk",
                                   "device": "/dev/ramdisk/mydisk",
                                   "size_bytes": 2097152, "removable": True}
    assert run_ok("ramdiskadm", "") == {"ramdisks": []}


def test_no_break_spaces_on_stdin(fixture_text):
    text = fixture_text("article_metastat_d13.txt")
    assert "\u00a0" in text
    assert run_ok("metastat", text)["devices"][0]["size_blocks"] == 471000


@pytest.mark.parametrize("kind, text, where", [
    ("metastat-p", "d10 -m d11\nd11 1 1 c0d1s0\n", "line 1: "),
    ("metastat-p", "d13 1 1 c1d0s0\nd13 1 2 c1d0s0\n", "line 2: "),
    ("metastat", "d10: Mirror\n    Bogus: 1\n", "line 2: "),
    ("metaparam", "hello\n", "line 1: "),
    ("metadb", "flags first blk block count\nxyz\n", "line 2: "),
])
def test_parse_error_is_one_line_and_exit_1(kind, text, where):
    result = run([kind], text)
    assert result.returncode == 1
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("svmram.svm.tojson: cannot parse ")
    assert where in lines[0]


@pytest.mark.parametrize("args", [[], ["metastat-q"], ["metastat", "extra"]])
def test_bad_kind_or_usage_exits_2(args):
    result = run(args, "")
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().startswith("usage: python3 -m svmram.svm.tojson")


def test_help():
    result = run(["--help"], "")
    assert result.returncode == 0
    assert result.stdout.decode().startswith("usage:")
