# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Issue 9 section 5: output that older releases and the documentation
print parses to the same model; what is truly malformed is still refused.

Each real example is a fixture (fixtures/README.md names its source);
the layout variants (letter case, tabs or spaces, trailing blanks, blank
lines) are applied to every metastat fixture and must give the same
model as the fixture itself.
"""

import os
import re

import pytest

from svmram.errors import ParseError
from svmram.svm import listings, metastat, metastat_p
from svmram.svm.model import HotSparePool, Stripe, Trans

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "fixtures")


def read_fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8",
              newline="") as handle:
        return handle.read()


def _kind(name):
    for word, kind in (("_p_", "metastat-p"), ("metaparam", "metaparam"),
                       ("metadb", "metadb"), ("ramdiskadm", "ramdiskadm")):
        if word in name:
            return kind
    return "metastat"


METASTAT_FIXTURES = sorted(n for n in os.listdir(FIXTURES)
                           if n.endswith(".txt") and _kind(n) == "metastat")
METASTAT_P_FIXTURES = sorted(n for n in os.listdir(FIXTURES)
                             if n.endswith(".txt")
                             and _kind(n) == "metastat-p")


# --- real outputs newly accepted -------------------------------------------

def test_disksuite_trans_without_reloc_columns():
    """DiskSuite 4.2.1 prints the master and log tables without Reloc and
    names a slice as the logging device."""
    config = metastat.parse(read_fixture("disksuite_trans_d20.txt"))
    assert [d.name for d in config.devices] == ["d20"]
    trans = config.get("d20")
    assert isinstance(trans, Trans)
    assert (trans.state, trans.size_blocks, trans.master, trans.log) == (
        "Okay", 102816, "c0t3d0s4", "c0t2d0s3")
    assert (trans.log_state, trans.log_size_blocks) == ("Okay", 5350)


def test_disksuite_trans_as_the_guide_prints_it_is_refused():
    """The guide's page says 'Logging device for d0' under trans d20: a
    log for a trans that is not in the output is refused, not guessed."""
    text = read_fixture("disksuite_trans_d20.txt").replace(
        "Logging device for d20", "Logging device for d0")
    with pytest.raises(ParseError) as info:
        metastat.parse(text)
    assert info.value.lineno == 10
    assert "not the log of a trans device d0" in str(info.value)


def test_solaris9_hot_spare_pool_without_column_header():
    config = metastat.parse(read_fixture("solaris9_hsp001.txt"))
    pool = config.get("hsp001")
    assert isinstance(pool, HotSparePool)
    assert [(s.device, s.state, s.size_blocks, s.reloc)
            for s in pool.spares] == [("c1t3d0s2", "Available", 16800, None)]


@pytest.mark.parametrize("text, lineno, fragment", [
    # the header says 2 spares, one row follows
    ("hsp001: 2 hot spares\n\tc1t3d0s2\tAvailable\t16800 blocks\n", 1,
     "header says 2 spares, found 1"),
    # a blank line ends the rows; a row after it is not part of the pool
    ("hsp001: 2 hot spares\n\tc1t3d0s2\tAvailable\t16800 blocks\n\n"
     "\tc1t4d0s2\tAvailable\t16800 blocks\n", 4, "unexpected line"),
    # a row that is not a spare
    ("hsp001: 1 hot spare\n\tc1t3d0s2\tAvailable\t16800\n", 2,
     "bad hot spare line"),
    ("hsp001: 1 hot spare\n\tc1t3d0s2\tFree\t16800 blocks\n", 2,
     "unknown state"),
])
def test_malformed_hot_spare_pools_are_refused(text, lineno, fragment):
    with pytest.raises(ParseError) as info:
        metastat.parse(text)
    assert info.value.lineno == lineno
    assert fragment in str(info.value)


def test_disksuite_top_level_concat_with_dbase_only_columns():
    stripe = metastat.parse(read_fixture("disksuite_concat_d0.txt")).get("d0")
    assert isinstance(stripe, Stripe)
    assert (stripe.parent, stripe.state, stripe.size_blocks) == (
        None, None, 3546160)
    assert [row.interlace_blocks for row in stripe.rows] == [32]
    assert [(c.device, c.start_block, c.dbase, c.state, c.reloc)
            for c in stripe.components()][:2] == [
        ("c1t0d0s0", 0, False, None, None),
        ("c1t0d1s0", 1520, False, None, None)]
    assert len(stripe.components()) == 7


def test_disksuite_concat_with_the_guides_typo_is_refused():
    """The Reference Guide prints '(interface: 32 blocks)': no SVM prints
    that, so it is refused rather than read as an interlace."""
    text = read_fixture("disksuite_concat_d0.txt").replace(
        "interlace", "interface")
    with pytest.raises(ParseError) as info:
        metastat.parse(text)
    assert info.value.lineno == 3


# --- layout variants of every metastat fixture -----------------------------

_KEYWORDS = re.compile(
    r"Submirror|Mirror|State|Pass|Read option|Write option|Size|Stripe|"
    r"Device Relocation Information|Device|Start Block|Dbase|Reloc|"
    r"Hot Spare|Hot spare pool|blocks|Extent|Block count|interlace|"
    r"Interlace|Original device|Concatenated Devices|Master Device|"
    r"Logging Device|Logging device for|Invoke|Resync in progress|"
    r"done|Status|Length|Device ID|Concat/Stripe|Soft Partition|RAID|"
    r"Trans|Resync option|Owner|hot spares?|Component")


def _variants(text):
    yield "upper-case words", _KEYWORDS.sub(lambda m: m.group(0).upper(),
                                            text)
    yield "lower-case words", _KEYWORDS.sub(lambda m: m.group(0).lower(),
                                            text)
    yield "tabs for indentation", re.sub(
        r"(?m)^ +", lambda m: "\t" * (1 + len(m.group(0)) // 8), text)
    yield "spaces for tabs", text.expandtabs(8)
    yield "trailing blanks", re.sub(r"(?m)$", " \t", text)
    yield "no trailing blanks", re.sub(r"(?m)[ \t]+$", "", text)
    yield "leading blank lines", "\n \n\t\n" + text
    yield "trailing blank lines", text + "\n\n \n"
    yield "doubled blank lines", re.sub(r"(?m)^[ \t]*\n", "\n\n\n", text)
    yield "doubled blanks between words", re.sub(r"(?<=\S) (?=\S)", "  ",
                                                 text)
    yield "tab after each colon", re.sub(r": ", ":\t", text)


def _squeezed(data):
    """The JSON with the blanks in each string squeezed to one space: the
    Invoke and Resync option texts are kept as printed."""
    if isinstance(data, str):
        return " ".join(data.split())
    if isinstance(data, list):
        return [_squeezed(item) for item in data]
    if isinstance(data, dict):
        return {key: _squeezed(value) for key, value in data.items()}
    return data


@pytest.mark.parametrize("name", METASTAT_FIXTURES)
@pytest.mark.parametrize("variant", [v for v, _ in _variants("")])
def test_layout_variant_gives_the_same_model(name, variant):
    text = read_fixture(name)
    expected = metastat.parse(text).to_json()
    changed = dict(_variants(text))[variant]
    assert _squeezed(metastat.parse(changed).to_json()) == _squeezed(
        expected)


@pytest.mark.parametrize("name", METASTAT_P_FIXTURES)
@pytest.mark.parametrize("variant", [
    "tabs for indentation", "spaces for tabs", "trailing blanks",
    "no trailing blanks", "leading blank lines", "trailing blank lines",
    "doubled blank lines", "doubled blanks between words"])
def test_metastat_p_layout_variant_gives_the_same_model(name, variant):
    text = read_fixture(name)
    expected = metastat_p.parse(text).to_json()
    changed = dict(_variants(text))[variant]
    assert metastat_p.parse(changed).to_json() == expected


def test_keyword_case_is_ignored_but_the_write_flag_is_not():
    text = read_fixture("synthetic_metastat_all_types.txt")
    assert "serial (-S)" in text
    with pytest.raises(ParseError) as info:
        metastat.parse(text.replace("serial (-S)", "serial (-s)"))
    assert "bad write option" in str(info.value)


# --- what is still refused --------------------------------------------------

def test_concise_output_is_refused_with_its_name():
    text = ("d10              m  2.0GB d11 d12\n"
            "    d11          s  2.0GB c1t0d0s0\n"
            "    d12          s  2.0GB c1t1d0s0\n")
    with pytest.raises(ParseError) as info:
        metastat.parse(text)
    assert info.value.lineno == 1
    assert "metastat -c" in str(info.value)


@pytest.mark.parametrize("name, old, new, fragment", [
    # a keyword nobody prints, in any case
    ("reference_1_9_healthy.txt", "    Pass: 1\n", "    Passes: 1\n",
     "unexpected line"),
    # a column header with a column no release prints
    ("reference_1_9_healthy.txt", "Dbase        State Reloc Hot Spare",
     "Dbase   State Reloc Spare", "unsupported column header"),
    # a trans table header that is not one
    ("synthetic_metastat_all_types.txt",
     "Master Device Start Block  Dbase Reloc", "Master Device Start Dbase",
     "unexpected line"),
    # a relocation table header that is not one
    ("reference_1_9_healthy.txt", "Device   Reloc\tDevice ID",
     "Device   Reloc\tDevice", "expected 'Device Reloc Device ID'"),
])
def test_near_misses_are_refused(name, old, new, fragment):
    text = read_fixture(name)
    assert old in text
    lineno = text[:text.index(old)].count("\n") + 1
    with pytest.raises(ParseError) as info:
        metastat.parse(text.replace(old, new, 1))
    assert fragment in str(info.value)
    assert info.value.lineno == lineno


# --- metaparam and metadb ---------------------------------------------------

def test_metaparam_in_other_letter_case():
    params = listings.parse_metaparam(
        "d10: MIRROR CURRENT PARAMETERS ARE:\n    pass: 2\n"
        "    read option: First (-r)\n    WRITE OPTION: Serial (-S)\n")
    assert (params.name, params.pass_num, params.read_option,
            params.write_option) == ("d10", 2, "first", "serial")
    with pytest.raises(ParseError):
        listings.parse_metaparam(
            "d10: Mirror current parameters are:\n    Pass: 2\n"
            "    Read option: first (-r)\n    Write option: serial (-s)\n")


@pytest.mark.parametrize("name, flags", [
    ("disksuite_metadb_i.txt", ["au"] * 3),
    ("solaris9_metadb_i_write_error.txt",
     ["ampluo"] + ["apluo"] * 3 + ["Wpl"] + ["apluo"] * 3),
    ("web_metadb_i_unindented.txt", ["ampluo", "apluo", "Wpluo", "Wpluo"]),
])
def test_metadb_from_the_field(name, flags):
    replicas = listings.parse_metadb(read_fixture(name))
    assert [r.flags for r in replicas] == flags


def test_every_flag_letter_metadb_prints_is_accepted():
    """All sixteen letters of MDDB_FLAGS_STRING, in their columns."""
    template = "RSFDMaWm  pc luo tBr"
    text = ("\t flags\t\tfirst blk\tblock count\n" + template
            + "\t16\t\t8192\t\t/dev/dsk/c0d0s7\n")
    (replica,) = listings.parse_metadb(text)
    assert replica.flags == template.replace(" ", "")
    assert set(replica.flags) == set(listings.REPLICA_FLAGS)
    with pytest.raises(ParseError) as info:
        listings.parse_metadb(text.replace("tBr", "tBx"))
    assert "unknown replica flag" in str(info.value)


def test_replica_problems_from_the_solaris9_guide():
    replicas = listings.parse_metadb(
        read_fixture("solaris9_metadb_i_write_error.txt"))
    (problem,) = listings.replica_problems(replicas)
    assert problem.replica is replicas[4]
    assert problem.flags == "W"
    assert problem.problems == (
        ("W", "replica has device write errors"),
        ("a", "not active (no a flag)"),
        ("u", "not up to date (no u flag)"))
    assert problem.describe() == (
        "c2t3d0s1 block 16: W (replica has device write errors), "
        "not active (no a flag), not up to date (no u flag)")


@pytest.mark.parametrize("flags, expected", [
    ("ampluo", ""),
    ("au", ""),                     # DiskSuite 4.2.1: no l, p or o
    ("apluo", ""),
    ("aW pluo", "W"),
    ("RSFDMaWm pc luo tBr", "RSFDMWB"),
    ("apluoB", "B"),
    ("ampluoM", "M"),
])
def test_replica_problem_flags(flags, expected):
    text = ("\t flags\t\tfirst blk\tblock count\n %s\t16\t\t8192\t\t"
            "/dev/dsk/c0d0s7\n" % flags)
    problems = listings.replica_problems(listings.parse_metadb(text))
    if expected:
        (problem,) = problems
        assert problem.flags == expected
        assert [f for f, _ in problem.problems] == list(expected)
        assert all(meaning == listings.REPLICA_FLAGS[f]
                   for f, meaning in problem.problems)
    else:
        assert problems == []


def test_replica_without_a_or_u_is_a_problem():
    text = ("\t flags\t\tfirst blk\tblock count\n"
            "     a    p  l        16\t\t8192\t\t/dev/dsk/c0d0s7\n"
            "          p  luo      unknown\t\tunknown\t\t/dev/dsk/c1d0s7\n")
    problems = listings.replica_problems(listings.parse_metadb(text))
    assert [(p.replica.device, p.flags, [f for f, _ in p.problems])
            for p in problems] == [("c0d0s7", "", ["u"]),
                                   ("c1d0s7", "", ["a"])]
    assert problems[1].describe() == "c1d0s7: not active (no a flag)"
    assert listings.replica_problems([]) == []


# --- metastat -p from the Solaris Volume Manager Administration Guide ------

def test_svm_guide_final_configuration():
    """cnames, a RAID-5 with -k, a concat of stripes continued with
    spaces, soft partitions on a mirror and on slices, an empty pool."""
    config = metastat_p.parse(read_fixture("svm_guide_p_final_config.txt"))
    assert len(config.devices) == 27
    raid = config.get("d50")
    assert ([c.device for c in raid.columns][:2], raid.interlace_blocks) == (
        ["c1t4d0s5", "c1t5d0s5"], 32)
    d25 = config.get("d25")
    assert [([c.device for c in row.components], row.interlace_blocks)
            for row in d25.rows] == [(["c1t1d0s3", "c2t1d0s3"], 32),
                                     (["c0t0d0s3"], None)]
    d70 = config.get("d70")
    assert (d70.submirrors, d70.read_option, d70.pass_num) == (
        ["d71", "d72"], "roundrobin", 1)
    assert config.get("d71").parent == "d70"
    assert [len(r.components) for r in config.get("d72").rows] == [1, 1, 1]
    d85 = config.get("d85")
    assert (d85.device, [(e.offset, e.length) for e in d85.extents]) == (
        "d70", [(10485766, 2097152)])
    # six soft partitions share d70: it has no single parent
    assert d70.parent is None
    assert config.get("hsp010").spares == []
    assert [s.device for s in config.get("hsp070").spares] == [
        "c1t2d0s4", "c2t2d0s4"]


# --- size lines -----------------------------------------------------------

@pytest.mark.parametrize("size", [
    "4194304 blocks (2.0 GB)", "4194304 blocks", "4194304 Blocks (2.0 GB)",
    "4194304 blocks (2048 MB)", "4194304 blocks (0.0 TB)",
    "4194304 blocks (2.0GB)", "4194304  blocks  (2.0 GB)",
])
def test_size_lines_with_any_unit_or_none(size):
    text = read_fixture("reference_1_9_healthy.txt")
    sizes = re.findall(r"Size: (.*)", text)
    assert sizes and all(s.rstrip() == sizes[0].rstrip() for s in sizes)
    changed = text.replace("Size: " + sizes[0].rstrip(),
                           "Size: " + size.replace("4194304",
                                                   sizes[0].split()[0]))
    assert metastat.parse(changed).to_json() == metastat.parse(
        text).to_json()


@pytest.mark.parametrize("size", [
    "4194304", "4194304 bytes", "blocks", "4194304 blocks (2.0 GB",
    "4194304 blocks 2.0 GB", "-1 blocks", "4194304 blocks (2.0 GB) x",
])
def test_malformed_size_lines_are_refused(size):
    text = read_fixture("reference_1_9_healthy.txt")
    first = re.search(r"Size: (.*)", text)
    changed = text[:first.start(1)] + size + text[first.end(1):]
    with pytest.raises(ParseError) as info:
        metastat.parse(changed)
    assert "bad size" in str(info.value)
    assert info.value.lineno == text[:first.start()].count("\n") + 1


# --- captures from the field ------------------------------------------------

def test_field_disk_set_soft_partitions_plain_and_p_agree():
    """A disk set with soft partitions on a five-row concat of MPxIO
    disks: every line ends in a blank, the -p continuations in '\\ '."""
    plain = metastat.parse(read_fixture("field_set_softparts.txt"))
    short = metastat_p.parse(read_fixture("field_set_p_softparts.txt"))
    names = ["pora5ds/d61", "pora5ds/d50", "pora5ds/d59", "pora5ds/d52",
             "pora5ds/d51"]
    assert [d.name for d in plain.devices] == names
    assert [d.to_json(False) for d in plain.devices] == [
        d.to_json(False) for d in short.devices]
    d52 = plain.get("pora5ds/d52")
    assert (d52.device, d52.state, d52.size_blocks) == (
        "pora5ds/d50", "Okay", 176160768)
    assert [(e.offset, e.length) for e in d52.extents] == [
        (20971584, 134217728), (465567904, 41943040)]
    d50 = plain.get("pora5ds/d50")
    assert [[c.device for c in row.components] for row in d50.rows] == [
        ["c2t5005076300CB0B15d%ds0" % i] for i in range(5)]
    assert d50.parent is None           # four soft partitions use it
    assert [(r.device, r.reloc, r.device_id) for r in plain.relocation] == [
        ("c2t5005076300CB0B15d%d" % i, False, None) for i in range(5)]


def test_field_solaris9_root_mirrors_before_attach():
    config = metastat.parse(read_fixture("solaris9_field_root_mirrors.txt"))
    d10 = config.get("d10")
    assert (d10.submirrors, d10.submirror_states, d10.size_blocks) == (
        ["d11"], ["Okay"], 10238616)
    assert config.get("d11").parent == "d10"
    d12 = config.get("d12")
    assert (d12.parent, [(c.device, c.state, c.reloc)
                         for c in d12.components()]) == (
        None, [("c1t1d0s0", None, True)])
    assert [(r.device, r.reloc, r.device_id) for r in config.relocation] == [
        ("c1t1d0", True, "id1,ssd@w20000004cf9f2e91"),
        ("c1t0d0", True, "id1,ssd@w20000004cf99e53f")]
    replicas = listings.parse_metadb(read_fixture("solaris9_field_metadb.txt"))
    assert [(r.flags, r.first_block, r.device) for r in replicas][::4] == [
        ("au", 16, "c1t0d0s6"), ("au", 16, "c1t1d0s6")]
    assert listings.replica_problems(replicas) == []


def test_field_needs_maintenance_with_uneven_indentation():
    """Pass and the options indented five blanks, the submirror states
    four: indentation means nothing.  The web page ate the Invoke line's
    '<new device>' as an HTML tag; the text is kept as captured."""
    config = metastat.parse(read_fixture("field_needs_maintenance_d4.txt"))
    d4 = config.get("d4")
    assert (d4.submirrors, d4.submirror_states, d4.state, d4.pass_num) == (
        ["d14", "d24"], ["Okay", "Needs maintenance"], "Needs maintenance",
        1)
    d24 = config.get("d24")
    assert (d24.state, d24.invoke) == ("Needs maintenance",
                                       "metareplace d4 c1t1d0s4")
    assert [(c.device, c.state, c.reloc) for c in d24.components()] == [
        ("c1t1d0s4", "Maintenance", True)]


def test_reloc_column_left_blank_as_solaris9_prints_it_without_r():
    """Solaris 9 printed the Reloc header but left the values blank unless
    metastat -r was given (meta_stripe.c: devid " " without PRINT_DEVID);
    a hot spare in use then follows the state directly."""
    text = read_fixture("synthetic_metastat_all_types.txt")
    old_spare = "Resyncing   Yes c4t0d0s0"
    old_okay = "c1t0d0s0          0     No            Okay   Yes \n"
    assert old_spare in text and old_okay in text
    text = text.replace(old_spare, "Resyncing       c4t0d0s0").replace(
        old_okay, "c1t0d0s0          0     No            Okay       \n")
    d21 = metastat.parse(text).get("d21")
    assert [(c.device, c.state, c.reloc, c.hot_spare)
            for c in d21.components()] == [
        ("c1t0d0s0", "Okay", None, None),
        ("c1t1d0s0", "Resyncing", None, "c4t0d0s0")]


def test_field_monitoring_plugin_sample_without_size_unit():
    """Solaris 10 columns with a size line without '(... GB)', and two
    blank lines after a submirror, as a monitoring plugin quotes it."""
    config = metastat.parse(read_fixture("field_monitoring_plugin_d5.txt"))
    d5 = config.get("d5")
    assert (d5.submirrors, d5.state, d5.size_blocks) == (
        ["d15", "d25"], "Okay", 525798)
    assert [(c.device, c.state, c.reloc)
            for c in config.get("d25").components()] == [
        ("c0t1d0s5", "Okay", True)]


def test_an_invented_example_from_a_checklist_is_refused():
    """A checklist on the web shows a mirror with its own State and a
    'Status: The volume is functioning properly.' line; no SVM prints
    that, and the parser says where it stops."""
    text = ("d0: Mirror\n    Submirror 0: d10\n      State: Okay\n"
            "    Submirror 1: d11\n      State: Okay\n    State: Okay\n"
            "    Status: The volume is functioning properly.\n\n"
            "d10: Submirror of d0\n    State: Okay\n\n"
            "d11: Submirror of d0\n    State: Okay\n")
    with pytest.raises(ParseError) as info:
        metastat.parse(text)
    assert info.value.lineno == 6
    assert "State line without a submirror" in str(info.value)


@pytest.mark.parametrize("name", ["article_metaparam_first.txt",
                                  "article_metaparam_roundrobin.txt"])
@pytest.mark.parametrize("variant", [v for v, _ in _variants("")])
def test_metaparam_layout_variant_gives_the_same_parameters(name, variant):
    text = read_fixture(name)
    expected = listings.parse_metaparam(text).to_json()
    changed = dict(_variants(text))[variant]
    assert listings.parse_metaparam(changed).to_json() == expected


METADB_FIXTURES = sorted(n for n in os.listdir(FIXTURES)
                         if n.endswith(".txt") and _kind(n) == "metadb")


@pytest.mark.parametrize("name", METADB_FIXTURES)
@pytest.mark.parametrize("variant", [v for v, _ in _variants("")])
def test_metadb_layout_variant_gives_the_same_replicas(name, variant):
    text = read_fixture(name)
    expected = [r.to_json() for r in listings.parse_metadb(text)]
    changed = dict(_variants(text))[variant]
    assert [r.to_json() for r in listings.parse_metadb(changed)] == expected


@pytest.mark.parametrize("variant", [v for v, _ in _variants("")])
def test_ramdiskadm_layout_variant_gives_the_same_ramdisks(variant):
    text = read_fixture("illumos_man_ramdiskadm.txt")
    expected = [r.to_json() for r in listings.parse_ramdiskadm(text)]
    changed = dict(_variants(text))[variant]
    assert [r.to_json() for r in listings.parse_ramdiskadm(changed)] == \
        expected


def test_time_stamped_output_is_refused_by_name():
    """metastat -t appends "%a %b %e %T %Y" to each state (meta_print.c
    meta_print_time); svmram reads plain metastat and says so."""
    text = read_fixture("reference_1_9_healthy.txt")
    first = re.search(r"State: Okay *", text)
    changed = (text[:first.start()] + "State: Okay        Thu Nov  6 "
               "10:12:33 2008" + text[first.end():])
    with pytest.raises(ParseError) as info:
        metastat.parse(changed)
    assert "metastat -t" in str(info.value)
    assert info.value.lineno == text[:first.start()].count("\n") + 1
