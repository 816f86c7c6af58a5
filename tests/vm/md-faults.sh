#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# md-faults.sh - power cuts (QEMU killed) at every step of svmram's md
# setup (new and existing array), restore and stop (the boot unit's
# ExecStart and ExecStop) and teardown, in the middle of recoveries, at
# journal writes and with the host lock held, all in the installed svmram
# command (its test switch SVMRAM_TEST_CUT): a chain of boots on the same
# sparse disk images, each of which recovers from the previous cut,
# checks, and is cut again (guest-md-faults.sh says what each boot does).
# The last boot also sets up a mounted, busy ext4 array.  Builds the
# initramfs first if WORK has none.
#
# Usage: md-faults.sh [--work DIR] [--accel auto|tcg|kvm] [--from N --out DIR]
# Writes $WORK/faults-<stamp>/leg-N.log and prints "md-faults: PASS (DIR)"
# (exit 0) or "md-faults: FAIL ..." (exit 1).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${SVMRAM_VM_WORK:-/tmp/svmram-vm}
ACCEL=auto FROM=0 OUT="" LAST=25
while [ $# -gt 0 ]; do
  case "$1" in
    --work) WORK=$2; shift 2;;
    --accel) ACCEL=$2; shift 2;;
    --from) FROM=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
# under a lock: md-faults and md-cycle may start at once (make test-vm)
mkdir -p "$WORK"
( flock 9
  [ -f "$WORK/base.cpio" ] && [ -f "$WORK/python.cpio" ] ||
    WITH_PYTHON=1 "$HERE/build-initramfs.sh" "$WORK" ) 9> "$WORK/.build.lock"
OUT=${OUT:-$WORK/faults-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT/disks"
"$HERE/make-tool-cpio.sh" "$OUT/tool.cpio"

fail() { echo "md-faults: FAIL $*"; exit 1; }
T0=$(date +%s)
boot() { # leg log
  set +e
  "$HERE/run.sh" --work "$WORK" --accel "$ACCEL" --disks 3 --disk-mib 32 \
    --disk-dir "$OUT/disks" --test "$HERE/guest-md-faults.sh" --timeout 900 \
    --boot-timeout 60 --cpio "$WORK/python.cpio" --cpio "$OUT/tool.cpio" \
    --append "lab.leg=$1" --kill-on 'LAB-MARK cut' > "$2" 2>&1
  rc=$?
  set -e
  tr -d '\r' < "$2" > "$2.tmp" && mv "$2.tmp" "$2"
}
for ((leg = FROM; leg <= LAST; leg++)); do
  log=$OUT/leg-$leg.log
  boot $leg "$log"
  # Seen under TCG on a loaded host: the kernel printed nothing and spun
  # until the boot timeout, or panicked in its timer set-up ("IO-APIC +
  # timer doesn't work").  Before /init runs nothing touches the disks,
  # so that boot is simply made again (once), and said so.
  if ! grep -aq '^LAB-INIT' "$log"; then
    echo "leg $leg: the guest did not reach /init within 60 s; booting again"
    mv "$log" "$log.noboot"
    boot $leg "$log"
  fi
  echo "leg $leg: rc=$rc $(grep -a '^HOST accel' "$log" | sed 's/ qemu_rc.*power_cut/ power_cut/' || true) $(grep -a '^LAB-MARK' "$log" | head -1)"
  grep -aq '^LAB-FAIL' "$log" && { grep -a '^LAB-FAIL' "$log" | head -5; fail "leg $leg, see $log"; }
  if [ $leg -lt $LAST ]; then
    grep -aq '^LAB-MARK cut' "$log" || fail "leg $leg was not cut, see $log"
  else
    [ $rc = 0 ] && grep -aq '^LAB-PASS' "$log" || fail "leg $leg did not pass, see $log"
  fi
done
echo "md-faults: $((LAST - FROM + 1)) boots in $(( $(date +%s) - T0 )) s"
echo "md-faults: PASS ($OUT)"
