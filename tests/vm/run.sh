#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# Adapted from the research lab (shared/lab/linux-md/run.sh).
# run.sh - boot the lab guest (Debian kernel + base.cpio from build-initramfs.sh)
# under QEMU with N sparse virtio disks and run one guest test script.
#
# Usage: run.sh [--work DIR] [--test FILE|none] [--accel auto|kvm|tcg]
#               [--disks N] [--disk-mib M] [--mem MiB] [--smp N]
#               [--timeout S] [--boot-timeout S] [--append "lab.key=val ..."]
#               [--disk-dir DIR] [--kill-on REGEX] [--drive-opts OPTS] [--cpio FILE]...
#   --boot-timeout: kill qemu if the guest has not reached LAB-BOOTED by then
#   (a KVM "internal error" pauses the VM forever instead of exiting).
#   --disk-dir DIR keeps the disk images in DIR across runs (created when
#   missing): boot twice with the same DIR to test a real reboot.
#   --kill-on REGEX: SIGKILL qemu as soon as the console shows REGEX (a power
#   cut: nothing the guest kernel still holds reaches the disk images).
#   --drive-opts OPTS: appended to every -drive, e.g.
#   "throttling.bps-write=2097152" to slow the disks' writes down.
#   --cpio FILE: one more newc archive appended to the initramfs (repeatable).
# Exit status: the guest test's exit status (LAB-EXIT rc=N), 124 on timeout,
#              125 when no LAB-EXIT line was seen, 0 after a --kill-on cut.
# Files: $WORK/runs/<stamp>-<accel>.XXXXXX/{console.log,results.txt,disk*.img}
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=/tmp/svmram-vm
TEST=none
ACCEL=auto DISKS=2 DISK_MIB=256 MEM=1024 SMP=2 TIMEOUT=1800 BOOT_TIMEOUT=120 APPEND="" DISKDIR=""
KILL_ON="" DRIVE_OPTS="" CPIOS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) WORK=$2; shift 2;;
    --test) TEST=$2; shift 2;;
    --accel) ACCEL=$2; shift 2;;
    --disks) DISKS=$2; shift 2;;
    --disk-mib) DISK_MIB=$2; shift 2;;
    --mem) MEM=$2; shift 2;;
    --smp) SMP=$2; shift 2;;
    --timeout) TIMEOUT=$2; shift 2;;
    --boot-timeout) BOOT_TIMEOUT=$2; shift 2;;
    --append) APPEND=$2; shift 2;;
    --disk-dir) DISKDIR=$2; shift 2;;
    --kill-on) KILL_ON=$2; shift 2;;
    --drive-opts) DRIVE_OPTS=,$2; shift 2;;
    --cpio) CPIOS+=("$2"); shift 2;;
    -h|--help) sed -n '5,26p' "$0"; exit 0;;
    *) echo "unknown option $1" >&2; exit 2;;
  esac
done
[ -f "$WORK/vmlinuz" ] && [ -f "$WORK/base.cpio" ] || { echo "run build-initramfs.sh $WORK first" >&2; exit 2; }

# auto: KVM only on hardware-assisted KVM (kvm_intel / kvm_amd). A /dev/kvm
# served by another backend (e.g. kvm_pvm on nested cloud VMs) opens fine but
# cannot run a stock kernel (emulation failures on xrstor/cmpxchg16b, ~30x
# slower than TCG), so it falls back to TCG.
if [ "$ACCEL" = auto ]; then
  ACCEL=tcg
  if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
     { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; } &&
     echo quit | timeout 20 qemu-system-x86_64 -accel kvm -machine none -nodefaults \
                   -display none -monitor stdio >/dev/null 2>&1; then
    ACCEL=kvm
  fi
fi
case "$ACCEL" in
  kvm) CPU=host; ACC="-accel kvm";;
  tcg) CPU=max;  ACC="-accel tcg,thread=multi,tb-size=256";;
  *) echo "bad --accel $ACCEL" >&2; exit 2;;
esac

# its own directory, also when another run starts in the same second
mkdir -p "$WORK/runs"
RUN=$(mktemp -d "$WORK/runs/$(date +%Y%m%d-%H%M%S)-$ACCEL.XXXXXX")
[ -n "$DISKDIR" ] && mkdir -p "$DISKDIR"

# initramfs = base archive + an appended archive carrying /lab/test.sh
# (the kernel unpacks concatenated newc archives in order)
cp "$WORK/base.cpio" "$RUN/initrd.cpio"
for c in "${CPIOS[@]}"; do cat "$c" >> "$RUN/initrd.cpio"; done
if [ "$TEST" != none ]; then
  ov=$(mktemp -d); mkdir -p "$ov/lab"
  install -m 0755 "$TEST" "$ov/lab/test.sh"
  (cd "$ov" && find . | cpio -o -H newc --owner=0:0 --quiet) >> "$RUN/initrd.cpio"
  rm -rf "$ov"
fi

