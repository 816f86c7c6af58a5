#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-md-cycle.sh - svmram's md backend on a real kernel, over two boots
# on the same disk images (run by md-cycle.sh).  2 virtio disks vda, vdb.
# Every change is made by the installed svmram command (/usr/sbin/svmram,
# as make install-linux lays it out, through guest-svmram.sh's sv), with
# a stand-in systemctl that runs the installed unit's lines; this script
# only checks.
#   lab.phase=setup : setup on a new array md0 (ram0 + write-mostly vda,
#       vdb), fill it, check md5s, flags and disk reads; power off with the
#       array running.
#   lab.phase=restore lab.expect=<md5> : the RAM member is gone; udev-style
#       incremental assembly leaves md0 inactive; svmram restore (its
#       record comes from boot 1, in /etc/svmram/md) runs it and adds a
#       fresh ram0; then teardown, setup on the existing array (grow), a
#       second setup that has nothing to do (exit 0), and teardown again.
# DUMP lines carry raw outputs (mdstat, mdadm --detail --export, sysfs)
# that md-cycle.sh turns into fixture files.
. /lab/lib.sh
. /opt/svmram/tests/vm/guest-svmram.sh
MD=md0

dump_state() { # label
  l=$1
  show "DUMP $l mdstat" cat /proc/mdstat
  if [ -e /dev/$MD ]; then
    show "DUMP $l detail-export" mdadm --detail --export /dev/$MD
    show "DUMP $l detail" mdadm --detail /dev/$MD
  fi
  for f in $(find /sys/block/$MD/md /sys/module/brd -maxdepth 2 -type f 2>/dev/null | sort) \
           /proc/sys/kernel/osrelease /sys/block/vda/size /sys/block/vdb/size; do
    case $f in */uevent|*/new_dev|*/bitmap_set_bits|*/sections/*|*/notes/*|*/taint|*/coresize|*/initsize|*/refcnt|*/srcversion) continue;; esac
    [ -r "$f" ] || continue
    n=$(wc -c < "$f" 2>/dev/null) || continue
    # E: the attribute returned nothing at all (not even a newline)
    [ "$n" = 0 ] && { echo "DUMP $l sysfs| E $f"; continue; }
    v=$(head -c 200 "$f" 2>/dev/null | head -1) || continue
    echo "DUMP $l sysfs| F $f $v"
  done
  for d in /sys/block/vda /sys/block/vdb /sys/block/ram*; do
    [ -d "$d/holders" ] || continue
    echo "DUMP $l sysfs| D $d/holders"
    for h in $(ls "$d/holders"); do echo "DUMP $l sysfs| L $d/holders/$h"; done
  done
}

speed_is() { # "2147483647 (local)" or "system": md/sync_speed_max, label
  got=$(cat /sys/block/$MD/md/sync_speed_max)
  case "$1:$got" in
    system:*"(system)"|"$got:$got") res "speed.$2" ok "$got" ;;
    *) fail "speed $2: sync_speed_max is $got, expected $1" ;;
  esac
}

cli() { # the svmram command as an administrator types it
  /usr/sbin/svmram "$@" > /tmp/cli.out 2>&1; rc=$?
  sed 's/^/cli| /' /tmp/cli.out
  return $rc
}

flags_are() { # want: e.g. "ram0=in_sync vda=in_sync,write_mostly"
  got=""
  for d in /sys/block/$MD/md/dev-*; do got="$got ${d##*/dev-}=$(cat $d/state)"; done
  got=${got# }
  [ "$got" = "$1" ] && res "flags.$2" ok "$got" || fail "flags $2: $got != $1"
}

disk_reads_zero() { # label: O_DIRECT read of the whole array, disks must read 0
  a0=$(sect_read vda); b0=$(sect_read vdb)
  dropcaches
  dd if=/dev/$MD of=/dev/null bs=1M iflag=direct 2>/dev/null
  da=$(( $(sect_read vda) - a0 )); db=$(( $(sect_read vdb) - b0 ))
  [ $da = 0 ] && [ $db = 0 ] && res "reads.$1" ok "vda=0 vdb=0 sectors" ||
    fail "reads $1: vda=$da vdb=$db sectors"
}

finish() {
  res guest.fails "$LAB_FAILS"
  [ "$LAB_FAILS" = 0 ] && echo LAB-PASS
  [ "$LAB_FAILS" = 0 ]
  exit
}

# svmram failed: show the state it left and stop this boot
stop() { fail "$1"; show "state" cat /proc/mdstat; show "detail" mdadm --detail /dev/$MD; finish; }

case "${LAB_PHASE:-}" in
setup)
  dump_state before
  T=$(now)
  sv setup -y /dev/$MD --disks /dev/vda,/dev/vdb || stop "svmram setup (new array)"
  res intent "$(tr -d ' \n' < /etc/svmram/md/$MD.json)"
  res time.setup_new "$(since "$T")"
  dump_state after-setup-new
  flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" setup_new
  [ "$(cat /sys/block/$MD/md/bitmap/location)" = +8 ] && res bitmap ok || fail "bitmap: $(cat /sys/block/$MD/md/bitmap/location)"
  [ "$(cat /sys/block/$MD/md/bitmap/backlog)" = 0 ] && res backlog ok || fail "write-behind backlog $(cat /sys/block/$MD/md/bitmap/backlog)"
  mb=$(( $(cat /sys/block/$MD/size) / 2048 ))
  dd if=/dev/urandom of=/dev/$MD bs=1M count=$mb oflag=direct 2>/dev/null
  sync
  sum=$(array_md5 $MD)
  res cycle.md5 "$sum"
  disk_reads_zero setup_new
  verify_members $MD "$sum" ram0 vda vdb
  mark filled
  ;;
