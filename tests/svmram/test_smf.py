# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svm/smf.py: the record written by one `svccfg -f` command file, its
exact commands, the run and the -n script writing the same file, and the
file removed whatever svccfg does (pure but for a temporary root)."""

import os
import subprocess

import pytest

from svmram import actions
from svmram.errors import SvmramError
from svmram.plan import Plan, Prelude, Step, render_script
from svmram.run import Result
from svmram.svm import record, smf
from svmram.svm.intent import Intent

INTENT = Intent(mirror="d10", ram="d13", ramdisk="svmram_d10",
                size_bytes=228 << 20, link="c90t0d0s0", method="rotate",
                disks=("d11", "d12"), read_option="roundrobin",
                write_option="parallel", pass_num=1, size_blocks=465885)

RECORD_FILE = (
    "select svc:/system/svmram\n"
    "add d10\n"
    "select d10\n"
    "addpg svmram application\n"
    "setprop svmram/mirror = astring: d10\n"
    "setprop svmram/ram = astring: d13\n"
    "setprop svmram/ramdisk = astring: svmram_d10\n"
    "setprop svmram/size_bytes = count: 239075328\n"
    "setprop svmram/link = astring: c90t0d0s0\n"
    "setprop svmram/method = astring: rotate\n"
    "setprop svmram/disks = astring: d11,d12\n"
    "setprop svmram/read_option = astring: roundrobin\n"
    "setprop svmram/write_option = astring: parallel\n"
    "setprop svmram/pass_num = count: 1\n"
    "setprop svmram/size_blocks = count: 465885\n"
    "setprop svmram/ramdisk_dev = astring: 250,1\n"
    "setprop svmram/format = count: 1\n"
    "refresh\n")


class Runner:
    """Records each command with the command file's text as it was when
    the command ran."""

    def __init__(self, root, ok=True):
        self.root, self.ok, self.calls = root, ok, []

    def __call__(self, name, args, check=True):
        text = open(os.path.join(self.root, args[1].lstrip("/")),
                    encoding="utf-8").read()
        self.calls.append(([name] + list(args), text))
        if not self.ok and check:
            raise SvmramError("svccfg -f failed")
        return Result(tuple([name] + list(args)), 0 if self.ok else 1, "",
                      "")


def root(tmp_path):
    (tmp_path / "var" / "run").mkdir(parents=True)
    return str(tmp_path)


def test_the_record_is_one_svccfg_with_every_property_and_a_refresh(
        tmp_path):
    host = root(tmp_path)
    runner = Runner(host)
    step = Step("record d10", "Record.", do=smf.write_actions(
        INTENT, "${%s}" % record.DEV_VARIABLE))
    actions.perform(step, actions.Context(
        host, runner, {"${ramdisk_dev}": "250,1"}))
    assert runner.calls == [(["svccfg", "-f", "/var/run/svmram.d10.svccfg"],
                             RECORD_FILE)]
    assert os.listdir(os.path.join(host, "var", "run")) == []
    # What the file sets is what the step's expect holds.
    assert {line.split()[1].split("/")[1]: line.split()[-1]
            for line in RECORD_FILE.splitlines()
            if line.startswith("setprop")} == record.expected(INTENT, "250,1")


def test_the_command_file_is_removed_when_svccfg_fails(tmp_path):
    host = root(tmp_path)
    runner = Runner(host, ok=False)
    with pytest.raises(SvmramError):
        actions.perform(Step("k", "S.", do=smf.update_actions(
            "d10", "c91t0d0s0", "250,2")), actions.Context(host, runner))
    assert runner.calls == [(
        ["svccfg", "-f", "/var/run/svmram.d10.svccfg"],
        "select svc:/system/svmram:d10\n"
        "setprop svmram/link = astring: c91t0d0s0\n"
        "setprop svmram/ramdisk_dev = astring: 250,2\n"
        "refresh\n")]
    assert os.listdir(os.path.join(host, "var", "run")) == []


def test_values_are_words_of_svccfgs_language():
    assert smf._value("d11,d12") == "d11,d12"
    assert smf._value("a b") == '"a b"'
    assert smf._value('x"y\\') == '"x\\"y\\\\"'
    assert smf._value("#c") == '"#c"'
    assert smf._value("") == '""'


def test_the_script_writes_the_file_the_run_writes(tmp_path):
    """The -n script's printf writes, byte for byte, the file the run
    hands svccfg, the ${VAR} filled in by the shell."""
    host = root(tmp_path)
    step = Step("record d10", "Record.", do=smf.write_actions(
        INTENT, "${%s}" % record.DEV_VARIABLE))
    text = render_script(
        Plan("setup", "d10", steps=[step]),
        lambda name: {"svccfg": "true"}.get(name, name),
        Prelude("#!/bin/sh", lambda path: ""),
        host_path=lambda path: actions.under(host, path))
    assert "true -f /var/run/svmram.d10.svccfg\n" in text
    removal = "/usr/bin/rm -f %s/var/run/svmram.d10.svccfg\n" % host
    assert text.endswith(removal)
    # Run without the removal, to read what the file held.
    subprocess.run(["sh", "-e"], input="ramdisk_dev=250,1\n" + text[
        :-len(removal)], text=True, check=True)
    with open(os.path.join(host, "var", "run", "svmram.d10.svccfg"),
              encoding="utf-8") as stream:
        assert stream.read() == RECORD_FILE


# --- what a step's check reads again (svm/host.py step_parts) ---------------

def test_a_steps_check_reads_again_what_its_commands_can_change():
    from svmram.svm import host, probe, steps
    from svmram.actions import Run, Symlink

    def parts(*do):
        return host.step_parts(Step("k", "S.", do=do))
    assert parts(Run(("metattach", "d10", "d13"))) == ("svm",)
    assert parts(Run(("dd", "if=/dev/md/rdsk/d10", "of=/dev/null",
                      "count=1"))) == ("svm",)
    assert parts(Run(("ramdiskadm", "-a", "svmram_d10", "228m"))) == (
        "ramdisks",)
    assert parts(steps.read_dev(INTENT, "ramdisk_dev"),
                 *smf.write_actions(INTENT, "${ramdisk_dev}")) == ("smf",)
    assert parts(Run(("metareplace", "-e", "d10", "c90t0d0s0")),
                 Run(("svccfg", "-f", "/var/run/x"))) == ("svm", "smf")
    # A wait for a resync runs nothing, but SVM changes meanwhile.
    assert host.step_parts(Step("k", "S.", wait_resync="d10")) == ("svm",)
    # Links are files, read every time: a link step runs no command.
    assert parts(Symlink("/dev/dsk/c90t0d0s0", "/dev/ramdisk/r")) == ()
    # A command or an action it does not know: everything.
    assert parts(Run(("mkfile", "1m", "/x"))) == host.PARTS
    assert parts(probe.SlotCheck(*[None] * len(
        probe.SlotCheck.__dataclass_fields__))) == host.PARTS
