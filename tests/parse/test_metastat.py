# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Plain metastat parsing: real outputs of several releases and layouts."""

import pytest

from svmram.svm import metastat
from svmram.svm.model import (HotSparePool, Mirror, Raid5, SoftPartition,
                              Stripe, Trans)


def parse(fixture_text, name):
    return metastat.parse(fixture_text(name))


def comp_table(stripe):
    """[(device, start, dbase, state, reloc, hot spare)] per component."""
    return [(c.device, c.start_block, c.dbase, c.state, c.reloc, c.hot_spare)
            for c in stripe.components()]


def test_article_after_reboot(fixture_text):
    config = parse(fixture_text, "article_metastat_after_reboot.txt")
    assert config.detailed
    assert [d.name for d in config.devices] == ["d10", "d13", "d11", "d12"]
    d10 = config.get("d10")
    assert isinstance(d10, Mirror)
    assert d10.submirrors == ["d13", "d11", "d12"]
    assert d10.slots == [0, 1, 2]
    assert d10.submirror_states == ["Needs maintenance", "Okay", "Okay"]
    assert d10.state == "Needs maintenance"
    assert (d10.pass_num, d10.read_option, d10.write_option) == (
        1, "first", "parallel")
    assert d10.size_blocks == 460800
    assert (d10.resync, d10.resync_percent) == (None, None)

    d13 = config.get("d13")
    assert isinstance(d13, Stripe)
    assert (d13.parent, d13.state, d13.size_blocks) == (
        "d10", "Needs maintenance", 460800)
    assert d13.invoke == "metareplace d10 c5t0d0s0 <new device>"
    assert comp_table(d13) == [("c5t0d0s0", 0, False, "Maintenance", False,
                                None)]
    d11 = config.get("d11")
    assert (d11.state, d11.size_blocks, d11.invoke) == ("Okay", 465885, None)
    assert comp_table(d11) == [("c0d1s0", 0, False, "Okay", True, None)]
    assert comp_table(config.get("d12")) == [
        ("c1d0s0", 0, False, "Okay", True, None)]
    assert [(r.device, r.reloc, r.device_id) for r in config.relocation] == [
        ("c1d0", True, "id1,cmdk@AQEMU_HARDDISK=QM00003"),
        ("c5t0d0", False, None),
        ("c0d1", True, "id1,cmdk@AQEMU_HARDDISK=QM00002")]


def test_article_after_replace(fixture_text):
    config = parse(fixture_text, "article_metastat_after_replace.txt")
    d10 = config.get("d10")
    assert d10.submirror_states == ["Okay", "Okay", "Okay"]
    assert d10.state == "Okay"
    assert config.get("d13").invoke is None
    assert comp_table(config.get("d13")) == [
        ("c5t0d0s0", 0, False, "Okay", False, None)]
    assert [r.device for r in config.relocation] == ["c5t0d0", "c0d1", "c1d0"]


def test_article_top_level_concat(fixture_text):
    config = parse(fixture_text, "article_metastat_d13.txt")
    d13 = config.get("d13")
    assert (d13.parent, d13.state, d13.size_blocks, d13.invoke) == (
        None, None, 471000, None)
    assert comp_table(d13) == [("c5t0d0s0", 0, False, None, False, None)]


@pytest.mark.parametrize("name, states, ram_state, invoke", [
    ("reference_1_9_healthy.txt", ["Okay", "Okay", "Okay"], "Okay", None),
    ("reference_1_9_after_reboot.txt", ["Needs maintenance", "Okay", "Okay"],
     "Maintenance", "metareplace d10 c5t0d0s0 <new device>"),
])
def test_reference_worked_example(fixture_text, name, states, ram_state,
                                  invoke):
    text = fixture_text(name)
    assert "\tc5t0d0s0          0     No  " in text     # byte-exact layout
    config = metastat.parse(text)
    d10 = config.get("d10")
    assert d10.submirrors == ["d13", "d12", "d11"]
    assert d10.submirror_states == states
    assert (d10.read_option, d10.size_blocks) == ("first", 4194304)
    d13 = config.get("d13")
    assert d13.invoke == invoke
    assert comp_table(d13) == [("c5t0d0s0", 0, False, ram_state, False,
                                None)]
    assert comp_table(config.get("d12")) == [
        ("c1d0s0", 0, False, "Okay", True, None)]
    assert config.relocation[1].device_id == "id1,cmdk@A..."


def test_solaris9_layout_with_three_stripes(fixture_text):
    config = parse(fixture_text, "solaris9_mirror_d70.txt")
    d70 = config.get("d70")
    assert (d70.submirrors, d70.state, d70.size_blocks) == (
        ["d71"], "Okay", 12593637)
    d71 = config.get("d71")
    assert d71.size_blocks == 12593637
    assert comp_table(d71) == [(dev, 0, False, "Okay", True, None) for dev in
                               ("c1t3d0s3", "c1t3d0s4", "c1t3d0s5")]
    assert len(d71.rows) == 3


