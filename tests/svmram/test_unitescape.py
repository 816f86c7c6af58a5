# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A target's name as a template unit's instance, escaped as systemd
escapes it (unitescape.py; issue 37 section 5): against systemd's rules
(src/basic/unit-name.c do_escape), and against `systemd-escape` itself
where it is installed."""

import shutil
import subprocess

import pytest

from svmram.backend import Words
from svmram.md.backend import WORDS as MD_WORDS
from svmram.svm.backend import WORDS as SVM_WORDS
from svmram.unitescape import systemd_escape

pytestmark = pytest.mark.unit

CASES = [
    ("md0", "md0"), ("vg/lv", "vg-lv"), ("vg0/root_lv", "vg0-root_lv"),
    ("my-vg/lv", "my\\x2dvg-lv"), (".hidden", "\\x2ehidden"),
    ("a.b", "a.b"), ("a b", "a\\x20b"), ("a\\b", "a\\x5cb"),
    ("x:y", "x:y"), ("é", "\\xc3\\xa9"), ("/vg/lv/", "-vg-lv-"),
    ("a//b", "a--b"), ("", "")]


@pytest.mark.parametrize("name, escaped", CASES)
def test_the_rules(name, escaped):
    assert systemd_escape(name) == escaped


@pytest.mark.skipif(shutil.which("systemd-escape") is None,
                    reason="systemd-escape is not installed")
def test_systemd_escape_agrees():
    names = [name for name, _ in CASES if name] + [
        "d10", "-x", "a-", "0", "~x", "a*b?c", "tab\there", "\u00fcber/x"]
    printed = subprocess.run(["systemd-escape", "--"] + names,
                             capture_output=True, text=True, check=True,
                             env={"LC_ALL": "C.UTF-8"}).stdout.split()
    assert printed == [systemd_escape(name) for name in names]


def test_words_put_the_escaped_unit_into_their_commands():
    """A backend's commands name {unit}, the boot service Words builds
    from the target: a name with '/' gives a valid unit name."""
    lvm = Words(**dict(vars(MD_WORDS), boot_unit="svmram-lvm@{instance}"
                       ".service", state_command="lvs {target}"))
    assert lvm.unit("vg/lv") == "svmram-lvm@vg-lv.service"
    assert lvm.retry("vg/lv") == "systemctl restart svmram-lvm@vg-lv.service"
    assert lvm.explain("vg/lv") == "systemctl status svmram-lvm@vg-lv.service"
    assert lvm.state("vg/lv") == "lvs vg/lv"
    assert MD_WORDS.retry("md0") == "systemctl restart svmram@md0.service"
    assert SVM_WORDS.retry("d10") == "svcadm clear svmram:d10"
