#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# demo-md.sh (make demo-md) - the article's story on Debian's kernel in
# QEMU, as a transcript: set up, read, reboot (the unit's stop, then its
# start), restore, status, teardown.  Two boots on the same disks; the
# transcript is guest-demo-md.sh's "DEMO|" lines.  Builds the initramfs
# first if needed (tests/vm/build-initramfs.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${SVMRAM_VM_WORK:-/tmp/svmram-vm}
[ -f "$WORK/base.cpio" ] && [ -f "$WORK/python.cpio" ] || \
  WITH_PYTHON=1 "$HERE/build-initramfs.sh" "$WORK" >/dev/null
OUT=$WORK/demo-$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT/disks"
"$HERE/make-tool-cpio.sh" "$OUT/tool.cpio"
for boot in 1 2; do
  [ $boot = 2 ] && echo "=== reboot ==="
  set +e
  "$HERE/run.sh" --work "$WORK" --disks 2 --disk-mib 64 --disk-dir "$OUT/disks" \
    --test "$HERE/guest-demo-md.sh" --cpio "$WORK/python.cpio" --cpio "$OUT/tool.cpio" \
    --append "lab.boot=$boot" > "$OUT/boot$boot.log" 2>&1
  rc=$?
  set -e
  tr -d '\r' < "$OUT/boot$boot.log" | sed -n 's/^DEMO| \{0,1\}//p'
  [ $rc = 0 ] || { echo "demo-md: boot $boot failed (rc=$rc), see $OUT/boot$boot.log"; exit 1; }
done
echo "(logs: $OUT)"