def test_disksuite_raid5_without_reloc_column(fixture_text):
    raid = parse(fixture_text, "disksuite_raid5_okay.txt").get("d10")
    assert isinstance(raid, Raid5)
    assert (raid.state, raid.interlace_blocks, raid.size_blocks) == (
        "Okay", 32, 10080)
    assert [(c.device, c.start_block, c.state, c.reloc)
            for c in raid.columns] == [
        ("c0t0d0s1", 330, "Okay", None), ("c1t2d0s1", 330, "Okay", None),
        ("c2t3d0s1", 330, "Okay", None)]
    assert raid.original_columns is None


def test_disksuite_raid5_maintenance_and_resync(fixture_text):
    raid = parse(fixture_text, "disksuite_raid5_maintenance.txt").get("d1")
    assert raid.state == "Needs Maintenance"
    assert raid.invoke == "metareplace d1 c0t14d0s6 <new device>"
    assert [c.state for c in raid.columns] == ["Okay"] * 5 + ["Maintenance"]
    raid = parse(fixture_text, "disksuite_raid5_resyncing.txt").get("d1")
    assert (raid.state, raid.progress, raid.progress_tenths) == (
        "Resyncing", "resync", 980)
    assert raid.columns[-1].device == "c0t4d0s6"
    assert raid.columns[-1].state == "Resyncing"


def test_multi_owner_set(fixture_text):
    config = parse(fixture_text, "illumos_man_multiowner.txt")
    mirror = config.get("oban/d100")
    assert mirror.submirrors == ["oban/d10", "oban/d11"]
    assert (mirror.resync_option, mirror.owner) == ("application based",
                                                    "None")
    assert mirror.size_blocks == 1027216
    assert config.get("oban/d11").parent == "oban/d100"
    assert comp_table(config.get("oban/d10")) == [
        ("c1t3d0s0", 0, False, "Okay", None, None)]


def test_solaris11_raid5_initializing(fixture_text):
    config = parse(fixture_text, "solaris11_raid5_initializing.txt")
    raid = config.get("c_r5_v1")
    assert (raid.state, raid.progress, raid.progress_tenths) == (
        "Initializing", "initialization", 476)
    assert (raid.interlace_blocks, raid.size_blocks) == (1024, 83640320)
    assert [(c.device, c.start_block) for c in raid.columns] == [
        ("emcpower8c", 26634), ("emcpower9c", 26634), ("emcpower10c", 22794),
        ("emcpower11c", 26634), ("emcpower12c", 26634)]
    assert {c.state for c in raid.columns} == {"Initializing"}
    assert {c.reloc for c in raid.columns} == {False}
    assert config.relocation[0].device == "emcpower8c"


def test_solaris11_concat_and_set(fixture_text):
    concat = parse(fixture_text, "solaris11_concat.txt").get("c_r0_c1")
    assert comp_table(concat) == [("emcpower2c", 0, False, None, False, None),
                                  ("emcpower3c", 16384, False, None, False,
                                   None)]
    config = parse(fixture_text, "solaris11_set_stripe.txt")
    stripe = config.get("oscsr-test/d60")
    assert stripe.size_blocks == 20963328
    assert comp_table(stripe)[0][0] == \
        "c0t6000144000000010F00268EC3F369388d0s0"
    assert config.relocation[0].device_id == \
        "id1,ssd@n6000144000000010f00268ec3f369388"


