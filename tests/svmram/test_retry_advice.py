# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The retry a stopped restore advises is the backend's for the host as it
is (issue 27 section 4.4): md's systemctl, SVM's 'svcadm clear' for an
instance in maintenance, 'svcadm restart' for a degraded one; and the
usual one when the host cannot be read."""

import signal
from types import SimpleNamespace

from svmram.commands import common
from svmram.md.backend import MdBackend
from svmram.plan import Plan
from svmram.svm.backend import SvmBackend


class Backend:
    """A backend's words, with a retry that the host decides."""

    def __init__(self, real, again):
        self.words, self.again = real.words, again

    def retry(self, host, target, intent):
        if isinstance(self.again, Exception):
            raise self.again
        return self.again

    def state_text(self, snap, target, intent):
        return "%s now: as it is." % target


class Host:
    def observe(self, intent=None):
        return None


STOP = SimpleNamespace(step=None, name="SIGTERM", signum=signal.SIGTERM)


def context(backend):
    """The run context of a restore of d10 on Host()."""
    return SimpleNamespace(backend=backend, words=backend.words,
                           host=Host())


def advice(backend):
    return common.stopped(context(backend), STOP,
                          Plan("restore", "d10")).advice


def test_svm_maintenance_says_svcadm_clear_if_in_maintenance():
    backend = Backend(SvmBackend, "svcadm clear svmram:d10")
    assert advice(backend) == (
        "d10 serves reads from its disk submirrors until its RAM submirror "
        "is Okay.  Run 'svmram restore d10' (or 'svcadm clear svmram:d10' "
        "if its boot service is in maintenance) to finish it.")


def test_svm_degraded_says_svcadm_restart_with_no_maintenance_words():
    backend = Backend(SvmBackend, "svcadm restart svmram:d10")
    assert advice(backend) == (
        "d10 serves reads from its disk submirrors until its RAM submirror "
        "is Okay.  Run 'svmram restore d10' (or 'svcadm restart "
        "svmram:d10') to finish it.")


def test_md_says_systemctl():
    backend = Backend(MdBackend, "systemctl restart svmram@d10.service")
    assert advice(backend) == (
        "d10 serves reads from its disks until its RAM member is in sync.  "
        "Run 'svmram restore d10' (or 'systemctl restart "
        "svmram@d10.service' if its boot service has failed) to finish it.")


def test_a_host_that_cannot_be_read_gets_the_usual_retry():
    backend = Backend(SvmBackend, AssertionError("injected"))
    assert common.retry(context(backend), "d10", None) == \
        "svcadm clear svmram:d10"
    assert "(or 'svcadm clear svmram:d10' if its boot service is in " \
        "maintenance)" in advice(backend)
