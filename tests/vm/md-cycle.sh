#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# md-cycle.sh - svmram's md backend end to end on Debian's kernel in QEMU:
# two boots on the same sparse disk images (guest-md-cycle.sh says what
# each boot does).  Builds the initramfs first if WORK has none.
#
# Usage: md-cycle.sh [--work DIR] [--accel auto|tcg|kvm] [--disk-mib M]
# Writes $WORK/cycle-<stamp>/{boot1.log,boot2.log,dumps/} and prints
# "md-cycle: PASS" (exit 0) or "md-cycle: FAIL ..." (exit 1).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${SVMRAM_VM_WORK:-/tmp/svmram-vm}
ACCEL=auto DISK_MIB=128
while [ $# -gt 0 ]; do
  case "$1" in
    --work) WORK=$2; shift 2;;
    --accel) ACCEL=$2; shift 2;;
    --disk-mib) DISK_MIB=$2; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
# under a lock: md-faults and md-cycle may start at once (make test-vm)
mkdir -p "$WORK"
( flock 9
  [ -f "$WORK/base.cpio" ] && [ -f "$WORK/python.cpio" ] ||
    WITH_PYTHON=1 "$HERE/build-initramfs.sh" "$WORK" ) 9> "$WORK/.build.lock"

OUT=$WORK/cycle-$(date +%Y%m%d-%H%M%S)
mkdir -p "$OUT/disks" "$OUT/dumps"

# svmram as make install-linux lays it out, and the guest's helpers
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
"$HERE/make-tool-cpio.sh" "$OUT/tool.cpio"

boot() { # log, phase args
  local log=$1; shift
  local rc try
  for try in 1 2; do
    set +e
    "$HERE/run.sh" --work "$WORK" --accel "$ACCEL" --disks 2 --disk-mib "$DISK_MIB" \
      --disk-dir "$OUT/disks" --test "$HERE/guest-md-cycle.sh" \
      --cpio "$WORK/python.cpio" --cpio "$OUT/tool.cpio" "$@" > "$log" 2>&1
    rc=$?
    set -e
    tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
    # A kernel that never reached /init (under TCG on a loaded host: a
    # panic in its timer set-up, "IO-APIC + timer doesn't work", or no
    # output at all) touched no disk: that boot is made again, once, and
    # said so (as md-faults.sh does).
    grep -aq '^LAB-INIT' "$log" || [ $try = 2 ] || {
      echo "$(basename "$log"): the guest did not reach /init; booting again"
      mv "$log" "$log.noboot"; continue; }
    break
  done
  echo "$(basename "$log"): rc=$rc $(grep -a '^HOST accel' "$log" || true)"
  return $rc
}

fail() { echo "md-cycle: FAIL $*"; exit 1; }

boot "$OUT/boot1.log" --append "lab.phase=setup" || fail "boot 1 (setup), see $OUT/boot1.log"
grep -aq '^LAB-PASS' "$OUT/boot1.log" || fail "boot 1 did not pass, see $OUT/boot1.log"
MD5=$(awk '$1=="RESULT" && $2=="cycle.md5" {print $3}' "$OUT/boot1.log")
INTENT=$(awk '$1=="RESULT" && $2=="intent" {print $3}' "$OUT/boot1.log")
[ -n "$MD5" ] && [ -n "$INTENT" ] || fail "boot 1 printed no md5 or intent"
# boot 2 finds boot 1's record where svmram keeps it (the guest's root is
# its initramfs, which forgets)
mkdir -p "$T/i/etc/svmram/md" && printf '%s\n' "$INTENT" > "$T/i/etc/svmram/md/md0.json"
(cd "$T/i" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --quiet) > "$OUT/intent.cpio"

boot "$OUT/boot2.log" --append "lab.phase=restore lab.expect=$MD5" --cpio "$OUT/intent.cpio" ||
  fail "boot 2 (restore, teardown, setup on the existing array), see $OUT/boot2.log"
grep -aq '^LAB-PASS' "$OUT/boot2.log" || fail "boot 2 did not pass, see $OUT/boot2.log"

# raw outputs for fixtures: DUMP <label> <kind>| <line>
for log in "$OUT/boot1.log" "$OUT/boot2.log"; do
  grep -a '^DUMP ' "$log" | while IFS= read -r line; do
    head=${line%%|*}; set -- $head
    printf '%s\n' "${line#*| }" >> "$OUT/dumps/$2.$3.txt"
  done
done
echo "dumps: $OUT/dumps"
echo "md-cycle: PASS ($OUT)"
