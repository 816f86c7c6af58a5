# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The svmram and svmram_info modules against a fake svmram that prints
recorded output of the real one (fake_svmram.py): the commands each run
asks for, in order, what it returns, and what it fails with."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import stat
import sys

import pytest

from ansible.module_utils import basic
from ansible_collections.svmram.svmram.plugins.modules import svmram
from ansible_collections.svmram.svmram.plugins.modules import svmram_info

HERE = os.path.dirname(os.path.abspath(__file__))
DEGRADED = ("svmram: d10 has 1 healthy disk submirror; svmram needs two\n"
            "svmram: Attach a second disk submirror first, so a disk copy "
            "always remains.")
UNREADABLE = ("svmram: cannot read the svmram service's instances and "
              "records from SMF: svcs: Could not bind to repository server: "
              "repository server unavailable.  Exiting.")


class Exit(Exception):
    def __init__(self, failed, result):
        super(Exit, self).__init__(result)
        self.failed = failed
        self.result = result


def _exit(self, **result):
    raise Exit(False, result)


def _fail(self, **result):
    raise Exit(True, result)


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """The fake svmram, in a host state run() names: (its path, the
    arguments of each call, the state afterwards)."""
    wrapper = tmp_path / "svmram"
    wrapper.write_text("#!/bin/sh\nexec %s %s \"$@\"\n" % (
        sys.executable, os.path.join(HERE, "fake_svmram.py")))
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_SVMRAM_DIR", str(tmp_path))
    monkeypatch.setenv("SVMRAM_ROOT", str(tmp_path / "root"))
    monkeypatch.setattr(basic.AnsibleModule, "exit_json", _exit)
    monkeypatch.setattr(basic.AnsibleModule, "fail_json", _fail)
    monkeypatch.setattr(svmram.time, "sleep", lambda seconds: None)

    def calls():
        path = tmp_path / "calls"
        return path.read_text().splitlines() if path.exists() else []

    def state():
        return (tmp_path / "state").read_text()

    def run(module, host_state, check_mode=False, diff=False, **args):
        (tmp_path / "state").write_text(host_state)
        args.update(svmram_path=str(wrapper), _ansible_check_mode=check_mode,
                    _ansible_diff=diff)
        with _module_args(args):
            with pytest.raises(Exit) as done:
                module.main()
        return done.value
    run.calls, run.state, run.root = calls, state, tmp_path / "root"
    return run


def _module_args(args):
    try:
        from ansible.module_utils.testing import patch_module_args
    except ImportError:             # ansible-core before 2.19
        from unittest import mock
        return mock.patch.object(basic, "_ANSIBLE_ARGS", json.dumps(
            {"ANSIBLE_MODULE_ARGS": args}).encode())
    return patch_module_args(args)


def test_setup_of_a_mirror_not_set_up(fake):
    done = fake(svmram, "not_set_up", target="d10")
    assert not done.failed, done.result
    assert fake.calls() == ["status --json d10", "setup -y d10",
                            "status --json d10"]
    assert done.result["changed"] is True
    assert (done.result["target"], done.result["verdict"],
            done.result["serving_from_ram"]) == ("d10", "serving", True)
    assert done.result["stdout"] == "d10: reads are served from the RAM " \
                                    "submirror d13 (ramdisk svmram_d10).\n"
    assert fake.state() == "set_up"


def test_a_mirror_set_up_already_is_not_changed(fake):
    done = fake(svmram, "set_up", target="d10")
    assert fake.calls() == ["status --json d10"]
    assert (done.failed, done.result["changed"],
            done.result["verdict"]) == (False, False, "serving")


def test_the_boot_copy_still_running_is_not_a_change(fake):
    """After a boot, before the boot service copied d10 into RAM: set up,
    not serving; no setup runs."""
    done = fake(svmram, "boot_window", target="d10")
    assert fake.calls() == ["status --json d10"]
    assert (done.failed, done.result["changed"],
            done.result["verdict"]) == (False, False, "not_serving")


def test_wait_fails_when_the_reads_do_not_come_from_ram_in_time(fake):
    done = fake(svmram, "boot_window", target="d10", wait=1)
    assert done.failed and done.result["changed"] is False
    assert done.result["msg"] == (
        "d10 does not serve its reads from RAM after 1 seconds: d13 needs "
        "maintenance; the ramdisk svmram_d10 does not exist")
    assert fake.calls()[0] == "status --json d10"
    assert set(fake.calls()) == {"status --json d10"}


