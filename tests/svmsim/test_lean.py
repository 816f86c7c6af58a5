# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulator's import-free stand-ins give what the standard library
gives: svmsim.lean (json.dumps, json.loads, fnmatch.fnmatchcase) and the
name checks of svmsim.svm that skip re for plain names.  Every emulated
command uses them, so a difference would change what the emulator prints
or keeps."""

import fnmatch
import json
import os
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from svmsim import lean, svm
from svmsim.messages import SvmError

LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib")

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON, st.booleans())
def test_dumps_is_json_dumps(obj, sort_keys):
    assert lean.dumps(obj, sort_keys=sort_keys) == \
        json.dumps(obj, sort_keys=sort_keys)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_loads_is_json_loads(obj):
    text = json.dumps(obj)
    assert repr(lean.loads(text)) == repr(json.loads(text))
    assert repr(lean.loads(json.dumps(obj, indent=1) + "\n")) == \
        repr(json.loads(text))


def test_special_values_and_key_order():
    obj = {"b": [float("inf"), -0.0, 1e300, "\u00e9\u2028\n"], "a": None}
    for sort_keys in (False, True):
        assert lean.dumps(obj, sort_keys) == json.dumps(obj,
                                                        sort_keys=sort_keys)
    assert list(lean.loads(lean.dumps(obj))) == ["b", "a"]
    assert repr(lean.loads("[NaN, -Infinity]")) == "[nan, -inf]"


def test_errors_are_the_json_modules():
    for text in ("", "[1,", "{} x", " [1]"):
        try:
            json.loads(text)
        except ValueError as e:
            expected = str(e)
        else:
            expected = None
        try:
            got = lean.loads(text)
        except ValueError as e:
            assert str(e) == expected
        else:
            assert expected is None and got == json.loads(text)
    try:
        lean.dumps({"a": {1, 2}})
    except TypeError as e:
        assert "not JSON serializable" in str(e)
    else:
        raise AssertionError("a set was serialised")
    # dumps does not look for cycles as it goes (json.dumps's
    # check_circular=False): json.dumps still reports one.
    loop = {"a": [1]}
    loop["a"].append(loop)
    for obj in (loop, loop["a"]):
        try:
            lean.dumps(obj)
        except ValueError as e:
            assert str(e) == "Circular reference detected"
        else:
            raise AssertionError("a cycle was serialised")


PATTERN = st.text(alphabet="ab*?[]!-:/\n.", max_size=8)
NAME = st.text(alphabet="ab*?[]!-:/\n.", max_size=10)


@settings(max_examples=2000, deadline=None)
@given(NAME, PATTERN)
def test_fnmatchcase_is_fnmatchs(name, pattern):
    assert lean.fnmatchcase(name, pattern) == \
        fnmatch.fnmatchcase(name, pattern)


def test_fnmatchcase_examples():
    for name, pattern, expected in (
            ("svc:/system/svmram:d10", "svc:/system/svmram:*", True),
            ("svc:/system/svmram", "svc:/system/svmram:*", False),
            ("unix:0:system_pages:physmem", "unix:0:system_pages:physmem",
             True),
            ("aXbXc", "a*b*c", True), ("abc", "a*b*bc", False),
            ("ab", "a*b*", True), ("a\nb", "a*", True), ("", "*", True)):
        assert lean.fnmatchcase(name, pattern) is expected
        assert fnmatch.fnmatchcase(name, pattern) is expected


def test_no_json_re_or_fnmatch_at_start_up():
    """What this is for: the emulator's state module loads without them."""
    code = ("import sys; sys.path.insert(0, %r); "
            "import svmsim.dispatch, svmsim.programs.metastat, svmsim.smf, "
            "svmsim.smf.svcs, svmsim.smf.svcprop, svmsim.smf.svccfg; "
            "print(sorted({'json', 're', 'fnmatch', 'contextlib', 'copy', "
            "'subprocess', 'xml.etree.ElementTree'} & set(sys.modules)))"
            % LIB)
    out = subprocess.run([sys.executable, "-S", "-c", code], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    assert out == "[]\n"


NAMES = st.text(alphabet="dD0123456789_.-/a\n \u00e9\u0661", max_size=8)


def _md_name_by_re(arg):
    """svm.md_name as it was, with re throughout."""
    a = re.sub("/+", "/", arg)
    for pfx in ("/dev/md/dsk/", "/dev/md/rdsk/"):
        if a.startswith(pfx):
            a = a[len(pfx):]
    m = re.match(r"^/dev/md/([^/]+)/r?dsk/(.+)$", a)
    if m:
        if m.group(1) != "local":
            return ("NO_SET", 'setname "%s"' % m.group(1))
        a = m.group(2)
    elif "/" in a:
        setname, a = a.split("/", 1)
        if setname != "local":
            return ("NO_SET", 'setname "%s"' % setname)
    if not re.match(r"^[A-Za-z][A-Za-z0-9_.-]*$", a) \
            or a in ("all", "ALL", "none", "NONE") or len(a) > 255:
        return ("NAME_ILLEGAL", a)
    return a


@settings(max_examples=2000, deadline=None)
@given(st.one_of(NAMES, st.builds(lambda p, n: p + n, st.sampled_from(
    ["/dev/md/dsk/", "/dev/md/rdsk/", "//dev//md/rdsk/", "/dev/md/local/dsk/",
     "/dev/md/other/rdsk/", "local/", "x/", ""]), NAMES)))
def test_md_name_is_the_regular_expressions(arg):
    expected = _md_name_by_re(arg)
    try:
        got = svm.md_name(arg)
    except SvmError as e:
        assert (e.code, e.name) == expected
    else:
        assert got == expected


@settings(max_examples=1000, deadline=None)
@given(NAMES)
def test_unitnum_is_the_regular_expression(name):
    st_ = {"units": {"x": {"num": 8192}}}
    m = re.match(r"^d([0-9]+)$", name)
    assert svm.unitnum(st_, name) == (int(m.group(1)) if m else 8193)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789xXabfgkm+- \t\u0661", max_size=12))
def test_strtoll0_is_the_regular_expression(text):
    from svmsim.programs import ramdiskadm
    m = re.match(r"^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)",
                 text)
    if not m:
        expected = (0, text)
    else:
        digits = m.group(2)
        if digits[:2] in ("0x", "0X"):
            value = int(digits, 16)
        elif digits.startswith("0"):
            value = int(digits, 8)
        else:
            value = int(digits)
        value = min(value, (1 << 63) - 1)
        expected = (-value if m.group(1) == "-" else value, text[m.end():])
    assert ramdiskadm.strtoll0(text) == expected


def test_emulated_commands_import_no_json_re_or_shutil(sim):
    """What the emulated commands import when they run (each is a
    process of its own in tests/svmsim, in start methods, and with
    SVMRAM_TEST_PROCESSES=1): re alone (shutil, fnmatch, json) was 14 ms
    of each, twice Python's own start-up."""
    heavy = {"json", "re", "fnmatch", "shutil", "contextlib", "copy",
             "subprocess", "xml.etree.ElementTree"}
    sim.ok("svcs")       # the SMF repository made (from the manifests)
    for cmdline in ("metastat -p", "metastat d10", "metadb -i", "svcs -H",
                    "svcprop -p general/enabled system/metasync:default",
                    "kstat -p unix:0:system_pages:physmem",
                    "ramdiskadm"):
        argv = cmdline.split()
        p = subprocess.run(
            [sys.executable, "-S", "-X", "importtime",
             os.path.join(sim.dir, "bin", argv[0])] + argv[1:],
            env=sim.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        assert p.returncode == 0, (cmdline, p.stderr)
        imported = {line.rpartition("|")[2].strip()
                    for line in p.stderr.splitlines()
                    if line.startswith("import time:")}
        assert "svmsim.dispatch" in imported, p.stderr
        assert heavy & imported == set(), cmdline
