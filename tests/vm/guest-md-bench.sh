#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-md-bench.sh - bench/md's guest: guest_bench.py does the work
# (its knobs come from the kernel command line as LAB_RANDOM,
# LAB_CEILING_MIB, LAB_PROFILE, LAB_DISK_MBS).
. /lab/lib.sh
# the command's setup enables the boot unit: a stand-in systemctl (this
# guest's init is busybox) runs the installed unit's lines
cp /opt/svmram/tests/vm/systemctl-stub.sh /bin/systemctl
python3 /opt/svmram/tests/vm/guest_bench.py || fail "guest_bench.py rc=$?"
res guest.fails "$LAB_FAILS"
[ "$LAB_FAILS" = 0 ]
