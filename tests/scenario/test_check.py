# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram check: one line per host check, a verdict per mirror, an exit
status by verdict, --json; and it changes nothing."""

import json
import os

import pytest

import releases

from hosts import wrapping_bindir

REFUSED = 3


def check(host, *args):
    result = host.svmram("check", *args)
    assert "Traceback" not in result.stderr
    return result


def test_a_mounted_mirror_is_ready_for_rotate_and_nothing_changes(host):
    before = host.state_digest()
    result = check(host)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "ok       svm       Solaris Volume Manager is installed"
    assert "ok       replicas  the state database is readable; all 3 replicas are healthy" in lines
    verdict = [line for line in lines if line.startswith("d10: ")]
    assert len(verdict) == 1
    assert verdict[0].startswith(
        "d10: ready: auto chose rotate: d10 is mounted on /mnt and swap "
        "needs it closed. Cost: resyncs copy ")
    # Where the slot behaviour is unknown until tested (Solaris), the
    # verdict gives the cost both ways.
    assert verdict[0].endswith(releases.on(
        host, " d10 stays open and in use throughout.",
        " d10 stays open and in use throughout. If metadetach leaves a hole "
        "here, resyncs copy %s blocks instead; setup tests which first."
        % (2 * int(host.article("465885")))))
    assert host.trace() == []
    assert host.state_digest() == before


def test_json_gives_the_verdict_method_and_cost(host):
    result = check(host, "--json", "d10")
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["format"] == 1
    assert [m["mirror"] for m in report["mirrors"]] == ["d10"]
    d10 = report["mirrors"][0]
    assert (d10["verdict"], d10["method"]) == ("ready", "rotate")
    # The cost is the one setup -n prints for the same plan.
    plan = host.svmram("setup", "-n", "d10").stdout
    assert "%d blocks" % d10["copies_blocks"] in plan
    assert {c["check"] for c in report["checks"]} == {
        "svm", "service", "replicas", "memory"}
    assert all(c["verdict"] in ("ok", "warning") for c in report["checks"])


def test_a_mirror_set_up_already_is_reported_as_such(host_after):
    host = host_after(("svmram", "setup", "-y", "d10"))
    result = check(host, "d10")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == (
        "d10: set up: svmram status d10 reports it")


def test_what_setup_would_refuse_is_a_refused_verdict_and_exit_3(host):
    result = check(host, "d11")
    assert result.returncode == REFUSED
    assert result.stdout.splitlines()[-2:] == [
        "d11: refused: d11 is a concat/stripe, not a mirror",
        "    Give the name of a mirror (metastat -p lists them with -m)."]


def test_no_replicas_fails_the_check(host):
    assert host.cmd("metadb", "-d", "-f", host.article("c0d0s7")) \
        .returncode == 0
    result = check(host)
    assert result.returncode == REFUSED
    assert result.stdout.splitlines()[-1] == (
        "FAIL     replicas  there are no state database replicas; create "
        "them with metadb -a -f")


@pytest.mark.emulator_only("a host without SVM's commands")
def test_a_host_without_svm_says_so_in_one_check(host):
    bindir = wrapping_bindir(host, "nosvm", "metastat",
                             lambda real, bindir: "#!/bin/sh\nexit 0\n")
    os.unlink(os.path.join(bindir, "metastat"))
    result = host.svmram("check", env={"SVMRAM_BINDIR": bindir})
    assert result.returncode == REFUSED
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "FAIL     svm       this system has no Solaris Volume Manager "
        "(cannot run ")
    assert "storage/svm" in lines[0]
