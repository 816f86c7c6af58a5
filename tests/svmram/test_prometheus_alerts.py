# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""docs/prometheus-alerts.yml against what `status --prometheus` writes
(issue 28, 4): every svmram_ metric a rule names is one svmram writes,
with the labels the rules join on, in a valid text exposition.

With promtool (tests/install-deps takes it from Debian's prometheus
package), `promtool check rules` checks the file and `promtool test
rules` runs prometheus-alerts-test.yml: the rules on a fleet of hosts
(issue 38, 2)."""

import os
import re
import shutil
import subprocess

import pytest

from svmram.backend import Problems, Status
from svmram.commands import status as command
from svmram.md.backend import MdBackend
from svmram.svm.backend import SvmBackend

yaml = pytest.importorskip("yaml", reason="PyYAML comes with yamllint "
                           "(tests/install-deps)")

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
RULES = os.path.join(TOP, "docs", "prometheus-alerts.yml")
RULE_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "prometheus-alerts-test.yml")
PROMTOOL = shutil.which("promtool")
NO_PROMTOOL = "promtool is not installed (tests/install-deps installs it)"
# The text format 0.0.4: a sample is NAME{LABELS} VALUE.
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)'
                    r'(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"'
                    r'(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*)?\})?'
                    r' (-?[0-9.e+-]+|NaN|[+-]Inf)$')


def exposition():
    """`status --prometheus` of one set-up mirror d10, one disk failed."""
    serving = Status(
        target="d10", configured=True, verdict="degraded",
        serving_from_ram=True, reasons=[],
        disk_redundancy={"state": "degraded", "current": ["d11"],
                         "reasons": ["d12 is offline"], "fixes": []},
        copies=[{"slot": 0, "name": "d13", "state": "Okay", "ram": True}])
    pairs = [(serving, Problems(disks=("d11", "d12")))]
    return command.prometheus_lines([(SvmBackend.words, pairs)])


def md_exposition_during_a_scrub():
    """`status --prometheus` of md0 serving from RAM while md checks it
    (Debian's mdcheck), 37 % done."""
    checked = Status(
        target="md0", configured=True, verdict="serving",
        serving_from_ram=True, reasons=[],
        disk_redundancy={"state": "full", "current": ["vdb", "vdc"],
                         "reasons": [], "fixes": []},
        scrub={"action": "check", "percent": 37},
        copies=[{"slot": 2, "name": "ram0", "state": "in_sync",
                 "ram": True}])
    pairs = [(checked, Problems(disks=("vdb", "vdc")))]
    return command.prometheus_lines([(MdBackend.words, pairs)])


def families(lines):
    """{metric: [(labels, value)]}, checking that each family's HELP and
    TYPE come once, before its samples."""
    found, typed = {}, set()
    for line in lines:
        if line.startswith("# HELP "):
            name = line.split()[2]
            assert name not in found, line
            found[name] = []
        elif line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            assert kind == "gauge" and name in found and name not in typed
            typed.add(name)
        else:
            match = SAMPLE.match(line)
            assert match, line
            name = match.group(1)
            assert name in typed, line
            labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"',
                                     match.group(2) or ""))
            found[name].append((labels, float(match.group(3))))
    return found


def rules():
    with open(RULES, encoding="utf-8") as stream:
        return [rule for group in yaml.safe_load(stream)["groups"]
                for rule in group["rules"]]


def test_the_exposition_is_valid_and_joins_on_device():
    found = families(exposition())
    assert found["svmram_up"] == [({}, 1)]
    assert found["svmram_build_info"] == [({"version": "0.1.0"}, 1)]
    assert found["svmram_disks_current"] == [
        ({"target": "d10", "device": "d10"}, 1)]
    assert found["svmram_disks"] == [({"target": "d10", "device": "d10"}, 2)]


def test_md_s_scrub_is_a_gauge_of_its_own_and_svm_has_no_sample():
    """md's check is no copy into RAM: svmram_ram_copy_sync_ratio stays 1
    and svmram_scrub_ratio says how far the check has read; SVM, which
    has no scrub, has the family's HELP and TYPE and no sample."""
    found = families(md_exposition_during_a_scrub())
    labels = {"target": "md0", "device": "md0"}
    assert found["svmram_scrub_ratio"] == [(labels, 0.37)]
    assert found["svmram_ram_copy_sync_ratio"] == [(labels, 1)]
    assert found["svmram_serving_from_ram"] == [(labels, 1)]
    assert families(exposition())["svmram_scrub_ratio"] == []


@pytest.mark.skipif(PROMTOOL is None, reason=NO_PROMTOOL)
def test_promtool_finds_nothing_to_say_about_the_metrics():
    """`promtool check metrics` (its linter: names, units, HELP) on both
    backends' expositions."""
    for lines in (exposition(), md_exposition_during_a_scrub()):
        result = subprocess.run([PROMTOOL, "check", "metrics"],
                                input="\n".join(lines) + "\n",
                                capture_output=True, text=True, check=False,
                                timeout=60)
        assert (result.returncode, result.stdout, result.stderr) == (
            0, "", ""), lines


def test_the_example_alerts_name_only_metrics_svmram_writes():
    written = set(families(exposition()))
    named = set()
    for rule in rules():
        assert set(rule) >= {"alert", "expr", "labels", "annotations"}
        named |= set(re.findall(r"\bsvmram_[a-z_]+", rule["expr"]))
    assert named and named <= written, named - written
    # absent() and the textfile's age: the file that stops being written
    # is seen (real-clients.md, 2).
    exprs = " ".join(rule["expr"] for rule in rules())
    assert "absent(svmram_up)" in exprs
    assert "node_textfile_mtime_seconds" in exprs
    # node_md_* and svmram_* of the same host: on(device) alone joins
    # md0 of every host (issue 38, 2); one host's file that goes.
    assert "on(instance, device)" in exprs and "on(device)" not in exprs
    assert "unless on(instance, job) svmram_build_info" in exprs


def test_the_example_alerts_fire_on_a_failed_disk():
    """SvmramDiskRedundancyLost's comparison, on the samples."""
    found = families(exposition())
    rule = next(r for r in rules() if r["alert"] ==
                "SvmramDiskRedundancyLost")
    assert rule["expr"] == "svmram_disks_current < svmram_disks"
    assert found["svmram_disks_current"][0][1] < found["svmram_disks"][0][1]


@pytest.mark.skipif(PROMTOOL is None, reason=NO_PROMTOOL)
def test_promtool_checks_the_rules():
    result = subprocess.run([PROMTOOL, "check", "rules", RULES],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(PROMTOOL is None, reason=NO_PROMTOOL)
def test_the_rules_fire_for_the_host_at_fault_only():
    """prometheus-alerts-test.yml: the join, a host whose file goes and
    svmram_up 0, each on several hosts."""
    result = subprocess.run([PROMTOOL, "test", "rules", RULE_TESTS],
                            capture_output=True, text=True, check=False,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout
