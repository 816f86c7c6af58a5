#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-debian-check.sh - inside the Debian guest (debian-guest.sh), run
# by svmram-vmtest.service at every boot once multi-user is reached: one
# phase per boot, kept in /var/lib/svmram-vmtest/phase.  Everything goes
# through what an administrator has: the packaged svmram command, its
# unit, mdadm, systemctl, journalctl.
#   phase 0: bad input first, each refused before any change (exit 3, the
#            cause and the advice named, mdadm --detail and brd as before):
#            brd loaded by someone else, an array without a bitmap (md1 on
#            loop devices; the advice followed), not enough memory (md1 of
#            2 GiB, twice the guest's RAM), disks in use (a disk of md0, a
#            mounted loop device).  Then md0 = RAID-1 of /dev/vdb and
#            /dev/vdc with an internal bitmap, in mdadm.conf (debian-guest.sh
#            wrote its line and made the initramfs with it); ext4 on it in
#            /etc/fstab at /data; files with checksums; 'svmram setup -y
#            md0' online; mdadm's PROGRAM and the stand-in sendmail shown to
#            count (a TestMessage); before md0's setup, md3 on loop
#            devices with bad-block log entries (mdadm PR 154): setup and
#            the unit's restart add the RAM member or refuse quoting
#            mdadm, md3's data intact; reboot
#   phases 1 and 2: a clean reboot each, the same checks: unit active, the
#            RAM member back in sync, /data mounted without
#            mdadm-last-resort@md0, the disks serving no read of the whole
#            array (O_DIRECT), files intact, no mdadm event or mail and no
#            kernel member failure in the reboot, systemctl status and the
#            journal in md's words, systemd-analyze verify clean,
#            mismatch_cnt 0 after md's check, the last shutdown's "Disk
#            failure on ram0" at the critical level and svmram(8)'s
#            logcheck and rsyslog filters dropping it; phase 1 also
#            restarts the unit with mdmonitor running (no event, no
#            mail), has svmram status name a raised recovery limit left
#            after the copy and --after-copy put it back (limit_left),
#            then restarts it with md's copy slowed, starts
#            mdmonitor-oneshot.service (it waits) and reboots during the
#            copy; phase 2 ends in a power cut with a writer of records
#            (the console's "LAB-MARK cut writer running")
#   phase p1: after the cut: /data, files, records, the RAM member
#            restored, no mdadm event or mail; then Debian's scrub:
#            md0's recovery speed limit the system's again after the
#            boot's copy into RAM, mdcheck_start.service starts md's
#            check (slowed) and is stopped, its marker kept; at the next
#            boot the system's limit lowered once svmram's restore has
#            raised md0's own, and mdcheck_continue.service started at
#            once (a timer, as its Persistent timer after a missed run);
#            reboot (scrub_prepare).  The short plan (Debian 12): phases 0, 1
#            (no reboot during the copy), the cut, p1 (then teardown)
#            and 6
#   phase k: (issue 37, 1) the copy into RAM not held back by the check,
#            the check continued after it from mdcheck's marker (the
#            journal's times) under the administrator's limit, not
#            svmram's raised one (svmram-copy@ put it back), svmram status (text, --json,
#            --prometheus, --nagios) truthful while it runs, md's
#            answers to a grow, an add and a check on md9 (INFO), the
#            check finished and mdcheck's marker gone (scrub_boot);
#            reboot without the second data disk (debian-guest.sh
#            leaves its drive out).  The scrub plan (--plan scrub):
#            phase 0, scrub_prepare, then k
#   phase 3: /dev/vdc missing at boot: /data mounted, and no later than
#            md's own mdadm-last-resort would have run the array; the RAM
#            member not in vdc's slot; svmram status says what to do
#            (exit 5), --nagios CRITICAL naming vdc; mdadm's
#            DegradedArray and a mail; files intact; reboot with the
#            disk back
#   phase 4: the disk back: the restore puts vdc back into its slot
#            (md's, or its own --re-add) before the RAM member, which
#            gets the new slot (or refuses as svmram(8) says, and the
#            advice is followed); the RAM member back in sync, files intact;
#            vdc failed by hand (mdadm --fail) once mdadm's monitor runs:
#            --nagios CRITICAL naming it, mdadm's Fail and a mail; vdc back; then the package removed with md0 set up (dpkg -r): the RAM
#            member out, the record kept; reboot
#   phase 5: without the package: md0 complete on its disks, files intact;
#            the package installed again (dpkg -i): the unit starts and
#            the RAM member comes back; 'svmram teardown -y md0'; then
#            the Ansible step's first half (ansible_setup): svmram's
#            collection with Debian's ansible-core, a local connection:
#            check mode and diff mode (the host's digest unchanged), setup
#            with a diff, a rerun (changed=0, the digest unchanged);
#            reboot
#   phase a1: the Ansible step's second half (ansible_rebooted): the play
#            finds md0 set up (changed=0) once its reads come from RAM
#            (wait), and the whole array reads with no sector from the
#            disks; the play tears md0 down; reboot.  --plan ansible:
#            phase a0 (md0 and /data as in phase 0, then ansible_setup),
#            a1 and 6
#   phase 6: an ordinary array: two members, no brd, unit disabled, no
#            record, files intact; poweroff
# The power cuts (debian-guest.sh --plan cuts: the host kills QEMU when
# the console shows "LAB-MARK cut POINT", svmram's test switch
# SVMRAM_TEST_CUT; records: 4 KiB blocks of /data/records, each fsynced
# before its number is noted, fsynced, in /var/lib/svmram-vmtest/written):
#   phase c0: md0 as in phase 0, /data, files, 64 records; 'svmram setup
#            -y md0' cut at SETUP_CUTS' first point
#   phases s1-s2: after setup's cut K: /data mounted, files and every
#            record intact, the journal, record, raid devices,
#            write-mostly disks, marker and unit as SETUP_CUTS says, no
#            RAM member, mismatch_cnt 0 after md's check, mdadm's events
#            and mails since the cut (cut_alarms); the unit, once
#            setup enabled it, started md0 (inactive when the cut left a
#            RAM member in it) and stood aside for the journal, and a
#            restore by hand stands aside too (exit 3); then 'svmram
#            setup -y md0' run again, cut at point K+1.  After the last
#            cut (the journal removed, the unit enabled, not started) the
#            boot's unit restored the RAM member; then the unit stopped,
#            md's copy slowed (speed_limit_max 4000 KiB/s), a writer of
#            records started, the unit started again (its restore does
#            not wait for md's copy): cut once md's recovery into ram0 is
#            >= 25 % done (the guest reads sync_completed), the writer
#            running
#   phase r2: after the cut: the unit restored, /data, files, every record
#            the writer noted (more than before it), no mdadm event or
#            mail, mismatch_cnt 0; then
#            'svmram teardown -y md0' cut at TEARDOWN_CUTS' first point
#   phases t1-t2: after teardown's cut K, as after setup's (the unit
#            stays enabled until the RAM member is out); then the
#            teardown run again, cut at point K+1.  After the last (the
#            teardown done): an ordinary array, brd unloaded, the unit
#            disabled, no record, every record intact; poweroff
# Output lines on the console: "RESULT <name> ok|FAIL <detail>",
# "INFO ...", "VMTEST-BOOT <phase>", "VMTEST-DONE pass=N fail=M".
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
STATE=/var/lib/svmram-vmtest
mkdir -p "$STATE"
# debian-guest.sh --plan PLAN puts svmram_vmtest=PLAN on the kernel's
# command line: cuts, the power cuts' phases (c0 first) instead of 0-6;
# short, phases 0, 1, p1 and 6 (the oldstable release's sequence);
# ansible, phases a0, a1 and 6 (the Ansible step alone);
# scrub, phases 0 and k
PLAN=$(sed -n 's/.*svmram_vmtest=\([a-z]*\).*/\1/p' /proc/cmdline)
FIRST=0
[ "$PLAN" = cuts ] && FIRST=c0
[ "$PLAN" = ansible ] && FIRST=a0
PHASE=$(cat "$STATE/phase" 2>/dev/null || echo $FIRST)
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
reboot_now() { # PHASE [DRIVE-LEFT-OUT]: debian-guest.sh boots the next
               # QEMU without that drive (data1: /dev/vdc)
  echo "$1" > "$STATE/phase"
  # mdadm's events and the mails so far; the reboot's are those after
  count_events > "$STATE/events0"; count_mails > "$STATE/mails0"
  sync
  echo "VMTEST-REBOOTING into phase $1${2:+ without=$2}"
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
# mdadm's monitor calls PROGRAM (mdadm-event-log: one line per event) and
# mails MAILADDR root through the stand-in sendmail (one MAIL line each);
# debian-guest.sh installs both.
EVENTS=/var/log/mdadm-events MAILS=/var/log/sendmail-standin
count_events() { cat "$EVENTS" 2>/dev/null | wc -l; }
count_mails() { local n; n=$(grep -c '^MAIL ' "$MAILS" 2>/dev/null); echo "${n:-0}"; }
# mdadm 4.4 (Debian 13) reports, at every start of its monitor, the
# config's "ARRAY /dev/md0" as DeviceDisappeared on /dev/md/md0 (it
# prefixes /dev/md/ to the name's basename: mdmonitor.c Monitor(), a
# regression fixed in mdadm 4.5, commit 456c6bed) and then md0 as a
# NewArray: on any system, svmram or not, and never mailed.  Those two
# are left out of the counts and shown.
MDADM44_START='^(DeviceDisappeared /dev/md/md0|NewArray /dev/md0)$'
events_after() { # N: the events after the first N, less mdadm 4.4's
  local all
  all=$(tail -n +$(( $1 + 1 )) "$EVENTS" 2>/dev/null)
  if mdadm --version 2>&1 | grep -q 'v4\.4'; then
    echo "$all" | grep -E "$MDADM44_START" | sed 's/^/INFO mdadm 4.4 at its monitor start, not counted: /' >&2
    echo "$all" | grep -Ev "$MDADM44_START"
  else
    echo "$all"
  fi | grep .
}
events_since() { events_after "$(cat "$STATE/events0")"; }
mails_since() { echo $(( $(count_mails) - $(cat "$STATE/mails0") )); }
read_sectors() { awk '{print $3}' "/sys/block/$1/stat"; }
# until COMMAND succeeds, at most SECONDS: the monitor's events and mails
# come when it gets to them, later on a loaded host than on a quiet one
wait_until() { # SECONDS COMMAND...
  local i n=$1; shift
  for i in $(seq "$n"); do "$@" && return 0; sleep 1; done
  "$@"
}
degraded_alarmed() { events_since 2>/dev/null | grep -q '^DegradedArray /dev/md0' && [ "$(mails_since)" -ge 1 ]; }
usec() { local v; v=$(systemctl show "$1" -P "$2" 2>/dev/null); case "$v" in ''|*[!0-9]*) echo 0;; *) echo "$v";; esac; }
secs() { awk -v u="$1" 'BEGIN{printf "%.2f", u/1e6}'; }
# when UNIT's journal in this boot first has a line with TEXT, in
# microseconds after the kernel's start (0: never)
journal_time() { # UNIT TEXT
  journalctl -b -q -o short-monotonic --no-pager -u "$1" 2>/dev/null |
    grep -F -m1 -- "$2" | awk -F'[][]' 'NF > 2 { printf "%d", $2 * 1e6; exit }' |
    grep . || echo 0
}
# when systemd logged UNIT's first line in this boot, in microseconds
# after the kernel's start (0: never); systemctl show forgets a unit
# that went inactive (mdadm-last-resort@'s timer stops once the array
# runs), the journal does not
logged_at() {
  journalctl -b -q -o short-monotonic --no-pager -u "$1" 2>/dev/null |
    awk -F'[][]' 'NF > 2 { printf "%d", $2 * 1e6; found = 1; exit }
                  END { if (!found) print 0 }'
}
SVM_WORDS='submirror|metadevice|metastat|metainit|SMF|fmri|resync'
# md's own check of the array: every member read and compared
md_check() {
  local i
  echo check > /sys/block/md0/md/sync_action
  sleep 1
  mdadm --wait /dev/md0 >/dev/null 2>&1
  for i in $(seq 300); do
    [ "$(cat /sys/block/md0/md/sync_action)" = idle ] && break
    sleep 1
  done
  local mm last
  mm=$(cat /sys/block/md0/md/mismatch_cnt)
  last=$(cat /sys/block/md0/md/last_sync_action)
  [ "$mm" = 0 ] && [ "$last" = check ]
  result mismatch_cnt.zero $? "mismatch_cnt=$mm after $last"
}
# the same state before and after a refused command (mdadm --detail of
# md0 and md1, brd's parameters and devices, svmram's files, the unit)
state_now() {
  local a
  for a in md0 md1 md2; do
    test -b /dev/$a && mdadm --detail /dev/$a 2>&1
  done
  # (md's bitmap daemon frees the bitmap's in-memory pages by itself)
  grep -v '  bitmap: [0-9]*/' /proc/mdstat
  ls /sys/module/brd/parameters 2>/dev/null && \
    cat /sys/module/brd/parameters/rd_nr /sys/module/brd/parameters/rd_size
  ls -d /sys/block/ram* 2>/dev/null
  ls /etc/svmram/md /var/svmram 2>/dev/null
  systemctl is-enabled svmram@md0.service svmram@md1.service svmram@md2.service 2>&1
}
refused() { # NAME WANT-WORDS ADVICE-WORDS SVMRAM-ARGS...: exit 3, the
            # message names the cause and the advice, nothing changed
  local name=$1 cause=$2 advice=$3 before after out rc
  shift 3
  before=$(state_now)
  out=$(svmram "$@" 2>&1); rc=$?
  after=$(state_now)
  echo "$out" | sed "s/^/$name | /"
  [ "$rc" = 3 ]; result "$name.rc" $? "rc=$rc (svmram $*)"
  echo "$out" | grep -qF -- "$cause"; result "$name.cause" $? "wanted: $cause"
  echo "$out" | grep -qF -- "$advice"; result "$name.advice" $? "wanted: $advice"
  [ "$before" = "$after" ]; result "$name.nothing_changed" $? \
    "$(diff <(echo "$before") <(echo "$after") | tr '\n' ' ')"
}
boot_to_mount() {
  local mount
  mount=$(systemctl show data.mount -P ActiveEnterTimestampMonotonic)
  info "boot-to-mount of /data: $(awk -v m="$mount" 'BEGIN{printf "%.2f", m/1e6}') s after the kernel's start"
  local a b
  a=$(systemctl show svmram@md0.service -P ExecMainStartTimestampMonotonic)
  b=$(systemctl show svmram@md0.service -P ExecMainExitTimestampMonotonic)
  [ "${a:-0}" != 0 ] && info "svmram@md0.service's restore ran $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", (b-a)/1e6}') s"
  # Where the time went (issue 28, section 6): what the mount waited for,
  # and within the restore, the time to its first step (Python's start,
  # the imports, the wait for the disks, reading md and planning) and
  # the steps' own (svmram prints each step as it starts it, flushed).
  local f
  f=$(journal_time svmram@md0.service "restore md0: ")
  [ "${a:-0}" != 0 ] && [ "$f" != 0 ] && info "svmram@md0.service's restore: first step $(awk -v a="$a" -v f="$f" 'BEGIN{printf "%.2f", (f-a)/1e6}') s after its start, then the steps $(awk -v f="$f" -v b="$b" 'BEGIN{printf "%.2f", (b-f)/1e6}') s"
  show restore.journal journalctl -b -q -o short-monotonic --no-pager -u svmram@md0.service
  # (systemd-analyze critical-chain answers only once the boot is done,
  # and this script is part of it): md0's kernel lines, and when each
  # unit the mount is ordered after became active, the last ones last
  show md0.kernel journalctl -b -q -k -o short-monotonic --no-pager -g 'md0'
  local u t
  for u in $(systemctl show -P After data.mount) $(systemctl show -P After svmram@md0.service); do
    t=$(usec "$u" ActiveEnterTimestampMonotonic)
    [ "$t" != 0 ] && echo "$t $u"
  done | sort -n | uniq | tail -6 | while read -r t u; do
    echo "after | $(secs "$t") s $u"
  done
  # Python's start-up in this guest, now (the copy into RAM may still
  # run): the bare interpreter, svmram's CLI alone, and the restore's
  # whole md path on a dry run, which changes nothing; first with the
  # page cache dropped, as at boot (the reads' checks are done by now),
  # then best of 3, ms; not with the package removed (the record stays).
  [ -e /etc/svmram/md/md0.json ] && command -v svmram > /dev/null && info "start-up, cold (ms): python3 -c pass $(cold_ms python3 -c pass); svmram restore -n md0 $(cold_ms env PYTHONHASHSEED=0 svmram restore -n md0)" &&
    info "start-up, best of 3 (ms): python3 -c pass $(best_ms python3 -c pass); python3 -S -c pass $(best_ms python3 -S -c pass); svmram --version $(best_ms svmram --version); svmram restore -n md0 $(best_ms env PYTHONHASHSEED=0 svmram restore -n md0)"
  return 0
}
# the wall time of COMMAND with the page cache dropped first, in ms
cold_ms() {
  sync; echo 3 > /proc/sys/vm/drop_caches
  local s e
  s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
}
# the shortest wall time of three runs of COMMAND, in milliseconds
best_ms() {
  local i s e best=
  for i in 1 2 3; do
    s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N)
    e=$(( (e - s) / 1000000 ))
    { [ -z "$best" ] || [ "$e" -lt "$best" ]; } && best=$e
  done
  echo "$best"
}