DRIVES=()
letters=(a b c d e f g h)
for ((i = 0; i < DISKS; i++)); do
  if [ -n "$DISKDIR" ]; then
    img=$DISKDIR/disk$i.img
    [ -f "$img" ] || truncate -s "${DISK_MIB}M" "$img"
  else
    img=$RUN/disk$i.img
    truncate -s "${DISK_MIB}M" "$img"
  fi
  # cache=none (O_DIRECT on the host) so the host page cache does not serve reads
  DRIVES+=(-drive "file=$img,if=none,id=d$i,format=raw,cache=none,aio=native$DRIVE_OPTS"
           -device "virtio-blk-pci,drive=d$i,serial=lab-vd${letters[$i]}")
done

LOG=$RUN/console.log; : > "$LOG"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
T0=$(date +%s.%N)
# shellcheck disable=SC2086
# /usr/bin/time (package "time"), when present, records qemu's CPU seconds:
# under TCG that is the emulation work, much less sensitive to host load than wall time
TIMECMD=(); [ -x /usr/bin/time ] && TIMECMD=(/usr/bin/time -o "$RUN/qemu-time" -f "%e %U %S")
timeout -k 10 "$TIMEOUT" "${TIMECMD[@]}" qemu-system-x86_64 $ACC -cpu $CPU -machine pc -m "$MEM" -smp "$SMP" \
  -nodefaults -no-user-config -display none -nic none -no-reboot -pidfile "$RUN/qemu.pid" \
  -chardev "file,id=con,path=$LOG" -serial chardev:con \
  -kernel "$WORK/vmlinuz" -initrd "$RUN/initrd.cpio" \
  -append "console=ttyS0 panic=-1 quiet loglevel=4 no_timer_check lab.disks=$DISKS $APPEND" \
  "${DRIVES[@]}" </dev/null &
QPID=$!
( hwm=0; n=0; while kill -0 $QPID 2>/dev/null; do
    qp=$(cat "$RUN/qemu.pid" 2>/dev/null || true)
    h=$(awk '/VmHWM/{print $2}' /proc/${qp:-0}/status 2>/dev/null || true)
    [ "${h:-0}" -gt "$hwm" ] && hwm=$h && echo "$hwm" > "$RUN/qemu-hwm-kb"
    n=$((n + 1))
    if [ $n -ge "$BOOT_TIMEOUT" ] && [ -n "$qp" ] && ! grep -aq LAB-BOOTED "$LOG"; then
      echo "run.sh: guest did not boot within ${BOOT_TIMEOUT}s, killing qemu $qp" >&2
      echo "run.sh: boot timeout" > "$RUN/boot-timeout"
      kill "$qp" 2>/dev/null; break
    fi
    sleep 1
  done ) &
SPID=$!
KPID=""
if [ -n "$KILL_ON" ]; then
  ( while kill -0 $QPID 2>/dev/null; do
      if tr -d '\r' < "$LOG" | grep -aqE "$KILL_ON"; then
        qp=$(cat "$RUN/qemu.pid" 2>/dev/null || true)
        [ -n "$qp" ] && kill -9 "$qp" 2>/dev/null && echo "run.sh: power cut (SIGKILL qemu $qp) on '$KILL_ON'" >&2
        echo "$(date +%s.%N)" > "$RUN/killed"
        break
      fi
      sleep 0.1
    done ) &
  KPID=$!
fi
tail -n +1 -f --pid=$QPID "$LOG" || true
set +e; wait $QPID; QRC=$?; wait $SPID; [ -n "$KPID" ] && wait $KPID; set -e
T1=$(date +%s.%N)

# the serial console turns \n into \r\n
tr -d '\r' < "$LOG" | grep -a '^RESULT' > "$RUN/results.txt" || true
RC=$(grep -a -o 'LAB-EXIT rc=[0-9]*' "$LOG" | tail -1 | cut -d= -f2 || true)
WALL=$(awk -v a="$T0" -v b="$T1" 'BEGIN{printf "%.1f", b-a}')
DU=$(du -sk "$RUN" ${DISKDIR:+"$DISKDIR"} | awk '{s+=$1} END{print s}')
{
  echo "HOST accel=$ACCEL wall_s=$WALL qemu_rc=$QRC guest_rc=${RC:-none} power_cut=$([ -f "$RUN/killed" ] && echo 1 || echo 0) load=$(cut -d' ' -f1-3 /proc/loadavg)"
  [ -s "$RUN/qemu-time" ] && echo "HOST qemu_cpu_s=$(tail -1 "$RUN/qemu-time" | awk '{printf "%.1f", $2+$3}') (user+sys of qemu; host load at start: $LOAD0)"
  echo "HOST qemu_max_rss_mib=$(( $(cat "$RUN/qemu-hwm-kb" 2>/dev/null || echo 0) / 1024 )) run_dir_disk_usage_mib=$((DU / 1024)) (sparse images, apparent $((DISKS * DISK_MIB)) MiB)"
} | tee -a "$RUN/results.txt"
echo "results: $RUN/results.txt"
[ -f "$RUN/killed" ] && exit 0
if [ "$QRC" = 124 ] || [ "$QRC" = 137 ] || [ -f "$RUN/boot-timeout" ]; then exit 124; fi
[ -n "$RC" ] || exit 125
exit "$RC"
