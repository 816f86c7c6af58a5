#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-debian-check.sh - inside the Debian guest (debian-guest.sh), run
# by svmram-vmtest.service at every boot once multi-user is reached: one
# phase per boot, kept in /var/lib/svmram-vmtest/phase.  Everything goes
# through what an administrator has: the packaged svmram command, its
# unit, mdadm, systemctl, journalctl.
#   phase 0: md0 = RAID-1 of /dev/vdb and /dev/vdc with an internal bitmap,
#            in mdadm.conf (debian-guest.sh wrote its line and made the
#            initramfs with it); ext4 on it in /etc/fstab at /data; files
#            with checksums; 'svmram setup -y md0' online; reboot
#   phase 1: the unit restored the RAM member at boot: unit active, RAM
#            member back and in sync, /data mounted, files intact,
#            systemd-analyze verify clean, the unit's journal in md's
#            words; then the package removed with md0 set up (dpkg -r):
#            the RAM member out, the record kept; reboot
#   phase 2: without the package: md0 complete on its disks, files intact;
#            the package installed again (dpkg -i): the unit starts and
#            the RAM member comes back; 'svmram teardown -y md0'; reboot
#   phase 3: an ordinary array: two members, no brd, unit disabled, no
#            record, files intact; poweroff
# Output lines on the console: "RESULT <name> ok|FAIL <detail>",
# "INFO ...", "VMTEST-BOOT <phase>", "VMTEST-DONE pass=N fail=M".
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
STATE=/var/lib/svmram-vmtest
mkdir -p "$STATE"
PHASE=$(cat "$STATE/phase" 2>/dev/null || echo 0)
echo "VMTEST-BOOT $PHASE uptime=$(cut -d' ' -f1 /proc/uptime)"

result() { # NAME OK(0/1) DETAIL...
  local name=$1 ok=$2; shift 2
  if [ "$ok" = 0 ]; then
    echo "RESULT $name ok $*"; echo "$name" >> "$STATE/pass"
  else
    echo "RESULT $name FAIL $*"; echo "$name" >> "$STATE/fail"
  fi
}
check() { # NAME COMMAND...: ok when COMMAND succeeds
  local name=$1; shift
  if "$@" >/dev/null 2>&1; then result "$name" 0; else result "$name" 1 "$*"; fi
}
info() { echo "INFO $*"; }
show() { # LABEL COMMAND...: the command's output, each line labelled;
         # its exit status in RC
  local label=$1; shift
  "$@" 2>&1 | sed "s/^/$label | /"
  RC=${PIPESTATUS[0]}
}
reboot_now() {
  echo "$1" > "$STATE/phase"
  sync
  echo "VMTEST-REBOOTING into phase $1"
  systemctl --no-block reboot
  exit 0
}

member_state() { # DEV: "active sync" etc. from mdadm --detail
  mdadm --detail /dev/md0 | awk -v d="$1" '$NF == d { $1=$2=$3=$4=""; $NF=""; print; exit }' \
    | sed 's/^ *//; s/ *$//'
}
wait_sync() { # at most 300 s for md's recovery into RAM
  local i
  mdadm --wait /dev/md0 >/dev/null 2>&1
  for i in $(seq 300); do
    grep -q 'recovery\|resync' /proc/mdstat || return 0
    sleep 1
  done
  return 1
}
raid_devices() {
  mdadm --detail /dev/md0 | awk -F: '/Raid Devices/ {gsub(/ /, "", $2); print $2}'
}
sums_ok() { (cd /data && sha256sum --quiet -c SHA256SUMS); }
boot_to_mount() {
  local mount
  mount=$(systemctl show data.mount -P ActiveEnterTimestampMonotonic)
  info "boot-to-mount of /data: $(awk -v m="$mount" 'BEGIN{printf "%.2f", m/1e6}') s after the kernel's start"
  local a b
  a=$(systemctl show svmram@md0.service -P ExecMainStartTimestampMonotonic)
  b=$(systemctl show svmram@md0.service -P ExecMainExitTimestampMonotonic)
  [ "${a:-0}" != 0 ] && info "svmram@md0.service's restore ran $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", (b-a)/1e6}') s"
  return 0
}

