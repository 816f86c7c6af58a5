#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-md-faults.sh - one boot of the power-cut chain (md-faults.sh runs
# the boots in order on the same disk images; lab.leg=N says which boot).
# vda, vdb: the array's disks; vdc: an ext4 file system mounted on
# /etc/svmram, which keeps svmram's record and this chain's notes across
# power cuts (what /etc is on a real host).
#
# Every boot does what a systemd host does, then checks, then acts:
#   1. udev: mdadm --incremental on vda and vdb;
#   2. if the unit is enabled (lab/enabled): the unit's own ExecStart line,
#      read from the installed svmram@.service; then, if the array is
#      still inactive, mdadm --run (what mdadm-last-resort does after 30 s);
#   3. an interrupted setup or teardown (lab/pending) is run again;
#   4. checks: md5 of the data through the array; once nothing is left to
#      do, md5 of every member, md's check (mismatch_cnt 0), the
#      write-mostly flags, and that the disks serve no reads;
#   5. the leg's operation, cut by a power cut (guest_svmram.py --cut).
# In legs 5-9 the boot's restore is itself the one cut.
. /lab/lib.sh
MD=md0
UNIT=/usr/lib/systemd/system/svmram@.service
SV=/opt/svmram/tests/vm/guest_svmram.py
N=/etc/svmram/lab
LEG=${LAB_LEG:?lab.leg=N}

mkdir -p /etc/svmram
if ! mount -t ext4 /dev/vdc /etc/svmram 2>/dev/null; then
  [ "$LEG" = 0 ] || fail "leg $LEG: the notebook vdc does not mount"
  /sbin/mke2fs -q -t ext4 /dev/vdc && mount -t ext4 /dev/vdc /etc/svmram
fi
mkdir -p $N /etc/svmram/md
note() { echo "$2" > $N/$1; sync; }
have() { [ -f $N/$1 ]; }

unit_line() { sed -n "s/^$1=//p" $UNIT | sed "s/%i/$MD/g"; }
# the unit's ExecStart/ExecStop, as systemd would run it (Environment=)
unit_exec() {
  cond=$(unit_line ConditionPathExists)
  [ -e "$cond" ] || { log "unit: condition $cond fails, not run"; return 0; }
  # shellcheck disable=SC2046
  env $(unit_line Environment) $(unit_line "$1") > /tmp/unit.out 2>&1
  rc=$?
  sed 's/^/unit| /' /tmp/unit.out
  res "unit.$1" "rc=$rc"
  return $rc
}
sv() { # op args...
  python3 $SV "$@" > /tmp/sv.out 2>&1; rc=$?
  sed 's/^/sv| /' /tmp/sv.out | grep -v '^sv| \(RESULT\|LAB-\)'
  grep '^\(RESULT\|LAB-FAIL\)' /tmp/sv.out
  return $rc
}
# a cut operation: the power goes inside it, so this never returns
powercut() { spec=$1; shift; python3 $SV --cut "$spec" "$@"; fail "not cut: $spec"; finish; }

finish() {
  res guest.fails "$LAB_FAILS"
  [ "$LAB_FAILS" = 0 ] && echo LAB-PASS
  umount /etc/svmram 2>/dev/null
  [ "$LAB_FAILS" = 0 ]
  exit
}
stop() { fail "$1"; mdstat; detail $MD; finish; }

