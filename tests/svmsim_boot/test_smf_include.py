# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The stand-in smf_include.sh: installed by `svmsim init`, ksh93 clean,
the names of illumos' file, emulator behaviour of the helpers."""

import os
import stat
import subprocess

import pytest

from bootsim import KSH, LIB, Host, needs_ksh

SOURCE = os.path.join(LIB, "svmsim", "smf_include.sh")

EXIT_CODES = {"SMF_EXIT_OK": 0, "SMF_EXIT_ERR_FATAL": 95,
              "SMF_EXIT_ERR_CONFIG": 96, "SMF_EXIT_MON_DEGRADE": 97,
              "SMF_EXIT_MON_OFFLINE": 98, "SMF_EXIT_ERR_NOSMF": 99,
              "SMF_EXIT_ERR_PERM": 100}

FUNCTIONS = ("smf_present", "smf_clear_env", "smf_console", "smf_zonename",
             "smf_is_globalzone", "smf_is_nonglobalzone", "smf_configure_ip",
             "smf_dont_configure_ip", "smf_dont_configure_vt",
             "smf_is_system_labeled", "smf_netstrategy", "smf_kill_contract")


def ksh(script, env=None):
    return subprocess.run([KSH, "-c", script], capture_output=True,
                          text=True, env=env)


SOLARIS11_BLOCK = "#@solaris11-begin\n"


def test_init_installs_it(host):
    """The default profile (illumos-2016) gets illumos' names only: the
    source without its Solaris 11.4 block."""
    path = host.path("/lib/svc/share/smf_include.sh")
    with open(path) as f, open(SOURCE) as g:
        installed, source = f.read(), g.read()
    begin = source.index(SOLARIS11_BLOCK)
    end = source.index("#@solaris11-end\n") + len("#@solaris11-end\n")
    assert installed == source[:begin] + source[end:].lstrip("\n")
    assert "SMF_EXIT_DEGRADED" not in installed
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444
    assert os.path.isdir(host.path("/etc/svc/volatile/repository_door"))


@pytest.mark.parametrize("release, degraded", [
    ("illumos-2016", False), ("solaris10", False), ("solaris11", True)])
def test_only_solaris11_defines_smf_exit_degraded(tmp_path, release,
                                                  degraded):
    host = Host(tmp_path / "host", release=release)
    path = host.path("/lib/svc/share/smf_include.sh")
    with open(path) as f, open(SOURCE) as g:
        assert (f.read() == g.read()) == degraded
    if KSH is None:
        return
    p = ksh(". %s\nprint ${SMF_EXIT_DEGRADED:-none}\n"
            "typeset -f smf_method_exit >/dev/null && print exit-function\n"
            % path)
    assert p.stdout == ("103\nexit-function\n" if degraded else "none\n")


@needs_ksh
def test_ksh_n_clean():
    p = subprocess.run([KSH, "-n", SOURCE], capture_output=True, text=True)
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")


@needs_ksh
def test_names():
    script = ". %s\n" % SOURCE
    script += "".join('print %s=$%s\n' % (n, n) for n in EXIT_CODES)
    script += "".join("typeset -f %s >/dev/null && print %s\n" % (f, f)
                      for f in FUNCTIONS)
    p = ksh(script)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == \
        ["%s=%d" % kv for kv in EXIT_CODES.items()] + list(FUNCTIONS)


@needs_ksh
def test_helpers(host):
    env = {"PATH": "/usr/bin:/bin", "SVMRAM_ROOT": host.root,
           "SMF_FMRI": "svc:/site/fake:one", "SMF_METHOD": "start"}
    p = ksh(". %s\n"
            "smf_present && print present\n"
            "smf_is_globalzone && print global\n"
            "smf_is_nonglobalzone || print not-nonglobal\n"
            "smf_configure_ip && print configure-ip\n"
            "smf_dont_configure_ip || print ip-ok\n"
            "smf_dont_configure_vt || print vt-ok\n"
            "smf_is_system_labeled || print unlabeled\n"
            "smf_netstrategy; print strategy=$_INIT_NET_STRATEGY\n"
            "print hello | smf_console\n"
            "smf_clear_env; print fmri=${SMF_FMRI:-unset}"
            " method=${SMF_METHOD:-unset}\n" % SOURCE, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ("present\nglobal\nnot-nonglobal\nconfigure-ip\n"
                        "ip-ok\nvt-ok\nunlabeled\nstrategy=none\nhello\n"
                        "fmri=unset method=unset\n")
    with open(host.path("/dev/msglog")) as f:
        assert f.read() == "hello\n"
    # Not on an emulated host: no door, no SMF.
    p = ksh(". %s\nsmf_present || print absent\n" % SOURCE,
            env={"PATH": "/usr/bin:/bin", "SVMRAM_ROOT": "/nonexistent"})
    assert p.stdout == "absent\n"
    # A non-global zone.
    p = ksh(". %s\nsmf_is_nonglobalzone && print ngz\n"
            "smf_dont_configure_ip && print no-ip\n" % SOURCE,
            env={"PATH": "/usr/bin:/bin", "SMF_ZONENAME": "z1"})
    assert p.stdout == "ngz\nno-ip\n"


@needs_ksh
def test_kill_contract_kills_the_process_group():
    # A "contract" is a process group: start one with two sleepers.
    group = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60; wait"],
                             start_new_session=True)
    try:
        # WAIT 0: the group leader is this test's child and stays a
        # zombie (still in the group) until it is reaped below.
        p = ksh(". %s\nsmf_kill_contract %d TERM 0; print rc=$?\n"
                "smf_kill_contract nonsense TERM; print bad=$?\n"
                % (SOURCE, group.pid))
        assert p.stdout == "rc=0\nbad=1\n"
        assert p.stderr == 'Error, invalid contract "nonsense"\n'
        assert group.wait(timeout=30) != 0
        # An empty contract: nothing to do.
        p = ksh(". %s\nsmf_kill_contract %d TERM 1 10; print rc=$?\n"
                % (SOURCE, group.pid))
        assert p.stdout == "rc=0\n"
    finally:
        if group.poll() is None:
            group.kill()
            group.wait()
