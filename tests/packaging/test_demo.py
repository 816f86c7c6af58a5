# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""`make demo` tells the article's story on the emulator, with ksh93 (the
SMF method restores the RAM submirror at boot) and on a machine that has
nothing but Python: no make (the demo copies the files make install
would), no ksh93 (the method's command is run by hand after the reboot)."""

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))


def run_demo(path):
    return subprocess.run(
        [sys.executable, os.path.join(REPO, "demo", "article")],
        env=dict(os.environ, PATH=path), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, timeout=600)


def ends_as_the_article_does(out):
    assert out.rstrip("\n").endswith(
        "### Data-safety monitor of the emulator:\n\nno violations"), \
        out[-2000:]
    teardown = out[out.index("svmram teardown -y d10"):]
    assert ("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
            "d11 1 1 /dev/rdsk/c0d1s0\nd12 1 1 /dev/rdsk/c1d0s0\n") \
        in teardown, teardown
    assert "Traceback" not in out


@pytest.mark.skipif(not (shutil.which("ksh93") or shutil.which("ksh")),
                    reason="needs ksh93 for the SMF method")
def test_the_demo_with_ksh93_restores_at_boot():
    proc = run_demo(os.environ["PATH"])
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert 'Method "start" exited with status 0.' in proc.stdout
    assert "ran no start method" not in proc.stdout
    ends_as_the_article_does(proc.stdout)


def test_the_demo_needs_nothing_but_python(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(sys.executable, str(bindir / "python3"))
    proc = run_demo(str(bindir))
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert ("This machine has no ksh93, which the SMF method is written "
            "in, so the emulated boot ran no start method; run the "
            "method's command by hand instead.") in proc.stdout
    restore = proc.stdout[proc.stdout.index("# svmram restore d10\n"):]
    assert restore.startswith(
        "# svmram restore d10\n"
        "restore d10: Create the ramdisk svmram_d10 of 228m.\n"
        "restore d10: Enable the RAM component c90t0d0s0 of d10; SVM "
        "copies the data into it.\n"), restore[:500]
    ends_as_the_article_does(proc.stdout)
