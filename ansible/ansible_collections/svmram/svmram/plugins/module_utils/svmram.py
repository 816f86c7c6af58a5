# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Running svmram(8) on the target for the svmram modules: its path, its
status --json (format 2) and check --json (format 1), read the way
svmram(8) documents them: status's exit values 0, 4, 5 and 6 are
verdicts, 1 and 3 an error (an "error" object instead of "targets")."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os

# status --json's exit values that carry a verdict (docs/status-json.md).
VERDICT_EXITS = (0, 4, 5, 6)
# Where svmram(8) installs itself (make install, the packages).
SEARCH_DIRS = ["/usr/sbin", "/usr/local/sbin", "/sbin"]


class SvmramFailed(Exception):
    """svmram answered with an error: its own words, verbatim."""

    def __init__(self, message, rc=None, stdout="", stderr=""):
        super(SvmramFailed, self).__init__(message)
        self.message = message
        self.rc = rc
        self.stdout = stdout
        self.stderr = stderr

    def result(self):
        return dict(msg=self.message, rc=self.rc, stdout=self.stdout,
                    stderr=self.stderr)


def svmram_argv0(module):
    """The svmram program: the module's svmram_path, else svmram found
    on PATH or in SEARCH_DIRS."""
    path = module.params.get("svmram_path")
    if path:
        if not os.access(path, os.X_OK):
            module.fail_json(msg="svmram_path %s is not an executable file; "
                                 "give the path of svmram(8) on the target"
                                 % path)
        return path
    return module.get_bin_path("svmram", required=True,
                               opt_dirs=SEARCH_DIRS)


def run(module, argv0, args):
    """(rc, stdout, stderr) of svmram ARGS, in the C locale."""
    return module.run_command([argv0] + list(args),
                              environ_update={"LC_ALL": "C"})


def run_or_fail(module, argv0, args):
    """(rc, stdout, stderr) of svmram ARGS; SvmramFailed with svmram's
    own words when it exits other than 0."""
    rc, out, err = run(module, argv0, args)
    if rc != 0:
        raise SvmramFailed(_words(err, "svmram %s exited %d" % (
            " ".join(args), rc)), rc, out, err)
    return rc, out, err


def _words(stderr, fallback):
    """svmram's own message and advice, as it printed them."""
    text = (stderr or "").strip()
    return text or fallback


def _json(text, what):
    try:
        data = json.loads(text)
    except ValueError:
        raise SvmramFailed("%s printed something that is not JSON; nothing "
                           "was changed" % what)
    if not isinstance(data, dict):
        raise SvmramFailed("%s printed JSON that is not an object; nothing "
                           "was changed" % what)
    return data


def status(module, argv0, target=None):
    """svmram status --json [TARGET]: (its exit status, the format-2
    object), or SvmramFailed with svmram's error when it cannot read the
    host."""
    args = ["status", "--json"] + ([target] if target else [])
    rc, out, err = run(module, argv0, args)
    what = "svmram %s" % " ".join(args)
    if rc not in VERDICT_EXITS:
        try:
            error = json.loads(out).get("error") or {}
        except (ValueError, AttributeError):
            error = {}
        words = "svmram: %s" % error["message"] if error.get("message") \
            else None
        if words and error.get("advice"):
            words += "\nsvmram: %s" % error["advice"]
        raise SvmramFailed(_words(err, words or "%s exited %d" % (what, rc)),
                           rc, out, err)
    data = _json(out, what)
    if data.get("format") != 2 or not isinstance(data.get("targets"), list):
        raise SvmramFailed("%s printed JSON of a format other than 2; this "
                           "module reads format 2" % what, rc, out, err)
    return rc, data


def target_status(module, argv0, target):
    """The one format-2 target object of `target`."""
    targets = status(module, argv0, target)[1]["targets"]
    if len(targets) != 1:
        raise SvmramFailed("svmram status --json %s listed %d targets, not "
                           "one" % (target, len(targets)))
    return targets[0]


def check(module, argv0, target=None):
    """svmram check --json [TARGET]: (rc, the object).  Exit 3 is a
    verdict here (a check failed or a target would be refused); any
    other exit but 0 is an error."""
    args = ["check", "--json"] + ([target] if target else [])
    rc, out, err = run(module, argv0, args)
    what = "svmram %s" % " ".join(args)
    if rc not in (0, 3) or not out.strip():
        raise SvmramFailed(_words(err, "%s exited %d" % (what, rc)),
                           rc, out, err)
    return rc, _json(out, what)


def unfinished(target):
    """Whether a setup or teardown of `target` (the name status reports:
    d10, md0) left its journal, /var/svmram/TARGET.journal (svmram(8)
    FILES), under the root svmram works on (SVMRAM_ROOT, its test seam,
    else /)."""
    root = os.environ.get("SVMRAM_ROOT") or "/"
    return os.path.exists(os.path.join(root, "var", "svmram",
                                       target + ".journal"))


# The boot service's states (status --json's boot_service.state) in which
# svmram setup answers "nothing to do" for a target set up already: SVM's
# online and offline* (its start method restoring the RAM copy; svm/
# planner.py RUNNING_STATES), md's active (md/backend.py). In any other
# state setup acts (md starts its unit) or refuses (SVM), so the module
# asks it.
BOOT_SERVICE_RUNNING = ("online", "offline*", "active")
# What svmram setup prints (with "# " before it under -n) for a target set
# up already as asked (commands/setup.py, nothing_to_do).
NOTHING_TO_DO = " is already set up; nothing to do."


def boot_service_running(target):
    """Whether the boot service of a configured target runs it."""
    return (target.get("boot_service") or {}).get("state") in \
        BOOT_SERVICE_RUNNING


def nothing_to_do(stdout):
    """Whether svmram setup's output says it has nothing to do."""
    return stdout.strip().endswith(NOTHING_TO_DO)


def summary(target):
    """What an administrator cares about in a diff: configured, the RAM
    copy, the read policy (SVM's read option; md's write-mostly disks),
    the boot service's state."""
    copies = target.get("copies") or []
    return {
        "configured": bool(target.get("configured")),
        "serving_from_ram": bool(target.get("serving_from_ram")),
        "ram_copy": target.get("ram_copy"),
        "read_policy": target.get("read_policy"),
        "write_mostly": sorted(c.get("name") for c in copies
                               if c.get("write_mostly")),
        "boot_service": (target.get("boot_service") or {}).get("state"),
    }