def test_an_unfinished_setup_is_run_again(fake):
    """A journal left (/var/svmram/d10.journal): the setup runs again,
    which finishes it (here the recording of a finished one)."""
    os.makedirs(str(fake.root / "var" / "svmram"))
    (fake.root / "var" / "svmram" / "d10.journal").write_text("{}")
    done = fake(svmram, "set_up", target="d10")
    assert fake.calls() == ["status --json d10", "setup -y d10",
                            "status --json d10"]
    assert not done.failed and done.result["changed"] is True


MAINTENANCE = ("svmram: d10 is set up for reads from RAM, but its boot "
               "service svc:/system/svmram:d10 is maintenance\n"
               "svmram: 'svmram status d10' says what is wrong and what to "
               "do; 'svmram teardown d10' undoes the setup.")


def test_a_failed_boot_service_fails_with_setups_words(fake):
    """Set up, its boot service in maintenance: not "set up as asked";
    the task fails as 'svmram setup' does (exit 3, its words), in check
    mode too, and nothing runs that changes the host."""
    for check_mode in (False, True):
        done = fake(svmram, "maintenance", check_mode=check_mode,
                    target="d10")
        assert done.failed, check_mode
        assert (done.result["msg"], done.result["rc"],
                done.result["changed"]) == (MAINTENANCE, 3, False)
        assert fake.calls()[-2:] == ["status --json d10", "setup -n d10"]
    assert len(fake.calls()) == 4


def test_md_failed_unit_is_started_as_setup_does(fake):
    """Set up, its unit failed: 'svmram setup' starts it, and so does the
    task (changed); in check mode it returns that plan."""
    done = fake(svmram, "md_failed_unit", check_mode=True,
                target="/dev/md0")
    assert fake.calls() == ["status --json /dev/md0", "setup -n /dev/md0"]
    assert not done.failed and done.result["changed"] is True
    assert "# md0 is set up but its boot unit svmram@md0.service is " \
           "failed; setup starts it.\n" in done.result["plan"]
    assert fake.state() == "md_failed_unit"
    done = fake(svmram, "md_failed_unit", diff=True, target="/dev/md0")
    assert fake.calls()[2:] == ["status --json /dev/md0",
                                "setup -n /dev/md0", "setup -y /dev/md0",
                                "status --json /dev/md0"]
    assert not done.failed and done.result["changed"] is True
    assert (done.result["diff"]["before"]["boot_service"],
            done.result["diff"]["after"]["boot_service"]) == ("failed",
                                                              "active")
    assert fake.state() == "md_set_up"


def test_a_refusal_fails_with_svmrams_words(fake):
    done = fake(svmram, "degraded", target="d10")
    assert done.failed
    assert (done.result["msg"], done.result["rc"]) == (DEGRADED, 3)
    assert fake.calls() == ["status --json d10", "setup -y d10"]


def test_check_mode_predicts_the_refusal(fake):
    done = fake(svmram, "degraded", check_mode=True, target="d10")
    assert done.failed and done.result["msg"] == DEGRADED
    assert fake.calls() == ["status --json d10", "check --json d10"]


def test_check_mode_returns_the_plan_and_changes_nothing(fake):
    done = fake(svmram, "not_set_up", check_mode=True, diff=True,
                target="d10")
    assert not done.failed, done.result
    assert fake.calls() == ["status --json d10", "check --json d10",
                            "setup -n d10"]
    assert fake.state() == "not_set_up"
    result = done.result
    assert result["changed"] is True
    assert result["plan"].startswith("#!/bin/ksh93\n# svmram setup d10: "
                                     "the plan")
    assert (result["check"]["verdict"], result["check"]["method"]) == (
        "ready", "rotate")
    assert result["diff"]["before"]["configured"] is False
    assert result["diff"]["after"]["configured"] is True
    assert result["diff"]["prepared"] == result["plan"]


def test_options_reach_setup(fake):
    fake(svmram, "not_set_up", target="d10", method="rotate",
         allow_label=True)
    assert fake.calls()[1] == "setup -y --method rotate --allow-label d10"


