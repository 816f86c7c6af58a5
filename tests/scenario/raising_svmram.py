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
"""

import builtins
import importlib
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SVMRAM = os.path.join(os.path.dirname(os.path.dirname(HERE)), "sbin",
                      "svmram")


def patch(spec):
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
        if any(spec["match"] in text for text in texts):
            calls["n"] += 1
            if calls["n"] == spec["nth"]:
                if spec.get("after"):
                    real(*args, **kwargs)
                raise getattr(builtins, error_class)(*error_args)
        return real(*args, **kwargs)
    setattr(owner, attribute, raising)


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(SVMRAM), "..", "lib"))
    patch(json.loads(os.environ["SVMRAM_TEST_RAISE"]))
    sys.argv = [SVMRAM] + sys.argv[1:]
    runpy.run_path(SVMRAM, run_name="__main__")


if __name__ == "__main__":
    main()
