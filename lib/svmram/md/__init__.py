# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The Linux md backend: a RAID-1 whose reads come from a brd RAM member
while every disk member is write-mostly (docs/md-backend.md)."""