# --- phase 0: bad input, each refused before any change ------------------
bad_input() {
  local l0 l1 l2 l3
  # brd loaded by someone else, with its own size
  modprobe brd rd_nr=1 rd_size=65536
  refused bad.brd_foreign "brd is already loaded with 1 device of 65536 KiB" \
    "unload it (rmmod brd)" setup -y md0
  rmmod brd
  ! test -d /sys/module/brd; result bad.brd_foreign.advice_works $?
  # md1: two loop devices of 2 GiB (sparse), twice the guest's memory,
  # without a bitmap; two small ones for the disks-in-use cases
  truncate -s 2G /root/loop0.img /root/loop1.img
  truncate -s 64M /root/loop2.img /root/loop3.img
  l0=$(losetup -f --show /root/loop0.img); l1=$(losetup -f --show /root/loop1.img)
  l2=$(losetup -f --show /root/loop2.img); l3=$(losetup -f --show /root/loop3.img)
  info "loop devices: $l0 $l1 (md1) $l2 $l3"
  mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --metadata=1.2 \
    --bitmap=none --assume-clean --name=1 "$l0" "$l1" 2>&1 | sed 's/^/mdadm | /'
  refused bad.no_bitmap "md1 has no write-intent bitmap" \
    "mdadm --grow --bitmap=internal /dev/md1" setup -y md1
  # the advice, followed: then md1 is refused for its size alone
  mdadm --grow --bitmap=internal /dev/md1
  check bad.no_bitmap.advice_works grep -q '^+' /sys/block/md1/md/bitmap/location
  refused bad.memory "KiB of memory and only" \
    "Free memory or use a smaller array" setup -y md1
  # a disk of another array, a mounted disk
  refused bad.disk_of_md0 "vdb is in use (held by md0)" \
    "svmram creates arrays only on unused disks" setup -y --disks "/dev/vdb,$l2" md2
  mkfs.ext4 -q "$l3"; mkdir -p /mnt/inuse; mount "$l3" /mnt/inuse
  refused bad.disk_mounted "${l3#/dev/} is in use (mounted on /mnt/inuse)" \
    "svmram creates arrays only on unused disks" setup -y --disks "$l2,$l3" md2
  ! mdadm --examine "$l2" >/dev/null 2>&1; result bad.disk_untouched $?
  umount /mnt/inuse
  mdadm --stop /dev/md1 2>&1 | sed 's/^/mdadm | /'
  losetup -d "$l0" "$l1" "$l2" "$l3"
  rm -f /root/loop[0-3].img
}

