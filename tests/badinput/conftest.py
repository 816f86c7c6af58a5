# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Hosts for the bad-input catalogue: copies of three emulated hosts
built once per session (a fresh one; one set up with `svmram setup d10`;
one set up and then rebooted without running its boot service, i.e. the
state `svmram restore` starts from)."""

import os

import pytest

from hosts import EmulatedHost, clone  # noqa: E402  (on sys.path)

BASES = ("fresh", "set_up", "rebooted")


@pytest.fixture(scope="session")
def base_hosts(tmp_path_factory):
    if os.environ.get("SVMRAM_TEST_HOST", "emulator") != "emulator":
        pytest.skip("the bad-input catalogue needs the emulator")
    built = {}

    def get(kind):
        if kind in built:
            return built[kind]
        directory = tmp_path_factory.mktemp("base-" + kind) / "host"
        if kind == "fresh":
            host = EmulatedHost(directory)
        elif kind == "set_up":
            host = EmulatedHost(directory)
            result = host.svmram("setup", "-y", "d10")
            assert result.returncode == 0, result.stderr
        elif kind == "rebooted":
            host = clone(get("set_up"), directory)
            assert host.reboot("--no-services").returncode == 0
        else:
            raise ValueError("no base host %r; use one of %s" % (kind, BASES))
        assert host.violations() == []
        built[kind] = host
        return host
    return get


@pytest.fixture
def host_from(base_hosts, tmp_path):
    """host_from(KIND) -> a private copy of the base host KIND."""
    def make(kind):
        return clone(base_hosts(kind), tmp_path / "host")
    return make