case "$PHASE" in
0)
  check disks.present test -b /dev/vdb -a -b /dev/vdc
  . /etc/svmram-vmtest.conf
  # md0 with the UUID mdadm.conf (and the initramfs) already list
  mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 \
    --bitmap=internal --assume-clean --name=0 --uuid="$MD_UUID" \
    /dev/vdb /dev/vdc 2>&1 | sed 's/^/mdadm | /'
  check md0.created test -d /sys/block/md0/md
  brief=$(mdadm --detail --brief /dev/md0)
  grep -qxF "$brief" /etc/mdadm/mdadm.conf
  result mdadm.conf.lists_md0 $? "$brief"
  show mdadm.conf grep -v '^#' /etc/mdadm/mdadm.conf
  mkfs.ext4 -q /dev/md0
  mkdir -p /data
  echo '/dev/md0 /data ext4 defaults 0 2' >> /etc/fstab
  systemctl daemon-reload
  check data.mounted systemctl start data.mount
  for i in 1 2 3 4 5 6 7 8; do
    head -c 4M /dev/urandom > "/data/file$i"
  done
  (cd /data && sha256sum file* > SHA256SUMS)
  sync
  show setup svmram setup -y md0
  result setup.rc "$RC" "rc=$RC"
  out=$(svmram setup -n md0 2>&1); info "setup -n afterwards: $(echo "$out" | tail -1)"
  check unit.enabled systemctl is-enabled svmram@md0.service
  check unit.active systemctl is-active svmram@md0.service
  check record test -f /etc/svmram/md/md0.json
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result ram.in_sync $? "ram0: $ram"
  show detail mdadm --detail /dev/md0
  show status svmram status md0
  # mdadm's events so far (the setup's); the reboot's are those after
  wc -l < /var/log/mdadm-events > "$STATE/events0" 2>/dev/null || echo 0 > "$STATE/events0"
  reboot_now 1
  ;;
1)
  wait_sync; result ram.recovered $? "$(grep -A3 '^md0' /proc/mdstat | tr '\n' ' ')"
  st=$(systemctl is-active svmram@md0.service)
  [ "$st" = active ]; result unit.active $? "$st"
  st=$(systemctl show svmram-copy@md0.service -P Result)
  [ "$st" = success ]; result copy_unit.result $? "$st"
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result ram.in_sync $? "ram0: $ram"
  for d in vdb vdc; do
    grep -q write_mostly "/sys/block/md0/md/dev-$d/state"
    result "write_mostly.$d" $? "$(cat "/sys/block/md0/md/dev-$d/state")"
  done
  src=$(findmnt -n -o SOURCE /data)
  [ "$src" = /dev/md0 ]; result data.mounted $? "$src"
  check data.sums sums_ok
  show detail mdadm --detail /dev/md0
  show status svmram status md0
  svmram status -q md0; result status.rc $? "svmram status -q md0"
  out=$(systemd-analyze verify svmram@md0.service 2>&1); rc=$?
  [ $rc = 0 ] && ! echo "$out" | grep -q svmram
  result unit.verify $? "rc=$rc $(echo "$out" | tr '\n' ' ')"
  journal=$(journalctl -b -u svmram@md0.service -u svmram-copy@md0.service -o cat --no-pager)
  echo "$journal" | sed 's/^/journal | /'
  echo "$journal" | grep -qi 'ram0\|RAM member'; result journal.says_what $?
  ! echo "$journal" | grep -qiE 'submirror|metadevice|metastat|metainit|SMF|fmri'
  result journal.md_words $?
  # a clean reboot: mdadm's only event is the RAM member's Fail at
  # shutdown (svmram(8): md lets it leave no other way), none at boot (no
  # DegradedArray while md copies into RAM), and the kernel logs no
  # member failure in this boot
  events=$(tail -n +$(( $(cat "$STATE/events0") + 1 )) /var/log/mdadm-events)
  [ "$events" = "Fail /dev/md0 /dev/ram0" ]
  result mdadm.events_of_reboot $? "$(echo "$events" | tr '\n' ';')"
  failures=$(journalctl -q -k -b --no-pager -o cat -g 'Disk failure' 2>/dev/null)
  [ -z "$failures" ]; result kernel.no_member_failure_at_boot $? "$failures"
  show status.unit systemctl status --no-pager svmram@md0.service
  show mdadm-events cat /var/log/mdadm-events
  show kernel journalctl -k -b -1 --no-pager -g 'md/raid1|md0'
  show kernel-now journalctl -k -b --no-pager -g 'md/raid1|md0'
  show failed systemctl --failed --no-legend
  boot_to_mount
  # the package removed while md0 is set up (svmram(8), "Debian package")
  show remove dpkg -r svmram
  result remove.rc "$RC" "rc=$RC"
  ! grep -q ram0 /proc/mdstat; result removed.no_ram_member $?
  n=$(raid_devices); [ "$n" = 2 ]; result removed.raid_devices $? "raid devices: $n"
  ! test -d /sys/module/brd; result removed.brd_unloaded $?
  check removed.record_kept test -f /etc/svmram/md/md0.json
  check removed.unit_link_kept test -L /etc/systemd/system/sysinit.target.wants/svmram@md0.service
  check removed.listed grep -qx md0 /var/lib/svmram/stopped-by-removal
  ! test -e /usr/sbin/svmram; result removed.command_gone $?
  check removed.data.sums sums_ok
  show mdadm-events cat /var/log/mdadm-events
  reboot_now 2
  ;;
