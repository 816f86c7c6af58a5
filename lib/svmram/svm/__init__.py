# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SVM backend: everything specific to Solaris Volume Manager lives in this package."""
