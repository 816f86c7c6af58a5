"""Fault injection: the Nth call of a program (counted from when the fault
was added) fails with a given stderr text and exit status, changing
nothing."""

from svmsim.messages import format_svm_text


def add(st, prog, nth, code, message=None, svm_error=None, name=None):
    if svm_error is not None:
        text = format_svm_text(prog, st["nodename"], svm_error, name)
    else:
        text = message if message.endswith("\n") else message + "\n"
    st["faults"].append({"prog": prog, "nth": nth, "exit": code,
                         "stderr": text, "calls": 0, "fired": False})


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
    return "%s call %d -> exit %d: %s [%s]" % (
        f["prog"], f["nth"], f["exit"], f["stderr"].rstrip("\n"), state)


def clear(st):
    st["faults"] = []
