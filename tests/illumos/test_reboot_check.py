# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""tests/illumos/reboot_check.py: it refuses to run anywhere but on
illumos as root, before creating anything; and its readers of iostat,
metastat and vfstab say what it needs.  The reboot itself only ever runs on
a scratch illumos host."""

import importlib.util
import os
import platform
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "reboot_check.py")
FIXTURES = os.path.join(os.path.dirname(HERE), "parse", "fixtures")


def load():
    spec = importlib.util.spec_from_file_location("reboot_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = load()


def fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as stream:
        return stream.read()


def run(tmp_path, *args, **env_changes):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("SVMRAM_")}
    env["SVMRAM_REBOOT_DIR"] = str(tmp_path / "state")
    env.update(env_changes)
    proc = subprocess.run([sys.executable, SCRIPT] + list(args), env=env,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)
    assert not (tmp_path / "state").exists(), proc.stderr
    return proc


def test_usage_without_a_phase(tmp_path):
    proc = run(tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: reboot_check.py [-h] PHASE ...")


@pytest.mark.skipif(platform.system() == "SunOS",
                    reason="the guard lets illumos through")
@pytest.mark.parametrize("args", [["before-reboot"],
                                  ["before-reboot", "c2t1d0s0", "c2t2d0s0"],
                                  ["after-reboot"], ["cleanup"]])
def test_refuses_off_illumos(tmp_path, args):
    proc = run(tmp_path, *args)
    assert proc.returncode == 2
    assert proc.stderr.startswith("reboot_check.py: %s cannot run here:\n"
                                  % args[0])
    assert "this is %s, not illumos (uname -s must say SunOS)" % \
        platform.system() in proc.stderr
    assert proc.stderr.rstrip().endswith(
        "See docs/testing-on-a-real-host.md.")
    assert proc.stdout == ""


@pytest.mark.skipif(platform.system() == "SunOS",
                    reason="the guard lets illumos through")
def test_before_reboot_names_the_missing_disks(tmp_path):
    proc = run(tmp_path, "before-reboot")
    assert "SVMRAM_TEST_DISKS is not set: name two spare slices" in \
        proc.stderr
    proc = run(tmp_path, "before-reboot", "c2t1d0s0", "/dev/dsk/c2t2d0s0")
    assert "'/dev/dsk/c2t2d0s0' is not a disk slice name" in proc.stderr


def test_a_non_root_caller_is_refused(monkeypatch):
    monkeypatch.setattr(check, "geteuid", lambda: 1000)
    monkeypatch.setattr(check.os, "uname", lambda: os.uname_result(
        ("SunOS", "oi", "5.11", "illumos-1", "i86pc")))
    with pytest.raises(check.preflight.Refusal) as caught:
        check.configured("cleanup", [])
    assert caught.value.problems == [
        "not running as root: the tests create and clear metadevices and "
        "ramdisks; run reboot_check.py as root (pfexec or sudo)."]


IOSTAT = """\
                    extended device statistics
    r/i    w/i   kr/i   kw/i wait actv wsvc_t asvc_t  %w  %b device
  120.0   30.0 61440.5  100.0  0.0  0.0    0.1    1.2   0   0 c2t0d0
    4.0    0.0   12.0    0.0  0.0  0.0    0.0    0.5   0   0 c2t1d0
    3.0    1.0    8.0    2.0  0.0  0.0    0.0    0.4   0   0 c2t2d0
    9.0    0.0 1024.0    0.0  0.0  0.0    0.0    0.1   0   0 d10
"""


def test_parse_iostat():
    assert check.parse_iostat(IOSTAT) == {
        "c2t0d0": 61440.5, "c2t1d0": 12.0, "c2t2d0": 8.0, "d10": 1024.0}
    assert check.parse_iostat(IOSTAT.replace("kr/i", "kbytes")) is None
    assert check.parse_iostat("") is None


@pytest.mark.parametrize("text, ok", [
    (fixture("reference_p_full.txt"), True),
    (fixture("reference_p_short.txt"), True),
    # The article's own ram-first listing, before `metaparam -r first`.
    (fixture("article_p_ram_first.txt"), False),
    ("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d13 -r 1\n", False),
    ("d11 1 1 c0d1s0\n", False),
])
def test_ram_first(text, ok):
    assert check.ram_first(text)[0] is ok


def test_submirror_state():
    assert check.submirror_state(fixture("reference_1_9_healthy.txt")) == (
        "d13", "Okay")
    assert check.submirror_state(
        fixture("reference_1_9_after_reboot.txt")) == (
        "d13", "Needs maintenance")
    assert check.submirror_state(fixture("reference_1_9_healthy.txt"),
                                 slot=2) == ("d11", "Okay")
    assert check.submirror_state("d11: Concat/Stripe\n") == (None, None)


def test_vfstab_lines_are_added_once_and_removed_exactly(tmp_path):
    vfstab = tmp_path / "vfstab"
    original = ("#device\tdevice\tmount\tFS\tfsck\tmount\tmount\n"
                "/devices\t-\t/devices\tdevfs\t-\tno\t-\n"
                "swap\t-\t/tmp\ttmpfs\t-\tyes\t-")        # no final newline
    vfstab.write_text(original)
    check.add_vfstab(str(vfstab))
    check.add_vfstab(str(vfstab))
    lines = vfstab.read_text().splitlines()
    assert lines[-2:] == [check.VFSTAB_MARK, "/dev/md/dsk/d10\t"
                          "/dev/md/rdsk/d10\t/mnt\tufs\t2\tyes\t-"]
    assert lines.count(check.VFSTAB_MARK) == 1
    check.remove_vfstab(str(vfstab))
    assert vfstab.read_text() == original + "\n"
