# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The manifest's SMF template describes exactly the record svmram writes
(lib/svmram/svm/record.py): one required prop_pattern per property, with
the same type, so that svcs -l and svccfg validate explain and check it."""

import os
import xml.etree.ElementTree as ET

from svmram.svm import record
from svmram.svm.intent import METHODS, READ_OPTIONS, WRITE_OPTIONS

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
MANIFEST = os.path.join(REPO, "manifests", "svmram.xml")


def pattern():
    service = ET.parse(MANIFEST).getroot().find("service")
    pgs = service.findall("template/pg_pattern")
    assert [pg.get("name") for pg in pgs] == [record.PG]
    return pgs[0]


def test_the_bundle_has_no_legacy_prefix():
    assert ET.parse(MANIFEST).getroot().get("name") == "svmram"


def test_the_pg_pattern_is_required_on_every_instance():
    pg = pattern()
    assert (pg.get("type"), pg.get("target"), pg.get("required")) == (
        "application", "instance", "true")


def test_one_prop_pattern_per_record_property_with_its_type():
    written = dict(record.PROPERTIES)
    written.update(ramdisk_dev="astring", format="count")
    found = {p.get("name"): p.get("type")
             for p in pattern().findall("prop_pattern")}
    assert found == written
    for prop in pattern().findall("prop_pattern"):
        assert prop.get("required") == "true"
        assert prop.find("description/loctext").text.strip()
        cardinality = prop.find("cardinality")
        assert (cardinality.get("min"), cardinality.get("max")) == ("1", "1")


def constraint_values(name):
    prop = [p for p in pattern().findall("prop_pattern")
            if p.get("name") == name][0]
    return tuple(v.get("name") for v in prop.findall("constraints/value"))


def test_the_options_take_only_the_values_svmram_records():
    assert constraint_values("read_option") == READ_OPTIONS
    assert constraint_values("write_option") == WRITE_OPTIONS
    assert constraint_values("method") == METHODS
