#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-md-faults.sh - one boot of the power-cut chain (md-faults.sh runs
# the boots in order on the same disk images; lab.leg=N says which boot).
# vda, vdb: the array's disks; vdc: an ext4 file system mounted on
# /persist, which keeps, across power cuts, /etc/svmram (the record, and
# the stand-in systemctl's unit state: what /etc is on a real host),
# /var/svmram (the command's journal) and this chain's notes.
#
# Every change is made by the installed svmram command, as the boot unit
# and an administrator run it (guest-svmram.sh); a cut is the command's
# test switch SVMRAM_TEST_CUT (svmram(8), ENVIRONMENT): at a step, in a
# recovery, at a journal write, with the lock held, at the end.
# Every boot does what a systemd host does, then checks, then acts:
#   1. udev: mdadm --incremental on vda and vdb;
#   2. if the unit is enabled (setup enables it, teardown disables it):
#      systemctl start, whose stand-in (systemctl-stub.sh) runs the
#      installed svmram@.service's own ExecStart line; if not, and a
#      teardown is unfinished, the restore an administrator might type,
#      which must stand aside too; then, if
#      the array is still inactive, mdadm --run (what mdadm-last-resort
#      does after 30 s);
#   3. an interrupted setup or teardown (lab/pending) is run again;
#   4. checks: md5 of the data through the array; once nothing is left to
#      do, md5 of every member, md's check (mismatch_cnt 0), the
#      write-mostly flags, the unit's state, no journal left, and that the
#      disks serve no reads;
#   5. the leg's operation, cut by a power cut (powercut).
# In legs 5, 7 and 8 the boot's restore (the unit's ExecStart) is itself
# the cut; in legs 6 and 9 it runs whole and the power goes once md's
# recovery into ram0 is >= 25 % done (9 with a writer running).
. /lab/lib.sh
MD=md0
P=/persist
N=$P/lab
LEG=${LAB_LEG:?lab.leg=N}

mkdir -p $P
if ! mount -t ext4 /dev/vdc $P 2>/dev/null; then
  [ "$LEG" = 0 ] || fail "leg $LEG: the notebook vdc does not mount"
  /sbin/mke2fs -q -t ext4 /dev/vdc && mount -t ext4 /dev/vdc $P
fi
mkdir -p $N $P/etc $P/var /var
ln -s $P/etc /etc/svmram
ln -s $P/var /var/svmram
. /opt/svmram/tests/vm/guest-svmram.sh
note() { echo "$2" > $N/$1; sync; }
have() { [ -f $N/$1 ]; }
pending() { cat $N/pending 2>/dev/null; }

# the stand-in systemctl's unit state ("enabled active"): a boot forgets
# that the unit was active, not that it is enabled
S=/etc/svmram/stub-systemd/svmram-unit.$MD
unit_state() { read -r _en _act < $S; echo "$_en $1" > $S; sync; }
[ -f $S ] && unit_state inactive
unit_enabled() { [ "$(systemctl is-enabled svmram@$MD.service)" = enabled ]; }

