# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""tests/illumos/confirm.sh: it parses, and it refuses before touching
anything when it lacks disks, root or illumos.

The script itself only ever runs for real on a scratch illumos host.  Here
every call is one it must refuse: the SunOS guard, the disk check and the
root check (SVMRAM_CONFIRM_FAKE_NONROOT=1) all come before the first
command that could change the system, and the report directory it would
create first is checked to stay absent.
"""

import os
import platform
import re
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(HERE, "confirm.sh")
SVMSIM = os.path.join(REPO, "lib", "svmsim")
KSH = shutil.which("ksh93") or shutil.which("ksh")
ON_ILLUMOS = platform.system() == "SunOS"
SLICES = "c99t98d0s0 c99t99d0s0"      # names that exist nowhere

needs_ksh = pytest.mark.skipif(KSH is None, reason="no ksh93 installed")


def run_script(tmp_path, *args, **env_changes):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("SVMRAM_TEST", "SVMRAM_CONFIRM"))}
    env["SVMRAM_CONFIRM_DIR"] = str(tmp_path / "confirm")
    if ON_ILLUMOS:
        # Never let a test get past the checks on a real host.
        env["SVMRAM_CONFIRM_FAKE_NONROOT"] = "1"
    env.update(env_changes)
    proc = subprocess.run([KSH, SCRIPT] + list(args), env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=60)
    assert not (tmp_path / "confirm").exists(), \
        "the script got past its checks: %s" % proc.stderr
    return proc


@needs_ksh
def test_ksh_syntax():
    proc = subprocess.run([KSH, "-n", SCRIPT], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    assert proc.returncode == 0, proc.stderr


def test_it_is_a_ksh93_script():
    with open(SCRIPT, encoding="utf-8") as stream:
        assert stream.readline() == "#!/usr/bin/ksh93\n"
    assert os.access(SCRIPT, os.X_OK)


@needs_ksh
def test_usage_without_a_phase(tmp_path):
    proc = run_script(tmp_path)
    assert proc.returncode == 2
    assert "usage: confirm.sh prepare [SLICE_A SLICE_B]" in proc.stderr


@needs_ksh
def test_refuses_without_disks(tmp_path):
    proc = run_script(tmp_path, "prepare")
    assert proc.returncode == 2
    assert "prepare needs two spare slices whose data may be destroyed" \
        in proc.stderr
    assert 'SVMRAM_TEST_DISKS="c2t1d0s0 c2t2d0s0"' in proc.stderr


@needs_ksh
def test_refuses_a_bad_slice_name(tmp_path):
    proc = run_script(tmp_path, "prepare", "c99t98d0s0", "/etc/passwd")
    assert proc.returncode == 2
    assert "not a disk slice name (cNtNdNsN or cNdNsN): /etc/passwd" \
        in proc.stderr


@needs_ksh
def test_refuses_when_not_root(tmp_path):
    proc = run_script(tmp_path, "prepare", SVMRAM_TEST_DISKS=SLICES,
                      SVMRAM_CONFIRM_FAKE_NONROOT="1")
    assert proc.returncode == 2
    assert "must run as root" in proc.stderr
    assert "two spare slices" not in proc.stderr


@needs_ksh
@pytest.mark.skipif(ON_ILLUMOS, reason="the guard lets illumos through")
@pytest.mark.parametrize("phase", ["prepare", "after-reboot", "cleanup"])
def test_refuses_off_illumos(tmp_path, phase):
    args = [phase] + (SLICES.split() if phase == "prepare" else [])
    proc = run_script(tmp_path, *args)
    assert proc.returncode == 2
    assert "runs only on illumos (uname -s must say SunOS)" in proc.stderr
    assert "refusing to run on %s" % platform.system() in proc.stderr
    assert proc.stdout == ""


def test_commands_are_bound_to_absolute_paths():
    with open(SCRIPT, encoding="utf-8") as stream:
        text = stream.read()
    bindings = dict(re.findall(r"^([A-Z][A-Z0-9_]*)=(/\S+)$", text, re.M))
    for name in ("METASTAT", "METAINIT", "METATTACH", "METADETACH",
                 "METACLEAR", "METAREPLACE", "METAPARAM", "METADB",
                 "RAMDISKADM", "DEVFSADM", "UNAME", "ID"):
        assert bindings.get(name, "").startswith("/"), name
    # No SVM command is run by its bare name.
    code = "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith("#"))
    assert not re.search(r"(^|;|&&|\|\||\||\$\()\s*(meta[a-z]+|ramdiskadm|"
                         r"devfsadm|prtvtoc|dd)\s", code, re.M)


def test_emulator_pointers_exist():
    """Each check names the emulator code that implements the behaviour
    (file.py function(); ...); those must keep existing."""
    with open(SCRIPT, encoding="utf-8") as stream:
        pointers = re.findall(r'"(lib/svmsim/[^"]*)"', stream.read())
    assert len(pointers) >= 10
    for pointer in pointers:
        text = pointer.replace("()", "@@")
        text = re.sub(r"\([^()]*\)", "", text)       # remarks in parentheses
        for segment in text.split(";"):
            match = re.search(r"(\S+\.py)", segment)
            assert match, pointer
            path = os.path.join(SVMSIM, match.group(1).replace(
                "lib/svmsim/", "", 1))
            assert os.path.isfile(path), (pointer, path)
            with open(path, encoding="utf-8") as source:
                code = source.read()
            for function in re.findall(r"(\w+)@@", segment[match.end():]):
                assert re.search(r"^\s*def %s\(" % function, code, re.M), \
                    (pointer, function)
