# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fixtures for the emulated svc.startd tests (helpers in bootsim.py)."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from bootsim import Host  # noqa: E402


@pytest.fixture
def host(tmp_path):
    return Host(tmp_path / "host")
