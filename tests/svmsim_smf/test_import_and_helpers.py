# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg import, and smf.set_state (what svc.startd records)."""

import multiprocessing

import pytest

from svmsim import smf

INST = "svc:/system/svmram:d10"


def _write(tmp_path, text, name="m.xml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_import_creates_service_and_instances(sim, tmp_path, svmram_xml):
    path = _write(tmp_path, svmram_xml)
    assert sim("svccfg", "import", path) == (0, "", "")
    assert sim("svcs", "-H", "svmram") == \
        (0, "online         22:13:20 svc:/system/svmram:d10\n", "")
    # Imported instances are refreshed: the running snapshot has it all.
    assert sim("svcprop", "-p", "svmram", INST) == (0, (
        "svmram/size astring 2g\n"
        "svmram/disks astring c1t0d0s0 c1t1d0s0\n"), "")
    assert sim("svcprop", "-p", "startd/duration", INST) == \
        (0, "transient\n", "")
    assert sim("svcprop", "-p", "start/exec", INST) == \
        (0, "/opt/svmram/sbin/svmram\n", "")
    assert sim("svcprop", "-p", "metasync", INST) == (0, (
        "metasync/entities fmri svc:/system/metasync\n"
        "metasync/grouping astring require_all\n"
        "metasync/restart_on astring none\n"
        "metasync/type astring service\n"), "")
    assert sim("svcprop", "-p", "tm_common_name/C", INST) == \
        (0, "SVM\\ ramdisk\\ submirror\\ restore\n", "")
    assert sim("svcprop", "-p", "general/enabled", INST) == \
        (0, "true\n", "")
    assert sim("svcs", "-d", INST) == \
        (0, "STATE          STIME    FMRI\n"
            "online         22:13:20 svc:/system/metasync:default\n", "")


def test_reimport_keeps_administrator_changes(sim, tmp_path, svmram_xml):
    path = _write(tmp_path, svmram_xml)
    sim("svccfg", "import", path)
    sim("svccfg", "-s", INST, "setprop", "svmram/size", "=", "astring:",
        "8g")
    sim("svcadm", "disable", INST)
    newer = svmram_xml.replace("c1t1d0s0", "c2t1d0s0").replace(
        "value='2g'", "value='4g'")
    assert sim("svccfg", "import", _write(tmp_path, newer)) == (0, "", "")
    assert sim("svcprop", "-p", "svmram", INST) == (0, (
        "svmram/size astring 8g\n"
        "svmram/disks astring c1t0d0s0 c2t1d0s0\n"), "")
    # Re-import leaves an existing instance's enabled state alone.
    assert sim("svcs", "-Ho", "state", INST) == (0, "disabled\n", "")


def test_import_disabled_and_default_instances(sim, tmp_path, svmram_xml):
    text = svmram_xml.replace("enabled='true'", "enabled='false'").replace(
        "<stability value='Unstable'/>",
        "<stability value='Unstable'/>").replace(
        "<instance name='d10'",
        "<create_default_instance enabled='true'/>\n  <instance name='d10'")
    assert sim("svccfg", "import", _write(tmp_path, text)) == (0, "", "")
    assert sim("svcs", "-H", "-o", "state,fmri", "svmram") == (0, (
        "online         svc:/system/svmram:default\n"
        "disabled       svc:/system/svmram:d10\n"), "")


def test_import_errors(sim, tmp_path, svmram_xml):
    missing = str(tmp_path / "nope.xml")
    assert sim("svccfg", "import", missing) == \
        (1, "", "svccfg: Unable to stat file %s.  No such file or "
                "directory\n" % missing)
    no_dtd = svmram_xml.replace(
        '<!DOCTYPE service_bundle SYSTEM '
        '"/usr/share/lib/xml/dtd/service_bundle.dtd.1">\n', "")
    assert sim("svccfg", "import", _write(tmp_path, no_dtd)) == \
        (1, "", "svccfg: document has no DTD\n")
    other_dtd = svmram_xml.replace("service_bundle.dtd.1", "other.dtd")
    assert sim("svccfg", "import", _write(tmp_path, other_dtd)) == \
        (1, "", "svccfg: document DTD unknown; not service bundle?\n")
    profile = svmram_xml.replace("type='manifest'", "type='profile'")
    assert sim("svccfg", "import", _write(tmp_path, profile)) == \
        (1, "", "svccfg: document is not a manifest.\n")
    assert sim("svccfg", "import", _write(tmp_path, "<service_bundle")) == \
        (1, "", "svccfg: couldn't parse document\n")
    bad_value = svmram_xml.replace(
        "name='size' type='astring' value='2g'",
        "name='size' type='count' value='2g'")
    assert sim("svccfg", "import", _write(tmp_path, bad_value)) == \
        (1, "", 'svccfg: Invalid "count" value "2g".\n')
    assert sim("svccfg", "import") == (1, "", "svccfg: Syntax error.\n")
    # Nothing was imported.
    assert sim("svcs", "svmram")[0] == 1


def test_svccfg_validate(sim, tmp_path, svmram_xml):
    assert sim("svccfg", "validate", _write(tmp_path, svmram_xml)) == \
        (0, "", "")
    profile = svmram_xml.replace("type='manifest'", "type='profile'")
    assert sim("svccfg", "validate", _write(tmp_path, profile, "p.xml")) \
        == (1, "", "svccfg: document is not a manifest.\n")


def test_set_state(sim, tmp_path, svmram_xml):
    sim("svccfg", "import", _write(tmp_path, svmram_xml))
    sim.clock["t"] += 30
    smf.set_state(sim.dir, "svmram:d10", "maintenance",
                  reason="restarting_too_quickly")
    assert sim("svcs", "-H", INST) == \
        (0, "maintenance    22:13:50 svc:/system/svmram:d10\n", "")
    assert sim("svcs", "-x", INST)[1].splitlines()[2] == \
        "Reason: Restarting too quickly."
    assert sim("svcprop", "-p", "restarter/auxiliary_state", INST)[1] == \
        "restarting_too_quickly\n"
    with pytest.raises(ValueError):
        smf.set_state(sim.dir, INST, "sleeping")
    with pytest.raises(KeyError):
        smf.set_state(sim.dir, "svc:/system/svmram:d99", "online")
    smf.set_state(sim.dir, INST, "online")
    assert sim("svcs", "-x") == (0, "", "")


def _setprop_worker(args):
    simdir, i = args
    return smf.main("svccfg", ["-s", INST, "setprop",
                               "svmram/p%d" % i, "=", "count:", str(i)],
                    simdir)


def test_concurrent_writers_do_not_lose_updates(sim, tmp_path, svmram_xml):
    sim("svccfg", "import", _write(tmp_path, svmram_xml))
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(4) as pool:
        rcs = pool.map(_setprop_worker, [(sim.dir, i) for i in range(12)])
    assert rcs == [0] * 12
    rc, o, e = sim("svcprop", "-c", "-p", "svmram", INST)
    for i in range(12):
        assert "svmram/p%d count %d\n" % (i, i) in o
