# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The model's names, lookups and JSON."""

import pytest

from svmram.svm.model import (Component, Config, Mirror, Row, SoftPartition,
                              Stripe, short_name)


@pytest.mark.parametrize("token, name", [
    ("d10", "d10"),
    ("blue/d10", "blue/d10"),
    ("c5t0d0s0", "c5t0d0s0"),
    ("/dev/md/rdsk/d13", "d13"),
    ("/dev/md/dsk/d13", "d13"),
    ("/dev/md/blue/rdsk/d10", "blue/d10"),
    ("/dev/rdsk/c5t0d0s0", "c5t0d0s0"),
    ("/dev/dsk/emcpower0c", "emcpower0c"),
    ("/dev/did/rdsk/d4s0", "/dev/did/rdsk/d4s0"),
    ("-m", None),
    ("1", None),
    ("d10,", None),
    ("/dev/md/rdsk/", None),
])
def test_short_name(token, name):
    assert short_name(token) == name


def small_config():
    config = Config()
    config.add(Mirror("d10", ["d13", "d11"]))
    config.add(Stripe("d13", [Row([Component("c5t0d0s0")])]))
    config.add(Stripe("d11", [Row([Component("c0d1s0")])]))
    config.add(SoftPartition("d100", "c0d1s7"))
    config.add(SoftPartition("d101", "c0d1s7"))
    return config


def test_config_lookups():
    config = small_config()
    assert config.get("d13").name == "d13"
    assert config.get("d99") is None
    assert "d11" in config and "d99" not in config
    assert [m.name for m in config.mirrors()] == ["d10"]
    users = config.users()
    assert users["d13"] == ["d10"] and users["c5t0d0s0"] == ["d13"]
    assert users["c0d1s7"] == ["d100", "d101"]       # two on one slice
    assert "d10" not in users
    with pytest.raises(ValueError):
        config.add(Stripe("d13"))


def test_assign_parents():
    config = small_config()
    config.assign_parents()
    assert [config.get(n).parent for n in ("d10", "d13", "d11")] == [
        None, "d10", "d10"]


def test_json_without_and_with_states():
    stripe = Stripe("d13", [Row([Component("c5t0d0s0", 0, False, "Okay",
                                           False)])], parent="d10",
                    state="Okay", size_blocks=100)
    assert stripe.to_json(False) == {
        "name": "d13", "type": "stripe",
        "rows": [{"components": ["c5t0d0s0"], "interlace_blocks": None}],
        "hot_spare_pool": None, "parent": "d10"}
    detailed = stripe.to_json(True)
    assert detailed["rows"][0]["components"][0]["state"] == "Okay"
    assert (detailed["state"], detailed["size_blocks"],
            detailed["invoke"]) == ("Okay", 100, None)
