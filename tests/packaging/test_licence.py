# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every source file carries the short licence header, and the licence
itself is the CDDL 1.0."""

import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
HEADER = "SPDX-License-Identifier: CDDL-1.0"
# Data, documents and fixtures carry no header; nor does a patch meant
# for another project (docs/*.patch), which takes that project's licence.
NOT_SOURCE = (".md", ".json", ".txt", ".ini", ".patch")


def sources():
    files = subprocess.run(["git", "ls-files"], cwd=REPO, check=True,
                           capture_output=True, text=True).stdout.split()
    return [f for f in files
            if not f.startswith("tests/parse/fixtures/")
            and not f.endswith(NOT_SOURCE)
            and f not in ("LICENSE", ".gitignore")
            # Debian's formats without comments (the licence is in
            # debian/copyright itself)
            and f not in ("debian/changelog", "debian/control",
                          "debian/copyright", "debian/source/format")]


def test_every_source_file_has_the_licence_header():
    missing = []
    for path in sources():
        with open(os.path.join(REPO, path), encoding="utf-8") as stream:
            head = "".join(stream.readline() for _ in range(5))
        if HEADER not in head:
            missing.append(path)
    assert missing == []


def test_the_licence_is_the_cddl():
    with open(os.path.join(REPO, "LICENSE"), encoding="utf-8") as stream:
        first = stream.readline()
    assert first.startswith(
        "COMMON DEVELOPMENT AND DISTRIBUTION LICENSE (CDDL) Version 1.0")