def test_diff_of_a_teardown(fake):
    done = fake(svmram, "set_up", diff=True, target="d10", state="absent")
    assert not done.failed, done.result
    assert fake.calls() == ["status --json d10", "teardown -y d10",
                            "status --json d10"]
    assert done.result["diff"] == {
        "before": {"configured": True, "serving_from_ram": True,
                   "ram_copy": "d13", "read_policy": "first",
                   "write_mostly": [], "boot_service": "online"},
        "after": {"configured": False, "serving_from_ram": False,
                  "ram_copy": None, "read_policy": None,
                  "write_mostly": [], "boot_service": None}}


def test_absent_on_a_mirror_not_set_up_is_not_changed(fake):
    done = fake(svmram, "not_set_up", target="d10", state="absent")
    assert (done.failed, done.result["changed"]) == (False, False)
    assert fake.calls() == ["status --json d10"]


def test_an_unreadable_host_fails_and_is_never_healthy(fake):
    for module in (svmram, svmram_info):
        done = fake(module, "unreadable", target="d10")
        assert done.failed
        assert done.result["msg"].splitlines()[0] == UNREADABLE
        assert done.result["rc"] == 1


def test_info_returns_status_and_check(fake):
    done = fake(svmram_info, "set_up", check_mode=True)
    assert not done.failed, done.result
    assert fake.calls() == ["status --json", "check --json"]
    result = done.result
    assert result["changed"] is False
    assert [t["target"] for t in result["targets"]] == ["d10"]
    assert (result["status_rc"], result["check_rc"]) == (0, 0)
    assert result["verdicts"] == [{"detail": "svmram status d10 reports it",
                                   "mirror": "d10", "verdict": "set up"}]
    assert {c["check"] for c in result["checks"]} >= {"svm", "replicas"}


def test_info_reports_a_refused_target_without_failing(fake):
    done = fake(svmram_info, "degraded", target="d10")
    assert not done.failed, done.result
    assert (done.result["status_rc"], done.result["check_rc"]) == (4, 3)
    assert done.result["verdicts"][0]["verdict"] == "refused"


def test_set_up_as_asked_is_not_changed(fake):
    done = fake(svmram, "set_up", target="d10", method="rotate")
    assert (done.failed, done.result["changed"]) == (False, False)
    assert fake.calls() == ["status --json d10",
                            "setup -n --method rotate d10"]


def test_set_up_differently_fails_with_svmrams_words(fake):
    done = fake(svmram, "set_up", target="d10", method="swap")
    assert done.failed and done.result["rc"] == 3
    assert done.result["msg"] == (
        "svmram: d10 is already set up differently (--method swap, "
        "recorded rotate)\nsvmram: Run setup without those options to keep "
        "it as it is, or 'svmram teardown d10' first to set it up anew.")
    assert fake.calls() == ["status --json d10", "setup -n --method swap d10"]


def test_md_setup_and_its_diff(fake):
    done = fake(svmram, "md_not_set_up", diff=True, target="/dev/md0")
    assert not done.failed, done.result
    assert fake.calls() == ["status --json /dev/md0", "setup -y /dev/md0",
                            "status --json /dev/md0"]
    assert (done.result["target"], done.result["changed"],
            done.result["verdict"]) == ("md0", True, "serving")
    assert done.result["diff"]["after"] == {
        "configured": True, "serving_from_ram": True, "ram_copy": "ram0",
        "read_policy": None, "write_mostly": ["vda", "vdb"],
        "boot_service": "active"}
    assert fake.state() == "md_set_up"


def test_md_check_mode_returns_the_sh_plan(fake):
    done = fake(svmram, "md_not_set_up", check_mode=True, target="/dev/md0")
    assert fake.calls() == ["status --json /dev/md0",
                            "check --json /dev/md0", "setup -n /dev/md0"]
    assert done.result["changed"] and done.result["plan"].startswith(
        "#!/bin/sh\n")
    assert fake.state() == "md_not_set_up"


def test_md_after_a_boot_before_the_unit_restored_is_not_a_change(fake):
    done = fake(svmram, "md_boot_window", target="/dev/md0")
    assert fake.calls() == ["status --json /dev/md0"]
    assert (done.failed, done.result["changed"], done.result["verdict"],
            done.result["status"]["reasons"]) == (
        False, False, "not_serving", ["ram0 is not in md0",
                                      "brd is not loaded"])


def test_md_teardown(fake):
    done = fake(svmram, "md_set_up", target="/dev/md0", state="absent")
    assert fake.calls() == ["status --json /dev/md0", "teardown -y /dev/md0",
                            "status --json /dev/md0"]
    assert (done.result["changed"], done.result["status"]["configured"]) \
        == (True, False)
