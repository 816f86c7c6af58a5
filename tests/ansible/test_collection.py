# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The svmram collection (ansible/, issue 38): ansible-galaxy builds it,
ansible-test sanity passes (every test that applies, on this Python,
each in its own virtual environment) and ansible-test units pass (the
modules against a fake svmram that prints recorded output).

ansible-test fetches get-pip.py from a host CI cannot reach unless it
finds it in its cache: the sanity test gives it get_pip_standin.py
there, in a HOME of its own under build/ (kept, so a second run reuses
the environments), never the user's.  Each command runs on a copy of the
collection, so that ansible-test's output stays out of the tree."""

import os
import re
import shutil
import subprocess
import sys
import tarfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
COLLECTION = os.path.join(REPO, "ansible", "ansible_collections", "svmram",
                          "svmram")
STANDIN = os.path.join(REPO, "tests", "ansible", "get_pip_standin.py")
TEST_HOME = os.path.join(REPO, "build", "ansible-test-home")
PYTHON = "%d.%d" % sys.version_info[:2]


def tool(name):
    """An ansible-core program of the interpreter that runs the tests
    (tests/install-deps installs ansible-core for it), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.access(beside, os.X_OK) else shutil.which(name)


pytestmark = pytest.mark.skipif(
    tool("ansible-test") is None,
    reason="ansible-core is not installed (tests/install-deps installs it)")


def copy_of_the_collection(tmp_path):
    target = tmp_path / "ansible_collections" / "svmram" / "svmram"
    shutil.copytree(COLLECTION, str(target), ignore=shutil.ignore_patterns(
        "output", "__pycache__"))
    return str(target)


def run(argv, cwd, env=None):
    result = subprocess.run(argv, cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert result.returncode == 0, result.stdout
    return result.stdout


def pip_version():
    """The pip version ansible-test bootstraps (its get_pip_VERSION.py)."""
    import ansible_test
    path = os.path.join(os.path.dirname(ansible_test.__file__), "_internal",
                        "python_requirements.py")
    with open(path, encoding="utf-8") as stream:
        found = re.search(r"pip='([0-9.]+)'", stream.read())
    assert found, "ansible-test no longer names its pip version in %s" % path
    return found.group(1)


def test_ansible_galaxy_builds_the_collection(tmp_path):
    run([tool("ansible-galaxy"), "collection", "build", "--output-path",
         str(tmp_path), copy_of_the_collection(tmp_path / "src")],
        cwd=str(tmp_path))
    with tarfile.open(str(tmp_path / "svmram-svmram-0.1.0.tar.gz")) as tar:
        names = set(tar.getnames())
    assert {"MANIFEST.json", "FILES.json", "README.md", "docs/fleet.md",
            "plugins/modules/svmram.py", "plugins/modules/svmram_info.py",
            "plugins/module_utils/svmram.py",
            "meta/runtime.yml"} <= names
    assert not any(name.startswith("tests/output") for name in names)


def test_ansible_test_sanity(tmp_path):
    cache = os.path.join(TEST_HOME, ".ansible", "test", "cache")
    os.makedirs(cache, exist_ok=True)
    shutil.copyfile(STANDIN, os.path.join(
        cache, "get_pip_%s.py" % pip_version().replace(".", "_")))
    env = dict(os.environ, HOME=TEST_HOME)
    out = run([tool("ansible-test"), "sanity", "--venv", "--python", PYTHON,
               "--color", "no"], cwd=copy_of_the_collection(tmp_path),
              env=env)
    for test in ("validate-modules", "pylint", "pep8", "import", "compile",
                 "ansible-doc", "yamllint", "shebang"):
        assert 'Running sanity test "%s"' % test in out, out


def test_ansible_test_units(tmp_path):
    out = run([tool("ansible-test"), "units", "--python", PYTHON, "--color",
               "no"], cwd=copy_of_the_collection(tmp_path))
    assert re.search(r"\b22 passed\b", out), out
