# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""``python3 -m svmram.svm.tojson KIND < FILE``: parse SVM output, print
JSON (the SVM backend's side tool; it imports nothing of md's).

KIND is one of metastat-p, metastat, metaparam, metadb, ramdiskadm.
Exit 0 with JSON on stdout; 1 with one line on stderr naming the input
line that could not be parsed; 2 with the usage on stderr for a bad
command line.  docs/parse-json.md describes the JSON.
"""

from __future__ import annotations

import json
import os
import sys
from types import MappingProxyType

from ..errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, ParseError
from . import listings, metastat, metastat_p

USAGE = ("usage: python3 -m svmram.svm.tojson "
         "{metastat-p|metastat|metaparam|metadb|ramdiskadm} < FILE")

KINDS = MappingProxyType({
    "metastat-p": lambda text: metastat_p.parse(text).to_json(),
    "metastat": lambda text: metastat.parse(text).to_json(),
    "metaparam": lambda text: listings.parse_metaparam(text).to_json(),
    "metadb": lambda text: _metadb(listings.parse_metadb(text)),
    "ramdiskadm": lambda text: {"ramdisks": [
        r.to_json() for r in listings.parse_ramdiskadm(text)]},
})


def _metadb(replicas):
    return {"replicas": [r.to_json() for r in replicas],
            "problems": [{"device": p.replica.device,
                          "first_block": p.replica.first_block,
                          "flags": p.flags,
                          "problems": [{"flag": f, "meaning": m}
                                       for f, m in p.problems]}
                         for p in listings.replica_problems(replicas)]}


def _read_stdin():
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return EXIT_OK
    if len(args) != 1 or args[0] not in KINDS:
        print(USAGE, file=sys.stderr)
        return EXIT_USAGE
    try:
        result = KINDS[args[0]](_read_stdin())
    except ParseError as error:
        print("svmram.svm.tojson: %s" % error, file=sys.stderr)
        return EXIT_FAILED
    try:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:         # e.g. piped into head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