2)
  n=$(raid_devices); [ "$n" = 2 ]; result nopkg.raid_devices $? "raid devices: $n"
  check nopkg.clean_state sh -c "mdadm --detail /dev/md0 | grep -Eq 'State : (clean|active) *$'"
  src=$(findmnt -n -o SOURCE /data)
  [ "$src" = /dev/md0 ]; result nopkg.data.mounted $? "$src"
  check nopkg.data.sums sums_ok
  failed=$(systemctl --failed --no-legend --plain | grep svmram)
  [ -z "$failed" ]; result nopkg.no_failed_unit $? "$failed"
  info "without the package: svmram@md0.service is $(systemctl is-enabled svmram@md0.service 2>&1)"
  show mdadm-events cat /var/log/mdadm-events
  boot_to_mount
  show reinstall dpkg -i /root/svmram.deb
  result reinstall.rc "$RC" "rc=$RC"
  st=$(systemctl is-active svmram@md0.service)
  [ "$st" = active ]; result reinstall.unit_active $? "$st"
  ! test -e /var/lib/svmram/stopped-by-removal; result reinstall.list_gone $?
  wait_sync; result reinstall.recovered $?
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result reinstall.ram_in_sync $? "ram0: $ram"
  check reinstall.data.sums sums_ok
  show teardown svmram teardown -y md0
  result teardown.rc "$RC" "rc=$RC"
  reboot_now 3
  ;;
3)
  n=$(raid_devices)
  [ "$n" = 2 ]; result plain.raid_devices $? "raid devices: $n"
  ! grep -q ram0 /proc/mdstat; result plain.no_ram_member $?
  check plain.clean_state sh -c "mdadm --detail /dev/md0 | grep -Eq 'State : (clean|active) *$'"
  ! test -d /sys/module/brd; result plain.brd_unloaded $?
  st=$(systemctl is-enabled svmram@md0.service 2>&1)
  [ "$st" = disabled ]; result plain.unit_disabled $? "$st"
  ! test -e /etc/svmram/md/md0.json; result plain.no_record $?
  for d in vdb vdc; do
    ! grep -q write_mostly "/sys/block/md0/md/dev-$d/state"
    result "plain.not_write_mostly.$d" $?
  done
  src=$(findmnt -n -o SOURCE /data)
  [ "$src" = /dev/md0 ]; result plain.data.mounted $? "$src"
  check plain.data.sums sums_ok
  show mdadm-events cat /var/log/mdadm-events
  show detail mdadm --detail /dev/md0
  show failed systemctl --failed --no-legend
  boot_to_mount
  echo 4 > "$STATE/phase"
  echo "VMTEST-DONE pass=$(wc -l < "$STATE/pass" 2>/dev/null || echo 0) fail=$(cat "$STATE/fail" 2>/dev/null | wc -l)"
  sync
  systemctl --no-block poweroff
  ;;
*)
  echo "VMTEST-DONE already (phase $PHASE)"
  systemctl --no-block poweroff
  ;;
esac
exit 0
