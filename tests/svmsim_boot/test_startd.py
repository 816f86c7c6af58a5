# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated svc.startd: start methods run on svcadm enable/clear/restart
and at `svmsim reboot`, with svc.startd's environment, log format, exit
status mapping, retries, timeouts and rate limit."""

import re
import subprocess

import pytest

from bootsim import Host, needs_ksh

pytestmark = needs_ksh

FMRI = "svc:/site/fake:one"
LOGTIME = "Nov 14 22:13:20"          # the frozen clock, in UTC


def header(exec_="/lib/svc/method/fake start"):
    return '[ %s Executing start method ("%s"). ]' % (LOGTIME, exec_)


def footer(code):
    return '[ %s Method "start" exited with status %d. ]' % (LOGTIME, code)


def svcs_x(host):
    return host.ok("svcs", "-x", FMRI)


# --- exit status -> state ---------------------------------------------------

def test_exit_0_goes_online(host):
    host.import_fake()
    assert host.state() == "disabled"
    host.ok("svcadm", "enable", "site/fake:one")
    assert host.state() == "online"
    assert host.runs() == [FMRI + " start"]
    assert host.aux() == "none"
    assert host.ok("svcprop", "-p", "restarter/start_method_waitstatus",
                   FMRI).strip() == "0"


def test_exit_96_maintenance_at_once(host):
    host.import_fake(instances=(("one", False, "96"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    assert host.aux() == "method_failed"
    assert len(host.runs()) == 1
    assert svcs_x(host) == (
        "svc:/site/fake:one (fake method for svmsim tests)\n"
        " State: maintenance since Tue Nov 14 22:13:20 2023\n"
        "Reason: Start method exited with $SMF_EXIT_ERR_CONFIG.\n"
        "   See: http://illumos.org/msg/SMF-8000-KS\n"
        "   See: /var/svc/log/site-fake:one.log\n"
        "Impact: This service is not running.\n")
    assert host.ok("svcprop", "-p", "restarter/start_method_waitstatus",
                   FMRI).strip() == str(96 << 8)


def test_exit_95_maintenance_at_once(host):
    host.import_fake(instances=(("one", False, "95"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    assert host.aux() == "method_failed"
    assert len(host.runs()) == 1
    assert "Reason: Start method exited with $SMF_EXIT_ERR_FATAL.\n" in \
        svcs_x(host)
    assert "   See: /var/svc/log/site-fake:one.log\n" in svcs_x(host)


@pytest.mark.parametrize("code", [99, 100])
def test_other_non_retryable_codes(host, code):
    # method_thread(): ERR_NOSMF and ERR_PERM are not retried either.
    host.import_fake(instances=(("one", False, str(code)),))
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux(), len(host.runs())) == (
        "maintenance", "method_failed", 1)
    assert "Reason: Start method exited with status %d.\n" % code in \
        svcs_x(host)


def test_exit_1_is_retried_then_maintenance(host):
    host.import_fake(instances=(("one", False, "1"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    assert host.aux() == "fault_threshold_reached"
    # FAULT_THRESHOLD is 3: the first run and two retries.
    assert host.runs() == [FMRI + " start"] * 3
    assert host.log().count(footer(1)) == 3
    assert svcs_x(host) == (
        "svc:/site/fake:one (fake method for svmsim tests)\n"
        " State: maintenance since Tue Nov 14 22:13:20 2023\n"
        "Reason: Start method failed repeatedly, last exited with status "
        "1.\n"
        "   See: http://illumos.org/msg/SMF-8000-KS\n"
        "   See: /var/svc/log/site-fake:one.log\n"
        "Impact: This service is not running.\n")


def test_success_after_a_failure_is_online(host):
    host.import_fake(instances=(("one", False, "0"),))
    host.set_exit("one", 1)
    host.ok("svcadm", "enable", FMRI)
    assert len(host.runs()) == 3
    host.set_exit("one", 0)
    host.ok("svcadm", "clear", FMRI)
    assert host.state() == "online"


def test_exit_94_counts_as_success(host):
    # method.c: SMF_EXIT_NODAEMON is a success.
    host.import_fake(instances=(("one", False, "94"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "online"


@pytest.mark.parametrize("release", ["illumos-2016", "solaris10"])
def test_exit_103_is_an_ordinary_failure_without_smf_exit_degraded(
        tmp_path, release):
    # illumos' SMF has no degraded exit: 103 is "any other" status.
    host = Host(tmp_path / "host", release=release)
    host.import_fake(instances=(("one", False, "103"),))
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux()) == ("maintenance",
                                          "fault_threshold_reached")
    assert host.runs() == [FMRI + " start"] * 3


def test_smf_exit_degraded_on_solaris11(tmp_path):
    """Release switch smf_exit_degraded (profile solaris11): a start
    method exiting $SMF_EXIT_DEGRADED leaves its instance degraded, not
    retried, with the reason in svcs -x; svcadm restart runs it again."""
    host = Host(tmp_path / "host", release="solaris11")
    host.import_fake(instances=(("one", False, "103"),))
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux()) == ("degraded", "method_degraded")
    assert host.runs() == [FMRI + " start"]
    assert host.log().count(footer(103)) == 1
    assert svcs_x(host) == (
        "svc:/site/fake:one (fake method for svmsim tests)\n"
        " State: degraded since Tue Nov 14 22:13:20 2023\n"
        "Reason: Start method exited with $SMF_EXIT_DEGRADED.\n"
        "   See: http://illumos.org/msg/SMF-8000-DX\n"
        "   See: /var/svc/log/site-fake:one.log\n"
        "Impact: None.\n")
    host.set_exit("one", 0)
    host.ok("svcadm", "restart", FMRI)
    assert (host.state(), host.aux()) == ("online", "none")
    assert len(host.runs()) == 2


# --- timeouts ---------------------------------------------------------------

def test_timeout_kills_and_retries(host):
    host.import_fake(instances=(("one", False, "sleep"),), timeout=1)
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    assert host.aux() == "fault_threshold_reached"
    assert len(host.runs()) == 3
    log = host.log()
    assert len(re.findall(r"^\[ %s Method or service exit timed out.  "
                          r"Killing contract \d+\. \]$" % LOGTIME, log,
                          re.M)) == 3
    assert log.count('[ %s Method "start" failed due to signal KILL. ]'
                     % LOGTIME) == 3
    assert "exited with status" not in log
    assert "Reason: Start method failed repeatedly, last died on Killed " \
        "(9).\n" in svcs_x(host)


def test_timeout_without_retry_is_method_failed(host):
    host.import_fake(instances=(("one", False, "sleep"),), timeout=1,
                     timeout_retry=False)
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux(), len(host.runs())) == (
        "maintenance", "method_failed", 1)
    log = host.log()
    assert "Killing contract" in log
    assert "failed due to signal" not in log
    assert "Reason: Start method died on Killed (9).\n" in svcs_x(host)


def test_timeout_kills_the_whole_process_group(host):
    host.import_fake(instances=(("one", False, "sleep"),), timeout=1,
                     timeout_retry=False)
    host.ok("svcadm", "enable", FMRI)
    # The method's `sleep 120` child was in its process group: gone.
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True,
                        text=True).stdout
    assert not any(line.strip() == "sleep 120" and host.root in line
                   for line in ps.splitlines())
    assert host.runs() == [FMRI + " start"]


# --- the log ----------------------------------------------------------------

def test_log_file_name_header_and_footer(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    assert host.ok("svcprop", "-p", "restarter/logfile", FMRI).strip() == \
        "/var/svc/log/site-fake:one.log"
    assert host.log() == "\n".join([
        "[ %s Enabled. ]" % LOGTIME,
        header(),
        "fake method: start for svc:/site/fake:one",
        footer(0)]) + "\n"


def test_log_is_appended_to(host):
    host.import_fake(instances=(("one", False, "96"),))
    host.ok("svcadm", "enable", FMRI)
    host.set_exit("one", 0)
    host.ok("svcadm", "clear", FMRI)
    lines = host.log().splitlines()
    assert lines == [
        "[ %s Enabled. ]" % LOGTIME,
        header(),
        "fake method: start for svc:/site/fake:one",
        footer(96),
        "[ %s Leaving maintenance because clear requested. ]" % LOGTIME,
        "[ %s Enabled. ]" % LOGTIME,
        header(),
        "fake method: start for svc:/site/fake:one",
        footer(0)]


def test_method_tokens_are_expanded(host):
    host.import_fake(exec_="/lib/svc/method/fake %m %i %{fake/exit}")
    host.ok("svcadm", "enable", FMRI)
    assert header("/lib/svc/method/fake start one 0") in host.log()
    assert host.runs() == [FMRI + " start"]


def test_bad_method_token_is_method_failed(host):
    host.import_fake(exec_="/lib/svc/method/fake %{fake/nosuch}")
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux()) == ("maintenance", "method_failed")
    assert host.runs() == []
    assert ('Could not expand method tokens in "/lib/svc/method/fake '
            '%{fake/nosuch}": property "fake/nosuch" not found.') in \
        host.log()


# --- the environment --------------------------------------------------------

def test_environment_seen_by_the_method(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI, env={"SVMRAM_POLL_SECONDS": "0",
                                           "PYTHONPATH": "/nowhere",
                                           "SOMETHING_ELSE": "x"})
    env = dict(line.split("=", 1) for line in
               host.record("env", "one").splitlines() if "=" in line)
    assert env["SMF_FMRI"] == FMRI
    assert env["SMF_METHOD"] == "start"
    assert env["SMF_RESTARTER"] == "svc:/system/svc/restarter:default"
    assert env["SMF_ZONENAME"] == "global"
    assert env["PATH"] == host.bindir + ":/usr/sbin:/usr/bin"
    assert env["SVMRAM_ROOT"] == host.root
    assert env["SVMRAM_BINDIR"] == host.bindir
    assert env["SVMRAM_POLL_SECONDS"] == "0"
    assert "PYTHONPATH" not in env and "SOMETHING_ELSE" not in env
    assert "SVMSIM_DIR" not in env and "HOME" not in env
    # The working directory is the emulated root.
    assert env["PWD"] == host.root


def test_method_sees_itself_starting(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    assert host.record("state", "one").split() == ["offline", "online"]


def test_smf_include_helpers_in_a_method(host):
    host.install("/lib/svc/method/helpers", r"""#!/usr/bin/ksh93
