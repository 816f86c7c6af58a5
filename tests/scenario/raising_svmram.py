# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Run sbin/svmram with one function patched to raise, for the tests of
exceptions svmram does not expect (tests/scenario/test_step_exceptions.py).

    python3 raising_svmram.py SUBCOMMAND ARGS...

SVMRAM_TEST_RAISE holds JSON: {"target": "module:attribute", "match":
TEXT, "nth": N, "error": [CLASS, ARGS...]}; the attribute may be a
dotted path (Class.method).  The Nth call of the target
whose arguments include a string containing TEXT ("" matches every call)
raises CLASS(*ARGS) (a builtin exception class); every other call goes
through.  With "after": true the call is made first and the exception
raised after it.

test_step_exceptions.py runs svmram in its own process the same way
(patch, svmram_only=True), unless SVMRAM_TEST_PROCESSES asks for
processes.
"""

import builtins
import importlib
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
SVMRAM = os.path.join(os.path.dirname(os.path.dirname(HERE)), "sbin",
                      "svmram")


def patch(spec, svmram_only=False):
    """Patch the target as SVMRAM_TEST_RAISE says; returns what undoes it.
    `svmram_only`: only calls made by svmram's code (lib/svmram, the
    first of svmram's, the emulator's or the tests' modules up the stack)
    count and raise, as when svmram is a process of its own, for a
    process-wide target such as os:unlink in the test's process, where
    the emulator runs too (test_step_exceptions.raising)."""
    module_name, _, path = spec["target"].partition(":")
    owner = importlib.import_module(module_name)
    *outer, attribute = path.split(".")
    for name in outer:
        owner = getattr(owner, name)
    real = getattr(owner, attribute)
    error_class, *error_args = spec["error"]
    calls = {"n": 0}

    def raising(*args, **kwargs):
        texts = [str(arg) for arg in args + tuple(kwargs.values())]
        if any(spec["match"] in text for text in texts) and (
                not svmram_only or _called_by_svmram()):
            calls["n"] += 1
            if calls["n"] == spec["nth"]:
                if spec.get("after"):
                    real(*args, **kwargs)
                raise getattr(builtins, error_class)(*error_args)
        return real(*args, **kwargs)
    setattr(owner, attribute, raising)
    return lambda: setattr(owner, attribute, real)


def _called_by_svmram():
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == "svmram" or name.startswith("svmram."):
            return True
        if name.startswith("svmsim") or os.path.abspath(
                frame.f_code.co_filename).startswith(TESTS + os.sep):
            return False
        frame = frame.f_back
    return False


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(SVMRAM), "..", "lib"))
    patch(json.loads(os.environ["SVMRAM_TEST_RAISE"]))
    sys.argv = [SVMRAM] + sys.argv[1:]
    runpy.run_path(SVMRAM, run_name="__main__")


if __name__ == "__main__":
    main()
