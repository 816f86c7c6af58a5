#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# Adapted from the research lab (shared/lab/linux-md/guest-init.sh).
# guest-init.sh - PID 1 of the lab guest (busybox ash). Installed as /init.
# Mounts the basics, loads virtio + md modules, waits for the virtio disks,
# then runs /lab/test.sh (appended by run.sh as a second cpio archive) and
# powers the VM off. Without /lab/test.sh it drops to a shell on the console.
export PATH=/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin
umask 022
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs tmpfs /tmp
mkdir -p /run/mdadm /dev/pts
echo /bin/modprobe > /proc/sys/kernel/modprobe   # busybox applet; kernel default /sbin/modprobe is absent

. /lab/lib.sh
lab_parse_cmdline            # lab.foo=bar on the kernel command line -> LAB_FOO=bar

echo "LAB-INIT kernel=$(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)s mem=$(awk '/MemTotal/{print $2}' /proc/meminfo)kB cpus=$(nproc)"

for m in virtio_pci virtio_blk md-mod raid1; do
  modprobe "$m" || echo "LAB-WARN modprobe $m failed"
done

# wait (max 10 s) for the number of virtio disks run.sh said it attached
want=${LAB_DISKS:-0}
i=0
while [ "$(ls -d /sys/block/vd* 2>/dev/null | wc -l)" -lt "$want" ] && [ $i -lt 100 ]; do
  sleep 0.1; i=$((i+1))
done
mdev -s 2>/dev/null   # devtmpfs already creates nodes; harmless
echo "LAB-BOOTED uptime=$(cut -d' ' -f1 /proc/uptime)s disks=$(ls /sys/block | grep -c '^vd')"

rc=0
if [ -f /lab/test.sh ]; then
  sh /lab/test.sh
  rc=$?
else
  echo "no /lab/test.sh - interactive shell (exit to power off)"
  setsid cttyhack sh
fi
echo "LAB-EXIT rc=$rc uptime=$(cut -d' ' -f1 /proc/uptime)s"
sync
poweroff -f
# if ACPI power-off did not work, panic -> with panic=-1 and -no-reboot qemu exits
echo o > /proc/sysrq-trigger
sleep 5
exit $rc
