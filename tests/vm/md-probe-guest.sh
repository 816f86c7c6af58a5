#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# md-probe-guest.sh - what a Debian guest's md does with the lockless
# bitmap and at a stop (issue 37): md-probe-run.sh puts it in place of the
# check script of a copy of a cached debian-guest.sh image; one boot, its
# PROBE lines on the console, then poweroff.  docs/md-backend.md has the
# forky run.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "PROBE $*"; }
run() { say "\$ $*"; "$@" 2>&1 | sed 's/^/PROBE | /'; say "rc=${PIPESTATUS[0]}"; }
sysfs() { # ARRAY
  local md=/sys/block/$1/md f
  for f in bitmap_type bitmap/location; do
    if [ -e "$md/$f" ]; then say "$md/$f: $(cat "$md/$f" 2>&1 | tr '\n' ' ')"; else say "$md/$f: (absent)"; fi
  done
  say "ls $md/llbitmap: $(ls "$md/llbitmap" 2>&1 | tr '\n' ' ')"
}
say "BEGIN $(uname -r) $(mdadm --version 2>&1)"
for i in 0 1 2 3; do truncate -s 256M /var/tmp/d$i.img; done
L0=$(losetup -f --show /var/tmp/d0.img); L1=$(losetup -f --show /var/tmp/d1.img)
L2=$(losetup -f --show /var/tmp/d2.img); L3=$(losetup -f --show /var/tmp/d3.img)
say "loops $L0 $L1 $L2 $L3"
run modprobe md_mod
run cat /sys/module/md_mod/parameters/legacy_async_del_gendisk
run grep -c . /proc/mdstat
# the lockless bitmap
run mdadm --create /dev/md5 --run --metadata=1.2 --level=1 --raid-devices=2 --bitmap=lockless "$L0" "$L1"
[ -e /sys/block/md5/md ] && sysfs md5
cat /proc/mdstat | sed 's/^/PROBE mdstat | /'
mdadm --stop /dev/md5 >/dev/null 2>&1
# a classic array: bitmap_type, then what a stop leaves
run mdadm --create /dev/md6 --run --metadata=1.2 --level=1 --raid-devices=2 --bitmap=internal "$L2" "$L3"
run cat /sys/module/md_mod/parameters/legacy_async_del_gendisk
sysfs md6
run mdadm --stop /dev/md6
say "right after the stop: /dev/md6 $( [ -e /dev/md6 ] && echo exists || echo gone ), /sys/block/md6 $( [ -e /sys/block/md6 ] && echo exists || echo gone )"
sleep 2
say "2 s later: /dev/md6 $( [ -e /dev/md6 ] && echo exists || echo gone ), /sys/block/md6 $( [ -e /sys/block/md6 ] && echo exists || echo gone )"
run mdadm --assemble /dev/md6 "$L2" "$L3"
run mdadm --stop /dev/md6
journalctl -k -b --no-pager -o cat | grep -i 'md5\|md6\|llbitmap\|gendisk\|LBS\|md:\|bitmap' | sed 's/^/PROBE kernel | /'
say "END"
sync
systemctl poweroff