# the unit started or stopped as systemd would, by the stand-in
# systemctl (systemctl-stub.sh: the installed unit's ExecStart, or
# ExecStop then ExecStopPost, with its Environment= and INVOCATION_ID;
# nothing when its ConditionPathExists= fails), which keeps the unit's
# state; rc is the unit's own exit status (ExecMainStatus)
unit_exec() { # ExecStart|ExecStop
  case $1 in ExecStart) _verb=start ;; *) _verb=stop ;; esac
  systemctl $_verb svmram@$MD.service > /tmp/unit.out 2>&1
  rc=$(systemctl show -P ExecMainStatus svmram@$MD.service)
  sed 's/^/unit| /' /tmp/unit.out
  res "unit.$1" "rc=$rc"
  return $rc
}
# the unit's start, cut at POINT: the power goes inside its ExecStart
unit_cut() {
  SVMRAM_TEST_CUT="$1" SVMRAM_TEST_TRACE=1 systemctl start svmram@$MD.service
  fail "cut point $1 never reached (systemctl start rc=$?)"; finish
}
# md's recovery of sync_completed ("DONE / TOTAL" sectors), in whole
# percent; nothing while md copies nothing ("none")
copy_percent() {
  awk '$2 == "/" && $3 > 0 { printf "%d", 100 * $1 / $3 }' /sys/block/$MD/md/sync_completed
}
# the unit started whole (restore does not wait for md's copy into RAM),
# then the power cut once md's recovery into ram0 is >= 25 % done (at
# most 120 s): the test waits for the kernel, not the command
unit_then_cut_in_copy() {
  unit_exec ExecStart || stop "unit ExecStart before the cut in the copy"
  i=0
  while [ $i -lt 1200 ]; do
    pct=$(copy_percent)
    [ -n "$pct" ] && [ "$pct" -ge 25 ] && break
    sleep 0.1; i=$((i + 1))
  done
  mark "cut after restore ($MD recovery ${pct:-none} % done)"
  sleep 600
  fail "no power cut after restore"; finish
}

finish() {
  res guest.fails "$LAB_FAILS"
  [ "$LAB_FAILS" = 0 ] && echo LAB-PASS
  umount $P 2>/dev/null
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
  unit_enabled && [ -f /etc/svmram/md/$MD.json ] && [ ! -e /var/svmram/$MD.journal ] &&
    res "unit.$1" ok "enabled, recorded, no journal" ||
    fail "$1: unit $(cat $S), record $(ls /etc/svmram/md), journal $(ls /var/svmram)"
  disk_reads_zero "$1"
  verify_members $MD "$(cat $N/md5)" ram0 vda vdb
}
check_plain() {
  wait_resync $MD 600
  flags_are "vda=in_sync vdb=in_sync" "$1"
  [ "$(cat /sys/block/$MD/md/raid_disks)" = 2 ] && [ "$(cat /sys/block/$MD/md/degraded)" = 0 ] &&
    res "shape.$1" ok "2 raid devices" || fail "shape $1: $(md_state $MD)"
  [ -e /sys/module/brd ] && fail "$1: brd still loaded" || res "brd.$1" ok unloaded
  ! unit_enabled && [ -z "$(ls /etc/svmram/md)" ] && [ -z "$(ls /var/svmram)" ] &&
    res "unit.$1" ok "disabled, no record, no journal" ||
    fail "$1: unit $(cat $S), record $(ls /etc/svmram/md), journal $(ls /var/svmram)"
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

# A writer while md recovers into RAM (leg 9): 4 KiB records into the
# array's last MiB (kept in $N/tail by leg 4), each written O_DIRECT and
# O_DSYNC and only then noted in $N/written; after the cut, every noted
# record must read back (check_records), and the tail is put back.
last_mib() { echo $(( $(cat /sys/block/$MD/size) / 2048 - 1 )); }
record() { yes "svmram record $1" | head -c 4096; }
writer() {
  while [ ! -e /sys/block/$MD/md/dev-ram0 ]; do sleep 0.05; done
  TAIL=$(last_mib); i=0
  while [ $i -lt 256 ]; do
    record $i > /tmp/record
    dd if=/tmp/record of=/dev/$MD bs=4096 seek=$((TAIL * 256 + i)) count=1 \
      oflag=direct,dsync conv=notrunc 2>/dev/null || break
    note written $i
    i=$((i + 1))
  done
}
check_records() {
  n=$(cat $N/written); i=0; bad=0; TAIL=$(last_mib)
  while [ $i -le "$n" ]; do
    got=$(dd if=/dev/$MD bs=4096 skip=$((TAIL * 256 + i)) count=1 iflag=direct 2>/dev/null | md5sum)
    [ "$got" = "$(record $i | md5sum)" ] || { bad=$((bad + 1)); fail "record $i of $n lost"; }
    i=$((i + 1))
  done
  [ $bad = 0 ] && [ "$n" -ge 1 ] && res writer.records ok "records 0-$n, written during the cut recovery, read back" ||
    fail "writer: $bad bad of $((n + 1)) records"
  dd if=$N/tail of=/dev/$MD bs=1M seek=$TAIL count=1 oflag=direct,dsync conv=notrunc 2>/dev/null || fail "tail not put back"
  rm -f $N/written $N/tail; sync
}

log "leg $LEG"
# 1. udev's incremental assembly
for d in vda vdb; do
  mdadm --incremental --export /dev/$d --offroot > /tmp/inc 2>&1
  res "incremental.$d" "$(tr '\n' ' ' < /tmp/inc)"
done
[ -e /sys/block/$MD/md ] && res boot.state "$(md_state $MD)"

# 2. the unit (or mdadm-last-resort)
case $LEG in
  5) slow 4000; unit_cut before="grow-add ram0" ;;
  6) slow 4000; unit_then_cut_in_copy ;;
  7) unit_cut before="load brd" ;;
  8) unit_cut before="add ram0" ;;
  9) slow 4000; writer & unit_then_cut_in_copy ;;
  10) slow 4000 ;;    # the unit's start leaves a slow recovery running
