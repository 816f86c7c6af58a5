#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# md-probe-run.sh IMAGE_DIR OUT (as root, through vm-slot): boots a copy
# of a cached debian-guest.sh image (e.g. ~/.cache/svmram/debian-guest/
# image-forky-KEY) once with md-probe-guest.sh as its check script and
# no data disk in use; the PROBE lines go to OUT/probe.txt (issue 37).
set -euo pipefail
# IMAGE_DIR may be a glob (image-forky-*): the newest match
img=$(ls -d $1 | tail -1) out=$2 here=$(dirname "$(readlink -f "$0")")
mkdir -p "$out"
cp --sparse=always "$img/root.img" "$out/root.img"
debugfs -w -R "rm /usr/local/sbin/svmram-vmtest" "$out/root.img"
debugfs -w -R "write $here/md-probe-guest.sh /usr/local/sbin/svmram-vmtest" "$out/root.img"
debugfs -w -R "set_inode_field /usr/local/sbin/svmram-vmtest mode 0100755" "$out/root.img"
kver=$(debugfs -R 'ls /boot' "$out/root.img" 2>/dev/null | tr -s ' ' '\n' | sed -n 's/^vmlinuz-//p' | sort -V | tail -1)
debugfs -R "dump /boot/vmlinuz-$kver $out/vmlinuz" "$out/root.img"
debugfs -R "dump /boot/initrd.img-$kver $out/initrd.img" "$out/root.img"
truncate -s 128M "$out/data0.img" "$out/data1.img"
timeout -k 10 2400 nice -n 10 qemu-system-x86_64 \
  -accel tcg,thread=multi,tb-size=256 -cpu max -machine pc -m 1024 -smp 2 \
  -nodefaults -no-user-config -display none -nic none -no-reboot \
  -serial stdio -monitor none \
  -kernel "$out/vmlinuz" -initrd "$out/initrd.img" \
  -append "root=/dev/vda rw console=ttyS0 loglevel=4 panic=-1 no_timer_check" \
  -drive "file=$out/root.img,if=virtio,format=raw,cache=unsafe" \
  -drive "file=$out/data0.img,if=virtio,format=raw,cache=writeback" \
  -drive "file=$out/data1.img,if=virtio,format=raw,cache=writeback" \
  </dev/null 2>&1 | perl -MTime::HiRes=time -ne 'BEGIN{$|=1} s/\r//g; printf "%.1f %s", time, $_' > "$out/console.log"
grep -a 'PROBE' "$out/console.log" | cut -d' ' -f2- > "$out/probe.txt"
rm -f "$out/root.img" "$out/data0.img" "$out/data1.img"
