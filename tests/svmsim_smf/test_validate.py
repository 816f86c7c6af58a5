# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg validate of an instance against the service's template
(svccfg_libscf.c lscf_validate(), lscf_validate_fmri(); libscf
scf_tmpl.c scf_tmpl_validate_fmri(), scf_tmpl_strerror()), with the
project's manifest and the record svmram setup writes."""

import os

import pytest

from svmram.svm import record
from svmsim.smf import store

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
MANIFEST = os.path.join(REPO, "manifests", "svmram.xml")
INST = "svc:/system/svmram:d10"

# A record as svmram setup writes it (smf.write_commands()).
VALUES = {"mirror": "d10", "ram": "d13", "ramdisk": "svmram_d10",
          "size_bytes": "239075328", "link": "c90t0d0s0",
          "method": "rotate", "disks": "d11,d12",
          "read_option": "roundrobin", "write_option": "parallel",
          "pass_num": "1", "size_blocks": "465885",
          "ramdisk_dev": "133,0", "format": "1"}
TYPES = dict(record.PROPERTIES, ramdisk_dev="astring", format="count")

TAIL = ('Template source="svc:/system/svmram"; pg_pattern name="svmram"; '
        'pg_pattern type="application"')


def prop_tail(name, ty):
    return '%s; prop_pattern name="%s"; prop_pattern type="%s"' % (
        TAIL, name, ty)


@pytest.fixture
def d10(sim):
    assert sim("svccfg", "import", MANIFEST) == (0, "", "")
    assert sim("svccfg", "-s", "svc:/system/svmram", "add", "d10")[0] == 0
    return sim


def write_record(sim):
    assert sim("svccfg", "-s", INST, "addpg", "svmram", "application")[0] \
        == 0
    for name, value in VALUES.items():
        assert sim("svccfg", "-s", INST, "setprop", "svmram/" + name, "=",
                   TYPES[name] + ":", value) == (0, "", "")


def setprop(sim, name, ty, value):
    assert sim("svccfg", "-s", INST, "setprop", "svmram/" + name, "=",
               ty + ":", value) == (0, "", "")


def test_the_import_stores_the_template_as_svccfg_does(d10):
    sim = d10
    out = sim("svcprop", "-p", "tm_pgpatnt_svmram", "svc:/system/svmram")[1]
    assert "tm_pgpatnt_svmram/target astring instance\n" in out
    assert "tm_pgpatnt_svmram/required boolean true\n" in out
    out = sim("svcprop", "-p", "tm_proppat_nt_svmram_method",
              "svc:/system/svmram")[1]
    assert "tm_proppat_nt_svmram_method/pg_pattern astring " \
        "tm_pgpatnt_svmram\n" in out
    assert "tm_proppat_nt_svmram_method/constraint_name astring swap " \
        "rotate copy\n" in out
    assert "tm_proppat_nt_svmram_method/cardinality_max count 1\n" in out
    out = sim("svcprop", "-p", "tm_proppat_nt_svmram_pass_num",
              "svc:/system/svmram")[1]
    assert "tm_proppat_nt_svmram_pass_num/constraint_range astring 0,9\n" \
        in out


def test_a_record_as_setup_writes_it_validates(d10):
    sim = d10
    write_record(sim)
    # Every way of naming the instance; no output and exit 0.
    for argv in (("validate", INST), ("validate", "svmram:d10"),
                 ("validate", "d10"), ("-s", INST, "validate")):
        assert sim("svccfg", *argv) == (0, "", ""), argv


def test_an_instance_without_the_record_misses_the_required_group(d10):
    assert d10("svccfg", "validate", INST) == (
        0, "", 'Required property group missing: FMRI="%s"; Name of missing '
        'property group="svmram"; Type of missing property group='
        '"application"; %s\n' % (INST, TAIL))


def test_a_property_of_the_wrong_type(d10):
    sim = d10
    write_record(sim)
    setprop(sim, "size_bytes", "astring", "228m")
    # Once by _check_property()'s type check and once for the value
    # (_value_in_constraint()); the exit status stays 0 (lscf_validate_fmri
    # prints the errors without semerr()).
    line = ('Property has bad type: FMRI="%s"; Property group="svmram"; '
            'Property name="size_bytes"; Specified property type="count"; '
            'Actual property type="astring"; %s\n'
            % (INST, prop_tail("size_bytes", "count")))
    assert sim("svccfg", "validate", INST) == (0, "", line * 2)


def test_a_missing_required_property(d10):
    sim = d10
    write_record(sim)
    assert sim("svccfg", "-s", INST, "delprop", "svmram/ramdisk_dev")[0] == 0
    assert sim("svccfg", "validate", INST) == (
        0, "", 'Required property missing: FMRI="%s"; Property group='
        '"svmram"; Name of missing property="ramdisk_dev"; %s\n'
        % (INST, prop_tail("ramdisk_dev", "astring")))


def test_values_outside_the_constraints(d10):
    sim = d10
    write_record(sim)
    setprop(sim, "method", "astring", "mirror")
    setprop(sim, "pass_num", "count", "10")
    setprop(sim, "size_bytes", "count", "0")
    # In the order of the record's properties.
    assert sim("svccfg", "validate", INST) == (0, "", "".join([
        'Property value is out of range: FMRI="%s"; Property group="svmram"; '
        'Property name="size_bytes"; Actual value="0"; %s\n'
        % (INST, prop_tail("size_bytes", "count")),
        'Property has illegal value: FMRI="%s"; Property group="svmram"; '
        'Property name="method"; Illegal value="mirror"; %s\n'
        % (INST, prop_tail("method", "astring")),
        'Property value is out of range: FMRI="%s"; Property group="svmram"; '
        'Property name="pass_num"; Actual value="10"; %s\n'
        % (INST, prop_tail("pass_num", "count"))]))


def test_too_many_values(d10):
    sim = d10
    write_record(sim)
    # Two values (svccfg's list form, which the emulator leaves out).
    with store.locked(sim.dir) as repo:
        repo.get_instance("system/svmram", "d10")["pgs"]["svmram"][
            "props"]["read_option"]["values"] = ["first", "roundrobin"]
        repo.touch()
    assert sim("svccfg", "validate", INST) == (
        0, "", 'Number of property values violates cardinality restriction: '
        'FMRI="%s"; Property group="svmram"; Property name="read_option"; '
        'Cardinality minimum="1"; Cardinality maximum="1"; Actual number of '
        'values="2"; %s\n' % (INST, prop_tail("read_option", "astring")))


def test_validate_refusals_exit_1(d10):
    sim = d10
    assert sim("svccfg", "-s", "svc:/system/svmram", "validate") == (
        1, "", "svccfg: No instance selected\n")
    # "svc:" is stripped before the walk (lscf_validate()).
    assert sim("svccfg", "validate", "svc:/system/svmram:d99") == (
        1, "", "svccfg: Pattern '/system/svmram:d99' doesn't match any "
        "instances\n")
    assert sim("svccfg", "validate", "nosuch:d99") == (
        1, "", "svccfg: Pattern 'nosuch:d99' doesn't match any instances\n")


def test_a_readable_file_is_validated_as_a_manifest(d10, tmp_path):
    sim = d10
    assert sim("svccfg", "validate", MANIFEST) == (0, "", "")
    assert sim("svccfg", "validate", "file:" + MANIFEST) == (0, "", "")
    broken = tmp_path / "broken.xml"
    broken.write_text("<service_bundle")
    assert sim("svccfg", "validate", str(broken)) == (
        1, "", "svccfg: couldn't parse document\n")
