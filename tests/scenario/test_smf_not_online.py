# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metastat exits 1 after printing everything when a core SVM service is
not online in SMF (metastat.c, meta_smf.c; audit 1.10/7.7).  svmram reads
its output then, and notes the services; any other failure stays one."""

import pytest

from hosts import EmulatedHost

LATE = ("svc:/network/rpc/meta:default", "svc:/system/mdmonitor:default")


@pytest.fixture
def late_host(tmp_path):
    """The article's host with rpc/meta and mdmonitor not online yet."""
    host = EmulatedHost(tmp_path / "host")
    for fmri in LATE:
        assert host.cmd("svcadm", "disable", fmri).returncode == 0
    p = host.cmd("metastat", "-p")
    assert p.returncode == 1 and p.stdout.startswith("d10 -m ")
    assert p.stderr.endswith(
        "\tnetwork/rpc/meta:default: service(s) not online in SMF\n\n")
    return host


def test_setup_dry_run_and_status_work(late_host):
    result = late_host.svmram("setup", "-n", "d10")
    assert result.returncode == 0, result.stderr
    assert "metattach d10 d13" in result.stdout
    result = late_host.svmram("status", "d10")
    assert (result.returncode, result.stderr) == (4, "")


def test_setup_and_teardown_work(late_host):
    result = late_host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    result = late_host.svmram("status", "d10")
    assert (result.returncode, result.stderr) == (0, "")
    result = late_host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert late_host.violations() == []


def test_snapshot_names_the_services(late_host, monkeypatch):
    from svmram.svm.host import SvmHost
    for name, value in late_host.env.items():
        monkeypatch.setenv(name, value)
    snap = SvmHost("d10", root=late_host.root).observe()
    assert snap.services_not_online == ("system/mdmonitor:default",
                                        "network/rpc/meta:default")
    assert snap.mirror.slots == ("d11", "d12")


@pytest.mark.parametrize("stderr", [
    "stale databases",                  # another SVM error
    "\n\tnetwork/rpc/meta:default: service(s) not online in SMF\n\n"
    "metastat: myhost: d10: unit not set up",      # and something else
])
def test_other_metastat_failures_still_fail(tmp_path, stderr):
    host = EmulatedHost(tmp_path / "host")
    assert host.sim("faults", "add", "metastat", "--nth", "1", "--exit",
                    "1", "--svm-error", stderr).returncode == 0
    result = host.svmram("setup", "-n", "d10")
    assert result.returncode != 0
    assert "metastat -p failed: metastat: myhost: " in result.stderr
