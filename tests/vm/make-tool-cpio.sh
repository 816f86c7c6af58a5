#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# make-tool-cpio.sh OUT.cpio - svmram as `make install-linux` lays it out
# (PREFIX=/usr; the command's #! line is /usr/bin/python3, the guest's
# python3.11, which also byte-compiles it: the unit's ExecStart and
# ExecStop run as written), plus the guest's helpers under /opt/svmram.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
make -s -C "$REPO" install-linux DESTDIR="$T" PREFIX=/usr \
  PYTHON=/usr/bin/python3.11 >/dev/null
mkdir -p "$T/opt/svmram/tests/vm"
cp "$HERE/guest-svmram.sh" "$HERE/guest_bench.py" "$HERE/systemctl-stub.sh" \
  "$T/opt/svmram/tests/vm/"
(cd "$T" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --quiet) > "$OUT"