def test_every_device_type(fixture_text):
    config = parse(fixture_text, "synthetic_metastat_all_types.txt")
    assert config.stale_replicas
    assert [d.name for d in config.devices] == [
        "d60", "d62", "d20", "d21", "d22", "d70", "d71", "d72", "d80", "d81",
        "d82", "d50", "d40", "d100", "hsp000", "hsp001"]

    trans = config.get("d60")
    assert isinstance(trans, Trans)
    assert (trans.state, trans.size_blocks, trans.master, trans.log) == (
        "Okay", 2097152, "c2t0d0s0", "d62")
    assert (trans.log_state, trans.log_size_blocks) == ("Okay", 20480)

    d20 = config.get("d20")
    assert (d20.resync, d20.resync_percent, d20.resync_tenths) == (
        "active", 1, 15)
    assert d20.submirror_states == ["Okay", "Resyncing"]
    assert d20.state == "Resyncing"
    assert (d20.read_option, d20.write_option, d20.pass_num) == (
        "geometric", "serial", 2)
    d21 = config.get("d21")
    assert d21.hot_spare_pool == "hsp000"
    assert d21.rows[0].interlace_blocks == 32
    assert comp_table(d21)[1] == ("c1t1d0s0", 0, False, "Resyncing", True,
                                  "c4t0d0s0")
    assert [c.start_block for c in config.get("d22").components()] == [0, 1520]

    d70 = config.get("d70")
    assert d70.state == "Needs maintenance"
    assert config.get("d71").invoke == (
        'after replacing "Maintenance" components:\n'
        "metareplace d70 c8t0d0s0 <new device>")
    assert config.get("d71").components()[0].state == "Last Erred"
    assert config.get("d72").invoke == "metareplace d70 c9t0d0s0 <new device>"

    d80 = config.get("d80")
    assert (d80.resync, d80.resync_percent, d80.resync_tenths) == (
        "cancelled", 15, None)
    assert d80.state == "Resync cancelled"
    assert config.get("d82").invoke == "metasync d80"

    raid = config.get("d50")
    assert (raid.hot_spare_pool, raid.original_columns) == ("hsp000", 3)
    assert len(raid.columns) == 4

    d40 = config.get("d40")
    assert (d40.state, d40.invoke, d40.hot_spare_pool) == (
        "Unavailable", "metastat -i", "hsp001")

    sp = config.get("d100")
    assert isinstance(sp, SoftPartition)
    assert (sp.device, sp.state, sp.size_blocks, sp.start_block,
            sp.reloc) == ("c0d1s7", "Okay", 3072, 0, True)
    assert [(e.offset, e.length) for e in sp.extents] == [(1, 1024),
                                                          (2050, 2048)]

    hsp = config.get("hsp000")
    assert isinstance(hsp, HotSparePool)
    assert [(s.device, s.state, s.size_blocks, s.reloc)
            for s in hsp.spares] == [("c4t0d0s0", "In use", 4194304, True),
                                     ("c4t1d0s0", "Available", 4194304, True)]
    assert config.get("hsp001").spares == []
    assert [r.reloc for r in config.relocation] == [True, True, False]


def test_json_of_a_mirror_and_its_submirror(fixture_text):
    data = parse(fixture_text, "article_metastat_after_reboot.txt").to_json()
    d10, d13 = data["devices"][:2]
    assert d10 == {
        "name": "d10", "type": "mirror", "submirrors": ["d13", "d11", "d12"],
        "read_option": "first", "write_option": "parallel", "pass": 1,
        "parent": None, "state": "Needs maintenance", "size_blocks": 460800,
        "invoke": None,
        "submirror_states": ["Needs maintenance", "Okay", "Okay"],
        "slots": [0, 1, 2], "resync": None, "resync_percent": None,
        "resync_tenths": None, "resync_option": None, "owner": None}
    assert d13 == {
        "name": "d13", "type": "stripe",
        "rows": [{"components": [{
            "device": "c5t0d0s0", "state": "Maintenance", "start_block": 0,
            "dbase": False, "reloc": False, "hot_spare": None}],
            "interlace_blocks": None}],
        "hot_spare_pool": None, "parent": "d10", "state": "Needs maintenance",
        "size_blocks": 460800,
        "invoke": "metareplace d10 c5t0d0s0 <new device>"}
    assert data["relocation"][1] == {"device": "c5t0d0", "reloc": False,
                                     "device_id": None}


# Variants of one output: tabs or spaces, trailing blanks or none, case.
def _variants(text):
    yield "spaces for tabs", text.expandtabs(8)
    yield "no trailing blanks", "\n".join(l.rstrip() for l in text.split("\n"))
    yield "no-break spaces", text.replace("    ", "\u00a0 \u00a0")
    yield "lower-case states", (text.replace("Needs maintenance",
                                             "needs maintenance")
                                .replace("Maintenance ", "maintenance ")
                                .replace("Okay", "okay"))
    yield "upper-case states", text.replace("Okay", "OKAY").replace(
        "Needs maintenance", "NEEDS MAINTENANCE")
    yield "CRLF", text.replace("\n", "\r\n")


@pytest.mark.parametrize("variant", [v for v, _ in _variants("")])
def test_layout_and_case_variants_parse_the_same(fixture_text, variant):
    text = fixture_text("reference_1_9_after_reboot.txt")
    expected = metastat.parse(text).to_json()
    changed = dict(_variants(text))[variant]
    assert changed != text
    assert metastat.parse(changed).to_json() == expected


def _mirror_text(resync_line, sub_state="Resyncing"):
    return ("d10: Mirror\n    Submirror 0: d13\n      State: %s\n"
            "%s    Pass: 1\n    Read option: first (-r)\n"
            "    Write option: parallel (default)\n"
            "    Size: 4194304 blocks (2.0 GB)\n\n"
            "d13: Submirror of d10\n    State: %s\n"
            "    Size: 4194304 blocks (2.0 GB)\n    Stripe 0:\n"
            "\tDevice     Start Block  Dbase        State Reloc Hot Spare\n"
            "\tc5t0d0s0          0     No       Resyncing   No  \n"
            % (sub_state, resync_line, sub_state))


