# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# Adapted from the research lab (shared/lab/linux-md/guest-lib.sh).
# guest-lib.sh - helpers for lab guest test scripts (busybox ash). /lab/lib.sh
# Output protocol on the console (parsed by run.sh):
#   RESULT <key> <value> [free text]    one measured figure
#   LAB-FAIL <text>                     a failed check (test continues)
#   LAB-EXIT rc=N                       printed by /init after the test

LAB_FAILS=0

# Debian's busybox ash runs its own applets before searching PATH, so the
# coreutils dd (prints throughput) and date (%N) must be called explicitly.
dd()   { /usr/local/bin/dd "$@"; }
date() { /usr/local/bin/date "$@"; }

lab_parse_cmdline() {
  for w in $(cat /proc/cmdline); do
    case "$w" in
      lab.*=*)
        k=${w%%=*}; k=${k#lab.}; v=${w#*=}
        k=$(echo "$k" | tr 'a-z.-' 'A-Z__')
        eval "LAB_$k=\$v"; export "LAB_$k" ;;
    esac
  done
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}'; }
log() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }
res() { echo "RESULT $*"; }
fail() { echo "LAB-FAIL $*"; LAB_FAILS=$((LAB_FAILS+1)); }
dropcaches() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# sectors read so far by a block device (field 3 of /sys/block/X/stat)
sect_read() { awk '{print $3}' "/sys/block/$1/stat"; }

# dd_rate <dd args...>: runs coreutils dd, prints "<MB/s> <bytes> <secs>"
dd_rate() {
  dd "$@" 2>&1 >/dev/null | awk '
    /copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") s = $(i-1); b = $1 }
    /error|invalid|denied/ { print "ERR " $0 > "/dev/stderr" }
    END { if (s > 0) printf "%.1f %d %s\n", b / s / 1e6, b, s; else print "0 0 0" }'
}

# snapshot / report of sectors read by disk members. brd keeps no I/O
# statistics, so the RAM member's share is reported as the remainder.
snap_reads() { _snap=""; for m in "$@"; do _snap="$_snap $m:$(sect_read "$m")"; done; }
served_by() { # <bytes-read> ; uses $_snap from snap_reads
  _bytes=$1; _out=""; _sum=0
  for e in $_snap; do
    m=${e%%:*}; b=${e#*:}
    case "$m" in vd*) ;; *) continue;; esac
    d=$(( ($(sect_read "$m") - b) * 512 ))
    p=$(awk -v d=$d -v t="$_bytes" 'BEGIN{ if (t > 0) printf "%d", 100*d/t; else print 0 }')
    _out="$_out$m=$p% "; _sum=$((_sum + p))
  done
  [ $_sum -gt 100 ] && _sum=100
  echo "${_out}ram/other=$((100 - _sum))%"
}

# read_test <label> <device> <bs> <count> <members...>
#   O_DIRECT sequential read; reports MB/s and which member served the reads.
read_test() {
  label=$1 dev=$2 bs=$3 count=$4; shift 4
  snap_reads "$@"
  dropcaches
  set -- $(dd_rate if="/dev/$dev" of=/dev/null bs="$bs" count="$count" iflag=direct)
  res "read.$label" "$1" "MB/s bytes=$2 secs=$3 served: $(served_by "$2")"
}

# buffered read after dropping caches (what a normal program sees)
read_test_buffered() {
  label=$1 dev=$2 bs=$3 count=$4
  dropcaches
  set -- $(dd_rate if="/dev/$dev" of=/dev/null bs="$bs" count="$count")
  res "read.$label" "$1" "MB/s bytes=$2 secs=$3 (buffered, caches dropped)"
}

write_test() {
  label=$1 dev=$2 bs=$3 count=$4 src=${5:-/dev/zero}
  set -- $(dd_rate if="$src" of="/dev/$dev" bs="$bs" count="$count" oflag=direct)
  res "write.$label" "$1" "MB/s bytes=$2 secs=$3"
}