# mdadm issue 267 / PR 154: on kernels with the badblocks_set() rework,
# --add to a RAID-1 whose members carry a bad-block log with an entry
# could fail.  md3 on two loop devices, an entry in one member's log
# (md's sysfs bad_blocks), then svmram's setup (--grow --add) and the
# unit's restart (stop, restore's --add): each works, or is refused with
# mdadm's own words and the array and its data as they were.
bad_block_log() {
  local l0 l1 out rc n
  truncate -s 64M /root/bb0.img /root/bb1.img
  l0=$(losetup -f --show /root/bb0.img); l1=$(losetup -f --show /root/bb1.img)
  mdadm --create /dev/md3 --run --level=1 --raid-devices=2 --metadata=1.2 \
    --bitmap=internal --assume-clean --name=3 "$l0" "$l1" 2>&1 | sed 's/^/mdadm | /'
  # an entry in each member's log, past the data written next (a write
  # that reaches a bad block clears it), which writes the superblocks
  # with the logs and the bad-blocks flag: mdadm --add copies the
  # superblock of one of them onto the new member (PR 154)
  echo "100000 8" > "/sys/block/md3/md/dev-${l0#/dev/}/bad_blocks"
  echo "100016 8" > "/sys/block/md3/md/dev-${l1#/dev/}/bad_blocks"
  head -c 16M /dev/urandom > /root/bb.data
  dd if=/root/bb.data of=/dev/md3 bs=1M oflag=direct conv=fsync status=none
  sync; sleep 1
  show badblocks mdadm --examine-badblocks "$l0" "$l1"
  mdadm --examine-badblocks "$l0" 2>/dev/null | grep -q ' for 8 sectors' &&
    mdadm --examine-badblocks "$l1" 2>/dev/null | grep -q ' for 8 sectors'
  result badblocks.entry $? "$(mdadm --examine-badblocks "$l0" "$l1" 2>&1 | tr '\n' ' ')"
  out=$(svmram setup -y md3 2>&1); rc=$?
  echo "$out" | sed 's/^/badblocks.setup | /'
  if [ "$rc" = 0 ]; then
    bb_added setup
    # the unit's restart: svmram stop, then restore's --grow --add
    systemctl restart svmram@md3.service; rc=$?
    out=$(journalctl -q -b -u svmram@md3.service -o cat --no-pager)
    echo "$out" | sed 's/^/badblocks.journal | /'
    if [ "$rc" = 0 ]; then bb_added restore; else bb_refused restore "$out"; fi
    show teardown svmram teardown -y md3
  else
    bb_refused setup "$out"
  fi
  cmp -n 16M /root/bb.data /dev/md3; result badblocks.data $?
  check badblocks.unit_gone sh -c '! systemctl -q is-enabled svmram@md3.service'
  mdadm --stop /dev/md3 2>&1 | sed 's/^/mdadm | /'
  mdadm --zero-superblock "$l0" "$l1"
  losetup -d "$l0" "$l1"
  rm -f /root/bb0.img /root/bb1.img /root/bb.data
}
bb_added() { # setup|restore: the RAM member in md3, in sync
  local ram
  mdadm --wait /dev/md3 >/dev/null 2>&1
  ram=$(mdadm --detail /dev/md3 | awk '$NF == "/dev/ram0" { $1=$2=$3=$4=""; $NF=""; print }' | sed 's/^ *//; s/ *$//')
  [ "$ram" = "active sync" ]; result "badblocks.$1.added" $? "ram0: $ram"
}
bb_refused() { # setup|restore MESSAGE: mdadm's words quoted, the array
               # on its two disks, no RAM member
  local n
  n=$(mdadm --detail /dev/md3 | awk -F: '/Raid Devices/ {gsub(/ /, "", $2); print $2}')
  echo "$2" | grep -q 'failed: mdadm: ' && [ "$n" = 2 ] && ! grep -q ram0 /proc/mdstat
  result "badblocks.$1.refusal_quotes_mdadm" $? "raid devices $n"
  # and says why (issue 28, 5): the disks' bad-block logs, mdadm's fix
  echo "$2" | grep -qF 'have bad-block log entries' &&
    echo "$2" | grep -qF 'pull request 154'
  result "badblocks.$1.says_why" $?
}

# --- phases 1 and 2: a clean reboot --------------------------------------
clean_boot() {
  local st ram src lj b0 c0 b1 c1 bytes size out rc journal events m failures
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
  # /data did not wait for md's last resort: its timer never fired, its
  # service never ran
  lj=$(journalctl -b -q -o cat --no-pager -u mdadm-last-resort@md0.timer \
       -u mdadm-last-resort@md0.service)
  [ -z "$lj" ]; result mount.no_last_resort $? "$lj"
  # the whole array read with O_DIRECT: not one sector from the disks
  b0=$(read_sectors vdb); c0=$(read_sectors vdc)
  bytes=$(dd if=/dev/md0 bs=1M iflag=direct 2>/dev/null | wc -c)
  b1=$(read_sectors vdb); c1=$(read_sectors vdc)
  size=$(blockdev --getsize64 /dev/md0)
  [ "$bytes" = "$size" ] && [ $((b1 - b0)) = 0 ] && [ $((c1 - c0)) = 0 ]
  result reads.disks_none $? "read $bytes of $size bytes of md0; sectors the disks read: vdb $((b1 - b0)), vdc $((c1 - c0))"
  check data.sums sums_ok
  show detail mdadm --detail /dev/md0
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  [ "$rc" = 0 ]; result status.rc $? "rc=$rc"
  st=$(systemctl status --no-pager svmram@md0.service 2>&1)
  echo "$st" | sed 's/^/status.unit | /'
  ! echo "$out$st" | grep -qiE "$SVM_WORDS"; result status.md_words $?
  out=$(systemd-analyze verify svmram@md0.service 2>&1); rc=$?
  [ $rc = 0 ] && ! echo "$out" | grep -q svmram
  result unit.verify $? "rc=$rc $(echo "$out" | tr '\n' ' ')"
  journal=$(journalctl -b -u svmram@md0.service -u svmram-copy@md0.service -o cat --no-pager)
  echo "$journal" | sed 's/^/journal | /'
  echo "$journal" | grep -qi 'ram0\|RAM member'; result journal.says_what $?
  ! echo "$journal" | grep -qiE "$SVM_WORDS"; result journal.md_words $?
  # a clean reboot is clean to mdadm's monitor (no event, no mail: no
  # Fail at shutdown, the monitor stops first; no DegradedArray at boot)
  # and to the kernel log of this boot (svmram(8): the shutdown's
  # "Disk failure on ram0" line is in the last boot's)
  events=$(events_since)
  [ -z "$events" ]; result mdadm.no_events_of_reboot $? "$(echo "$events" | tr '\n' ';')"
  m=$(mails_since)
  [ "$m" = 0 ]; result mail.none_of_reboot $? "$m mails"
  failures=$(journalctl -q -k -b --no-pager -o cat -g 'Disk failure' 2>/dev/null)
  [ -z "$failures" ]; result kernel.no_member_failure_at_boot $? "$failures"
  show kernel-last-boot journalctl -q -k -b -1 --no-pager -o cat -g 'md/raid1|md0'
  shutdown_lines
  show failed systemctl --failed --no-legend
  boot_to_mount
  [ "$PHASE" = 1 ] && { restart_quietly; limit_left; }
  # md's own check, last: it reads every member (mdadm's monitor may log
  # its RebuildStarted/Finished; the next reboot's count starts after)
  md_check
  sleep 3
  show mdadm-events cat "$EVENTS"
  cat /sys/block/md0/md/dev-vdc/slot > "$STATE/vdc_slot"
}