@pytest.mark.parametrize("line, resync, percent, tenths", [
    ("    Resync in progress: 15 % done\n", "active", 15, None),
    ("    Resync in progress: 0 % done\n", "active", 0, None),
    ("    Resync in progress:  1.5 % done\n", "active", 1, 15),
    ("    Resync in progress: 99.9 % done\n", "active", 99, 999),
    ("    Resync cancelled: 15 % done\n", "cancelled", 15, None),
    ("    Resync cancelled:  1.5 % done\n", "cancelled", 1, 15),
    ("", None, None, None),
])
def test_resync_percent_forms(line, resync, percent, tenths):
    mirror = metastat.parse(_mirror_text(line)).get("d10")
    assert (mirror.resync, mirror.resync_percent, mirror.resync_tenths) == (
        resync, percent, tenths)


@pytest.mark.parametrize("states, summary", [
    (["Okay", "Okay"], "Okay"),
    (["Okay", "Resyncing"], "Resyncing"),
    (["Resyncing", "Resync cancelled"], "Resync cancelled"),
    (["Resync cancelled", "Last Erred", "Okay"], "Last Erred"),
    (["Last Erred", "Needs maintenance"], "Needs maintenance"),
    (["Needs maintenance", "Unavailable", "Resyncing"], "Unavailable"),
])
def test_mirror_state_is_the_most_severe_submirror_state(states, summary):
    assert Mirror("d10", ["d%d" % i for i in range(len(states))],
                  submirror_states=states).state == summary


def test_named_device_with_unavailable_submirror():
    text = ("d10: Mirror\n    Submirror 0: d13\n      State: Unavailable \n"
            "    Submirror 1: d11\n      State: Okay        \n"
            "    Pass: 1\n    Read option: first (-r)\n"
            "    Write option: parallel (default)\n"
            "    Size: 4194304 blocks (2.0 GB)\n\n"
            "d13: Submirror of d10\n    State: Unavailable\n"
            "    Reconnect disk and invoke: metastat -i\n"
            "    Size: 4194304 blocks (2.0 GB)\n    Stripe 0:\n"
            "\tDevice     Start Block  Dbase        State Reloc Hot Spare\n"
            "\tc5t0d0s0          0     No                -   No  \n\n\n"
            "d11: Submirror of d10\n    State: Okay        \n"
            "    Size: 4194304 blocks (2.0 GB)\n    Stripe 0:\n"
            "\tDevice   Start Block  Dbase        State Reloc Hot Spare\n"
            "\tc0d1s0          0     No            Okay   Yes \n")
    config = metastat.parse(text)
    assert config.get("d10").state == "Unavailable"
    d13 = config.get("d13")
    assert (d13.state, d13.invoke) == ("Unavailable", "metastat -i")
    assert d13.components()[0].state == "-"


def test_empty_output_is_an_empty_config():
    config = metastat.parse("")
    assert config.devices == [] and config.relocation == []


@pytest.mark.parametrize("stderr, services", [
    ("metastat: myhost: \n\tsystem/mdmonitor:default\n"
     "\tnetwork/rpc/meta:default: service(s) not online in SMF\n\n",
     ("system/mdmonitor:default", "network/rpc/meta:default")),
    ("metastat: box.example.com: \n\tsystem/metasync:default: "
     "service(s) not online in SMF\n\n", ("system/metasync:default",)),
    ("metastat: myhost: service(s) not online in SMF\n\n", None),
    ("metastat: myhost: d99: unit not set up\n\n", None),
    ("metastat: myhost: d99: unit not set up\n\nmetastat: myhost: \n"
     "\tsystem/mdmonitor:default: service(s) not online in SMF\n\n", None),
    ("", None),
])
def test_smf_not_online(stderr, services):
    """meta_smf.c online() names each service as "\\n\\t%s"; the message
    must be all of stderr (metastat.c runs the check after printing)."""
    assert metastat.smf_not_online(stderr) == services


def test_blank_lines_after_the_relocation_table_are_accepted(fixture_text):
    """Real metastat output can end with blank lines after the Device
    Relocation table (issue 9); a table with no header is still refused."""
    from svmram.errors import ParseError
    text = fixture_text("reference_1_9_healthy.txt")
    plain = metastat.parse(text)
    for extra in ("\n", "\n\n\n", "   \n\t\n"):
        assert metastat.parse(text + extra).to_json() == plain.to_json()
    headless = text.replace("Device   Reloc\tDevice ID\n", "")
    with pytest.raises(ParseError):
        metastat.parse(headless + "\n")
