# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram: serve an SVM mirror's reads from a RAM submirror, safely."""

__version__ = "0.1.0"