# The filters svmram(8) gives for the kernel's lines of every clean
# shutdown (a logcheck ignore rule; an rsyslog filter, whose ereregex is
# POSIX ERE as grep -E); tests/md/test_unit.py checks that svmram.8 has
# these two lines as they are here.  The kernel logs both lines as one
# message (one pr_crit): the journal's text formats print the second
# indented under the first.
LOGCHECK_RULE='^((\w{3} [ :[:digit:]]{11}|[0-9T:.+-]{19,32}) [._[:alnum:]-]+ kernel: (\[ *[0-9]+\.[0-9]+\] )?| +)md/raid[0-9]+:md[0-9]+: (Disk failure on ram[0-9]+, disabling device\.|Operation continuing on [0-9]+ devices\.)$'
RSYSLOG_FILTER=':msg, ereregex, "md/raid[0-9]+:md[0-9]+: (Disk failure on ram[0-9]+, disabling device[.]|Operation continuing on [0-9]+ devices[.])" stop'
# the last shutdown's kernel lines for the RAM member: at the kernel's
# critical level, and both filters silence them and nothing of a disk's
shutdown_lines() {
  local lines fmt left ere disk
  lines=$(journalctl -q -k -b -1 -p crit --no-pager -o cat -g 'Disk failure on ram0')
  [ -n "$lines" ]; result shutdown.kernel_line_crit $? "$lines"
  for fmt in short short-iso short-iso-precise; do
    lines=$(journalctl -q -k -b -1 --no-pager -o "$fmt" -g 'md/raid1:md0: (Disk failure|Operation continuing)')
    left=$(echo "$lines" | grep -Ev "$LOGCHECK_RULE")
    disk=$(echo "$lines" | sed 's/on ram0/on vdc/' | grep -Ev "$LOGCHECK_RULE")
    [ -n "$lines" ] && [ -z "$left" ] && echo "$disk" | grep -q 'Disk failure on vdc'
    result "shutdown.logcheck_filter.$fmt" $? "left: $left; $disk"
  done
  ere=$(echo "$RSYSLOG_FILTER" | sed 's/^:msg, ereregex, "\(.*\)" stop$/\1/')
  lines=$(journalctl -q -k -b -1 --no-pager -o cat -g 'md/raid1:md0: (Disk failure|Operation continuing)')
  left=$(echo "$lines" | grep -Ev "$ere")
  disk=$(echo "$lines" | sed 's/on ram0/on vdc/' | grep -Ev "$ere")
  [ -n "$lines" ] && [ -z "$left" ] && echo "$disk" | grep -q 'Disk failure on vdc'
  result shutdown.rsyslog_filter $? "left: $left; $disk"
}
# mdadm's monitor running again (it waits for svmram-copy@md0), then a
# moment for its first look
monitor_settled() {
  local i
  for i in $(seq 60); do
    systemctl is-active -q mdmonitor.service && break
    sleep 1
  done
  sleep 3
}
# systemctl restart svmram@md0.service with mdadm's monitor running: the
# RAM member failed, removed and added again, and the monitor reports
# nothing (the unit stops it first and starts it after md's copy)
restart_quietly() {
  local e0 m0 events st ram
  check restart.monitor_running systemctl is-active mdmonitor.service
  e0=$(count_events); m0=$(count_mails)
  show restart systemctl restart svmram@md0.service
  st=$(systemctl is-active svmram@md0.service)
  [ "$st" = active ]; result restart.unit_active $? "$st"
  wait_sync; result restart.recovered $?
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result restart.ram_in_sync $? "ram0: $ram"
  monitor_settled
  check restart.monitor_back systemctl is-active mdmonitor.service
  events=$(events_after "$e0")
  [ -z "$events" ]; result restart.no_events $? "$(echo "$events" | tr '\n' ';')"
  [ $(( $(count_mails) - m0 )) = 0 ]; result restart.no_mail $? "$(( $(count_mails) - m0 )) mails"
}
# the unit restarted with md's copy slowed, then a reboot while md still
# copies into RAM; mdadm's oneshot reminder (trixie's
# mdmonitor-oneshot.service), started meanwhile, waits for the copy too
reboot_during_copy() {
  local pct
  echo 1000 > /proc/sys/dev/raid/speed_limit_max
  show restart systemctl restart svmram@md0.service
  sleep 3
  pct=$(sed -n 's/.*recovery = *\([0-9.]*\)%.*/\1/p' /proc/mdstat)
  [ -n "$pct" ]; result copy.under_way $? "recovery ${pct:-none} %"
  if systemctl cat mdmonitor-oneshot.service >/dev/null 2>&1; then
    systemctl start --no-block mdmonitor-oneshot.service
    sleep 3
    systemctl list-jobs --no-legend | grep -q ' mdmonitor-oneshot\.service  *start  *waiting'
    result copy.oneshot_waits $? "$(systemctl list-jobs --no-legend | tr '\n' ';')"
  fi
  info "rebooting while md copies into ram0 ($(sed -n 's/.*\(recovery = [^(]*\).*/\1/p' /proc/mdstat))"
  reboot_now "$@"
}
# the power cut of a set-up array in use (the short plan): a writer
# appends fsynced records to /data when the host kills QEMU
cut_while_writing() {
  echo 0 > "$STATE/records_before_writer"
  count_events > "$STATE/events0"; count_mails > "$STATE/mails0"
  records write 100000 0.02 >/dev/null 2>&1 &
  sleep 3
  echo p1 > "$STATE/phase"
  sync
  echo "LAB-MARK cut writer running"
  sleep 600
  result cut.reached 1 "no power cut in 600 s"
  cuts_done
}
# the boot after a power cut: restored, and mdadm's monitor quiet
after_power_cut() { # TAG
  local events m
  after_cut "$1"
  records_check "$1.records_of_writer" "$(cat "$STATE/records_before_writer")"
  restored "$1"
  monitor_settled
  events=$(events_since)
  [ -z "$events" ]; result "$1.mdadm.no_events" $? "$(echo "$events" | tr '\n' ';')"
  m=$(mails_since)
  [ "$m" = 0 ]; result "$1.mail.none" $? "$m mails"
}

# --- phase 3: /dev/vdc missing at boot -----------------------------------
missing_disk() {
  local src mount timer lr a b w0 w1 alone alone_s slot out rc journal events
  ! test -b /dev/vdc; result missing.vdc_absent $?
  src=$(findmnt -n -o SOURCE /data)
  [ "$src" = /dev/md0 ]; result missing.data.mounted $? "$src"
  check missing.data.sums sums_ok
  mount=$(usec data.mount ActiveEnterTimestampMonotonic)
  timer=$(logged_at mdadm-last-resort@md0.timer)
  lr=$(logged_at mdadm-last-resort@md0.service)
  show last-resort journalctl -b -q -o short-monotonic --no-pager \
    -u mdadm-last-resort@md0.timer -u mdadm-last-resort@md0.service
  a=$(usec svmram@md0.service ExecMainStartTimestampMonotonic)
  b=$(usec svmram@md0.service ExecMainExitTimestampMonotonic)
  if [ "$timer" = 0 ]; then
    alone="never: udev started no mdadm-last-resort@md0.timer, so without svmram nothing starts md0"
    alone_s=never
  else
    alone_s=$(secs $((timer + 30000000)))
    alone="at $alone_s s: mdadm-last-resort@md0.timer started at $(secs "$timer") s, its service at $(secs "$lr") s"
  fi
  info "disk missing: /data mounted $(secs "$mount") s after the kernel's start; svmram restore ran from $(secs "$a") to $(secs "$b") s; md alone would start md0 $alone"
  echo "MOUNT-WAIT missing_disk mount_s=$(secs "$mount") restore_start_s=$(secs "$a") restore_end_s=$(secs "$b") md_alone_s=$alone_s"
  # the restore waited for vdc no longer than its 20 s, then started md0
  w0=$(journal_time svmram@md0.service 'waiting up to 20 s for its disk vdc')
  w1=$(journal_time svmram@md0.service 'Start md0, which came up inactive')
  [ "$w0" != 0 ] && [ "$w1" != 0 ] && [ $((w1 - w0)) -le 22000000 ]
  result missing.restore_wait_bounded $? "waited $(secs $((w1 - w0))) s (from $(secs "$w0") s) for vdc, then started md0"
  info "the mount came $(secs $((mount - w1))) s after the restore started md0"
  slot=$(cat /sys/block/md0/md/dev-ram0/slot 2>/dev/null || echo none)
  [ "$slot" != "$(cat "$STATE/vdc_slot")" ]
  result missing.ram_not_in_disk_slot $? "ram0's slot: $slot, vdc's: $(cat "$STATE/vdc_slot")"
  show detail mdadm --detail /dev/md0
  journal=$(journalctl -b -u svmram@md0.service -o cat --no-pager)
  echo "$journal" | sed 's/^/journal | /'
  echo "$journal" | grep -qF 'vdc is not in md0, so restore adds no RAM member'
  result missing.restore_says $?
  info "svmram@md0.service: $(systemctl is-active svmram@md0.service)"
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  [ "$rc" = 5 ]; result missing.status.rc $? "rc=$rc"
  echo "$out" | grep -qF 'md0: mdadm /dev/md0 --add /dev/vdc.' &&
    echo "$out" | grep -qF 'journalctl -b -u svmram@md0.service says why and what to do'
  result missing.status.says_what_to_do $?
  ! echo "$out" | grep -qiE "$SVM_WORDS"; result missing.status.md_words $?
  nagios_names_disk missing
  # a disk really missing alarms: mdadm's monitor, once it looks
  monitor_settled
  wait_until 60 degraded_alarmed
  events=$(events_since)
  echo "$events" | grep -q '^DegradedArray /dev/md0'
  result missing.mdadm_alarms $? "$(echo "$events" | tr '\n' ';')"
  [ "$(mails_since)" -ge 1 ]; result missing.mailed $? "$(mails_since) mails"
  show mdadm-events events_since
  show failed systemctl --failed --no-legend
}

# svmram status --nagios: CRITICAL, naming the disk (vdc)
nagios_names_disk() { # TAG
  local out rc
  out=$(svmram status --nagios md0 2>&1); rc=$?
  echo "$out" | sed 's/^/nagios | /'
  [ "$rc" = 2 ] && echo "$out" | grep -q '^SVMRAM CRITICAL' && echo "$out" | grep -qw vdc
  result "$1.nagios_critical_names_disk" $? "rc=$rc $out"
}
# a disk failed by hand (mdadm --fail) alarms: mdadm's Fail event and
# mail, svmram's status; then the disk back, write-mostly, in sync
failed_disk() {
  local e0 m0 events st i
  # mdadm's monitor reports Fail only for a failure it sees happen; one
  # that starts later (svmram-copy@md0 holds it back until md has copied
  # md0 into RAM, and this phase begins during that copy) finds vdc
  # already faulty and reports DegradedArray (Monitor.c check_array)
  monitor_settled
  check failed.monitor_running systemctl is-active mdmonitor.service
  e0=$(count_events); m0=$(count_mails)
  show fail mdadm /dev/md0 --fail /dev/vdc
  sleep 5
  nagios_names_disk failed
  # mdadm 4.4's monitor waits for a udev event or its delay (60 s,
  # mdmonitor.c wait_for_events): a member's failure sends no uevent,
  # so the Fail may come only at the delay's end (30 s later was too soon)
  for i in $(seq 90); do
    tail -n +$((e0 + 1)) "$EVENTS" 2>/dev/null | grep -q '^Fail /dev/md0 /dev/vdc' && break
    sleep 1
  done
  info "mdadm's Fail after about $((i + 5)) s"
  mailed_since() { [ $(( $(count_mails) - m0 )) -ge 1 ]; }
  wait_until 30 mailed_since
  events=$(events_after "$e0")
  echo "$events" | grep -q '^Fail /dev/md0 /dev/vdc'
  result failed.mdadm_alarms $? "$(echo "$events" | tr '\n' ';')"
  [ $(( $(count_mails) - m0 )) -ge 1 ]; result failed.mailed $? "$(( $(count_mails) - m0 )) mails"
  show remove mdadm /dev/md0 --remove /dev/vdc
  show re-add mdadm /dev/md0 --re-add /dev/vdc
  [ "$RC" = 0 ] || show add mdadm /dev/md0 --add /dev/vdc
  grep -q write_mostly /sys/block/md0/md/dev-vdc/state ||
    echo writemostly > /sys/block/md0/md/dev-vdc/state
  wait_sync
  st=$(member_state /dev/vdc)
  [ "$st" = "active sync writemostly" ]; result failed.disk_back $? "vdc: $st"
  check failed.data.sums sums_ok
}

