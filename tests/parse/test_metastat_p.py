# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metastat -p parsing: real outputs, every line kind, both path forms."""

import pytest

from svmram.svm import metastat_p
from svmram.svm.model import (HotSparePool, Mirror, Raid5, SoftPartition,
                              Trans)


def parse(fixture_text, name):
    return metastat_p.parse(fixture_text(name))


def components(stripe):
    return [[c.device for c in row.components] for row in stripe.rows]


def test_article_ram_first(fixture_text):
    config = parse(fixture_text, "article_p_ram_first.txt")
    assert [d.name for d in config.devices] == ["d10", "d13", "d11", "d12"]
    d10 = config.get("d10")
    assert isinstance(d10, Mirror)
    assert d10.submirrors == ["d13", "d12", "d11"]
    assert (d10.read_option, d10.write_option, d10.pass_num) == (
        "roundrobin", "parallel", 1)
    assert components(config.get("d13")) == [["c5t0d0s0"]]
    assert components(config.get("d11")) == [["c1d0s0"]]
    assert components(config.get("d12")) == [["c0d1s0"]]
    assert [config.get(n).parent for n in ("d13", "d12", "d11")] == [
        "d10", "d10", "d10"]
    assert config.mirrors() == [d10]
    assert not config.detailed and not config.stale_replicas


@pytest.mark.parametrize("name, submirrors, disks", [
    ("article_p_two_way.txt", ["d11", "d12"], ["c0d1s0", "c1d0s0"]),
    ("article_p_three_way.txt", ["d11", "d12", "d13"],
     ["c1d0s0", "c0d1s0", "c5t0d0s0"]),
    ("article_p_d80.txt", ["d81", "d82", "d83"],
     ["c3t2d0s0", "c3t3d0s0", "c7t0d0s0"]),
])
def test_article_mirrors(fixture_text, name, submirrors, disks):
    config = parse(fixture_text, name)
    mirror = config.mirrors()[0]
    assert mirror.submirrors == submirrors
    assert [components(config.get(s))[0][0] for s in submirrors] == disks


def test_reference_full_paths_become_short_names(fixture_text):
    config = parse(fixture_text, "reference_p_full.txt")
    d10 = config.get("d10")
    assert d10.submirrors == ["d13", "d12", "d11"]
    assert d10.read_option == "first"
    assert components(config.get("d13")) == [["c5t0d0s0"]]


@pytest.mark.parametrize("full, short", [
    ("reference_p_full.txt", "reference_p_short.txt"),
    ("synthetic_p_all_full.txt", "synthetic_p_all_short.txt"),
    ("synthetic_p_set_full.txt", "synthetic_p_set_short.txt"),
])
def test_full_and_short_forms_give_the_same_model(fixture_text, full, short):
    assert (parse(fixture_text, full).to_json()["devices"]
            == parse(fixture_text, short).to_json()["devices"])


def test_every_line_kind(fixture_text):
    config = parse(fixture_text, "synthetic_p_all_full.txt")
    trans = config.get("d60")
    assert isinstance(trans, Trans)
    assert (trans.master, trans.log) == ("d61", "d62")
    assert config.get("d61").parent == "d60"
    assert config.get("d62").parent is None     # logs may be shared

    d20 = config.get("d20")
    assert (d20.submirrors, d20.read_option, d20.write_option,
            d20.pass_num) == (["d21", "d22"], "geometric", "serial", 2)
    d21 = config.get("d21")
    assert components(d21) == [["c1t0d0s0", "c1t1d0s0"]]
    assert d21.rows[0].interlace_blocks == 32
    assert d21.hot_spare_pool == "hsp000"
    d22 = config.get("d22")
    assert components(d22) == [["c1t2d0s1"], ["c1t3d0s1"]]
    assert [r.interlace_blocks for r in d22.rows] == [None, None]
    assert d22.hot_spare_pool == "hsp001"
    d31 = config.get("d31")
    assert components(d31) == [["c5t0d0s0", "c5t1d0s0"], ["c5t2d0s0"],
                               ["c5t3d0s0", "c5t4d0s0"]]
    assert [r.interlace_blocks for r in d31.rows] == [1024, None, 64]
    assert config.get("d30").pass_num == 0

    raid = config.get("d50")
    assert isinstance(raid, Raid5)
    assert [c.device for c in raid.columns] == [
        "c3t0d0s0", "c3t1d0s0", "c3t2d0s0", "c3t3d0s0"]
    assert (raid.interlace_blocks, raid.prewrite_count, raid.hot_spare_pool,
            raid.original_columns) == (32, 4, "hsp000", 3)

    d101 = config.get("d101")
    assert isinstance(d101, SoftPartition)
    assert d101.device == "c0d1s7"
    assert [(e.offset, e.length) for e in d101.extents] == [
        (2097154, 1024), (4194306, 2048)]
    assert d101.parent == "d40"
    assert components(config.get("d40")) == [["d101"]]
    assert config.get("d100").extents[0].length == 2097152
    assert config.get("d102").device == "emcpower0c"

    hsp = config.get("hsp000")
    assert isinstance(hsp, HotSparePool)
    assert [s.device for s in hsp.spares] == ["c4t0d0s0", "c4t1d0s0"]
    assert config.get("hsp001").spares == []


