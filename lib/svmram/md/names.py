# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""md's name syntax: the names svmram takes for an array (/dev/mdN,
/dev/md/NAME, mdN) and an array's kernel name.

registry.py imports this module alone to ask owns() and owns_host(), so
that naming an SVM mirror loads nothing else of md's: it imports only
errors.py.
"""

import os
import re
import sys

from ..errors import RefusedError

# What md's targets are called, and md in a phrase: svmram's help names
# every backend so (registry.described), and Words.target is NOUN.
NOUN = "array"
DESCRIPTION = "a RAID-1 array (Linux md)"

KERNEL_NAME = re.compile(r"md[0-9]{1,9}\Z")
DEV_PATH = re.compile(r"/dev/md[0-9]{1,9}\Z")
NAMED = re.compile(r"/dev/md/[^/\0]+\Z")

SYNTAX = "name an md array as /dev/mdN, /dev/md/NAME or mdN"


def owns(text, root="/"):
    """Is `text` written in md's syntax (on any host: `root` is not
    asked)?  Says nothing of whether the array exists."""
    return bool(KERNEL_NAME.match(text) or DEV_PATH.match(text) or
                NAMED.match(text))


def owns_host(root="/"):
    """Is the host under `root` one of md's: Linux for the real root; an
    emulated root (SVMRAM_ROOT: the md tests' fake trees) when it has a
    /sys/block, as Linux does."""
    if root in ("/", ""):
        return sys.platform.startswith("linux")
    return os.path.isdir(os.path.join(root, "sys", "block"))


def check_array_name(name):
    """`name` if it is an array's kernel name (md0), else RefusedError."""
    if not KERNEL_NAME.match(name):
        raise RefusedError(
            "%r is not an md array name (md0, md1...)" % name,
            advice="Name the array as /dev/mdN or /dev/md/NAME.")
    return name
