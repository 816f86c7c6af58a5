# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulator's driver.conf reading (svmsim/drvconf.py) against what
illumos modsysfile.c (kobj_lex, get_hwc_spec, hwc_parse_now) does with
each case (issue 27, the ramdisk memory cap)."""

import pytest

from svmsim.drvconf import lookup, parse, properties

P = "percent_physmem"


@pytest.mark.parametrize("text, props, warnings", [
    # kobj_lex skips blanks before every token; a statement ends at ';'
    # only, across newlines and comments.
    ('percent_physmem = "50";', {P: ("50", True)}, []),
    ('percent_physmem=\n"50";', {P: ("50", True)}, []),
    ('percent_physmem\t=\t"50"\n;', {P: ("50", True)}, []),
    ('percent_physmem="50" # a comment; percent_physmem="1";\n;',
     {P: ("50", True)}, []),
    ('# percent_physmem="1";\npercent_physmem="50";', {P: ("50", True)}, []),
    # Several entries in one statement, separated by blanks.
    ('name="ramdisk" parent="pseudo" instance=1024 percent_physmem="40";',
     {"instance": ("1024", False), P: ("40", True)}, []),
    ('a="1"; b=2 c="x y";# d="3"\n',
     {"a": ("1", True), "b": ("2", False), "c": ("x y", True)}, []),
    # A list: the first string is what ddi_prop_lookup_string gives.
    ('percent_physmem="30","60";', {P: ("30", True)}, []),
    # Integers, decimal and 0x hex, as written; a name alone: boolean.
    ('percent_physmem=0x32, 7 flag;',
     {P: ("0x32,7", False), "flag": (None, False)}, []),
    # The last assignment wins, in one statement or in the next.
    ('percent_physmem="30" percent_physmem="40";\npercent_physmem="45";',
     {P: ("45", True)}, []),
    # A number ends at a non-digit: "50x" is 50 and the NAME x, which
    # get_hwc_spec takes as a boolean after the integer property.
    ('percent_physmem=50x;', {P: ("50", False), "x": (None, False)}, []),
    # Backslashes in a string: the next character as it is; octal digits.
    (r'percent_physmem="\"4\060";', {P: ('"40', True)}, []),
    # A value missing at ';': that entry is lost, the rest kept.
    ('a="1" percent_physmem=;', {"a": ("1", True)},
     [(1, "Unexpected end of line")]),
    # A NAME where the value belongs warns and is skipped.
    ('percent_physmem=x "50";', {P: ("50", True)},
     [(1, "Unexpected token 'x'")]),
    # A token the statement never takes drops the whole statement; the
    # file is read on from the token after it.
    ('a="1" * percent_physmem="40";', {P: ("40", True)},
     [(1, "Unexpected token '*'")]),
    ('percent_physmem="40" . b="2";', {"b": ("2", True)},
     [(1, "Unexpected token '.'")]),
    # A missing ';' at the end of the file drops the statement.
    ('percent_physmem="40"', {}, [(1, "Unexpected EOF")]),
    ('percent_physmem="40"\n', {}, [(2, "Unexpected EOF")]),
    # A missing '"': the string ends at the newline as "\n".
    ('percent_physmem="40;\n;', {P: ("\n", True)}, [(1, 'Missing "')]),
    # A node spec needs parent or class; a global one may have neither.
    ('name="ramdisk" percent_physmem="40";', {},
     [(1, "missing parent or class attribute")]),
    ('parent="pseudo" percent_physmem="40";', {},
     [(1, "missing name attribute")]),
    # A second name drops the statement; 'parent="p";' is read on alone.
    ('name="a" name="b" parent="p";', {},
     [(1, "'name' property already specified (the ';' may have been "
          "omitted on previous spec!)"), (1, "missing name attribute")]),
    # Stray tokens between statements are skipped one by one.
    ('; "x" 5 percent_physmem="20";', {P: ("20", True)},
     [(1, "Unexpected token ';'"), (1, "Unexpected token 'x'"),
      (1, "Unexpected token '5'")]),
    # '\r' is a newline; '\f' (with the blanks after it) is a token no
    # statement takes.
    ('percent_physmem=\r"20";', {P: ("20", True)}, []),
    ('a="1"\f b="2";', {"b": ("2", True)},
     [(1, "Unexpected token '\f '")]),
])
def test_the_kernel_reading(text, props, warnings):
    assert parse(text) == (props, warnings)


def test_the_shipped_file_has_no_percent_and_no_warning():
    from svmsim.drvconf import SHIPPED
    assert parse(SHIPPED) == ({"instance": ("1024", False)}, [])
    assert properties(SHIPPED + 'percent_physmem = "60" ;\n')[P] == (
        "60", True)


def test_an_invalid_property_name_is_warned_without_a_line():
    # make_prop's cmn_err has no "on line N of FILE" (kobj_file_err has).
    assert parse('a\\/b="1";') == ({}, [(None, "invalid property name "
                                              "'a/b'")])


@pytest.mark.parametrize("text, found", [
    # ddi_prop_search_common: the node's system properties first, then
    # the global list in file order (modsysfile.c add_props), the first
    # property of the lookup's type (sunddi.c i_ddi_prop_search).
    ('percent_physmem="50";\nname="ramdisk" parent="pseudo" '
     'percent_physmem="30";', ("30", True)),
    ('name="ramdisk" parent="pseudo" percent_physmem="30";\n'
     'percent_physmem="50";', ("30", True)),
    ('percent_physmem="50";\npercent_physmem="40";', ("50", True)),
    ('percent_physmem=50;\npercent_physmem="40";', ("40", True)),
    ('name="ramdisk" parent="pseudo" percent_physmem=30;\n'
     'percent_physmem="50";', ("50", True)),
    # Nothing the string lookup takes: the last value passed over.
    ('percent_physmem=50; percent_physmem;', (None, False)),
    ('a="1";', None),
])
def test_which_assignment_the_driver_finds(text, found):
    assert lookup(text, P) == found
