# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""ramdisk.conf is read twice, on purpose: by svmram (svm/driverconf.py,
for svm/sizing.py to predict the ramdisk memory cap) and by the emulator
(svmsim/drvconf.py, to be the driver).  Neither imports the other, so that a mistake in one
is not the other's too; this test holds them to the same reading."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from svmram.svm import driverconf
from svmsim import drvconf

# The characters driver.conf parsing treats specially, and a few others.
TEXT = st.text(alphabet='pe rcnt_hysm="#;\t\n\r\f=,0123456789-~xa\\*.@:',
               max_size=120)
# Whole words, so that name=, parent=, class= and escapes come up.
WORDS = st.lists(st.sampled_from([
    "name", "parent", "class", "PARENT", "percent_physmem", "a", "=", ",",
    ";", "#", " ", "\n", "\r", "\t", "\f", '"ramdisk"', '"pseudo"', '"50"',
    '"', '"\\060"', '\\"', "\\", "0x1f", "012", "08", "-", "-5", "~3", "*",
    "@", ".", "a\\ b"]), max_size=30).map("".join)


def agree(text):
    """The same properties, and a warning from both or from neither (a
    warning is what makes svmram unsure of the cap)."""
    props, problems = driverconf.read(text)
    emulated, warnings = drvconf.parse(text)
    assert props == emulated
    assert len(problems) == len(warnings)


@settings(max_examples=300, deadline=None)
@given(TEXT)
@example('percent_physmem="50";')
@example('percent_physmem = "50";')
@example('percent_physmem=\n"50";')
@example('percent_physmem="50" # a comment\n;')
@example('name="ramdisk" parent="pseudo" instance=1024 percent_physmem="4";')
@example('percent_physmem="1","2" b=0x1f, 3 c;')
@example('percent_physmem=50 # percent_physmem=40\npercent_physmem="3x";')
@example('name="ramdisk" parent="pseudo" instance=1024; percent_physmem="')
def test_svmram_and_the_emulator_read_a_conf_file_alike(text):
    agree(text)


@settings(max_examples=300, deadline=None)
@given(WORDS)
def test_svmram_and_the_emulator_read_statements_alike(text):
    agree(text)


@given(st.text(alphabet="0123456789-+ x", max_size=12))
def test_svmram_and_the_emulator_convert_numbers_alike(text):
    assert driverconf.stoi(text) == drvconf.stoi(text)


@settings(max_examples=300, deadline=None)
@given(WORDS)
def test_svmram_and_the_emulator_find_the_same_assignment(text):
    """Which assignment the driver's string lookup finds (a node
    statement's before the first global one)."""
    found = driverconf.found(text, "percent_physmem")
    assert (found and found[:2]) == drvconf.lookup(text, "percent_physmem")
