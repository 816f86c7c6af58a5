# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Hosts for the bad-input catalogue: copies of three emulated hosts
built once per session (a fresh one; one set up with `svmram setup d10`;
one set up and then rebooted without running its boot service, i.e. the
state `svmram restore` starts from)."""

import os

import pytest

from hosts import clone  # noqa: E402  (on sys.path)

# The base hosts, as steps after building the article's host (hosts.Bases).
STEPS = {
    "fresh": (),
    "set_up": (("svmram", "setup", "-y", "d10"),),
    "rebooted": (("svmram", "setup", "-y", "d10"),
                 ("reboot", "--no-services")),
}
BASES = tuple(STEPS)


@pytest.fixture(scope="session")
def catalogue_bases(base_hosts):
    """base(KIND) -> the session's base host KIND, checked once: the
    data-safety monitor is clean on it."""
    if os.environ.get("SVMRAM_TEST_HOST", "emulator") != "emulator":
        pytest.skip("the bad-input catalogue needs the emulator")
    checked = set()

    def get(kind):
        if kind not in STEPS:
            raise ValueError("no base host %r; use one of %s" % (kind, BASES))
        host = base_hosts.get("article", None, STEPS[kind])
        if kind not in checked:
            assert host.violations() == []
            checked.add(kind)
        return host
    return get


@pytest.fixture
def host_from(catalogue_bases, tmp_path):
    """host_from(KIND) -> a private copy of the base host KIND."""
    def make(kind):
        return clone(catalogue_bases(kind), tmp_path / "host")
    return make