# --- phase 4: the disk back ----------------------------------------------
disk_back() {
  local out rc vdc ram st journal slot rslot
  test -b /dev/vdc; result back.vdc_present $?
  show mdstat cat /proc/mdstat
  show detail mdadm --detail /dev/md0
  journal=$(journalctl -b -u svmram@md0.service -o cat --no-pager)
  echo "$journal" | sed 's/^/journal | /'
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  vdc=$(member_state /dev/vdc); st=$(systemctl is-active svmram@md0.service)
  # By the order udev finds the disks in, md's assembly takes vdc back by
  # itself (its bitmap says what changed while it was away), or starts
  # md0 on vdb alone (vdb's superblock counts vdc out) and leaves vdc
  # out, and udev's incremental assembly may re-add it a moment later
  # (md lists it as a spare until its thread gives it its slot).  Either
  # way the restore puts vdc back into its slot first (it waits for md,
  # at most its 20 s, then re-adds vdc itself) and only then adds ram0,
  # into the new slot (issue 28: a restore once added ram0 while md was
  # taking vdc back, ram0 took vdc's slot); or, where mdadm refuses the
  # re-add, refuses quoting mdadm and says what to do (svmram(8)).
  if [ -n "$vdc" ] && [ "$st" = active ]; then
    case "$vdc" in *writemostly) true;; *) false;; esac &&
      echo "$journal" | grep -q 'adding ram0'
    result back.as_documented $? "vdc back in md0 ($vdc; $(echo "$journal" | grep -c 'Re-add vdc') re-add by svmram); the unit $st"
  else
    [ "$st" = failed ] && [ "$rc" = 5 ] &&
      echo "$journal" | grep -qF 'so restore adds no RAM member' &&
      echo "$journal" | grep -qF 'then systemctl restart svmram@md0.service.'
    result back.as_documented $? "md0 without vdc ($vdc); the unit $st, status rc=$rc"
    # the advice, followed (a full recovery where mdadm refused the
    # re-add; else md's recovery of the spare waited for)
    if echo "$journal" | grep -qF 'mdadm --zero-superblock /dev/vdc'; then
      show zero mdadm --zero-superblock /dev/vdc
      show add mdadm /dev/md0 --add /dev/vdc
    fi
    mdadm --wait /dev/md0 >/dev/null 2>&1
    show restart systemctl restart svmram@md0.service
  fi
  slot=$(cat /sys/block/md0/md/dev-vdc/slot 2>/dev/null)
  rslot=$(cat /sys/block/md0/md/dev-ram0/slot 2>/dev/null)
  [ "$slot" = "$(cat "$STATE/vdc_slot")" ] && [ "$rslot" = 2 ]
  result back.ram_not_in_disk_slot $? "vdc's slot: $slot (was $(cat "$STATE/vdc_slot")), ram0's: $rslot"
  st=$(systemctl is-active svmram@md0.service)
  [ "$st" = active ]; result back.unit_active $? "$st"
  wait_sync; result back.recovered $?
  vdc=$(member_state /dev/vdc); ram=$(member_state /dev/ram0)
  [ "$vdc" = "active sync writemostly" ] && [ "$ram" = "active sync" ]
  result back.members_in_sync $? "vdc: $vdc, ram0: $ram"
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  [ "$rc" = 0 ]; result back.status.rc $? "rc=$rc"
  check back.data.sums sums_ok
  show mdadm-events events_since
}

