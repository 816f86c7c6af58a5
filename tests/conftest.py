# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Shared test setup: make lib/ importable without installing anything."""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(REPO, "lib")
if LIB not in sys.path:
    sys.path.insert(0, LIB)

SCENARIO = os.path.join(REPO, "tests", "scenario")
if SCENARIO not in sys.path:
    sys.path.insert(0, SCENARIO)
