# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The GitHub Actions workflow that runs svmram against real SVM in a
Solaris 11.4 VM (.github/workflows/real-svm.yml).  It cannot run here, so
these tests lint it (actionlint, yamllint: skipped with the reason when
neither is installed; tests/install-deps installs both when it can) and
check that it stays what docs/testing-on-a-real-host.md says it is."""

import os
import re
import shutil
import subprocess

import pytest

import preflight

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
WORKFLOW = os.path.join(REPO, ".github", "workflows", "real-svm.yml")
# The rules the workflow is kept to; the default's 80 columns would split
# the shell lines that run in the VM for no gain.
YAMLLINT_CONFIG = ("{extends: default, rules: {line-length: {max: 110}, "
                   "truthy: {check-keys: false}, document-start: disable}}")


def text():
    with open(WORKFLOW) as workflow:
        return workflow.read()


def actionlint():
    found = shutil.which("actionlint")
    if found:
        return found
    gopath = os.environ.get("GOPATH") or os.path.expanduser("~/go")
    candidate = os.path.join(gopath.split(os.pathsep)[0], "bin", "actionlint")
    if os.access(candidate, os.X_OK):
        return candidate
    pytest.skip("actionlint is not installed (tests/install-deps installs it "
                "with go install when Go is there)")


def run_actionlint(path):
    return subprocess.run([actionlint(), "-no-color", path],
                          capture_output=True, text=True, cwd=REPO)


def test_actionlint_reports_nothing():
    result = run_actionlint(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path):
    broken = tmp_path / ".github" / "workflows" / "real-svm.yml"
    broken.parent.mkdir(parents=True)
    original = text()
    assert "steps.confirm.outcome" in original
    broken.write_text(original.replace("steps.confirm.outcome",
                                       "steps.confrim.outcome"))
    result = run_actionlint(str(broken))
    assert result.returncode != 0
    assert "confrim" in result.stdout


def test_yamllint_reports_nothing():
    if shutil.which("yamllint") is None:
        pytest.skip("yamllint is not installed (tests/install-deps installs "
                    "Debian's yamllint)")
    result = subprocess.run(["yamllint", "-f", "parsable", "-d",
                             YAMLLINT_CONFIG, WORKFLOW],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


# --- what the workflow is, without any tool ----------------------------------

def test_it_runs_only_when_asked_or_weekly():
    on = re.search(r"^on:\n((?:  .*\n|\s*\n)+)", text(), re.M).group(1)
    triggers = re.findall(r"^  (\w+):", on, re.M)
    assert triggers == ["workflow_dispatch", "schedule"]


def test_the_vm_action_is_pinned_to_a_release():
    uses = re.findall(r"uses: (vmactions/solaris-vm@\S+)", text())
    assert len(uses) == 1
    assert re.fullmatch(r"vmactions/solaris-vm@v\d+\.\d+\.\d+", uses[0])
    assert re.search(r'release: "11\.4"', text())


def test_it_checks_for_svm_first():
    steps = re.findall(r"^      - (name: .*|uses: actions/checkout\S*)$",
                       text(), re.M)
    assert steps[0].startswith("uses: actions/checkout")
    assert steps[1] == "name: Boot Solaris 11.4"
    assert "storage/svm" in steps[2]
    first = text().split(steps[2], 1)[1].split("\n      - ", 1)[0]
    assert "pkg install --accept storage/svm" in first
    assert "::error title=no SVM::" in first and "exit 1" in first


def test_the_test_slices_are_names_the_tests_accept():
    disks = re.findall(r'SVMRAM_TEST_DISKS="([^"]+)"', text())
    assert disks, "the workflow sets SVMRAM_TEST_DISKS"
    for value in disks:
        assert preflight.disk_problems(value, False, None) == []
    slices = set(re.findall(r"\bc80t[0-9]d0s0\b", text()))
    confirm = re.search(r"confirm\.sh prepare (c\S+) (c\S+)", text())
    assert set(confirm.groups()) == set(disks[0].split())
    # The replicas' slice is neither test slice.
    replicas = re.search(r"metadb -a -f -c 3 (\S+)", text()).group(1)
    assert replicas not in disks[0].split()
    assert slices == {"c80t0d0s0", "c80t1d0s0", "c80t2d0s0"}


def test_it_runs_svmram_selftest_before_confirm_and_keeps_its_report():
    body = text()
    selftest = body.index("svmram selftest > svm-results/selftest.txt")
    assert selftest < body.index("tests/illumos/confirm.sh prepare")
    assert "svmram selftest --json > svm-results/selftest.json" in body
    assert "exit $rc" in body[selftest:body.index("confirm.sh prepare")]


def test_it_runs_confirm_and_the_real_host_suite_and_keeps_the_output():
    body = text()
    assert "SVMRAM_TEST_HOST=real" in body
    assert "-m pytest tests/scenario -rs" in body
    assert "tests/illumos/confirm.sh cleanup" in body
    for path in ("tests/illumos/confirm.sh", "tests/requirements.txt"):
        assert path in body and os.path.exists(os.path.join(REPO, path))
    upload = body.split("uses: actions/upload-artifact", 1)
    assert len(upload) == 2
    assert "if: ${{ always() }}" in upload[0].rsplit("\n      - ", 1)[1]
    assert "path: svm-results/" in upload[1]


def test_the_docs_describe_it():
    with open(os.path.join(REPO, "docs", "testing-on-a-real-host.md")) as doc:
        assert ".github/workflows/real-svm.yml" in doc.read()
    with open(os.path.join(REPO, "README.md")) as readme:
        assert ".github/workflows/real-svm.yml" in readme.read()