# --- the power cuts (phases c0, s1-s9, r1, r2, t1-t8) --------------------
# 4 KiB records in /data/records: record I is "svmram record I" lines;
# each is fsynced before its number is appended (and fsynced) to
# $STATE/written, so every noted record must survive a cut.
records() { # write UPTO PACE | check
  python3 - "$STATE/written" "$@" <<'EOF'
import os, sys, time
note, what = sys.argv[1], sys.argv[2]
PATH = "/data/records"
def record(i):
    line = b"svmram record %d\n" % i
    return (line * (4096 // len(line) + 1))[:4096]
try:
    with open(note, "rb") as f:
        done = [int(w) for w in f.read().split() if w.isdigit()]
except FileNotFoundError:
    done = []
n = max(done) + 1 if done else 0
if what == "write":
    upto, pace = int(sys.argv[3]), float(sys.argv[4])
    fd = os.open(PATH, os.O_WRONLY | os.O_CREAT, 0o644)
    nfd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    for i in range(n, upto):
        os.pwrite(fd, record(i), i * 4096)
        os.fsync(fd)
        os.write(nfd, b"%d\n" % i)
        os.fsync(nfd)
        time.sleep(pace)
    print(upto)
else:
    fd = os.open(PATH, os.O_RDONLY)
    bad = [i for i in range(n) if os.pread(fd, 4096, i * 4096) != record(i)]
    print(n, len(bad), " ".join(map(str, bad[:10])))
EOF
}
records_check() { # NAME [MORE-THAN]: every noted record reads back
  local n bad first
  read -r n bad first < <(records check)
  [ "${bad:-1}" = 0 ] && [ "${n:-0}" -gt "${2:-0}" ]
  result "$1" $? "records=$n bad=$bad ${first:+(first bad: $first)}${2:+ (more than $2 wanted)}"
  RECORDS=$n
}
# svmram cut at POINT: the host kills QEMU on the mark; the command
# returning at all is a failure
cut_run() { # POINT SVMRAM-ARGS...
  local point=$1 rc; shift
  info "svmram $* with SVMRAM_TEST_CUT=$point"
  # mdadm's events and mails so far; the boot after the cut checks its own
  count_events > "$STATE/events0"; count_mails > "$STATE/mails0"
  sync
  SVMRAM_TEST_CUT="$point" SVMRAM_TEST_TRACE=1 svmram "$@"; rc=$?
  result cut.reached 1 "svmram $* returned (rc=$rc) without the power cut at $point"
  cuts_done
}
cuts_done() {
  echo over > "$STATE/phase"
  echo "VMTEST-DONE pass=$(wc -l < "$STATE/pass" 2>/dev/null || echo 0) fail=$(cat "$STATE/fail" 2>/dev/null | wc -l)"
  sync
  systemctl --no-block poweroff
  exit 0
}
# after a cut: the file system, the files, the records; what md and the
# unit show
after_cut() { # TAG
  local src
  src=$(findmnt -n -o SOURCE /data)
  [ "$src" = /dev/md0 ]; result "$1.data.mounted" $? "$src"
  check "$1.data.sums" sums_ok
  records_check "$1.records"
  show mdstat cat /proc/mdstat
  info "svmram@md0.service: $(systemctl is-enabled svmram@md0.service 2>&1), $(systemctl is-active svmram@md0.service 2>&1)"
  show journal journalctl -b -u svmram@md0.service -o cat --no-pager
}
restored() { # TAG: the unit restored the RAM member at this boot
  local st ram
  st=$(systemctl is-active svmram@md0.service)
  [ "$st" = active ]; result "$1.unit_active" $? "$st"
  wait_sync; result "$1.recovered" $? "$(grep -A3 '^md0' /proc/mdstat | tr '\n' ' ')"
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result "$1.ram_in_sync" $? "ram0: $ram"
}
not_run() { # TAG: the unit is disabled and systemd ran it at no point
  local st                 # of this boot
  st=$(systemctl is-enabled svmram@md0.service 2>&1)
  [ "$st" = disabled ] && [ -z "$(journalctl -b -q -u svmram@md0.service --no-pager)" ]
  result "$1.unit_not_run" $? "$st"
}
# The chain of power cuts inside setup and teardown: one cut per boot,
# each in the command run again after the cut before, at the next point
# the rerun passes (it plans again from what it finds: journal.py).
# Under systemd the chain keeps the points whose state the boot after
# the cut meets differently (issue 28: the CI's time; the busybox chain
# of md-faults.sh, guest-md-faults.sh, still cuts after every step on
# the real kernel):
#   setup's grow-add ram0: the RAM member in the disks' superblocks,
#     the unit enabled, setup's journal: md0 comes up inactive, and only
#     the unit starts it (the chain once found a boot in emergency mode
#     there), then stands aside; /data mounts;
#   setup's end (journal removed): the boot's own unit restores;
#   teardown's mark: the same inactive array with teardown's journal
#     and marker: the unit starts md0 and stands aside for the teardown;
#   teardown's end: an ordinary array, the unit disabled, no record.
# The points dropped leave, after a boot, states these cover or that
# systemd meets no differently: nothing changed yet (the lock, the
# journal's first write: the unit disabled, md0 as before), the record
# or the unit enabled on a 2-device array (the unit stands aside on an
# array that assembles alone), md's copy under way and each write-mostly
# flag (the array is as after grow-add: the RAM member's copy is lost
# with the power), teardown's write-mostly flags cleared, its shrink and
# its disable (a 2-device array that assembles alone; the marker makes
# a restore stand aside, as at the mark), and the boot's restore cut
# before its grow-add (svmram stop shrank md0 at the shutdown: the disks
# are as at any clean boot).  Each entry: POINT|JOURNAL|RECORD|RAID|
# WRITE-MOSTLY|MARKER|UNIT, what the boot after the cut finds: the
# journal's operation ("-": none), the record (yes/-), md0's raid
# devices, its write-mostly disks, the teardown marker (yes/-), the unit's
# is-enabled.  test_vm_debian.py reads these two tables.
SETUP_CUTS=(
  "journal-before=completed:grow-add ram0|setup|yes|3|-|-|enabled"
  "journal-after=finish|-|yes|3|vdb vdc|-|enabled"
)
TEARDOWN_CUTS=(
  "journal-before=completed:mark teardown|teardown|yes|3|vdb vdc|yes|enabled"
  "journal-after=finish|-|-|2|-|-|disabled"
)
JOURNAL=/var/svmram/md0.journal RECORD=/etc/svmram/md/md0.json
# what the boot after a cut finds, against the table's entry
cut_state() { # TAG JOURNAL RECORD RAID WRITE-MOSTLY MARKER UNIT
  local tag=$1 op wm='' d st
  op=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["operation"])' \
       "$JOURNAL" 2>/dev/null || echo -)
  [ "$op" = "$2" ]; result "$tag.journal" $? "journal: $op (wanted $2)"
  st=-; test -e "$RECORD" && st=yes
  [ "$st" = "$3" ]; result "$tag.record" $? "record: $st (wanted $3)"
  st=$(raid_devices)
  [ "$st" = "$4" ]; result "$tag.raid_devices" $? "raid devices: $st (wanted $4)"
  for d in vdb vdc; do
    grep -q write_mostly "/sys/block/md0/md/dev-$d/state" && wm="$wm $d"
  done
  wm=${wm# }; [ -n "$wm" ] || wm=-
  [ "$wm" = "$5" ]; result "$tag.write_mostly" $? "write-mostly: $wm (wanted $5)"
  st=-; test -e "$RECORD.teardown" && st=yes
  [ "$st" = "$6" ]; result "$tag.marker" $? "marker: $st (wanted $6)"
  st=$(systemctl is-enabled svmram@md0.service 2>&1)
  [ "$st" = "$7" ]; result "$tag.unit" $? "unit: $st (wanted $7)"
}
# mdadm's events and mails in the boot after a cut, once its monitor
# runs (it waits for svmram-copy@, the copy into RAM).  Quiet where the
# array is whole again ("-": no journal, the boot's unit restored or
# nothing to restore); where a setup or teardown was cut short
# (JOURNAL), md0 runs on its two disks of the three raid devices its
# superblocks count and the unit stands aside until the command is run
# again: md itself counts that array degraded, and an admin must act,
# so mdadm's DegradedArray and its one mail are right there, and nothing
# else.
cut_alarms() { # TAG JOURNAL
  local events m want
  monitor_settled
  events=$(events_since); m=$(mails_since)
  show cut.monitor journalctl -b -q -o short-monotonic --no-pager \
    -u mdmonitor.service -u svmram-copy@md0.service -u svmram@md0.service
  show cut.kernel journalctl -b -q -k -o short-monotonic --no-pager -g 'md0|ram0'
  show cut.events events_since
  if [ "$2" = - ]; then
    [ -z "$events" ]; result "$1.mdadm.no_events" $? "$(echo "$events" | tr '\n' ';')"
    [ "$m" = 0 ]; result "$1.mail.none" $? "$m mails"
  else
    want="DegradedArray /dev/md0"
    [ "$events" = "$want" ]; result "$1.mdadm.degraded_only" $? "$(echo "$events" | tr '\n' ';') (wanted: $want)"
    [ "$m" = 1 ]; result "$1.mail.degraded_only" $? "$m mails (wanted 1)"
  fi
}
# the boot after the cut at entry K (from 1) of TABLE; then the command
# run again, cut at entry K+1, or what follows the last
chain_boot() { # setup|teardown K
  local op=$1 k=$2 tag point journal rec raid wm marker unit next
  local -n cuts=${op^^}_CUTS
  IFS='|' read -r point journal rec raid wm marker unit <<< "${cuts[k-1]}"
  tag=$op$k
  info "after the cut at $op's $point"
  after_cut "$tag"
  cut_state "$tag" "$journal" "$rec" "$raid" "$wm" "$marker" "$unit"
  [ "$op" = setup ] && [ "$k" = "${#cuts[@]}" ] && restored "$tag"
  cut_alarms "$tag" "$journal"
  if [ "$op" = setup ] && [ "$k" = "${#cuts[@]}" ]; then
    md_check; recovery_cut
  fi
  if [ "$unit" = enabled ]; then
    # the boot's restore started md0 (a power cut with a RAM member in
    # it left it inactive: nothing else starts it) and stood aside for
    # the unfinished setup or teardown
    journalctl -b -q -u svmram@md0.service --no-pager |
      grep -q "a $journal of md0 has not finished"
    result "$tag.unit_stood_aside" $? "$(systemctl is-active svmram@md0.service 2>&1)"
  else
    not_run "$tag"
  fi
  ! grep -q ram0 /proc/mdstat; result "$tag.no_ram_member" $?
  if [ "$journal" != - ]; then
    show restore svmram restore md0
    [ "$RC" = 3 ]; result "$tag.restore_stands_aside" $? "rc=$RC"
  fi
  md_check
  if [ "$k" -lt "${#cuts[@]}" ]; then
    echo "${op:0:1}$((k + 1))" > "$STATE/phase"
    next=${cuts[k]%%|*}
    # md's copy slowed, so that the rerun's wait is seen >= 10 % done
    case "$next" in wait=*) echo 4000 > /proc/sys/dev/raid/speed_limit_max;; esac
    cut_run "$next" "$op" -y md0
  fi
  # the teardown's last cut left it done: an ordinary array
  ! test -d /sys/module/brd; result "$tag.brd_unloaded" $?
  show status svmram status md0
  records_check "$tag.records_at_end"
  cuts_done
}
# md's recovery into ram0 cut with a writer running: the unit stopped
# and started again, md's copy slowed; the unit's restore does not wait
# for the copy, the guest does (md's sync_completed), and the power goes
# once the recovery is >= 25 % done
recovery_cut() {
  local rc pct i
  echo "$RECORDS" > "$STATE/records_before_writer"
  show stop systemctl stop svmram@md0.service
  echo 4000 > /proc/sys/dev/raid/speed_limit_max
  records write 100000 0.02 >/dev/null 2>&1 &
  sleep 2
  echo r2 > "$STATE/phase"
  sync
  info "systemctl start svmram@md0.service, the writer running"
  systemctl start svmram@md0.service; rc=$?
  [ "$rc" = 0 ]; result recovery_cut.unit_started $? "rc=$rc"
  for i in $(seq 1200); do
    pct=$(copy_percent)
    [ -n "$pct" ] && [ "$pct" -ge 25 ] && break
    sleep 0.1
  done
  count_events > "$STATE/events0"; count_mails > "$STATE/mails0"
  sync
  echo "LAB-MARK cut after restore (md0 recovery ${pct:-none} % done)"
  sleep 600
  result cut.reached 1 "no power cut in 600 s"
  cuts_done
}
# md's recovery of md0 (sync_completed: "DONE / TOTAL" sectors), in
# whole percent; nothing while md copies nothing ("none")
copy_percent() {
  awk '$2 == "/" && $3 > 0 { printf "%d", 100 * $1 / $3 }' /sys/block/md0/md/sync_completed
}

# md0 on /dev/vdb and /dev/vdc, with the UUID mdadm.conf (and the
# initramfs) already list
create_md0() {
  check disks.present test -b /dev/vdb -a -b /dev/vdc
  . /etc/svmram-vmtest.conf
  mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --metadata=1.2 \
    --bitmap=internal --assume-clean --name=0 --uuid="$MD_UUID" \
    /dev/vdb /dev/vdc 2>&1 | sed 's/^/mdadm | /'
  check md0.created test -d /sys/block/md0/md
}
# --- phase k: Debian's scrub (mdcheck) against the boot restore ---------
# mdadm 4.4's mdcheck (/usr/share/mdadm/mdcheck, run by mdcheck_start and
# mdcheck_continue.service) keeps a check's position in its marker
# /var/lib/mdcheck/MD_UUID_<uuid>; it starts or continues a check only
# on an idle array, and takes a sync_action other than "check" for the
# check's end (it removes the marker then).
SCRUB_MARKER=/var/lib/mdcheck/MD_UUID_
# when mdcheck (logger, as root) first logged TEXT in this boot, in
# microseconds after the kernel's start (0: never)
mdcheck_logged() { # TEXT
  journalctl -b -q -o short-monotonic --no-pager -t root -t mdcheck 2>/dev/null |
    grep -F -m1 -- "$1" | awk -F'[][]' 'NF > 2 { printf "%d", $2 * 1e6; exit }' |
    grep . || echo 0
}
scrub_marker() { . /etc/svmram-vmtest.conf; echo "$SCRUB_MARKER$MD_UUID"; }
# md0's recovery speed limit as md/sync_speed_max shows it, once
# svmram-copy@md0.service has ended (svmram restore --after-copy, its
# last command, puts back the limit the copy into RAM ran under)
limit_after_copy() {
  local i
  for i in $(seq 120); do
    [ "$(systemctl show svmram-copy@md0.service -P ActiveState)" = activating ] || break
    sleep 1
  done
  cat /sys/block/md0/md/sync_speed_max
}
# svmram's raised limit left after the copy into RAM (as a failed
# --after-copy, or a restore run by hand outside the unit, leaves it):
# status says so in each format, still OK, with the command that puts
# the system's back; that command does, and status is quiet again
limit_left() {
  local out rc system limit
  limit_after_copy >/dev/null
  system="$(cat /proc/sys/dev/raid/speed_limit_max) (system)"
  echo 2147483647 > /sys/block/md0/md/sync_speed_max
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  [ "$rc" = 0 ] && echo "$out" | grep -qxF "    limit:      2147483647 KiB/s, raised by svmram for the copy into RAM, though nothing is copied now: 'svmram restore --after-copy md0' puts back the system's"
  result limit_left.status_text $? "rc=$rc $(echo "$out" | grep 'limit:')"
  out=$(svmram status --json md0 2>&1)
  echo "$out" | python3 -c 'import json,sys; s=json.load(sys.stdin)["targets"][0]; sys.exit(s["raised_speed_limit"] != {"kib_per_second": 2147483647, "fix": "svmram restore --after-copy md0"})'
  result limit_left.status_json $? "$(echo "$out" | grep -A3 raised_speed_limit | tr -s ' \n' ' ')"
  out=$(svmram status --nagios md0 2>&1); rc=$?
  echo "$out" | sed 's/^/nagios | /'
  [ "$rc" = 0 ] && echo "$out" | grep -qF "; md0's recovery speed limit is 2147483647 KiB/s, raised by svmram"
  result limit_left.nagios $? "rc=$rc"
  show fix svmram restore --after-copy md0
  limit=$(cat /sys/block/md0/md/sync_speed_max)
  [ "$RC" = 0 ] && [ "$limit" = "$system" ]
  result limit_left.fixed $? "rc=$RC; md0's sync_speed_max: $limit (wanted $system)"
  out=$(svmram status md0 2>&1); rc=$?
  [ "$rc" = 0 ] && ! echo "$out" | grep -q 'limit:'
  result limit_left.status_quiet $? "rc=$rc"
}
# Before the reboot into phase k: md0's limit is the system's again (in
# p1 the boot's copy into RAM ran under svmram's raised limit, and
# svmram-copy@ put the system's back when it ended; after phase 0 setup
# did), mdcheck_start.service starts md's check of md0 (slowed), its
# service is stopped as at a shutdown (its marker keeps the position);
# at the next boot vmtest-slow-md.service lowers dev.raid.speed_limit_max
# to 1000 KiB/s (about 2 minutes for md0) once svmram's restore has
# raised md0's own limit for the copy into RAM (the copy runs at the
# disks' speed), and a timer starts mdcheck_continue.service at once,
# as mdcheck_continue.timer (Persistent=true) does at a boot after its
# daily run was missed, without its random delay.
scrub_prepare() {
  local i marker t0 t1 limit
  marker=$(scrub_marker)
  limit=$(limit_after_copy)
  [ "$limit" = "200000 (system)" ]
  result scrub.limit_before $? "md0's sync_speed_max: $limit"
  echo 1000 > /proc/sys/dev/raid/speed_limit_max
  systemctl start --no-block mdcheck_start.service
  for i in $(seq 60); do
    [ "$(cat /sys/block/md0/md/sync_action)" = check ] && [ -e "$marker" ] && break
    sleep 1
  done
  [ "$(cat /sys/block/md0/md/sync_action)" = check ] && [ -e "$marker" ]
  result scrub.started $? "sync_action $(cat /sys/block/md0/md/sync_action), marker $(cat "$marker" 2>&1)"
  sleep 5
  t0=$(date +%s%N)
  systemctl stop mdcheck_start.service
  t1=$(date +%s%N)
  info "mdcheck: systemctl stop mdcheck_start.service took $(( (t1 - t0) / 1000000 )) ms; marker $(cat "$marker" 2>&1); sync_action $(cat /sys/block/md0/md/sync_action); sync_completed $(cat /sys/block/md0/md/sync_completed)"
  show mdcheck.journal journalctl -b -q -o short-monotonic --no-pager -t mdcheck -t root -g 'check'
  test -s "$marker"; result scrub.marker_kept $? "$(cat "$marker" 2>&1)"
  # the system-wide limit an administrator lowers after svmram's
  # restore raised md0's own (which md keeps: a limit set on the array
  # is "local"); svmram puts back "system" once the copy ends, and
  # mdcheck's check then runs under the administrator's 1000 KiB/s
  cat > /etc/systemd/system/vmtest-slow-md.service <<'UNIT'
[Unit]
Description=vmtest: dev.raid.speed_limit_max 1000 once svmram has raised md0's own limit
DefaultDependencies=no
After=svmram@md0.service
Before=svmram-copy@md0.service mdcheck_continue.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo 1000 > /proc/sys/dev/raid/speed_limit_max'

[Install]
WantedBy=sysinit.target
UNIT
  cat > /etc/systemd/system/vmtest-mdcheck-kick.timer <<'UNIT'
[Unit]
Description=vmtest: mdcheck_continue.service at boot, as its Persistent timer catches up

[Timer]
OnBootSec=1
Unit=mdcheck_continue.service

[Install]
WantedBy=timers.target
UNIT
  systemctl daemon-reload
  systemctl enable vmtest-mdcheck-kick.timer vmtest-slow-md.service 2>&1 | sed 's/^/kick | /'
}
# md's own answers, on md9 (two loop devices): a check and a grow or an
# add, a check asked for during a recovery (for the docs: INFO only)
scrub_md_facts() {
  local l0 l1 l2 out rc
  truncate -s 64M /root/loop7.img /root/loop8.img /root/loop9.img
  l0=$(losetup -f --show /root/loop7.img); l1=$(losetup -f --show /root/loop8.img)
  l2=$(losetup -f --show /root/loop9.img)
  mdadm --create /dev/md9 --run --level=1 --raid-devices=2 --metadata=1.2 \
    --bitmap=internal --assume-clean "$l0" "$l1" >/dev/null 2>&1
  echo 100 > /sys/block/md9/md/sync_speed_max
  echo check > /sys/block/md9/md/sync_action
  sleep 1
  out=$(mdadm --grow /dev/md9 --raid-devices=3 --add "$l2" 2>&1); rc=$?
  info "md-fact: grow-add during a check: rc=$rc $(echo "$out" | tr '\n' ' '); sync_action $(cat /sys/block/md9/md/sync_action); raid_disks $(cat /sys/block/md9/md/raid_disks); $(grep -A2 '^md9' /proc/mdstat | tr '\n' ' ')"
  mdadm /dev/md9 --remove "$l2" >/dev/null 2>&1
  echo check > /sys/block/md9/md/sync_action 2>/dev/null
  out=$(mdadm --grow /dev/md9 --raid-devices=3 2>&1); rc=$?
  info "md-fact: grow during a check: rc=$rc $(echo "$out" | tr '\n' ' '); raid_disks $(cat /sys/block/md9/md/raid_disks); sync_action $(cat /sys/block/md9/md/sync_action)"
  out=$(mdadm /dev/md9 --add "$l2" 2>&1); rc=$?
  sleep 2
  info "md-fact: add during a check: rc=$rc $(echo "$out" | tr '\n' ' '); sync_action $(cat /sys/block/md9/md/sync_action); $(grep -A2 '^md9' /proc/mdstat | tr '\n' ' ')"
  echo idle > /sys/block/md9/md/sync_action
  sleep 2
  info "md-fact: after idle: sync_action $(cat /sys/block/md9/md/sync_action); sync_min $(cat /sys/block/md9/md/sync_min); $(grep -A2 '^md9' /proc/mdstat | tr '\n' ' ')"
  mdadm --grow /dev/md9 --raid-devices=3 >/dev/null 2>&1
  sleep 1
  out=$( (echo check > /sys/block/md9/md/sync_action) 2>&1); rc=$?
  info "md-fact: check asked during a recovery: rc=$rc $out; sync_action $(cat /sys/block/md9/md/sync_action); $(grep -A2 '^md9' /proc/mdstat | tr '\n' ' ')"
  mdadm --stop /dev/md9 >/dev/null 2>&1
  losetup -d "$l0" "$l1" "$l2"; rm -f /root/loop[789].img
}
# Phase k: the copy into RAM did not wait for the check, the check
# continued after it from mdcheck's marker, status said so while it ran
scrub_boot() {
  local i ram marker copied cont out rc limit
  marker=$(scrub_marker)
  info "scrub boot: marker $(cat "$marker" 2>&1); sync_action $(cat /sys/block/md0/md/sync_action); $(grep -A3 '^md0' /proc/mdstat | tr '\n' ' ')"
  for i in $(seq 400); do
    ram=$(member_state /dev/ram0)
    [ "$ram" = "active sync" ] && break
    sleep 1
  done
  [ "$ram" = "active sync" ]
  result scrub.copy_not_held $? "ram0: $ram after $i s; sync_action $(cat /sys/block/md0/md/sync_action); $(grep -A3 '^md0' /proc/mdstat | tr '\n' ' ')"
  for i in $(seq 120); do
    [ "$(cat /sys/block/md0/md/sync_action)" = check ] && break
    sleep 1
  done
  show mdcheck.journal journalctl -b -q -o short-monotonic --no-pager -u mdcheck_continue.service -u svmram@md0.service -u svmram-copy@md0.service -t mdcheck -t root
  copied=$(usec svmram-copy@md0.service ExecMainExitTimestampMonotonic)
  cont=$(mdcheck_logged 'continue checking /dev/md0 from')
  [ "$(cat /sys/block/md0/md/sync_action)" = check ] && [ "$cont" != 0 ]
  result scrub.check_resumed $? "sync_action $(cat /sys/block/md0/md/sync_action); mdcheck continued at $(secs "$cont") s"
  [ "$copied" != 0 ] && [ "$cont" -ge "$copied" ]
  result scrub.check_after_copy $? "copy into RAM ended $(secs "$copied") s, mdcheck continued $(secs "$cont") s"
  # the copy ran under svmram's raised limit (the restore's step), and
  # the check runs under the administrator's again: svmram-copy@ put
  # back "system" when the copy ended
  limit=$(limit_after_copy)
  journalctl -b -q -o cat --no-pager -u svmram@md0.service | grep -q 'Raise the recovery speed limit of md0' &&
    [ "$limit" = "1000 (system)" ] && [ "$(cat /sys/block/md0/md/sync_action)" = check ]
  result scrub.limit_back $? "md0's sync_speed_max: $limit; sync_action $(cat /sys/block/md0/md/sync_action); $(grep -A3 '^md0' /proc/mdstat | grep -o 'check = .*' | tr -s ' ')"
  show copy.journal journalctl -b -q -o short-monotonic --no-pager -u svmram-copy@md0.service
  out=$(svmram status md0 2>&1); rc=$?
  echo "$out" | sed 's/^/status | /'
  [ "$rc" = 0 ] && echo "$out" | grep -q '^md0: serving reads from RAM' &&
    echo "$out" | grep -q "md's check (scrub) running" && ! echo "$out" | grep -q 'recovery:'
  result scrub.status.text $? "rc=$rc"
  out=$(svmram status --json md0 2>&1)
  echo "$out" | python3 -c 'import json,sys; s=json.load(sys.stdin)["targets"][0]; sys.exit(not (s["sync_percent"] is None and s["scrub"]["action"] == "check" and s["verdict"] == "serving"))'
  result scrub.status.json $? "$(echo "$out" | tr '\n' ' ' | cut -c1-600)"
  out=$(svmram status --prometheus md0 2>&1)
  echo "$out" | grep -q '^svmram_ram_copy_sync_ratio{.*} 1$' &&
    echo "$out" | grep -qE '^svmram_scrub_ratio\{target="md0",device="md0"\} (0|0\.[0-9]+)$'
  result scrub.status.prometheus $? "$(echo "$out" | grep -E 'sync_ratio|scrub' | tr '\n' ' ')"
  out=$(svmram status --nagios md0 2>&1); rc=$?
  echo "$out" | sed 's/^/nagios | /'
  [ "$rc" = 0 ] && echo "$out" | grep -q "^SVMRAM OK - md0 serves reads from RAM; md's check (scrub) of md0 running" &&
    echo "$out" | grep -qE ' md0_scrub=[0-9]+%;;;0;100$'
  result scrub.status.nagios $? "rc=$rc"
  scrub_md_facts
  echo 200000 > /proc/sys/dev/raid/speed_limit_max
  # mdcheck looks every 220 s: its marker goes once it sees the check end
  for i in $(seq 300); do
    [ "$(cat /sys/block/md0/md/sync_action)" = idle ] && ! [ -e "$marker" ] && break
    sleep 1
  done
  ! [ -e "$marker" ] && [ "$(cat /sys/block/md0/md/last_sync_action)" = check ] &&
    journalctl -b -q -o cat -t mdcheck -t root --no-pager | grep -q 'finished checking /dev/md0'
  result scrub.check_finished $? "marker $(cat "$marker" 2>&1); last_sync_action $(cat /sys/block/md0/md/last_sync_action); mismatch_cnt $(cat /sys/block/md0/md/mismatch_cnt)"
  systemctl disable vmtest-mdcheck-kick.timer vmtest-slow-md.service >/dev/null 2>&1
  rm -f /etc/systemd/system/vmtest-mdcheck-kick.timer /etc/systemd/system/vmtest-slow-md.service
  systemctl daemon-reload
}
# an ext4 on md0 in /etc/fstab, mounted by systemd at /data, with N
# files of 4 MiB and their checksums in /data/SHA256SUMS
data_on_md0() { # N
  local i
  mkfs.ext4 -q /dev/md0
  mkdir -p /data
  echo '/dev/md0 /data ext4 defaults 0 2' >> /etc/fstab
  systemctl daemon-reload
  check data.mounted systemctl start data.mount
  for i in $(seq "$1"); do
    head -c 4M /dev/urandom > "/data/file$i"
  done
  (cd /data && sha256sum file* > SHA256SUMS)
}

# --- the Ansible step (issue 38): phases 5 (or a0) and a1 ----------------
# debian-guest.sh installed Debian's ansible-core, svmram's collection
# (built by its ansible-galaxy) and the play, run here by its tags with a
# local connection; the play asserts what each module returns, this
# checks the host around it.
PLAYBOOK=/usr/local/share/svmram-vmtest/md-guest.yml
play() { # NAME TAG: the play's output, labelled; NAME.rc; its recap line
         # in RECAP
  local name=$1 out rc
  out=$(LC_ALL=C.UTF-8 ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=false \
        ANSIBLE_INVENTORY_UNPARSED_WARNING=false \
        ansible-playbook -i localhost, -c local --tags "$2" "$PLAYBOOK" 2>&1)
  rc=$?
  echo "$out" | sed "s/^/$name | /"
  RECAP=$(echo "$out" | grep -E '^localhost +: ')
  [ "$rc" = 0 ]; result "$name.rc" $? "rc=$rc $RECAP"
}
# what svmram sets or leaves on the host: md0's members and their flags
# (not its clean/active state nor its event count, which ext4's own
# writes to /data move), brd, svmram's files, the unit
ansible_digest() {
  mdadm --detail /dev/md0 2>&1 | grep -Ev 'Update Time|Events|State :'
  grep -H . /sys/block/md0/md/raid_disks /sys/block/md0/md/dev-*/state
  ls -d /sys/block/ram* /sys/module/brd 2>/dev/null
  find /etc/svmram /var/svmram -type f -exec sha256sum {} + 2>/dev/null | sort
  systemctl is-enabled svmram@md0.service 2>&1
  systemctl is-active svmram@md0.service 2>&1
}
unchanged_since() { # NAME BEFORE: the digest as BEFORE
  local after
  after=$(ansible_digest)
  [ "$2" = "$after" ]
  result "$1" $? "$(diff <(echo "$2") <(echo "$after") | tr '\n' ' ')"
}
ansible_setup() {
  local before ram
  info "ansible: $(ansible --version 2>&1 | head -1), $(dpkg-query -W -f '${Package} ${Version}' ansible-core 2>&1)"
  check ansible.debian_package dpkg-query -S /usr/bin/ansible-playbook
  check ansible.collection_installed sh -c \
    'LC_ALL=C.UTF-8 ansible-galaxy collection list svmram.svmram 2>/dev/null | grep -q "^svmram\.svmram "'
  before=$(ansible_digest)
  play ansible.check check
  unchanged_since ansible.check.nothing_changed "$before"
  play ansible.setup setup
  ram=$(member_state /dev/ram0)
  [ "$ram" = "active sync" ]; result ansible.setup.ram_in_sync $? "ram0: $ram"
  check ansible.setup.unit_active systemctl is-active svmram@md0.service
  before=$(ansible_digest)
  play ansible.rerun rerun
  echo "$RECAP" | grep -q ' changed=0 '; result ansible.rerun.unchanged $? "$RECAP"
  unchanged_since ansible.rerun.nothing_changed "$before"
  check ansible.data.sums sums_ok
  reboot_now a1
}
ansible_rebooted() {
  local b0 c0 b1 c1 bytes size n
  play ansible.rebooted rebooted
  echo "$RECAP" | grep -q ' changed=0 '; result ansible.rebooted.unchanged $? "$RECAP"
  # the whole array read with O_DIRECT: not one sector from the disks
  b0=$(read_sectors vdb); c0=$(read_sectors vdc)
  bytes=$(dd if=/dev/md0 bs=1M iflag=direct 2>/dev/null | wc -c)
  b1=$(read_sectors vdb); c1=$(read_sectors vdc)
  size=$(blockdev --getsize64 /dev/md0)
  [ "$bytes" = "$size" ] && [ $((b1 - b0)) = 0 ] && [ $((c1 - c0)) = 0 ]
  result ansible.rebooted.reads_from_ram $? "read $bytes of $size bytes of md0; sectors the disks read: vdb $((b1 - b0)), vdc $((c1 - c0))"
  play ansible.teardown teardown
  ! grep -q ram0 /proc/mdstat; result ansible.teardown.no_ram_member $?
  n=$(raid_devices); [ "$n" = 2 ]; result ansible.teardown.raid_devices $? "raid devices: $n"
  ! test -e /etc/svmram/md/md0.json; result ansible.teardown.no_record $?
  check ansible.teardown.data.sums sums_ok
  reboot_now 6
}

case "$PHASE" in
c0)
  create_md0
  data_on_md0 4
  records write 64 0 >/dev/null
  records_check records.written
  sync
  echo s1 > "$STATE/phase"
  cut_run "${SETUP_CUTS[0]%%|*}" setup -y md0
  ;;