esac
if unit_enabled; then
  inactive=$(cat /sys/block/$MD/md/array_state 2>/dev/null)
  unit_exec ExecStart; rc=$?
  if [ -e /var/svmram/$MD.journal ]; then
    # a setup or teardown was cut short while the unit was enabled (setup
    # enables it before its first change, teardown disables it once the
    # RAM member is out): the unit starts the array if it came up
    # inactive, then stands aside (exit 3)
    [ $rc = 3 ] && res unit.stands_aside ok || fail "unit ExecStart rc=$rc during a $(pending)"
    if [ "$inactive" = inactive ]; then
      [ "$(cat /sys/block/$MD/md/array_state)" != inactive ] &&
        res unit.started_array ok "$(md_state $MD)" || fail "the unit left $MD inactive"
    fi
  elif [ $rc != 0 ]; then
    stop "unit ExecStart rc=$rc"
  fi
elif [ "$(pending)" = teardown ]; then
  # the teardown disabled the unit (its step before the record's
  # removal): systemd runs nothing; a restore typed by hand stands aside
  res unit.disabled ok "$(cat $S)"
  sv restore $MD; rc=$?
  [ $rc = 3 ] && res restore.stands_aside ok || fail "svmram restore rc=$rc during a teardown"
fi
if [ "$(cat /sys/block/$MD/md/array_state 2>/dev/null)" = inactive ]; then
  mdadm --run /dev/$MD && res last_resort ok "mdadm --run"
fi
[ -e /sys/block/$MD/md ] && res after_unit.state "$(md_state $MD)"
# the records the writer wrote during the cut recovery
have written && check_records
# the data, read through the array, whatever serves it
if have md5 && [ -e /sys/block/$MD/md ]; then
  got=$(array_md5 $MD)
  [ "$got" = "$(cat $N/md5)" ] && res md5.boot ok "$got" || fail "md5 at boot $got != $(cat $N/md5)"
fi

# 3. an interrupted setup or teardown, run again (cut again in some legs)
resume() { # [--cut POINT]
  op=$(pending)
  if [ "$1" = --cut ]; then powercut "$2" "$op" -y /dev/$MD; fi
  sv "$op" -y /dev/$MD || stop "resumed $op rc=$?"
  rm -f $N/pending; sync
  res "resumed.$op" ok
}
begin() { # op : an operation that is to be cut
  note pending "$1"
}
# set up again after a teardown, then cut the teardown at POINT
teardown_cut() {
  sv setup -y /dev/$MD || stop "setup again"
  begin teardown; powercut "$1" teardown -y /dev/$MD
}

# 4 and 5: each leg
case $LEG in
0)  begin setup; slow 4000
    powercut before="create md0" setup -y /dev/$MD --disks /dev/vda,/dev/vdb ;;
