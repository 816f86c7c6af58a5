#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# debian-guest.sh - a real Debian guest under systemd (issue 21, section
# 3; issue 28): Debian 13 (trixie) by default, Debian 12 (bookworm) with
# --suite bookworm, Debian 14 (forky, testing) with --suite forky (issue
# 37), each with its release's kernel or, with --kernel backports, with
# linux-image-amd64 from SUITE-backports (issue 37: trixie's 7.x kernel
# beside its mdadm 4.4), built from Debian packages with mmdebstrap, svmram's
# .deb installed into it, booted under QEMU (TCG) with its own root disk
# and two data disks, and driven by a check script inside it
# (guest-debian-check.sh, run at every boot by svmram-vmtest.service).
#
# Usage: debian-guest.sh build DEB [--suite S] [--kernel backports]
#                                     build (or find in the cache) the image
#                                     for DEB; prints its directory
#        debian-guest.sh run DEB [--suite S] [--kernel backports]
#                                [--out DIR] [--timeout S]
#                                [--plan cuts|short|ansible|scrub]
#                                     build, then boot ten times, one QEMU
#                                     (TCG) per boot, S seconds at most each
#                                     (default 1800: at load 11-14 on the
#                                     2-core machine a trixie boot took
#                                     over 900 s; quiet, 2-3 minutes)
#                                     (guest-debian-check.sh's phases; a
#                                     boot it asks for "without=data1" has
#                                     no second data disk); --plan cuts:
#                                     the power cuts' phases instead (the
#                                     kernel's command line says
#                                     svmram_vmtest=cuts), 6 boots;
#                                     --plan short: phases 0, 1, p1, 6;
#                                     --plan ansible (trixie): phases a0,
#                                     a1, 6, the Ansible step alone;
#                                     --plan scrub: phases 0 and k.
#                                     A boot whose console shows "LAB-MARK
#                                     cut POINT" is cut: QEMU killed (SIGKILL)
#
# Cache: ${SVMRAM_GUEST_CACHE:-${XDG_CACHE_HOME:-~/.cache}/svmram/debian-guest}:
#   base-NAME-KEY.tar mmdebstrap's output; NAME is the suite, or
#                  SUITE-backports-kernel with --kernel backports; KEY
#                  hashes the suite, the mirror, the kernel, the package
#                  list and build_base itself
#   image-NAME-KEY/ root.img (ext4 made by mke2fs -d, nothing mounted;
#                  each boot takes the kernel and initrd from its /boot,
#                  as a boot loader would); KEY hashes the base's key, the .deb,
#                  the guest's files and build_image itself
# Each is rebuilt only when its key changes; older ones are deleted.  The
# cache is used under flock on CACHE/.lock (two runs at once).
# Env: SVMRAM_DEBIAN_MIRROR (default http://deb.debian.org/debian).
# Needs root (mmdebstrap --mode=root, chroot), mmdebstrap, e2fsprogs,
# and qemu-system-x86.  Output of run: DIR/console.log (each
# line stamped with the host's time), DIR/results.txt (the RESULT lines),
# DIR/times.txt (build and boot timings).
set -euo pipefail
# a failure inside image_for (run in $(...)) stops the script too
shopt -s inherit_errexit
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=trixie
# empty: the suite's own kernel; backports: SUITE-backports' linux-image-amd64
KERNEL=
MIRROR=${SVMRAM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# man-db: systemd-analyze verify checks that Documentation=man:svmram(8) opens
PACKAGES=linux-image-amd64,systemd-sysv,udev,mdadm,e2fsprogs,python3,kmod,procps,util-linux,initramfs-tools,man-db
CACHE=${SVMRAM_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svmram/debian-guest}
MD_UUID=5a3f0c1e:2b7d4a96:8e61f0d3:c4b29a57
GUEST_FILES=("$HERE/guest-debian-check.sh" "$HERE/svmram-vmtest.service"
             "$HERE/../ansible/playbooks/md-guest.yml")
# svmram's Ansible collection, built and installed in the trixie image
COLLECTION=$(cd "$HERE/../../ansible/ansible_collections/svmram/svmram" && pwd)

die() { echo "debian-guest.sh: $*" >&2; exit 2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# The base system: Debian's packages, nothing of svmram's.
# With --kernel backports the sources list SUITE-backports too and the
# kernel comes from there (apt's pkg/release; its own dependencies follow).
# Testing's Release files (forky's) carry a Valid-Until a week ahead, and
# a mirror that is a snapshot (this machine's) serves them expired: apt
# refuses them unless told not to check (stable's have no Valid-Until).
build_base() { # OUT.tar
  local packages=$PACKAGES sources=("$MIRROR")
  if [ "$KERNEL" = backports ]; then
    packages=${PACKAGES/linux-image-amd64,/linux-image-amd64/$SUITE-backports,}
    sources=("deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-backports main")
  fi
  nice -n 10 mmdebstrap --mode=root --variant=minbase --format=tar \
    --aptopt='APT::Install-Recommends "false"' \
    --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="$packages" \
    --customize-hook='echo svmram-guest > "$1/etc/hostname"' \
    "$SUITE" "$1" "${sources[@]}"
}

# The bootable image: the base, svmram's package installed with apt (its
# dependencies are in the base), the test's unit and script, a root ext4
# made by mke2fs -d from the tree.
build_image() { # BASE.tar DEB OUTDIR
  local base=$1 deb=$2 out=$3 root
  root=$(mktemp -d "$CACHE/root.XXXXXX")
  tar -C "$root" -xpf "$base"
  cp "$deb" "$root/tmp/svmram.deb"
  # as README says: apt installs the local file (its dependencies are in
  # the base already, so no package lists are needed)
  DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y /tmp/svmram.deb
  # kept for the guest's reinstallation after its removal test
  mv "$root/tmp/svmram.deb" "$root/root/svmram.deb"
  chroot "$root" dpkg-query -W -f '${Status} ${Version}\n' svmram \
    | grep -q '^install ok installed ' || die "svmram is not installed in the image"
  printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' > "$root/etc/fstab"
  install -m 0755 "$HERE/guest-debian-check.sh" "$root/usr/local/sbin/svmram-vmtest"
  install -m 0644 "$HERE/svmram-vmtest.service" "$root/etc/systemd/system/"
  # mdadm's monitor reports its events to a program that logs them, and
  # mails them to MAILADDR (root, Debian's default) through a stand-in
  # sendmail that keeps each message: the guest counts both.  mdadm runs
  # /usr/lib/sendmail -t (an MTA's link to /usr/sbin/sendmail).
  printf '#!/bin/sh\necho "$*" >> /var/log/mdadm-events\n' > "$root/usr/local/sbin/mdadm-event-log"
  chmod 0755 "$root/usr/local/sbin/mdadm-event-log"
  printf '#!/bin/sh\n{ echo "MAIL $*"; cat; echo; } >> /var/log/sendmail-standin\n' \
    > "$root/usr/sbin/sendmail"
  chmod 0755 "$root/usr/sbin/sendmail"
  ln -sf ../sbin/sendmail "$root/usr/lib/sendmail"
  grep -q '^MAILADDR root$' "$root/etc/mdadm/mdadm.conf" ||
    printf 'MAILADDR root\n' >> "$root/etc/mdadm/mdadm.conf"
  printf 'PROGRAM /usr/local/sbin/mdadm-event-log\n' >> "$root/etc/mdadm/mdadm.conf"
  # md0's identity is chosen here (the guest creates it with this UUID),
  # so that mdadm.conf lists it, and the initramfs made from it knows it,
  # before the first boot: an initramfs whose mdadm.conf does not list an
  # array assembles it all the same, as md127, and /dev/md0 in fstab then
  # never comes (update-initramfs -u in the guest instead takes minutes
  # under TCG).  A small initramfs (MODULES=list): the root's drivers.
  printf 'ARRAY /dev/md0 metadata=1.2 name=svmram-guest:0 UUID=%s\n' "$MD_UUID" \
    >> "$root/etc/mdadm/mdadm.conf"
  printf 'MD_UUID=%s\n' "$MD_UUID" > "$root/etc/svmram-vmtest.conf"
  printf 'MODULES=list\n' > "$root/etc/initramfs-tools/conf.d/svmram-guest"
  printf 'virtio_pci\nvirtio_blk\next4\n' >> "$root/etc/initramfs-tools/modules"
  chroot "$root" update-initramfs -u -k all
  systemctl --root="$root" enable svmram-vmtest.service
  # Under TCG on a loaded host udev's coldplug took over systemd's 90 s
  # for /dev/md0 (trixie, load 9: the device came ready after 160 s of
  # boot, the mount had timed out); the guest allows 300 s
  mkdir -p "$root/etc/systemd/system.conf.d"
  printf '[Manager]\nDefaultDeviceTimeoutSec=300s\n' \
    > "$root/etc/systemd/system.conf.d/svmram-guest.conf"
  # The check script owns the serial console; timers that would only
  # slow the boots down are off.
  systemctl --root="$root" mask serial-getty@ttyS0.service getty@tty1.service \
    apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
    e2scrub_reap.service fstrim.timer man-db.timer >/dev/null 2>&1 || true
  # root without a password, for a look by hand at the console
  chroot "$root" passwd -d root >/dev/null
  chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' \
    linux-image-amd64 systemd mdadm python3 e2fsprogs svmram > "$out/versions.txt"
  install_collection "$root" "$out"
  mke2fs -q -t ext4 -L root -d "$root" "$out/root.img" 2G
  rm -rf "$root"
}

# The Ansible step (issue 38): Debian 13's own ansible-core (in trixie's
# package list, suite_packages) builds svmram's collection from the
# source tree (ansible-galaxy collection build, as a release would) and
# installs the built collection where Debian's Ansible looks for it; the
# play the guest runs (tests/ansible/playbooks/md-guest.yml) beside the
# check script.  A suite without ansible-core gets neither.
suite_packages() { # SUITE: more packages than PACKAGES
  case "$1" in trixie) echo ,ansible-core;; esac
}
install_collection() { # ROOT OUTDIR
  local root=$1 out=$2
  [ -x "$root/usr/bin/ansible-galaxy" ] || return 0
  mkdir -p "$root/tmp/collection/svmram"
  tar -C "$COLLECTION" --exclude=tests/output --exclude=__pycache__ -cf - . |
    tar -C "$root/tmp/collection/svmram" -xf -
  chroot "$root" env LC_ALL=C.UTF-8 HOME=/root ansible-galaxy collection build \
    --output-path /tmp/collection /tmp/collection/svmram
  chroot "$root" sh -c 'LC_ALL=C.UTF-8 HOME=/root ansible-galaxy collection install \
    --offline -p /usr/share/ansible/collections /tmp/collection/svmram-svmram-*.tar.gz'
  rm -rf "$root/tmp/collection" "$root/root/.ansible"
  install -D -m 0644 "$HERE/../ansible/playbooks/md-guest.yml" \
    "$root/usr/local/share/svmram-vmtest/md-guest.yml"
  chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' ansible-core >> "$out/versions.txt"
}
collection_digest() { # what the image has of the collection's tree
  (cd "$COLLECTION" && find . -type f ! -path './tests/output/*' \
     ! -path '*/__pycache__/*' | LC_ALL=C sort | xargs sha256sum)
}

# Each console line is stamped with the host's time (perl, Time::HiRes),
# its terminal escape sequences taken out: forky's systemd 262 asks the
# terminal's name (XTGETTCAP, ESC P + q 6E616D65 ESC \) when the test's
# unit opens ttyS0, in front of the script's first line, so "VMTEST-BOOT
# 0" was not at a line's start (trixie's 257 does not ask); colours and
# cursor moves go too (test_vm_debian.py runs it on that line).
STAMP_CONSOLE='BEGIN{$|=1} s/\r//g; s/\e(?:P.*?\e\\|\].*?(?:\a|\e\\)|\[[0-9;?!<=>]*[ -\/]*[\@-~]|[0-9\@-Z\\^_])//g; printf "%.1f %s", time, $_'

key_of() { sha256sum | cut -c1-16; }

# The cache's name of this suite and kernel; a build deletes only the
# older files of the same name (KEY is 16 hex digits, so that trixie's
# do not match trixie-backports-kernel's).
KEY_GLOB='????????????????'
image_for() { # DEB -> image directory on stdout
  local deb=$1 base_key image_key base image t0 name=$SUITE${KERNEL:+-$KERNEL-kernel}
  mkdir -p "$CACHE"
  base_key=$( { echo "$SUITE $MIRROR $KERNEL $PACKAGES"; declare -f build_base; } | key_of)
  base=$CACHE/base-$name-$base_key.tar
  if [ ! -s "$base" ]; then
    command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (apt-get install mmdebstrap)"
    t0=$(now)
    echo "debian-guest.sh: building the base system $base (mmdebstrap, $SUITE${KERNEL:+, $KERNEL kernel})" >&2
    build_base "$base.tmp" >&2
    mv "$base.tmp" "$base"
    echo "$name base_build_s=$(since "$t0")" >> "$CACHE/timings.log"
    find "$CACHE" -maxdepth 1 -name "base-$name-$KEY_GLOB.tar" ! -name "base-$name-$base_key.tar" -delete
  fi
  image_key=$( { echo "$base_key $MD_UUID"; sha256sum "$deb" | cut -d' ' -f1;
                 cat "${GUEST_FILES[@]}"; declare -f build_image;
                 declare -f install_collection; collection_digest; } | key_of)
  image=$CACHE/image-$name-$image_key
  if [ ! -s "$image/root.img" ]; then
    t0=$(now)
    echo "debian-guest.sh: building the image $image" >&2
    rm -rf "$image.tmp"; mkdir -p "$image.tmp"
    build_image "$base" "$deb" "$image.tmp" >&2
    rm -rf "$image"; mv "$image.tmp" "$image"
    echo "$name image_build_s=$(since "$t0")" >> "$CACHE/timings.log"
    find "$CACHE" -maxdepth 1 -name "image-$name-$KEY_GLOB" ! -name "image-$name-$image_key" \
      -exec rm -rf {} +
  fi
  echo "$image"
}

# The kernel and initrd of the guest's root disk (as a boot loader would
# take them): the guest's own /boot, so that what it changed there (an
# update-initramfs after editing mdadm.conf) is what boots next.
kernel_of() { # ROOT.img OUT
  local kver
  kver=$(debugfs -R 'ls /boot' "$1" 2>/dev/null | tr -s ' ' '\n' |
         sed -n 's/^vmlinuz-//p' | sort -V | tail -1)
  [ -n "$kver" ] || die "no kernel in /boot of $1"
  debugfs -R "dump /boot/vmlinuz-$kver $2/vmlinuz" "$1" >/dev/null 2>&1
  debugfs -R "dump /boot/initrd.img-$kver $2/initrd.img" "$1" >/dev/null 2>&1
  [ -s "$2/initrd.img" ] || die "no initrd.img-$kver in /boot of $1"
}

boot() { # IMAGE OUT TIMEOUT
  local image=$1 out=$2 timeout=$3 t0 tb rc=0 n without='' drives
  mkdir -p "$out"
  # the cached image stays as built: the guest boots a sparse copy
  # (run made it, under the cache's lock)
  truncate -s 128M "$out/data0.img" "$out/data1.img"
  : > "$out/console.log"
  t0=$(now)
  # One QEMU per boot (-no-reboot: the guest's 'systemctl reboot' ends
  # it), each with the kernel and initrd the guest's /boot has then; the
  # guest's last phase powers off.  At most 24 boots.  The guest asks for
  # a boot without a data disk ("VMTEST-REBOOTING into phase N
  # without=data1"): its drive is left out, as a disk that did not come
  # up (the root stays vda, data0 vdb).
  # The data disks go through the host's page cache (cache=writeback):
  # with cache=none,aio=native the guest saw write errors on them here
  # (QEMU 7.2, sparse files on ext4); a killed QEMU loses nothing the
  # host had been given either way.
  # A boot ends in a power cut when its console shows "LAB-MARK cut"
  # (svmram's test switch, SVMRAM_TEST_CUT: the command has synced and
  # sleeps): a watcher kills QEMU with SIGKILL, and the next boot starts
  # from what the disk images hold then.  times.txt says "cut=POINT".
  for n in $(seq 24); do
    kernel_of "$out/root.img" "$out"
    rm -f "$out/qemu.pid" "$out/cut-$n" "$out/over-$n"
    : > "$out/console-$n.log"
    ( while [ ! -e "$out/over-$n" ]; do
        if grep -aq 'LAB-MARK cut ' "$out/console-$n.log"; then
          qp=$(cat "$out/qemu.pid" 2>/dev/null || true)
          if [ -n "$qp" ] && kill -9 "$qp" 2>/dev/null; then
            grep -a -m1 -o 'LAB-MARK cut .*' "$out/console-$n.log" |
              sed 's/^LAB-MARK cut //; s/\r*$//' > "$out/cut-$n"
            echo "debian-guest.sh: power cut (SIGKILL qemu $qp) at $(cat "$out/cut-$n")" >&2
          fi
          break
        fi
        sleep 0.2
      done ) &
    wpid=$!
    drives=()
    for d in data0 data1; do
      [ "$d" = "$without" ] && continue
      drives+=(-drive "file=$out/$d.img,if=virtio,format=raw,cache=writeback")
    done
    tb=$(now)
    set +e
    # no_timer_check: on a loaded host TCG's vCPUs can miss the kernel's
    # early timer-interrupt check, and it panics ("IO-APIC + timer
    # doesn't work!", seen at load 10 on both releases' first boot, with
    # make test-vm's two QEMUs); the kernel's parameter for VMs skips it.
    # QEMU 7.2's TCG crashed (SIGSEGV) now and then here before the guest
    # printed a line (once in ~30 boots of the trixie guest), and the
    # guest's kernel panicked in its own start-up (trixie's 6.12, an
    # "Oops: int3" in sched_clock_cpu during an initcall, under
    # multi-threaded TCG, once in ~10 boots on 2026-11-28): nothing of the
    # guest's userspace ran (the initramfs' first line, "Loading, please
    # wait...", never came), the disks are untouched, so that boot is
    # tried again, at most twice
    # A boot that hangs silently (no console line at all; seen once on
    # forky under TCG) would wait out the whole timeout: a watchdog kills
    # QEMU when the initramfs' first line has not come within 300 s
    # (it comes within 20 s on a quiet host, 60 s at load 12), and the
    # boot is tried again as after a crash.
    for try in 1 2 3; do
    ( sleep 300 </dev/null >/dev/null 2>&1
      grep -aq 'Loading, please wait' "$out/console-$n.log" && exit 0
      qp=$(cat "$out/qemu.pid" 2>/dev/null) && kill -9 "$qp" 2>/dev/null &&
        echo "debian-guest.sh: boot $n: no 'Loading, please wait' within 300 s: SIGKILL qemu $qp" >&2
    ) & dog=$!
    timeout -k 10 "$timeout" nice -n 10 qemu-system-x86_64 \
      -accel tcg,thread=multi,tb-size=256 -cpu max -machine pc -m 1024 -smp 2 \
      -nodefaults -no-user-config -display none -nic none -no-reboot \
      -serial stdio -monitor none -pidfile "$out/qemu.pid" \
      -kernel "$out/vmlinuz" -initrd "$out/initrd.img" \
      -append "root=/dev/vda rw console=ttyS0 loglevel=4 panic=-1 no_timer_check${PLAN:+ svmram_vmtest=$PLAN}" \
      -drive "file=$out/root.img,if=virtio,format=raw,cache=unsafe" \
      "${drives[@]}" \
      </dev/null 2>&1 \
      | perl -MTime::HiRes=time -ne "$STAMP_CONSOLE" \
      | tee "$out/console-$n.log"
    rc=${PIPESTATUS[0]}
    kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null
    grep -aq 'Loading, please wait' "$out/console-$n.log" && break
    [ "$try" = 3 ] && break
    echo "boot$n: qemu_rc=$rc before the guest's userspace ($(grep -a -m1 -o 'Kernel panic.*\|Oops: .*' "$out/console-$n.log" | tr -d '\r' || echo 'no panic line')): tried again" >> "$out/times.txt"
    cp "$out/console-$n.log" "$out/console-$n.try$try.log"
    done
    touch "$out/over-$n"; wait "$wpid"
    set -e
    cut=none
    if [ -s "$out/cut-$n" ]; then cut=$(cat "$out/cut-$n"); rc=0; fi
    cat "$out/console-$n.log" >> "$out/console.log"
    awk -v n="$n" -v tb="$tb" -v b="$(now)" -v w="${without:-none}" -v cut="$cut" '
      / VMTEST-BOOT / && !c { c = $1 - tb }
      END { printf "boot%d: qemu_start_to_check_s=%.1f qemu_wall_s=%.1f without=%s cut=%s\n", n, c, b - tb, w, cut }
    ' "$out/console-$n.log" >> "$out/times.txt"
    sed -n 's/^[0-9.]* \(MOUNT-WAIT .*\)$/boot'"$n"': \1/p' "$out/console-$n.log" >> "$out/times.txt"
    [ "$rc" = 0 ] || break
    if [ "$cut" != none ]; then without=''; continue; fi
    grep -aq ' VMTEST-DONE ' "$out/console-$n.log" && break
    grep -aq ' VMTEST-REBOOTING ' "$out/console-$n.log" || { rc=125; break; }
    without=$(sed -n 's/^[0-9.]* VMTEST-REBOOTING .* without=\(data[01]\)\r*$/\1/p' \
              "$out/console-$n.log" | tail -1)
  done
  echo "boots_total_s=$(since "$t0") boots=$n qemu_rc=$rc" >> "$out/times.txt"
  sed -n 's/^[0-9.]* \(RESULT .*\)$/\1/p' "$out/console.log" > "$out/results.txt"
  cat "$out/times.txt"
  [ "$rc" = 0 ] || return "$rc"
  # the guest's verdict: its last phase ran and nothing failed
  grep -aq ' VMTEST-DONE pass=[0-9]* fail=0$' "$out/console.log"
}

[ $# -ge 2 ] || { sed -n '14,36p' "$0"; exit 2; }
cmd=$1 deb=$(readlink -f "$2"); shift 2
[ -f "$deb" ] || die "no package $deb (make deb)"
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap --mode=root, chroot)"
OUT=/tmp/svmram-debian-guest/$(date +%Y%m%d-%H%M%S) TIMEOUT=1800 PLAN=
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2;;
    --timeout) TIMEOUT=$2; shift 2;;
    --suite) SUITE=$2; shift 2
             case "$SUITE" in trixie|bookworm|forky) ;; *) die "unknown suite $SUITE (trixie, bookworm, forky)";; esac;;
    --kernel) KERNEL=$2; shift 2
              case "$KERNEL" in backports) ;; *) die "unknown kernel $KERNEL (backports)";; esac;;
    --plan) PLAN=$2; shift 2
            case "$PLAN" in cuts|short|ansible|scrub) ;; *) die "unknown plan $PLAN (cuts, short, ansible, scrub)";; esac;;
    *) die "unknown option $1";;
  esac