s[1-9]) chain_boot setup "${PHASE#s}" ;;
t[1-9]) chain_boot teardown "${PHASE#t}" ;;
r2)
  after_power_cut recovery_cut
  show cut.monitor journalctl -b -q -o short-monotonic --no-pager \
    -u mdmonitor.service -u svmram-copy@md0.service -u svmram@md0.service
  show cut.kernel journalctl -b -q -k -o short-monotonic --no-pager -g 'md0|ram0'
  show cut.events events_since
  md_check
  echo t1 > "$STATE/phase"
  cut_run "${TEARDOWN_CUTS[0]%%|*}" teardown -y md0
  ;;
0)
  create_md0
  bad_input
  bad_block_log
  # mdadm.conf's line for md0 has md0's UUID (mdadm 4.4's --brief no
  # longer prints name=, 4.2's does: the line as written matches 4.2's)
  brief=$(mdadm --detail --brief /dev/md0)
  grep -q "^ARRAY /dev/md0 .*UUID=${brief##*UUID=}\$" /etc/mdadm/mdadm.conf
  result mdadm.conf.lists_md0 $? "$brief"
  show mdadm.conf grep -v '^#' /etc/mdadm/mdadm.conf
  data_on_md0 8
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
  # the counters count: mdadm's test message goes to both
  e0=$(count_events); m0=$(count_mails)
  mdadm --monitor --scan --oneshot --test >/dev/null 2>&1
  sleep 1
  ev=$(tail -n +$((e0 + 1)) "$EVENTS" | tr '\n' ';'); m=$(( $(count_mails) - m0 ))
  echo "$ev" | grep -q 'TestMessage /dev/md0' && [ "$m" -ge 1 ]
  result events.counted $? "events: $ev mails: $m"
  show mail tail -n 12 "$MAILS"
  [ "$PLAN" = scrub ] && { scrub_prepare; reboot_now k; }
  reboot_now 1
  ;;
