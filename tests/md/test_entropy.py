# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""An early-boot unit never waits for the kernel's random pool (issue
21): the unit fixes Python's hash seed (PYTHONHASHSEED=0; without it
Python reads /dev/urandom at start-up for hash randomisation, which
spun for minutes in try_to_generate_entropy on a guest without an RNG),
and svmram's md path (setup, restore, stop, teardown, status) imports
no module that seeds a random generator from the pool when imported or
used (random, tempfile, uuid, secrets...)."""

import test_unit
from mdcli import set_up

SEEDING = ("random", "_random", "tempfile", "uuid", "secrets", "hashlib",
           "hmac", "ssl", "multiprocessing", "asyncio", "email",
           "http", "urllib.request")


def modules_of(host, tmp_path, *args):
    """The modules a run of sbin/svmram ARGS imported, on the fake
    kernel, in an interpreter without site (-S: this host's
    site-packages may import anything; Debian's python3 imports
    nothing of these at start-up)."""
    path = str(tmp_path / "modules")
    rc, out, err, argvs = host.svmram(
        *args, python=("-S",), env={"SVMRAM_TEST_MODULES": path})
    with open(path) as stream:
        return rc, err, set(stream.read().split())


def test_the_md_path_imports_nothing_that_seeds_a_random_generator(
        host, tmp_path):
    runs = [("setup", "-y", "/dev/md0"), ("status", "/dev/md0"),
            ("status", "--json"), ("stop", "md0"),
            ("restore", "--deadline", "100", "md0"),
            ("check",), ("teardown", "-y", "/dev/md0")]
    for args in runs:
        rc, err, modules = modules_of(host, tmp_path, *args)
        assert rc in (0, 4), (args, err)
        assert sorted(modules.intersection(SEEDING)) == [], args


def test_stop_after_setup_with_the_seed_the_unit_sets(host, tmp_path):
    """The unit's own Environment= line, then its ExecStop."""
    set_up(host)
    key, _, value = test_unit.unit()["Environment"][0].partition("=")
    rc, out, err, _ = host.svmram("stop", "md0", env={key: value},
                                  process=True)
    assert rc == 0, err


def test_the_unit_fixes_the_hash_seed():
    """Python reads the pool at start-up unless PYTHONHASHSEED is set to
    a number (it is read when unset or 'random')."""
    assert test_unit.unit()["Environment"] == ["PYTHONHASHSEED=0"]