1)  slow 4000; resume --cut wait="create md0" ;;
2)  resume; fill; check_set_up setup_new_after_cuts
    powercut before="shrink md0" stop $MD ;;
3)  check_set_up restored_after_stop_cut_before_shrink
    powercut before="unload brd" stop $MD ;;
4)  check_set_up restored_after_stop_cut_before_unload
    dd if=/dev/$MD of=$N/tail bs=1M skip="$(last_mib)" count=1 iflag=direct 2>/dev/null && sync ||
      fail "the array's last MiB not kept"
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
    # in the journal's first write: the unit is still enabled
    begin teardown; powercut journal-after=start:teardown teardown -y /dev/$MD ;;
11) resume --cut before="-writemostly vdb" ;;
12) resume --cut "journal-before=completed:-writemostly vdb" ;;
13) resume; check_plain teardown_13; teardown_cut before="fail-remove ram0" ;;
14) resume; check_plain teardown_14; teardown_cut before="shrink md0" ;;
15) resume; check_plain teardown_15; teardown_cut before="unload brd" ;;
16) resume; check_plain teardown_16; teardown_cut journal-before=finish ;;
17) resume; check_plain teardown_17
    # the host lock just taken: nothing is written yet
    begin setup; powercut lock setup -y /dev/$MD ;;
18) resume --cut before="grow-add ram0" ;;
19) slow 4000; resume --cut wait="grow-add ram0" ;;
20) resume --cut before="writemostly vda" ;;
21) resume --cut "journal-after=completed:writemostly vda" ;;
22) resume --cut before="writemostly vdb" ;;
23) resume --cut "journal-before=completed:writemostly vdb" ;;
24) # all done but the unit's start: the power goes once setup has
    # removed its journal, before its systemctl start
    resume --cut journal-after=finish ;;
25) # the unit, enabled by the setup's second step, restored md0 at boot
    # (leaving md's speed limit raised, as a restore does until its next
    # run): setup run again puts the limit back, and then has nothing to
    # do (exit 0)
    rm -f $N/pending; sync
    check_set_up setup_existing_after_cuts
    sv setup -y /dev/$MD && res resumed.setup ok || stop "setup after the restore rc=$?"
    sv setup -y /dev/$MD; rc=$?
    [ $rc = 0 ] && res nothing_to_do.second_setup ok || fail "second setup rc=$rc, expected 0 (nothing to do)"
    sv teardown -y /dev/$MD || stop "teardown"
    check_plain teardown_whole
    # setup on a mounted, busy ext4 array
    /sbin/mke2fs -q -t ext4 /dev/$MD || stop mke2fs
    mkdir -p /mnt && mount -t ext4 /dev/$MD /mnt || stop mount
    for i in 1 2 3 4 5 6 7 8; do dd if=/dev/urandom of=/mnt/f$i bs=1M count=1 2>/dev/null; done
    (cd /mnt && md5sum f? > /tmp/sums); sync
    ( while [ ! -f /tmp/stop ]; do dd if=/dev/urandom of=/mnt/w bs=64k count=16 conv=fsync 2>/dev/null; done ) &
    ( while [ ! -f /tmp/stop ]; do (cd /mnt && md5sum -c /tmp/sums >/dev/null 2>&1) || echo "LAB-FAIL busy: md5sum -c failed"; done ) &
    sleep 2
    T=$(now)
    sv setup -y /dev/$MD || stop "setup on the mounted busy array"
    res time.setup_busy "$(since "$T")"
    flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" setup_busy
    a0=$(sect_read vda); b0=$(sect_read vdb); dropcaches
    cat /mnt/f? > /dev/null
    da=$(( $(sect_read vda) - a0 )); db=$(( $(sect_read vdb) - b0 ))
    [ $da = 0 ] && [ $db = 0 ] && res reads.busy_files ok "vda=0 vdb=0" || fail "busy: files read from disks vda=$da vdb=$db"
    sv teardown -y /dev/$MD || stop "teardown of the mounted busy array"
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