k)
  scrub_boot
  [ "$PLAN" = scrub ] || reboot_now 3 data1
  echo "VMTEST-DONE pass=$(wc -l < "$STATE/pass" 2>/dev/null || echo 0) fail=$(cat "$STATE/fail" 2>/dev/null | wc -l)"
  sync
  systemctl --no-block poweroff
  ;;
1|2)
  clean_boot
  if [ "$PHASE" = 1 ] && [ "$PLAN" != short ]; then reboot_during_copy 2
  else cut_while_writing; fi
  ;;
p1)
  after_power_cut power_cut
  md_check
  [ "$PLAN" = short ] || { scrub_prepare; reboot_now k; }
  show teardown svmram teardown -y md0
  result teardown.rc "$RC" "rc=$RC"
  reboot_now 6
  ;;
3)
  missing_disk
  reboot_now 4
  ;;
4)
  disk_back
  failed_disk
  # the package removed while md0 is set up (svmram(8), "Debian package")
  show remove dpkg -r svmram
  result remove.rc "$RC" "rc=$RC"
  ! grep -q ram0 /proc/mdstat; result removed.no_ram_member $?
  n=$(raid_devices); [ "$n" = 2 ]; result removed.raid_devices $? "raid devices: $n"
  ! test -d /sys/module/brd; result removed.brd_unloaded $?
  check removed.record_kept test -f /etc/svmram/md/md0.json
  check removed.unit_link_kept test -L /etc/systemd/system/sysinit.target.wants/svmram@md0.service
  check removed.listed grep -qx "$(printf 'md0\tsvmram@md0.service')" /var/lib/svmram/stopped-by-removal
  ! test -e /usr/sbin/svmram; result removed.command_gone $?
  check removed.data.sums sums_ok
  show mdadm-events cat /var/log/mdadm-events
  reboot_now 5
  ;;
5)
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
  ansible_setup
  ;;
a0|a1)
  if [ "$PHASE" = a0 ]; then create_md0; data_on_md0 8; ansible_setup
  else ansible_rebooted; fi
  ;;
6)
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
  echo 7 > "$STATE/phase"
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