def test_disk_set_names_and_stale_banner(fixture_text):
    config = parse(fixture_text, "synthetic_p_set_full.txt")
    assert config.stale_replicas
    mirror = config.get("blue/d10")
    assert mirror.submirrors == ["blue/d11", "blue/d12"]
    assert config.get("blue/d11").hot_spare_pool == "blue/hsp000"
    assert config.get("blue/d70").master == "blue/d71"
    assert config.users()["blue/d71"] == ["blue/d70"]


def test_solaris11_paths_and_space_continuations(fixture_text):
    config = parse(fixture_text, "solaris11_p_paths.txt")
    assert len(config.devices) == 10
    assert config.get("x_r0_m20").submirrors == ["x_r0_s21", "x_r0_s22"]
    assert components(config.get("x_r0_s21")) == [
        ["emcpower20c", "emcpower21c"]]
    assert config.get("x_r0_s21").rows[0].interlace_blocks == 1024
    assert components(config.get("c_r0_c1")) == [["emcpower2c"],
                                                 ["emcpower3c"]]
    assert config.get("c_r0_c1").parent is None


def test_continuation_without_space_before_backslash():
    config = metastat_p.parse("d30 2 1 c1t0d0s1\\\n\t1 c1t1d0s1\n")
    assert components(config.get("d30")) == [["c1t0d0s1"], ["c1t1d0s1"]]


def test_blank_lines_crlf_and_no_final_newline():
    config = metastat_p.parse("\r\nd10 -m d11 1\r\n\r\nd11 1 1 c0d1s0")
    assert config.get("d10").submirrors == ["d11"]
    assert components(config.get("d11")) == [["c0d1s0"]]


def test_empty_output_is_an_empty_config():
    assert metastat_p.parse("").devices == []


def test_other_absolute_paths_are_kept_whole():
    config = metastat_p.parse("d11 1 2 /dev/did/rdsk/d5s0 /dev/did/rdsk/d6s0"
                              " -i 32b\n")
    assert components(config.get("d11")) == [
        ["/dev/did/rdsk/d5s0", "/dev/did/rdsk/d6s0"]]


def test_json_shape(fixture_text):
    data = parse(fixture_text, "synthetic_p_all_full.txt").to_json()
    assert data["stale_replicas"] is False and data["relocation"] == []
    by_name = {d["name"]: d for d in data["devices"]}
    assert by_name["d20"] == {
        "name": "d20", "type": "mirror", "submirrors": ["d21", "d22"],
        "read_option": "geometric", "write_option": "serial", "pass": 2,
        "parent": None}
    assert by_name["d21"] == {
        "name": "d21", "type": "stripe",
        "rows": [{"components": ["c1t0d0s0", "c1t1d0s0"],
                  "interlace_blocks": 32}],
        "hot_spare_pool": "hsp000", "parent": "d20"}
    assert by_name["d100"] == {
        "name": "d100", "type": "softpart", "device": "c0d1s7",
        "extents": [{"offset": 1, "length": 2097152}], "parent": None}
    assert by_name["hsp000"] == {"name": "hsp000", "type": "hsp",
                                 "spares": ["c4t0d0s0", "c4t1d0s0"]}
    assert by_name["d60"]["type"] == "trans"
    assert by_name["d50"]["type"] == "raid5"
    assert by_name["d50"]["columns"][0] == "c3t0d0s0"