md_state() { # one-line summary of an md array
  md=$1
  echo "$(cat /sys/block/$md/md/array_state) degraded=$(cat /sys/block/$md/md/degraded) action=$(cat /sys/block/$md/md/sync_action) members:$(for d in /sys/block/$md/md/dev-*; do printf ' %s=%s' "${d##*/dev-}" "$(cat $d/state)"; done)"
}

# wait_resync <md> <timeout_s>: wait for a running recovery/resync/check to
# finish. Sets SYNC_SECS, SYNC_MAX_KBS (max of md's sync_speed samples).
wait_resync() {
  md=$1 tmo=${2:-600}
  t0=$(now); SYNC_MAX_KBS=0
  # recovery starts asynchronously in md's thread: give it up to 5 s to show
  i=0
  while [ "$(cat /sys/block/$md/md/sync_action)" = idle ] && [ "$(cat /sys/block/$md/md/degraded)" != 0 ] && [ $i -lt 50 ]; do
    sleep 0.1; i=$((i+1))
  done
  while [ "$(cat /sys/block/$md/md/sync_action)" != idle ]; do
    s=$(cat /sys/block/$md/md/sync_speed 2>/dev/null)
    case "$s" in ''|none) ;; *) [ "$s" -gt "$SYNC_MAX_KBS" ] && SYNC_MAX_KBS=$s ;; esac
    if awk -v e="$(since "$t0")" -v t="$tmo" 'BEGIN{exit !(e>t)}'; then
      fail "wait_resync $md timed out after ${tmo}s: $(md_state $md)"; break
    fi
    sleep 0.2
  done
  SYNC_SECS=$(since "$t0")
}

# data region of one member (skips the md superblock/bitmap/data offset)
member_md5() {
  md=$1 dev=$2
  off=$(cat /sys/block/$md/md/dev-$dev/offset)     # sectors
  sz=$(cat /sys/block/$md/size)                     # array size, sectors
  dd if=/dev/$dev bs=1M iflag=skip_bytes,count_bytes,direct skip=$((off*512)) count=$((sz*512)) 2>/dev/null | md5sum | cut -d' ' -f1
}

array_md5() { dd if=/dev/$1 bs=1M iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1; }

# verify_members <md> <expected-md5> <members...>: md5 of array and of every
# member's data region must match; then md's own "check" must find 0 mismatches
verify_members() {
  md=$1 want=$2; shift 2
  t0=$(now)
  got=$(array_md5 $md)
  [ "$got" = "$want" ] || fail "array $md md5 $got != $want"
  for m in "$@"; do
    g=$(member_md5 $md $m)
    [ "$g" = "$want" ] && res "verify.$md.$m" ok "md5=$g" || fail "member $m md5 $g != $want"
  done
  echo check > /sys/block/$md/md/sync_action
  wait_resync $md 600
  mm=$(cat /sys/block/$md/md/mismatch_cnt)
  [ "$mm" = 0 ] || fail "$md check: mismatch_cnt=$mm"
  res "verify.$md.check_mismatch_cnt" "$mm" "check took ${SYNC_SECS}s"
  res "verify.$md.secs" "$(since "$t0")"
}

# ---- additions (turn 2) ----------------------------------------------------
# LAB-MARK <name>: a console marker the host can act on (run.sh --kill-on)
mark() { sync; echo "LAB-MARK $*"; }
memfree_kb()  { awk '/^MemFree:/{print $2}' /proc/meminfo; }
# show a command's output on the console, each line prefixed (kept out of RESULT)
show() { _p=$1; shift; "$@" 2>&1 | sed "s/^/$_p| /"; }
mdstat() { show mdstat cat /proc/mdstat; }
detail() { show "detail $1" mdadm --detail "/dev/$1"; }
# sectors written by a block device (field 7 of /sys/block/X/stat)
sect_written() { awk '{print $7}' "/sys/block/$1/stat"; }
# md5 of <count> MiB of a device starting at <skip> MiB (O_DIRECT)
region_md5() { dd if=/dev/$1 bs=1M skip=$2 count=$3 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1; }
