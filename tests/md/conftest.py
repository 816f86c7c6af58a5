# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""tests/md: the md backend's helpers (faketree, fakekernel, mdcli)
importable, and `host`: svmram on md's fake kernel (mdcli.Host) with the
clean two-disk md0 of fixtures/vm-after-teardown."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture
def host(tmp_path):
    from mdcli import Host
    return Host(tmp_path)
