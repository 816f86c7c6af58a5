# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fixture loading for the parser tests."""

import os

import pytest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "fixtures")


def read_fixture(name):
    """The exact text of tests/parse/fixtures/NAME."""
    with open(os.path.join(FIXTURES, name), encoding="utf-8",
              newline="") as handle:
        return handle.read()


@pytest.fixture
def fixture_text():
    return read_fixture