flags_are() {
  got=""
  for d in /sys/block/$MD/md/dev-*; do got="$got ${d##*/dev-}=$(cat $d/state)"; done
  got=${got# }
  [ "$got" = "$1" ] && res "flags.$2" ok "$got" || fail "flags $2: $got != $1"
}
disk_reads_zero() {
  a0=$(sect_read vda); b0=$(sect_read vdb)
  dropcaches
  dd if=/dev/$MD of=/dev/null bs=1M iflag=direct 2>/dev/null
  da=$(( $(sect_read vda) - a0 )); db=$(( $(sect_read vdb) - b0 ))
  [ $da = 0 ] && [ $db = 0 ] && res "reads.$1" ok "vda=0 vdb=0 sectors" ||
    fail "reads $1: vda=$da vdb=$db sectors"
}
# the whole set-up state, or the plain array after teardown
check_set_up() { # label
  wait_resync $MD 600
  flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" "$1"
  [ "$(cat /sys/block/$MD/md/raid_disks)" = 3 ] && [ "$(cat /sys/block/$MD/md/degraded)" = 0 ] &&
    res "shape.$1" ok "3 raid devices, not degraded" || fail "shape $1: $(md_state $MD)"
  [ "$(cat /sys/block/$MD/md/bitmap/backlog)" = 0 ] || fail "write-behind on"
  disk_reads_zero "$1"
  verify_members $MD "$(cat $N/md5)" ram0 vda vdb
}
check_plain() {
  wait_resync $MD 600
  flags_are "vda=in_sync vdb=in_sync" "$1"
  [ "$(cat /sys/block/$MD/md/raid_disks)" = 2 ] && [ "$(cat /sys/block/$MD/md/degraded)" = 0 ] &&
    res "shape.$1" ok "2 raid devices" || fail "shape $1: $(md_state $MD)"
  [ -e /sys/module/brd ] && fail "$1: brd still loaded" || res "brd.$1" ok unloaded
  verify_members $MD "$(cat $N/md5)" vda vdb
}
fill() {
  mb=$(( $(cat /sys/block/$MD/size) / 2048 ))
  dd if=/dev/urandom of=/dev/$MD bs=1M count=$mb oflag=direct 2>/dev/null
  sync
  note md5 "$(array_md5 $MD)"
  res fill.md5 "$(cat $N/md5)"
}
slow() { echo "$1" > /proc/sys/dev/raid/speed_limit_max; }

log "leg $LEG"
# 1. udev's incremental assembly
for d in vda vdb; do
  mdadm --incremental --export /dev/$d --offroot > /tmp/inc 2>&1
  res "incremental.$d" "$(tr '\n' ' ' < /tmp/inc)"
done
[ -e /sys/block/$MD/md ] && res boot.state "$(md_state $MD)"

# 2. the unit (or mdadm-last-resort)
case $LEG in
  5) slow 4000; powercut before="grow-add ram0" restore $MD ;;
  6) slow 4000; powercut end restore $MD ;;
  7) powercut before="load brd" restore $MD ;;
  8) powercut before="add ram0" restore $MD ;;
  9) slow 4000; powercut end restore $MD ;;
  10) slow 4000 ;;    # the unit's start leaves a slow recovery running
esac
if have enabled; then
  unit_exec ExecStart; rc=$?
  if have pending; then
    # a teardown was cut short: the unit stands aside (exit 3)
    [ $rc = 3 ] && res unit.stands_aside ok || fail "unit ExecStart rc=$rc during a teardown"
  elif [ $rc != 0 ]; then
    stop "unit ExecStart rc=$rc"
  fi
fi
if [ "$(cat /sys/block/$MD/md/array_state 2>/dev/null)" = inactive ]; then
  mdadm --run /dev/$MD && res last_resort ok "mdadm --run"
fi
[ -e /sys/block/$MD/md ] && res after_unit.state "$(md_state $MD)"
# the data, read through the array, whatever serves it
if have md5 && [ -e /sys/block/$MD/md ]; then
  got=$(array_md5 $MD)
  [ "$got" = "$(cat $N/md5)" ] && res md5.boot ok "$got" || fail "md5 at boot $got != $(cat $N/md5)"
fi

# 3. an interrupted setup or teardown, run again (cut again in some legs)
resume() { # [--cut SPEC]
  op=$(cat $N/pending)
  if [ "$1" = --cut ]; then powercut "$2" "$op" $MD; fi
  sv "$op" $MD || stop "resumed $op rc=$?"
  rm -f $N/pending
  case $op in setup) note enabled 1 ;; teardown) rm -f $N/enabled; sync ;; esac
  res "resumed.$op" ok
}
begin() { # op args... : start an operation that is to be cut
  note pending "$1"
}

# 4 and 5: each leg
case $LEG in
0)  begin setup; slow 4000; powercut before="create md0" setup $MD vda vdb ;;
1)  slow 4000; resume --cut wait="create md0" ;;
2)  resume; fill; check_set_up setup_new_after_cuts
    powercut before="shrink md0" stop $MD ;;
3)  check_set_up restored_after_stop_cut_before_shrink
    powercut before="unload brd" stop $MD ;;
