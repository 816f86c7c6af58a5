# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram: serve the reads of a mirror from a copy in RAM, safely: a
ramdisk submirror of a Solaris Volume Manager mirror (svm/), or a brd RAM
member of a Linux md RAID-1 array (md/), kept across reboots."""

__version__ = "0.1.0"
