# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram.8 is an mdoc(7) page, as new illumos pages are, and mandoc -T
lint reports nothing above STYLE (the illumos pages it cites do not exist
on the machine that runs the tests, hence 'referenced manual not found')."""

import os
import re
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
PAGE = os.path.join(REPO, "docs", "svmram.8")


def lint(path):
    if shutil.which("mandoc") is None:
        pytest.fail("mandoc is not installed; .ci/run installs it")
    return subprocess.run(["mandoc", "-T", "lint", path],
                          capture_output=True, text=True)


def test_mandoc_lint_reports_nothing_above_style():
    result = lint(PAGE)
    above_style = [line for line in (result.stdout + result.stderr)
                   .splitlines() if ": STYLE: " not in line]
    assert above_style == []


def test_the_lint_catches_a_broken_page(tmp_path):
    broken = tmp_path / "svmram.8"
    with open(PAGE) as page:
        broken.write_text(page.read().replace(".El\n", "", 1))
    result = lint(str(broken))
    assert any(": ERROR: " in line or ": WARNING: " in line
               for line in (result.stdout + result.stderr).splitlines())


def test_the_page_has_the_sections_of_an_illumos_page():
    with open(PAGE) as page:
        text = page.read()
    assert text.count(".Dt SVMRAM 8") == 1
    sections = re.findall(r"^\.Sh (.+)$", text, re.M)
    for name in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FILES",
                 "EXIT STATUS", "EXAMPLES", "INTERFACE STABILITY",
                 "SEE ALSO"):
        assert name in sections
    subcommands = re.findall(r"^\.Ss svmram (\w+)$", text, re.M)
    assert subcommands == ["setup", "teardown", "status", "restore", "check",
                           "selftest"]
    # Emulator-only variables are not the administrator's business.
    assert "SVMRAM_BINDIR" not in text and "SVMRAM_ROOT" not in text