4)  check_set_up restored_after_stop_cut_before_unload
    unit_exec ExecStop || stop "ExecStop"
    [ "$(cat /sys/block/$MD/md/raid_disks)" = 2 ] && [ "$(cat /sys/block/$MD/md/degraded)" = 0 ] &&
      [ ! -e /sys/module/brd ] && res stopped.shape ok "$(md_state $MD)" || fail "after ExecStop: $(md_state $MD)"
    flags_are "vda=in_sync,write_mostly vdb=in_sync,write_mostly" stopped
    sync; echo "LAB-MARK cut after a whole ExecStop"; sleep 600 ;;
10) # a shutdown soon after boot: ExecStop in the middle of the recovery
    [ "$(cat /sys/block/$MD/md/sync_action)" = recover ] && res recovering ok "$(md_state $MD)" ||
      fail "leg 10: no recovery running: $(md_state $MD)"
    unit_exec ExecStop || stop "ExecStop during the recovery"
    [ "$(cat /sys/block/$MD/md/raid_disks)" = 2 ] && [ "$(cat /sys/block/$MD/md/degraded)" = 0 ] &&
      [ ! -e /sys/module/brd ] && res stopped_recovering.shape ok "$(md_state $MD)" ||
      fail "after ExecStop during the recovery: $(md_state $MD)"
    slow 200000
    unit_exec ExecStart || stop "ExecStart after the stop"
    check_set_up restored_after_cuts_in_restore
    begin teardown; powercut before="-writemostly vdb" teardown $MD ;;
11|12|13)
    resume; check_plain "teardown_$LEG"
    sv setup $MD || stop "setup again"; note enabled 1
    begin teardown
    case $LEG in
      11) powercut before="fail-remove ram0" teardown $MD ;;
      12) powercut before="shrink md0" teardown $MD ;;
      13) powercut before="unload brd" teardown $MD ;;
    esac ;;
14) resume; check_plain teardown_14
    begin setup; powercut before="grow-add ram0" setup $MD ;;
15) slow 4000; resume --cut wait="grow-add ram0" ;;
16) resume --cut before="writemostly vda" ;;
17) resume --cut before="writemostly vdb" ;;
18) resume; check_set_up setup_existing_after_cuts
    sv setup $MD; rc=$?
    [ $rc = 3 ] && res refused.second_setup ok || fail "second setup rc=$rc, expected 3"
    sv teardown $MD || stop "teardown"
    rm -f $N/enabled; check_plain teardown_whole
    # setup on a mounted, busy ext4 array
    /sbin/mke2fs -q -t ext4 /dev/$MD || stop mke2fs
    mkdir -p /mnt && mount -t ext4 /dev/$MD /mnt || stop mount
    for i in 1 2 3 4 5 6 7 8; do dd if=/dev/urandom of=/mnt/f$i bs=1M count=1 2>/dev/null; done
    (cd /mnt && md5sum f? > /tmp/sums); sync
    ( while [ ! -f /tmp/stop ]; do dd if=/dev/urandom of=/mnt/w bs=64k count=16 conv=fsync 2>/dev/null; done ) &
    ( while [ ! -f /tmp/stop ]; do (cd /mnt && md5sum -c /tmp/sums >/dev/null 2>&1) || echo "LAB-FAIL busy: md5sum -c failed"; done ) &
    sleep 2
    T=$(now)
    sv setup $MD || stop "setup on the mounted busy array"
    res time.setup_busy "$(since "$T")"
    flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" setup_busy
    a0=$(sect_read vda); b0=$(sect_read vdb); dropcaches
    cat /mnt/f? > /dev/null
    da=$(( $(sect_read vda) - a0 )); db=$(( $(sect_read vdb) - b0 ))
    [ $da = 0 ] && [ $db = 0 ] && res reads.busy_files ok "vda=0 vdb=0" || fail "busy: files read from disks vda=$da vdb=$db"
    sv teardown $MD || stop "teardown of the mounted busy array"
    touch /tmp/stop; wait
    (cd /mnt && md5sum -c /tmp/sums > /dev/null) && res busy.files ok || fail "busy: files changed"
    umount /mnt || fail umount
    /sbin/e2fsck -fn /dev/$MD > /tmp/fsck 2>&1 && res busy.e2fsck ok || { fail "e2fsck"; cat /tmp/fsck; }
    note md5 "$(array_md5 $MD)"
    check_plain teardown_busy
    mdadm --stop /dev/$MD > /dev/null 2>&1
    ;;
*)  [ "$LEG" -ge 5 ] && [ "$LEG" -le 9 ] || fail "no leg $LEG" ;;
esac
finish