. ${SVMRAM_ROOT}/lib/svc/share/smf_include.sh
smf_present && print present
smf_is_globalzone && print global
smf_is_nonglobalzone || print not-nonglobal
print zone=$(smf_zonename)
smf_is_system_labeled || print unlabeled
smf_clear_env
print fmri=${SMF_FMRI:-unset}
exit $SMF_EXIT_OK
""")
    host.import_fake(exec_="/lib/svc/method/helpers")
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "online"
    assert "\npresent\nglobal\nnot-nonglobal\nzone=global\nunlabeled\n" \
        "fmri=unset\n" in host.log()


def test_python_method(host):
    host.install("/lib/svc/method/pyfake", """#!/usr/bin/python3
import os, sys
print("python method", sys.argv[1], os.environ["SMF_FMRI"])
sys.exit(96)
""")
    host.import_fake(exec_="/lib/svc/method/pyfake start")
    host.ok("svcadm", "enable", FMRI)
    assert (host.state(), host.aux()) == ("maintenance", "method_failed")
    assert "python method start svc:/site/fake:one\n" in host.log()


# --- svcadm -----------------------------------------------------------------

def test_clear_reruns_the_method(host):
    host.import_fake(instances=(("one", False, "96"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    host.set_exit("one", 0)
    host.ok("svcadm", "clear", FMRI)
    assert host.state() == "online"
    assert host.runs() == [FMRI + " start"] * 2


def test_restart_reruns_the_method(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    host.ok("svcadm", "restart", FMRI)
    assert host.state() == "online"
    assert host.runs() == [FMRI + " start"] * 2
    log = host.log()
    assert "[ %s Stopping because service restarting. ]\n" % LOGTIME in log
    assert "[ %s Executing stop method (null). ]\n" % LOGTIME in log


def test_disable_then_enable_reruns_the_method(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    host.ok("svcadm", "disable", FMRI)
    assert host.state() == "disabled"
    host.ok("svcadm", "enable", FMRI)
    assert host.runs() == [FMRI + " start"] * 2


def test_enable_s_reports_maintenance(host):
    host.import_fake(instances=(("one", False, "96"),))
    p = host.cmd("svcadm", "enable", "-s", FMRI)
    assert p.returncode == 3
    assert p.stderr == 'svcadm: Instance "svc:/site/fake:one" is in ' \
        'maintenance state.\n'


def test_import_of_an_enabled_instance_runs_the_method(host):
    host.import_fake(instances=(("one", True, "0"),))
    assert host.state() == "online"
    assert host.runs() == [FMRI + " start"]


def test_restarting_too_quickly(host):
    # Five starts within ten minutes (the clock is frozen): the fifth is
    # refused without running the method.  The fault count is not reset
    # by svcadm clear (only a successful start resets it), so the run
    # after the first clear goes to maintenance at once.
    host.import_fake(instances=(("one", False, "1"),))
    host.ok("svcadm", "enable", FMRI)
    assert len(host.runs()) == 3
    host.ok("svcadm", "clear", FMRI)
    assert (host.state(), host.aux(), len(host.runs())) == (
        "maintenance", "fault_threshold_reached", 4)
    host.ok("svcadm", "clear", FMRI)
    assert (host.state(), host.aux(), len(host.runs())) == (
        "maintenance", "restarting_too_quickly", 4)
    assert host.log().endswith(
        "[ %s Restarting too quickly, changing state to maintenance. ]\n"
        % LOGTIME)
    assert "Reason: Restarting too quickly.\n" in svcs_x(host)
    # A reboot forgets (svc.startd restarts).
    host.set_exit("one", 0)
    host.reboot()
    assert host.state() == "online"


def test_not_installed_keeps_the_stand_in_behaviour(host):
    host.import_fake(exec_="/lib/svc/method/not-installed start")
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "online"
    assert not host.has_log(FMRI)
    host.reboot()
    assert host.state() == "online"
    assert not host.has_log(FMRI)


# --- reboot -----------------------------------------------------------------

def test_reboot_runs_enabled_instances(host):
    host.import_fake(instances=(("one", False, "0"), ("two", False, "96"),
                                ("off", False, "0")))
    host.ok("svcadm", "enable", FMRI)
    host.ok("svcadm", "enable", "svc:/site/fake:two")
    assert len(host.runs()) == 2
    p = host.reboot()
    assert host.state() == "online"
    assert host.state("svc:/site/fake:two") == "maintenance"
    assert host.state("svc:/site/fake:off") == "disabled"
    assert host.runs() == [FMRI + " start", "svc:/site/fake:two start",
                           FMRI + " start", "svc:/site/fake:two start"]
    # offline first, then online or maintenance by the method
    assert host.record("state", "one").split() == ["offline", "online"]
    assert host.record("state", "two").split() == ["offline", "online"]
    assert p.stderr == (
        "[ site/fake:two misconfigured: transitioned to maintenance "
        "(see 'svcs -xv' for details) ]\n")
    assert host.log("svc:/site/fake:two").endswith(
        "[ %s Enabled. ]\n%s\nfake method: start for svc:/site/fake:two\n%s\n"
        % (LOGTIME, header(), footer(96)))
    for fmri in ("svc:/system/metainit:default",
                 "svc:/system/metasync:default",
                 "svc:/system/filesystem/local:default",
                 "svc:/milestone/multi-user:default"):
        assert host.state(fmri) == "online"


def test_reboot_retries_maintenance_instances(host):
    host.import_fake(instances=(("one", False, "96"),))
    host.ok("svcadm", "enable", FMRI)
    assert host.state() == "maintenance"
    host.set_exit("one", 0)
    host.reboot()
    assert host.state() == "online"
    assert host.aux() == "none"


def test_reboot_keeps_administrative_maintenance(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    host.ok("svcadm", "mark", "maintenance", FMRI)
    host.reboot()
    assert (host.state(), host.aux()) == ("maintenance",
                                          "administrative_request")
    assert len(host.runs()) == 1


def test_before_metasync_runs_nothing(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    assert len(host.runs()) == 1
    host.reboot("--before-metasync")
    assert len(host.runs()) == 1
    assert host.state() == "offline"
    assert host.state("svc:/system/metainit:default") == "online"
    assert host.state("svc:/system/metasync:default") == "offline"
    assert host.state("svc:/system/filesystem/local:default") == "offline"
    assert host.state("svc:/milestone/multi-user:default") == "offline"
    host.reboot()
    assert host.runs() == [FMRI + " start"] * 2
    assert host.state() == "online"
    assert host.state("svc:/milestone/multi-user:default") == "online"


def test_no_services_leaves_instances_offline(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    host.reboot("--no-services")
    assert host.state() == "offline"
    assert len(host.runs()) == 1
    assert host.state("svc:/system/metasync:default") == "online"


def test_temporary_enable_resets_at_reboot(host):
    host.import_fake()
    host.ok("svcadm", "enable", "-t", FMRI)
    assert host.state() == "online"
    host.reboot()
    assert host.state() == "disabled"
    assert len(host.runs()) == 1
    assert host.ok("svcprop", "-p", "general/enabled", FMRI).strip() == \
        "false"


def test_temporary_disable_resets_at_reboot(host):
    host.import_fake()
    host.ok("svcadm", "enable", FMRI)
    host.ok("svcadm", "disable", "-t", FMRI)
    assert host.state() == "disabled"
    host.reboot()
    assert host.state() == "online"
    assert len(host.runs()) == 2


def test_reboot_starts_in_dependency_order(host):
    # site/b requires site/a; both enabled.  a is imported last, so it
    # comes after b in repository order, yet runs first.
    host.import_fake("site/b", instances=(("bi", True, "0"),),
                     deps=("svc:/site/a",))
    host.import_fake("site/a", instances=(("ai", True, "0"),))
    host.reboot()
    runs = host.runs()
    assert runs[-2:] == ["svc:/site/a:ai start", "svc:/site/b:bi start"]
    assert host.state("svc:/site/b:bi") == "online"


def test_unsatisfied_dependency_stays_offline(host):
    host.import_fake("site/a", instances=(("ai", True, "96"),))
    host.import_fake("site/b", instances=(("bi", False, "0"),),
                     deps=("svc:/site/a",))
    host.ok("svcadm", "enable", "svc:/site/b:bi")   # the stand-in: no deps
    before = len(host.runs("bi"))
    host.reboot()
    assert host.state("svc:/site/a:ai") == "maintenance"
    assert host.state("svc:/site/b:bi") == "offline"
    assert len(host.runs("bi")) == before
