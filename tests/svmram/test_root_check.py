# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Changing the storage needs root: only an emulated host, whose root
SVMRAM_ROOT names, skips the check; SVMRAM_ROOT=/ is the real host
(issue 29 section 4)."""

import os

import pytest

from svmram.commands import common
from svmram.errors import RefusedError
from svmram.md.backend import MdBackend


@pytest.mark.parametrize("root", ["/", "//", "/.", "", None])
def test_the_real_root_is_checked(monkeypatch, tmp_path, root):
    if root is None:
        monkeypatch.delenv("SVMRAM_ROOT", raising=False)
    else:
        monkeypatch.setenv("SVMRAM_ROOT", root)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(RefusedError) as raised:
        common.require_root(MdBackend(str(tmp_path)))
    # (The advice's words are another change's: h-27, per backend.)
    assert raised.value.message == \
        "svmram must run as root to change md arrays"
    assert raised.value.advice
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    common.require_root(MdBackend(str(tmp_path)))


def test_an_emulated_root_is_not_checked(monkeypatch, tmp_path):
    monkeypatch.setenv("SVMRAM_ROOT", str(tmp_path))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    common.require_root(MdBackend(str(tmp_path)))
