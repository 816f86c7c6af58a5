# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Each kind of step action is described once (actions.py): what svmram
does in-process and the line the -n script prints leave the same files."""

import os
import subprocess

import pytest

from svmram import actions
from svmram.errors import RefusedError, SvmramError
from svmram.plan import Plan, Prelude, Step, render_script


def tree(tmp_path, name):
    root = tmp_path / name
    for directory in ("dev/dsk", "dev/rdsk", "sys"):
        (root / directory).mkdir(parents=True)
    (root / "sys" / "state").write_text("in_sync\n")
    return str(root)


def files(root):
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, root)
            found[rel] = ("-> " + os.readlink(path)) if os.path.islink(path) \
                else open(path, encoding="utf-8").read()
    return found


STEPS = [
    Step("link", "Link.", do=(
        actions.Symlink("/dev/dsk/c90t0d0s0", "/dev/ramdisk/r"),
        actions.Symlink("/dev/rdsk/c90t0d0s0", "/dev/rramdisk/r"))),
    Step("write", "Write.", do=(
        actions.WriteFile("/sys/state", "writemostly"),)),
    Step("unlink", "Unlink.", do=(
        actions.RemoveLink("/dev/rdsk/c90t0d0s0"),)),
]


def test_the_run_and_the_script_leave_the_same_files(tmp_path):
    by_run, by_script = tree(tmp_path, "run"), tree(tmp_path, "script")
    for step in STEPS:
        actions.perform(step, actions.Context(by_run, runner=None))
    text = render_script(
        Plan("setup", "t", steps=STEPS),
        lambda name: name, Prelude("#!/bin/sh", lambda path: ""),
        host_path=lambda path: actions.under(by_script, path))
    subprocess.run(["sh", "-e"], input=text, text=True, check=True)
    assert files(by_run) == files(by_script) == {
        "dev/dsk/c90t0d0s0": "-> /dev/ramdisk/r", "sys/state": "writemostly"}


def test_a_device_number_fills_the_commands_variable(tmp_path):
    node = tmp_path / "null"
    os.symlink("/dev/null", node)
    rdev = os.stat("/dev/null").st_rdev
    ran = []
    step = Step("record", "Record.",
                do=(actions.DeviceNumber("dev", "/null"),
                    actions.Run(("svccfg", "setprop", "x", "=", "${dev}"))))
    actions.perform(step, actions.Context(
        str(tmp_path), lambda name, args: ran.append([name] + args)))
    number = "%d,%d" % (os.major(rdev), os.minor(rdev))
    assert ran == [["svccfg", "setprop", "x", "=", number]]
    # The script's line prints the same "major,minor" for the device.
    line = step.do[0].script_line(lambda path: str(node), {
        "ls": "ls", "awk": "awk"}.get)
    out = subprocess.run(["sh", "-c", line + '; echo "$dev"'], text=True,
                         stdout=subprocess.PIPE, check=True).stdout
    assert out == number + "\n"


def test_a_link_that_is_not_ours_is_refused_and_ours_is_kept(tmp_path):
    root = tree(tmp_path, "root")
    os.symlink("/elsewhere", os.path.join(root, "dev/dsk/c90t0d0s0"))
    link = actions.Symlink("/dev/dsk/c90t0d0s0", "/dev/ramdisk/r",
                           advice="Choose another name with --link.")
    with pytest.raises(RefusedError) as info:
        link.perform(actions.Context(root, None))
    assert (info.value.message, info.value.advice) == (
        "/dev/dsk/c90t0d0s0 exists and is not svmram's link",
        "Choose another name with --link.")
    os.unlink(os.path.join(root, "dev/dsk/c90t0d0s0"))
    link.perform(actions.Context(root, None))
    link.perform(actions.Context(root, None))  # already there: nothing to do
    assert os.readlink(os.path.join(root, "dev/dsk/c90t0d0s0")) == \
        "/dev/ramdisk/r"


def test_a_refused_write_says_what_and_where(tmp_path):
    write = actions.WriteFile("/sys/missing/state", "writemostly",
                              advice="The kernel refused the change.")
    with pytest.raises(SvmramError) as info:
        write.perform(actions.Context(str(tmp_path), None))
    assert info.value.message == ("cannot write writemostly to "
                                  "/sys/missing/state: No such file or "
                                  "directory")
