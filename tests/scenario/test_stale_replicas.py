# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Stale state database replicas (issue 9): with fewer than a majority of
the replicas good at boot, SVM refuses every change (MDE_DB_STALE), and
metastat prints a warning banner first.  svmram refuses before it changes
anything, instead of failing part-way at its first metainit."""

import json

import pytest

from hosts import EmulatedHost
from svmsim import presets

pytestmark = pytest.mark.emulator_only("fails replicas and reboots the host")

REFUSED = 3
STALE = ("svmram: the state database replicas are stale (fewer than a "
         "majority of them were good at boot), so SVM would refuse every "
         "change; nothing was changed\n"
         "svmram: 'metadb -i' shows the failed replicas: delete them with "
         "'metadb -d' and reboot, as svc-metainit advises, then add "
         "replicas again and rerun svmram.\n")


def replicas_on_two_slices(tmp_path, second):
    """The article's host (three replicas on c0d0s7) with `second` more
    on c0d0s1."""
    desc = presets.preset("article")
    desc["replicas"].append({"slice": "c0d0s1", "count": second})
    path = tmp_path / "host.json"
    path.write_text(json.dumps(desc))
    return EmulatedHost(tmp_path / "host", host_file=str(path))


@pytest.fixture
def two_replica_slices(tmp_path):
    """Failing c0d0s7's three replicas leaves three of six, short of the
    majority of four."""
    return replicas_on_two_slices(tmp_path, 3)


def go_stale(host):
    assert host.sim("fail-replicas", "c0d0s7").returncode == 0
    assert host.reboot().returncode == 0
    host.clear_trace()


def test_the_emulator_shows_a_stale_database_as_svm_does(two_replica_slices):
    host = two_replica_slices
    go_stale(host)
    listing = host.cmd("metadb").stdout.splitlines()
    assert listing[1:] == [
        "      W   p  l      \t16\t\t8192\t\t/dev/dsk/c0d0s7",
        "      W   p  l      \t8208\t\t8192\t\t/dev/dsk/c0d0s7",
        "      W   p  l      \t16400\t\t8192\t\t/dev/dsk/c0d0s7",
        "     a m  p  luo    \t16\t\t8192\t\t/dev/dsk/c0d0s1",
        "     a    p  luo    \t8208\t\t8192\t\t/dev/dsk/c0d0s1",
        "     a    p  luo    \t16400\t\t8192\t\t/dev/dsk/c0d0s1"]
    banner = ("****\nWARNING: Stale state database replicas. Metastat "
              "output may be inaccurate.\n****\n\n")
    assert host.metastat_p() == banner + (
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
        "d11 1 1 /dev/rdsk/c0d1s0\nd12 1 1 /dev/rdsk/c1d0s0\n")
    assert host.cmd("metastat", "d10").stdout.startswith(banner + "d10: ")
    refused = host.cmd("metaparam", "-r", "first", "d10")
    assert (refused.returncode, refused.stderr) == (
        1, "metaparam: myhost: stale databases\n\n")


def test_a_majority_of_good_replicas_is_not_stale(tmp_path):
    host = replicas_on_two_slices(tmp_path, 4)      # four of seven left
    go_stale(host)
    assert "WARNING" not in host.metastat_p()
    assert host.cmd("metaparam", "-r", "first", "d10").returncode == 0


def test_setup_refuses_before_changing_anything(two_replica_slices):
    host = two_replica_slices
    go_stale(host)
    before = host.state_digest()
    for argv in (("setup", "-y", "d10"), ("setup", "-n", "d10")):
        result = host.svmram(*argv)
        assert (result.returncode, result.stdout, result.stderr) == (
            REFUSED, "", STALE), argv
    assert host.trace() == []
    assert host.state_digest() == before


def test_teardown_and_the_boot_restore_refuse_too(two_replica_slices):
    host = two_replica_slices
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    go_stale(host)
    before = host.state_digest()
    result = host.svmram("teardown", "-y", "d10")
    assert (result.returncode, result.stderr) == (REFUSED, STALE)
    result = host.svmram("restore", "d10")
    assert (result.returncode, result.stderr[-len(STALE):]) == (
        REFUSED, STALE)
    assert host.trace() == []
    assert host.state_digest() == before
    assert host.violations() == []


def test_check_says_the_replicas_are_stale(two_replica_slices):
    host = two_replica_slices
    go_stale(host)
    result = host.svmram("check")
    assert ("FAIL     replicas  the state database replicas are stale, so "
            "SVM refuses every change; metadb -i shows the failed ones"
            ) in result.stdout.splitlines()
    assert result.returncode != 0


def test_check_warns_of_failed_replicas_before_they_make_it_stale(
        two_replica_slices):
    host = two_replica_slices
    assert host.sim("fail-replicas", "c0d0s7").returncode == 0
    result = host.svmram("check")
    assert ("warning  replicas  3 of 6 replicas have problems (c0d0s7 block "
            "16: W (replica has device write errors), not active (no a flag), "
            "not up to date (no u flag); c0d0s7 block 8208: W (replica has "
            "device write errors), not active (no a flag), not up to date "
            "(no u flag); c0d0s7 block 16400: W (replica has device write "
            "errors), not active (no a flag), not up to date (no u flag)); "
            "a majority must be good at boot, or SVM refuses every change: "
            "replace them (metadb -d, metadb -a)") in result.stdout.splitlines()
