# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What a step does, each kind described once (backend-neutral).

A Step's ``do`` is a tuple of actions, carried out in order.  Each action
is one description from which both the real run (``perform``) and the
line of the ``-n`` script (``script_line``) come, so the two cannot
drift:

    Run(argv)                  run.run via the host  PATH ARGS...
    Symlink(path, target)      os.symlink        ln -s TARGET PATH
    RemoveLink(path)           os.unlink         rm -f PATH
    DeviceNumber(var, path)    os.stat st_rdev   VAR=$(ls -lL PATH | awk ..)
    WriteFile(path, value)     open().write      printf %s VALUE > PATH

A backend may add its own (md/record.py's record files, svm/probe.py's
slot check), with the same two methods: ``perform(context)`` (a Context:
the host root, the runner, the values set so far) and
``script_line(host_path, program_path)``.

A command argument written ``${VAR}`` is the value an action set earlier
in the plan (a DeviceNumber; in a script, a shell variable).  Paths are
host paths; the run and the script put them under the host root
(SVMRAM_ROOT in tests), link targets are left as they are.  Commands run
through run.py only (the host's runner); a script prints the path
program_path gives: run.py's table for the commands svmram runs, the
script's own tools (plan.SCRIPT_TOOLS) for what svmram does in-process.
"""

import os
import shlex
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from .errors import RefusedError, SvmramError


class Context:
    """What actions act on: the host under `root`, its commands through
    `runner` (run.run's signature: name, args), and `values`, the ${VAR}
    values actions set for later ones.  `write(path, value)` writes a
    host file (the default: the file under root; md's host passes its
    own, which tests replace with a model of the kernel's sysfs)."""

    def __init__(self, root, runner, values=None, write=None):
        self.root = root
        self.runner = runner
        self.values: Dict[str, str] = {} if values is None else values
        self._write: Optional[Callable[[str, str], None]] = write

    def write(self, path, value):
        if self._write is not None:
            self._write(path, value)
            return
        with open(under(self.root, path), "w", encoding="ascii") as stream:
            stream.write(value)


@dataclass(frozen=True)
class Run:
    """Run a command of run.py's table; ${VAR} arguments are filled in."""
    argv: Tuple[str, ...]

    def perform(self, context):
        argv = [context.values.get(arg, arg) for arg in self.argv]
        context.runner(argv[0], argv[1:])

    def script_line(self, host_path, program_path):
        return " ".join([shlex.quote(program_path(self.argv[0]))] + [
            '"%s"' % arg if is_variable(arg) else shlex.quote(arg)
            for arg in self.argv[1:]])


@dataclass(frozen=True)
class Symlink:
    path: str           # the link
    target: str         # what it points to (absolute, not under the root)
    advice: str = ""    # when `path` exists and is not this link

    def perform(self, context):
        path = under(context.root, self.path)
        if os.path.islink(path) and os.readlink(path) == self.target:
            return
        if os.path.lexists(path):
            raise RefusedError("%s exists and is not svmram's link"
                               % self.path, advice=self.advice or None)
        os.symlink(self.target, path)

    def script_line(self, host_path, program_path):
        return "%s -s %s %s" % (program_path("ln"), shlex.quote(self.target),
                                shlex.quote(host_path(self.path)))


@dataclass(frozen=True)
class RemoveLink:
    path: str

    def perform(self, context):
        path = under(context.root, self.path)
        if os.path.islink(path):
            os.unlink(path)

    def script_line(self, host_path, program_path):
        return "%s -f %s" % (program_path("rm"), shlex.quote(host_path(
            self.path)))


@dataclass(frozen=True)
class DeviceNumber:
    variable: str       # set to "major,minor"
    path: str           # a device node (or a link to one)

    def perform(self, context):
        context.values["${%s}" % self.variable] = device_number(
            under(context.root, self.path))

    def script_line(self, host_path, program_path):
        # ls -lL prints a device's "MAJOR, MINOR" in place of the size.
        return "%s=$(%s -lL %s | %s '{print $5 $6}')" % (
            self.variable, program_path("ls"), shlex.quote(host_path(self.path)),
            program_path("awk"))


@dataclass(frozen=True)
class WriteFile:
    path: str
    value: str
    advice: str = ""    # when the write is refused

    def perform(self, context):
        try:
            context.write(self.path, self.value)
        except OSError as exc:
            raise SvmramError("cannot write %s to %s: %s" % (
                self.value, self.path, exc.strerror or exc),
                advice=self.advice or None) from exc

    def script_line(self, host_path, program_path):
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
    plan runs: an earlier action sets it."""
    return arg.startswith("${") and arg.endswith("}")


def perform(step, context):
    """Carry out `step`'s actions in order on the host `context` gives."""
    for action in step.do:
        action.perform(context)
