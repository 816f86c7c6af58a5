# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fault injection: the Nth call of a program (counted from when the fault
was added) prints a given stdout and stderr text and exits with a given
status, changing nothing.  A fault with only a stdout text (exit status 0
allowed) stands for output the caller may not understand."""

from svmsim.messages import SvmError, format_svm_text


def _line(text):
    return text if not text or text.endswith("\n") else text + "\n"


def add(st, prog, nth, code, message=None, svm_error=None, name=None,
        stdout=None):
    if message is not None and svm_error is not None:
        raise SvmError("X", text="faults add: give --message or --svm-error, "
                       "not both")
    if message is None and svm_error is None and stdout is None:
        raise SvmError("X", text="faults add: give --message, --svm-error "
                       "or --stdout")
    if svm_error is not None:
        text = format_svm_text(prog, st["nodename"], svm_error, name)
    else:
        text = _line(message or "")
    st["faults"].append({"prog": prog, "nth": nth, "exit": code,
                         "stdout": _line(stdout or ""), "stderr": text,
                         "calls": 0, "fired": False})


def take(st, prog):
    """Count a call of ``prog``; return the fault that fires, if any."""
    hit = None
    for f in st["faults"]:
        if f["prog"] != prog or f["fired"]:
            continue
        f["calls"] += 1
        if f["calls"] == f["nth"] and hit is None:
            f["fired"] = True
            hit = f
    return hit


def describe(f):
    state = "fired" if f["fired"] else "armed (%d/%d calls)" % (
        f["calls"], f["nth"])
    out = f.get("stdout", "")
    return "%s call %d -> exit %d: %s%s [%s]" % (
        f["prog"], f["nth"], f["exit"], f["stderr"].rstrip("\n"),
        " (stdout %r)" % out if out else "", state)


def clear(st):
    st["faults"] = []
