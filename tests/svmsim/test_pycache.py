# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Where the emulated commands keep the emulator's bytecode
(svmsim.cli.pycache_prefix, written into DIR/bin at init): compiling the
emulator at every command costs several times the command itself."""

import os
import stat
import subprocess
import sys
import tempfile

from svmsim import cli

LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib")


def test_the_environment_names_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "cache"))
    assert cli.pycache_prefix() == str(tmp_path / "cache")


def test_a_writable_lib_keeps_its_own_cache(monkeypatch):
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.setattr(cli.os, "access", lambda path, mode: True)
    assert cli.pycache_prefix() is None


def test_a_read_only_lib_uses_a_directory_of_the_users(monkeypatch,
                                                       tmp_path):
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.setattr(cli.os, "access", lambda path, mode: False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    prefix = cli.pycache_prefix()
    assert prefix == str(tmp_path / ("svmsim-pycache-%d" % os.getuid()))
    assert stat.S_IMODE(os.lstat(prefix).st_mode) == 0o700
    assert cli.pycache_prefix() == prefix          # found again


def test_a_cache_directory_others_can_write_is_not_used(monkeypatch,
                                                       tmp_path):
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.setattr(cli.os, "access", lambda path, mode: False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / ("svmsim-pycache-%d" % os.getuid())
    planted.mkdir()
    planted.chmod(0o777)
    assert cli.pycache_prefix() is None
    planted.rmdir()
    os.symlink(str(tmp_path), str(planted))
    assert cli.pycache_prefix() is None


def test_commands_write_their_bytecode_under_the_prefix(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=LIB, PYTHONPYCACHEPREFIX=str(cache),
               PYTHONDONTWRITEBYTECODE="1")
    host = tmp_path / "host"
    subprocess.run([sys.executable, "-S", "-m", "svmsim", "init",
                    str(host)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    with open(host / "bin" / "metastat", encoding="utf-8") as stream:
        assert "sys.pycache_prefix = %r\n" % str(cache) in stream.read()
    # As svmram runs it: a bare environment.
    proc = subprocess.run([str(host / "bin" / "metastat"), "-p"],
                          env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"},
                          stdout=subprocess.PIPE, text=True, check=True)
    assert proc.stdout.startswith("d10 -m ")
    compiled = cache.joinpath(*LIB.strip(os.sep).split(os.sep),
                              "svmsim", "programs")
    assert any(name.startswith("metastat.") for name in
               os.listdir(str(compiled)))
