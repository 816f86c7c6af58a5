# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What a step does, each kind described once (backend-neutral).

A Step's ``actions`` run in order before its commands (``argv``,
``argvs``).  Each action is one description from which both the real run
(``perform``) and the line of the ``-n`` script (``script_line``) come,
so the two cannot drift:

    Symlink(path, target)      os.symlink        ln -s TARGET PATH
    RemoveLink(path)           os.unlink         rm -f PATH
    DeviceNumber(var, path)    os.stat st_rdev   VAR=$(ls -lL PATH | awk ..)
    WriteFile(path, value)     open().write      printf %s VALUE > PATH

A command argument written ``${VAR}`` is the value a DeviceNumber action
set in the same step.  Paths are host paths; the run and the script put
them under the host root (SVMRAM_ROOT in tests), link targets are left as
they are.  Commands run through run.py only.
"""

import os
import shlex
from dataclasses import dataclass

from .errors import RefusedError, SvmramError


@dataclass(frozen=True)
class Symlink:
    path: str           # the link
    target: str         # what it points to (absolute, not under the root)
    advice: str = ""    # when `path` exists and is not this link

    def perform(self, root, values):
        path = under(root, self.path)
        if os.path.islink(path) and os.readlink(path) == self.target:
            return
        if os.path.lexists(path):
            raise RefusedError("%s exists and is not svmram's link"
                               % self.path, advice=self.advice or None)
        os.symlink(self.target, path)

    def script_line(self, host_path, tool_path):
        return "%s -s %s %s" % (tool_path("ln"), shlex.quote(self.target),
                                shlex.quote(host_path(self.path)))


@dataclass(frozen=True)
class RemoveLink:
    path: str

    def perform(self, root, values):
        path = under(root, self.path)
        if os.path.islink(path):
            os.unlink(path)

    def script_line(self, host_path, tool_path):
        return "%s -f %s" % (tool_path("rm"), shlex.quote(host_path(
            self.path)))


@dataclass(frozen=True)
class DeviceNumber:
    variable: str       # set to "major,minor"
    path: str           # a device node (or a link to one)

    def perform(self, root, values):
        values["${%s}" % self.variable] = device_number(under(root,
                                                              self.path))

    def script_line(self, host_path, tool_path):
        # ls -lL prints a device's "MAJOR, MINOR" in place of the size.
        return "%s=$(%s -lL %s | %s '{print $5 $6}')" % (
            self.variable, tool_path("ls"), shlex.quote(host_path(self.path)),
            tool_path("awk"))


@dataclass(frozen=True)
class WriteFile:
    path: str
    value: str
    advice: str = ""    # when the write is refused

    def perform(self, root, values):
        try:
            with open(under(root, self.path), "w",
                      encoding="ascii") as stream:
                stream.write(self.value)
        except OSError as exc:
            raise SvmramError("cannot write %s to %s: %s" % (
                self.value, self.path, exc.strerror or exc),
                advice=self.advice or None) from exc

    def script_line(self, host_path, tool_path):
        # printf, not echo: the same bytes as the run writes, no newline.
        return "printf %%s %s > %s" % (shlex.quote(self.value),
                                      shlex.quote(host_path(self.path)))


def under(root, path):
    """`path` of the host whose root is `root`."""
    return os.path.join(root, path.lstrip("/"))


def device_number(path):
    """"major,minor" of the device node `path` (links followed)."""
    rdev = os.stat(path).st_rdev
    return "%d,%d" % (os.major(rdev), os.minor(rdev))


def is_variable(arg):
    """An argument written ${name} stands for a value only known when the
    step runs: an action of the step sets it."""
    return arg.startswith("${") and arg.endswith("}")


def commands_of(step):
    return ((step.argv,) if step.argv else ()) + tuple(step.argvs)


def perform(step, root, runner, actions=None):
    """Carry out `step` on the host under `root`: its actions (or the
    `actions` given for it), then its commands through `runner` (run.run),
    with ${VAR} arguments filled in."""
    values = {}
    for action in step.actions if actions is None else actions:
        action.perform(root, values)
    for argv in commands_of(step):
        argv = [values.get(arg, arg) for arg in argv]
        runner(argv[0], argv[1:])
