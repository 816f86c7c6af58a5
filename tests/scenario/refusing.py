# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the refusal catalogues share (scenario/test_refusals.py on every
release profile or a real host, badinput/test_catalogue.py on the
emulator's article host): the preparations that put the article's d10
in a state svmram must refuse, and the mark of a preparation after which
another svmram run holds the host lock.

A preparation is a function of the host; `locked` marks one after which
the test takes the lock in another process (the lock_holder fixture:
POSIX record locks belong to a process) and releases it when the test
ends."""


def nothing(host):
    """The host as it is."""


def locked(function):
    """Decorator: another svmram run holds the host lock once `function`
    has prepared the host."""
    function.locked = True
    return function


@locked
def hold_lock(host):
    """Another svmram run holds the host lock."""


def start_a_resync(host):
    host.sim("freeze")
    assert host.cmd("metadetach", "d10", "d12").returncode == 0
    assert host.cmd("metattach", "d10", "d12").returncode == 0


def degrade_d12(host):
    assert host.cmd("metadetach", "d10", "d12").returncode == 0


def drop_replicas(host):
    assert host.cmd("metadb", "-d", "-f", "c0d0s7").returncode == 0
