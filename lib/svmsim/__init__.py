# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmsim: an emulator of the illumos SVM commands, ramdiskadm and friends.

It stands in for illumos in CI.  It must never import ``svmram`` (the tool
under test): sharing code would hide shared bugs.
"""
