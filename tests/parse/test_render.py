# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metastat -p: parse-then-render (render_p.py) gives the input back
exactly."""

import pytest

import render_p
from svmram.svm import metastat, metastat_p
from svmram.svm.model import Config

FULL = ["reference_p_full.txt", "synthetic_p_all_full.txt",
        "synthetic_p_set_full.txt"]
SHORT = ["article_p_two_way.txt", "article_p_three_way.txt",
         "article_p_ram_first.txt", "article_p_d80.txt",
         "reference_p_short.txt", "synthetic_p_all_short.txt",
         "synthetic_p_set_short.txt"]


@pytest.mark.parametrize("name", FULL)
def test_full_paths_round_trip(fixture_text, name):
    text = fixture_text(name)
    assert render_p.render(metastat_p.parse(text)) == text
    assert render_p.render(metastat_p.parse(text), paths="full") == text


@pytest.mark.parametrize("name", SHORT)
def test_short_names_round_trip(fixture_text, name):
    text = fixture_text(name)
    assert render_p.render(metastat_p.parse(text), paths="short") == text


@pytest.mark.parametrize("full, short", [
    ("reference_p_full.txt", "reference_p_short.txt"),
    ("synthetic_p_all_full.txt", "synthetic_p_all_short.txt"),
])
def test_converting_between_forms(fixture_text, full, short):
    full_text, short_text = fixture_text(full), fixture_text(short)
    assert render_p.render(metastat_p.parse(short_text)) == full_text
    assert render_p.render(metastat_p.parse(full_text),
                             paths="short") == short_text


def test_tab_continuation_and_soft_partition_trailing_blank(fixture_text):
    text = render_p.render(metastat_p.parse(
        fixture_text("synthetic_p_all_short.txt")))
    assert "d22 2 1 /dev/rdsk/c1t2d0s1 \\\n\t 1 /dev/rdsk/c1t3d0s1 " \
           "-h hsp001\n" in text
    assert "d100 -p /dev/rdsk/c0d1s7 -o 1 -b 2097152 \n" in text


def test_set_metadevices_in_trans_lines_are_full_paths(fixture_text):
    text = render_p.render(metastat_p.parse(
        fixture_text("synthetic_p_set_short.txt")))
    assert "blue/d70 -t /dev/md/blue/rdsk/d71\n" in text
    assert "blue/hsp000 c7t0d0s0\n" in text


def test_space_continuations_render_with_a_tab(fixture_text):
    text = render_p.render(metastat_p.parse(
        fixture_text("solaris11_p_paths.txt")))
    assert "x_r0_c1 2 1 /dev/rdsk/emcpower18c \\\n\t 1 " \
           "/dev/rdsk/emcpower19c\n" in text


def test_a_plain_metastat_config_renders(fixture_text):
    config = metastat.parse(fixture_text("article_metastat_after_reboot.txt"))
    assert render_p.render(config) == (
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1\n"
        "d13 1 1 /dev/rdsk/c5t0d0s0\n"
        "d11 1 1 /dev/rdsk/c0d1s0\n"
        "d12 1 1 /dev/rdsk/c1d0s0\n")


def test_empty_config_renders_nothing():
    assert render_p.render(Config()) == ""


def test_bad_paths_argument():
    with pytest.raises(ValueError):
        render_p.render(Config(), paths="long")


@pytest.mark.parametrize("name, metadevice, path", [
    ("d13", True, "/dev/md/rdsk/d13"),
    ("blue/d10", True, "/dev/md/blue/rdsk/d10"),
    ("c5t0d0s0", False, "/dev/rdsk/c5t0d0s0"),
    ("/dev/did/rdsk/d4s0", False, "/dev/did/rdsk/d4s0"),
])
def test_raw_path(name, metadevice, path):
    assert render_p.raw_path(name, metadevice) == path
