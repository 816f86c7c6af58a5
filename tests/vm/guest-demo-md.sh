#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-demo-md.sh - make demo-md's guest, two boots (lab.boot=1|2) on the
# same disks: vda is the disk of the article's array; vdb holds /etc/svmram
# (svmram's record) across the reboot.  Every line of the transcript is
# "DEMO| ..." on the console: "$ command" and what it printed.
. /lab/lib.sh
UNIT=/usr/lib/systemd/system/svmram@.service
say() { echo "DEMO| $*"; }
run() { echo "DEMO| \$ $*"; sh -c "$*" 2>&1 | sed 's/^/DEMO| /'; }
unit_line() { sed -n "s/^$1=//p" $UNIT | sed "s/%i/md0/g"; }

mkdir -p /etc/svmram /mnt
mount -t ext4 /dev/vdb /etc/svmram 2>/dev/null ||
  { /sbin/mke2fs -q -t ext4 /dev/vdb && mount -t ext4 /dev/vdb /etc/svmram; }
# The guest's init is busybox: a stand-in systemctl runs the unit's lines
# and keeps its state on vdb, across the reboot.
cp /opt/svmram/tests/vm/systemctl-stub.sh /bin/systemctl

case $LAB_BOOT in
1)
  say "# The article's RAM RAID: a RAID-1 of a disk and a RAM disk, reads from RAM."
  say "# (systemctl here is a stand-in that runs svmram@.service's lines: the"
  say "# VM's init is busybox, not systemd.)"
  run cat /proc/mdstat
  say
  say "# What setup would do, as a script (-n changes nothing):"
  run svmram setup -n --disks /dev/vda /dev/md0
  say
  run svmram setup -y --disks /dev/vda /dev/md0
  run cat /proc/mdstat
  run cat /etc/svmram/md/md0.json
  say
  say "# A file system on it, and a file read back with the caches dropped:"
  run /sbin/mke2fs -q -t ext4 /dev/md0
  run mount /dev/md0 /mnt
  run "dd if=/dev/urandom of=/mnt/data bs=1M count=48 conv=fsync 2>/dev/null; md5sum /mnt/data"
  before=$(sect_read vda); dropcaches
  run md5sum /mnt/data
  say "(vda read $(( $(sect_read vda) - before )) sectors for it: ram0 served every read)"
  run svmram status /dev/md0
  run umount /mnt
  say
  say "# Shutdown: systemd stops svmram@md0.service, whose ExecStop is"
  say "#   $(unit_line ExecStop)"
  run systemctl stop svmram@md0.service
  run cat /proc/mdstat
  say "# ...and the machine powers off: the RAM disk's contents are gone."
  ;;
2)
  say
  say "# Next boot: udev assembles md0 from vda, an ordinary complete array."
  run mdadm --incremental --export /dev/vda --offroot
  run cat /proc/mdstat
  say "# (md's recovery is capped at 8 MB/s in this demo, so that the transcript"
  say "# catches it; svmram leaves a limit the administrator set alone)"
  echo 8000 > /proc/sys/dev/raid/speed_limit_max
  say "# systemd starts svmram@md0.service early (before the mounts of /dev/md0):"
  say "#   $(unit_line ExecStart)"
  run systemctl start svmram@md0.service
  say "# It does not wait for the recovery; reads ahead of it come from vda:"
  run svmram status /dev/md0
  echo 200000 > /proc/sys/dev/raid/speed_limit_max
  wait_resync md0 900
  run cat /proc/mdstat
  run svmram status /dev/md0
  run mount /dev/md0 /mnt
  before=$(sect_read vda); dropcaches
  run md5sum /mnt/data
  say "(vda read $(( $(sect_read vda) - before )) sectors for it)"
  run umount /mnt
  say
  say "# Teardown: back to exactly the array it was (a one-disk RAID-1 here)."
  run svmram teardown -y /dev/md0
  run cat /proc/mdstat
  run "lsmod | grep -c '^brd' || true"
  run ls /etc/svmram/md
  rm -rf /etc/svmram/stub-systemd
  ;;
esac
umount /etc/svmram
