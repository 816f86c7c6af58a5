# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The real-host path of the scenario tests, as far as it can be checked
without illumos: the session refuses to start unless it is configured
(run in a subprocess pytest), which tests would run on a real host, and
RealHost's own logic (the article's values for a real host, the guard on
commands, what it refuses to emulate)."""

import os
import platform
import subprocess
import sys

import pytest

from hosts import (EmulatedHost, EmulatorOnly, RealHost, UnsafeOnRealHost,
                   ramdisk_size_for)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
# One quick scenario test: a refusal is decided before any test runs.
ONE_TEST = "tests/scenario/test_status.py::" \
           "test_a_mirror_that_is_not_configured"

off_illumos = pytest.mark.skipif(platform.system() == "SunOS",
                                 reason="these refusals are for other hosts")


def scenario_pytest(*args, **env_changes):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("SVMRAM_", "SVMSIM_", "PYTEST_"))}
    env.update(env_changes)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"] +
        list(args), cwd=REPO, env=env, capture_output=True, text=True,
        timeout=300)


# --- refusing to start -------------------------------------------------------

@pytest.mark.parametrize("env, lines", [
    ({"SVMRAM_TEST_HOST": "bogus"},
     ["ERROR: svmram scenario tests: SVMRAM_TEST_HOST=bogus is not "
      "understood."]),
    ({"SVMRAM_TEST_HOST": "real"},
     ["ERROR: svmram scenario tests: SVMRAM_TEST_HOST=real cannot run here:",
      "  - this is %s, not illumos (uname -s must say SunOS)" %
      platform.system(),
      "  - SVMRAM_TEST_DISKS is not set: name two spare slices"]),
    ({"SVMRAM_TEST_HOST": "real", "SVMRAM_TEST_DISKS": "c2t1d0s0"},
     ["  - SVMRAM_TEST_DISKS names 1 slice (c2t1d0s0); it needs exactly "
      "two"]),
    ({"SVMRAM_TEST_HOST": "real",
      "SVMRAM_TEST_DISKS": "c2t1d0s0 c2t2d0s0"},
     ["  - this is %s, not illumos" % platform.system()]),
])
@off_illumos
def test_the_session_refuses_to_start(env, lines):
    proc = scenario_pytest(ONE_TEST, **env)
    assert proc.returncode == 4, proc.stdout + proc.stderr   # usage error
    err = proc.stderr.splitlines()
    for line in lines:
        assert any(got.startswith(line) for got in err), (line, err)
    assert "See docs/testing-on-a-real-host.md." in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert " passed" not in proc.stdout


@off_illumos
def test_it_refuses_even_when_only_emulator_only_tests_are_selected():
    proc = scenario_pytest("tests/scenario/test_cost.py",
                           SVMRAM_TEST_HOST="real")
    assert proc.returncode == 4
    assert "SVMRAM_TEST_HOST=real cannot run here:" in proc.stderr


def test_the_emulator_when_unset_or_named():
    for env in ({}, {"SVMRAM_TEST_HOST": "emulator"}):
        proc = scenario_pytest(ONE_TEST, "-o", "addopts=--import-mode="
                               "importlib", SVMRAM_TEST_RELEASES="illumos-2016",
                               **env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "1 passed" in proc.stdout


# --- which tests a real host runs --------------------------------------------

def real_host_plan():
    # On the emulator each host test runs per release profile; one
    # profile, its id taken off, names the tests as a real host runs them.
    proc = scenario_pytest("--collect-only", "tests/scenario",
                           SVMRAM_TEST_SHOW_REAL_PLAN="1",
                           SVMRAM_TEST_RELEASES="illumos-2016")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plan = {}
    for line in proc.stdout.splitlines():
        if line.startswith("real host: "):
            verdict, _, rest = line[len("real host: "):].partition(" ")
            rest = rest.replace("[illumos-2016]", "").replace(
                "[illumos-2016-", "[").replace("-illumos-2016]", "]")
            nodeid, _, reason = rest.strip().partition(" (")
            plan[nodeid] = (verdict, reason.rstrip(")"))
    return plan


def test_the_real_host_plan():
    plan = real_host_plan()
    run = {nodeid for nodeid, (verdict, _) in plan.items() if verdict == "RUN"}
    scenario = "tests/scenario/"
    for name in ("test_setup_teardown.py::test_setup_rotates_a_mounted_mirror",
                 "test_setup_teardown.py::test_teardown_after_rotate_"
                 "restores_the_original",
                 "test_restore.py::test_restore_after_teardown_refuses",
                 "test_status.py::test_a_mirror_that_is_not_configured",
                 "test_refusals.py::test_refusal[setup -y d10 / "
                 "degrade_d12]"):
        assert scenario + name in run
    skipped = {
        "test_restore.py::test_normal_boot":
            "emulator only: reboots the host",
        "test_refusals.py::test_refusal[setup -y d10 / drop_replicas]":
            "emulator only: deletes the state database replicas",
        "test_boot_service.py::test_normal_boot_restores_and_reads_come_from_"
        "ram_again": "emulator only: installs into the emulated root and "
                     "reboots it",
        "test_status.py::test_json_after_setup":
            "emulator only: builds its own emulated host (uses neither the "
            "host nor the host_factory fixture",
    }
    for name, reason in skipped.items():
        assert plan[scenario + name] == ("SKIP", reason)
    for nodeid, (verdict, _) in plan.items():
        if "/test_faults.py::" in nodeid or "/test_swap.py::" in nodeid or \
                "/test_cost.py::" in nodeid:
            assert verdict == "SKIP", nodeid


# --- RealHost, off illumos ---------------------------------------------------

BASELINE = {"ramdisks": ["boot"], "dsk": [], "rdsk": [], "journals": []}


@pytest.fixture
def real_host(tmp_path):
    host = RealHost(tmp_path, ["c2t1d0s0", "c2t2d0s0"], baseline=BASELINE)
    host.size_blocks = 522112
    return host


def test_the_article_values_become_this_hosts(real_host):
    assert real_host.article("d11 1 1 /dev/rdsk/c0d1s0\n"
                             "d12 1 1 /dev/rdsk/c1d0s0\n") == (
        "d11 1 1 /dev/rdsk/c2t1d0s0\nd12 1 1 /dev/rdsk/c2t2d0s0\n")
    # 522112 blocks: 255m has 870 cylinders of 600 blocks, 522000 blocks.
    assert real_host.article([["ramdiskadm", "-a", "svmram_d10", "228m"],
                              ["metainit", "d13", "1", "1", "c90t0d0s0"]]) \
        == [["ramdiskadm", "-a", "svmram_d10", "256m"],
            ["metainit", "d13", "1", "1", "c90t0d0s0"]]
    assert real_host.article("svmram/size_blocks count 465885") == \
        "svmram/size_blocks count 522112"
    assert real_host.article("4658850 1228m") == "4658850 1228m"


def test_the_emulator_keeps_the_article(tmp_path):
    value = [["ramdiskadm", "-a", "svmram_d10", "228m"]]
    assert EmulatedHost.article(None, value) is value


@pytest.mark.parametrize("blocks", [1, 2048, 4095, 465885, 453600, 522112,
                                    2097152, 4194000, 4194305])
def test_the_ramdisk_size_oracle_agrees_with_svmram(blocks):
    from svmram.svm import sizing
    assert ramdisk_size_for(blocks) == sizing.human_size(
        sizing.ramdisk_size_for(blocks))


@pytest.mark.parametrize("argv", [
    ("metastat", "-p", "d10"),
    ("metadetach", "d10", "d12"),
    ("metadb", "-i"),
    ("dd", "if=/dev/md/rdsk/d10", "of=/dev/null", "count=1"),
    ("svccfg", "-s", "svc:/system/svmram", "add", "d10"),
    ("svcprop", "-p", "svmram", "svc:/system/svmram:d10"),
    ("metainit", "d13", "1", "1", "c90t0d0s0"),
    ("metainit", "d11", "1", "1", "/dev/dsk/c2t1d0s0"),
    ("ramdiskadm", "-d", "svmram_d10"),
])
def test_the_guard_lets_the_tests_own_objects_through(real_host, argv):
    real_host._guard(argv[0], argv[1:])


@pytest.mark.parametrize("argv, why", [
    (("metadb", "-d", "-f", "c0d0s7"), "replicas are the host's own"),
    (("metaclear", "-r", "d30"), "d30 is not one of the test's metadevices"),
    (("metainit", "d13", "1", "1", "c2t3d0s0"), "c2t3d0s0 is neither a test "
     "slice nor svmram's link"),
    (("metainit", "d13", "1", "1", "c2t1d0"), "c2t1d0 is neither"),
    (("svcadm", "disable", "svc:/network/ssh:default"), "not an svmram FMRI"),
    (("ramdiskadm", "-d", "boot"), "the ramdisk boot is not the test's"),
    (("dd", "if=/dev/zero", "of=/dev/md/rdsk/d10"), "dd may only read"),
    (("newfs", "/dev/md/rdsk/d10"), "newfs is not one of the commands"),
])
def test_the_guard_refuses_anything_else(real_host, argv, why):
    with pytest.raises(UnsafeOnRealHost) as caught:
        real_host.cmd(*argv)
    assert why in str(caught.value)
    assert "@pytest.mark.emulator_only" in str(caught.value)


def test_what_only_the_emulator_does(real_host):
    with pytest.raises(EmulatorOnly, match="host.sim\\('freeze'\\) needs the "
                       "SVM emulator"):
        real_host.sim("freeze")
    with pytest.raises(EmulatorOnly, match="reboot_check.py"):
        real_host.reboot()
    with pytest.raises(EmulatorOnly, match="'swap' exists only on the "
                       "emulator"):
        real_host.build("swap")
    assert real_host.violations() == []
    assert (real_host.monitored, EmulatedHost.monitored) == (False, True)
    assert real_host.root == "/"
    assert "SVMRAM_BINDIR" not in real_host.env
    assert "SVMRAM_ROOT" not in real_host.env
    assert real_host.env["SVMRAM_TRACE"] == real_host.trace_file