restore)
  [ -n "${LAB_EXPECT:-}" ] || fail "lab.expect=<md5> missing"
  for d in vda vdb; do
    mdadm --incremental --export /dev/$d --offroot > /tmp/inc 2>&1
    res "incremental.$d" "$(tr '\n' ' ' < /tmp/inc)"
  done
  dump_state inactive
  T=$(now)
  sv restore $MD || stop "svmram restore"
  res time.restore "$(since "$T")" "run + brd + add, no wait"
  speed_is "2147483647 (local)" restoring
  dump_state restoring
  wait_resync $MD 900
  res time.recovery "$SYNC_SECS"
  flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" restored
  disk_reads_zero restored
  verify_members $MD "$LAB_EXPECT" ram0 vda vdb

  T=$(now)
  sv teardown -y /dev/$MD || stop "svmram teardown"
  res time.teardown "$(since "$T")"
  dump_state after-teardown
  flags_are "vda=in_sync vdb=in_sync" teardown
  speed_is system teardown
  [ "$(cat /sys/block/$MD/md/raid_disks)" = 2 ] && res raid_disks.teardown ok || fail "raid_disks $(cat /sys/block/$MD/md/raid_disks)"
  [ -e /sys/module/brd ] && fail "brd still loaded" || res brd.unloaded ok
  verify_members $MD "$LAB_EXPECT" vda vdb

  T=$(now)
  sv setup -y /dev/$MD || stop "svmram setup (existing array)"
  res time.setup_existing "$(since "$T")"
  dump_state after-setup-existing
  flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" setup_existing
  speed_is system setup_existing
  [ "$(cat /sys/block/$MD/md/raid_disks)" = 3 ] && res raid_disks.setup_existing ok || fail "raid_disks $(cat /sys/block/$MD/md/raid_disks)"
  disk_reads_zero setup_existing
  verify_members $MD "$LAB_EXPECT" ram0 vda vdb
  sv setup -y /dev/$MD; rc=$?
  [ $rc = 0 ] && res nothing_to_do.second_setup ok || fail "second setup rc=$rc, expected 0 (nothing to do)"
  sv teardown -y /dev/$MD || stop "svmram teardown (2)"
  flags_are "vda=in_sync vdb=in_sync" teardown2
  [ -e /sys/module/brd ] && fail "brd still loaded (2)" || res brd.unloaded2 ok
  verify_members $MD "$LAB_EXPECT" vda vdb

  # Once more as an administrator types it, checking the boot unit's
  # state the stand-in systemctl keeps.
  cli setup -y /dev/$MD && res cli.setup ok || fail "svmram setup -y /dev/$MD rc=$?"
  flags_are "ram0=in_sync vda=in_sync,write_mostly vdb=in_sync,write_mostly" cli_setup
  speed_is system cli_setup
  [ "$(cat /etc/svmram/stub-systemd/svmram-unit.$MD)" = "enabled active" ] && res cli.unit_on ok || fail "unit: $(cat /etc/svmram/stub-systemd/svmram-unit.$MD)"
  disk_reads_zero cli_setup
  verify_members $MD "$LAB_EXPECT" ram0 vda vdb
  cli status --json /dev/$MD && grep -q '"serving_from_ram": true' /tmp/cli.out && res cli.status ok || fail "svmram status --json /dev/$MD"
  cli teardown -y /dev/$MD && res cli.teardown ok || fail "svmram teardown -y /dev/$MD rc=$?"
  flags_are "vda=in_sync vdb=in_sync" cli_teardown
  [ -e /sys/module/brd ] && fail "brd still loaded (cli)" || res brd.unloaded_cli ok
  [ ! -e /etc/svmram/md/$MD.json ] && [ "$(cat /etc/svmram/stub-systemd/svmram-unit.$MD)" = "disabled inactive" ] && res cli.unit_off ok || fail "after teardown: unit $(cat /etc/svmram/stub-systemd/svmram-unit.$MD)"
  verify_members $MD "$LAB_EXPECT" vda vdb
  mdadm --stop /dev/$MD >/dev/null 2>&1
  ;;
*) fail "lab.phase must be setup or restore" ;;
esac
finish
