# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every refusal: the message, the documented exit status, no traceback,
and nothing changed on the host.  One line per case; the cases that depend
on the emulator's disks, memory, controllers or clock are emulator-only."""

from types import SimpleNamespace

import pytest

from hosts import LockHolder
from refusing import (degrade_d12, drop_replicas, hold_lock, nothing,
                      start_a_resync)
from svmram.errors import RefusedError
from svmram.lock import HostLock

USAGE, REFUSED = 2, 3


def set_up_already(host):
    """d10 is set up: test_refusal starts from host_after(*STEPS)."""


set_up_already.steps = (("svmram", "setup", "-y", "d10"),)


CASES = [
    # (args, prepare, exit status, message)
    (("setup", "-y", "d1;0"), nothing, USAGE,
     "mirror 'd1;0' is not a metadevice name"),
    (("setup", "-y", "blue/d10"), nothing, USAGE,
     "mirror 'blue/d10': disk sets are not supported: a ramdisk exists on "
     "one host only, while a shared disk set moves between hosts "
     "(metaset -t), and the host that takes the set over would have no "
     "RAM copy.  svmram works on mirrors of the local set"),
    (("setup", "-y", "mirror10"), nothing, USAGE,
     "is not a metadevice name"),
    (("setup", "-y", "d10", "--size=-5m"), nothing, USAGE,
     "size '-5m' is invalid"),
] + [
    (("setup", "-y", "d10", "--size", size), nothing, USAGE,
     "size '%s' is invalid" % size) for size in ("0", "2G", "lots")
] + [
    (("setup", "-y", "d10", "--name", name), nothing, USAGE,
     "ramdisk name '%s' is invalid" % name) for name in ("../x", "a b")
] + [
    (("setup", "-y", "d10", "--name", "x" * 33), nothing, USAGE,
     "is invalid; use up to 32"),
    (("setup", "-y", "d10", "--link", "c5t0d0"), nothing, USAGE,
     "link name 'c5t0d0' is invalid"),
    (("setup", "-y", "d10", "--submirror", "ram1"), nothing, USAGE,
     "submirror 'ram1' is not a metadevice name"),
    (("setup", "-y", "d10", "--method", "fast"), nothing, USAGE,
     "invalid choice: 'fast'"),
    (("setup", "-y", "d99"), nothing, REFUSED,
     "there is no mirror d99"),
    (("setup", "-y", "d11"), nothing, REFUSED,
     "d11 is a concat/stripe, not a mirror"),
    (("setup", "-y", "d10", "--size", "100m"), nothing, REFUSED,
     "a ramdisk of 100m is too small for d10 (465885 blocks)"),
    (("setup", "-y", "d10", "--size", "300m"), nothing, REFUSED,
     "would exceed the ramdisk memory cap"),
    (("setup", "-y", "d10", "--method", "swap"), nothing, REFUSED,
     "cannot use swap: d10 is mounted on /mnt"),
    (("setup", "-y", "d10", "--submirror", "d11"), nothing, REFUSED,
     "d11 is already in use"),
    (("setup", "-y", "d10", "--link", "c0t0d0s0"), nothing, REFUSED,
     "controller c0 is in use"),
    (("setup", "d10"), nothing, REFUSED,
     "Add -y to go ahead, or -n to see the plan."),
    (("setup", "-y", "d10"), hold_lock, REFUSED,
     "another svmram command is running"),
    (("setup", "-y", "d10", "--size", "1g"), set_up_already, REFUSED,
     "d10 is already set up differently (--size 1g, recorded "),
    (("setup", "-y", "d10", "--method", "swap"), set_up_already, REFUSED,
     "d10 is already set up differently (--method swap, recorded rotate)"),
    (("setup", "-y", "d10"), start_a_resync, REFUSED,
     "d10 has a resync in progress or pending"),
    (("setup", "-y", "d10"), degrade_d12, REFUSED,
     "d10 has 1 healthy disk submirror; svmram needs two"),
    (("setup", "-y", "d10"), drop_replicas, REFUSED,
     "there are no state database replicas"),
    (("teardown", "-y", "d10"), nothing, REFUSED,
     "d10 is not set up by svmram"),
    (("teardown", "-y", "d1x"), nothing, USAGE,
     "is not a metadevice name"),
]


# Cases a real host cannot reproduce, by message: why.
EMULATOR_ONLY = {
    "a ramdisk of 100m is too small for d10 (465885 blocks)":
        "the emulator's disk size",
    "would exceed the ramdisk memory cap": "the emulator's 1 GiB of memory",
    "controller c0 is in use": "the emulator's controller numbers",
    "d10 has a resync in progress or pending": "freezes the emulator's "
                                               "resyncs",
    "there are no state database replicas": "deletes the state database "
                                            "replicas",
}


def params(cases):
    assert set(EMULATOR_ONLY) <= {case[3] for case in cases}
    return [pytest.param(*case, id=" ".join(case[0]) + " / " +
                         case[1].__name__,
                         marks=[pytest.mark.emulator_only(
                             EMULATOR_ONLY[case[3]])]
                         if case[3] in EMULATOR_ONLY else [])
            for case in cases]


@pytest.mark.parametrize("args, prepare, status, message", params(CASES))
def test_refusal(host, host_after, lock_holder, args, prepare, status,
                 message):
    if getattr(prepare, "steps", ()):
        host = host_after(*prepare.steps)
    prepare(host)
    if getattr(prepare, "locked", False):
        lock_holder(host)
    host.clear_trace()
    before = host.state_digest()
    result = host.svmram(*args)
    assert result.returncode == status, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert host.trace() == []
    assert host.state_digest() == before
    assert host.violations() == []


@pytest.mark.emulator_only("deletes svmram's SMF service")
def test_setup_refuses_up_front_when_the_manifest_is_not_imported(host):
    """Setup records the mirror in svc:/system/svmram at its last step;
    without the service it must refuse before the first one (issue 9)."""
    assert host.cmd("svccfg", "delete", "svc:/system/svmram").returncode == 0
    before = host.state_digest()
    for args in (("setup", "-y", "d10"), ("setup", "-n", "d10")):
        result = host.svmram(*args)
        assert result.returncode == 3, result.stderr
        assert result.stderr.splitlines() == [
            "svmram: svmram's SMF service svc:/system/svmram is not "
            "imported, so setup could not record d10 for the boot restore",
            "svmram: Import it with 'svcadm restart manifest-import' (make "
            "install puts the manifest in /lib/svc/manifest/system), then "
            "run setup again."]
    assert host.trace() == []
    assert host.state_digest() == before


def test_a_lock_holder_lets_the_lock_go_when_released(tmp_path):
    """Released when its with-block ends, not when it is collected: the
    next run takes the lock at once."""
    lock = str(tmp_path / "var" / "run" / "svmram.lock")
    with LockHolder(SimpleNamespace(root=str(tmp_path))) as held:
        assert held.holding
        with pytest.raises(RefusedError):
            with HostLock(lock):
                pass
    assert not held.holding
    with HostLock(lock):
        pass
    held.release()                      # again: nothing to do
