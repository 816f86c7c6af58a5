# -*- coding: utf-8 -*-
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.

from __future__ import absolute_import, division, print_function
__metaclass__ = type


class ModuleDocFragment(object):
    """What every svmram module shares: where svmram runs, its path."""

    DOCUMENTATION = r"""
attributes:
  platform:
    platforms: [solaris, illumos, linux]
options:
  svmram_path:
    description:
      - The path of C(svmram) on the target; by default it is looked for on
        E(PATH) and in C(/usr/sbin), C(/usr/local/sbin) and C(/sbin).
    type: path
"""