done
PACKAGES=$PACKAGES$(suite_packages "$SUITE")
# forky is testing: it has no backports
[ "$KERNEL" != backports ] || [ "$SUITE" != forky ] || die "forky has no backports (--kernel backports: trixie, bookworm)"
# Two runs at once (make test-vm runs two tests at a time) may want the
# same suite's base or image, and a build deletes the suite's other
# images: the cache is used under its lock (flock), held until the image
# is copied into the run's own directory.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
case "$cmd" in
  build) flock 9; image_for "$deb";;
  run)
    mkdir -p "$OUT"; : > "$OUT/times.txt"
    t0=$(now)
    flock 9
    echo "lock_wait_s=$(since "$t0")" >> "$OUT/times.txt"
    image=$(image_for "$deb")
    cp --sparse=always "$image/root.img" "$OUT/root.img"
    cp "$image/versions.txt" "$OUT/"
    exec 9>&-
    echo "image_s=$(since "$t0") (0 when cached; the lock's wait included) image=$image" >> "$OUT/times.txt"
    rc=0; boot "$image" "$OUT" "$TIMEOUT" || rc=$?
    echo "debian-guest: $( [ $rc = 0 ] && echo PASS || echo "FAIL (rc=$rc)") ($OUT)"
    exit $rc
    ;;
  *) die "unknown command $cmd";;
esac
