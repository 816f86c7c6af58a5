#!/bin/bash
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# Adapted from the research lab (shared/lab/linux-md/build-initramfs.sh).
# build-initramfs.sh - fetch a Debian kernel + mdadm + busybox-static as .deb
# files (no installation on the host), and assemble a small uncompressed
# initramfs (newc cpio) that boots straight into guest-init.sh.
#
# Usage: build-initramfs.sh [WORKDIR]        (default /tmp/svmram-vm)
# Env:   KFLAVOUR=cloud-amd64 (or amd64)     kernel flavour metapackage
#        KPKG=linux-image-6.1.0-NN-cloud-amd64  pin an exact kernel package
#        WITH_PYTHON=1   (the default here; 0 to skip) also write
#                        $WORKDIR/python.cpio: the host's python3.11
#                        and its stdlib (no tests/tk/idle/ensurepip), byte-
#                        compiled, to append with run.sh --cpio (for running a
#                        Python tool such as svmram inside the guest)
#
# Results:  $WORKDIR/vmlinuz, $WORKDIR/base.cpio, $WORKDIR/versions.txt
# Host needs: apt-get (after `apt-get update`), dpkg-deb, cpio, kmod (depmod,
# modprobe - only used as tools on the unpacked tree), coreutils, libc6, libudev1.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${1:-/tmp/svmram-vm}
WITH_PYTHON=${WITH_PYTHON:-1}
KFLAVOUR=${KFLAVOUR:-cloud-amd64}
mkdir -p "$WORK/debs" "$WORK/x"

need() { command -v "$1" >/dev/null || { echo "missing host tool: $1 ($2)" >&2; exit 1; }; }
need dpkg-deb dpkg; need cpio cpio; need depmod kmod; need modprobe kmod; need apt-get apt

# 1. resolve the concrete kernel package behind the metapackage. Debian drops
#    old kernel ABI packages from the archive, so never hard-code the ABI.
if [ -z "${KPKG:-}" ]; then
  KPKG=$(apt-cache depends "linux-image-$KFLAVOUR" 2>/dev/null |
         awk '/Depends: linux-image-[0-9]/{print $2; exit}')
  [ -n "$KPKG" ] || { echo "cannot resolve linux-image-$KFLAVOUR (run apt-get update?)" >&2; exit 1; }
fi
KVER=${KPKG#linux-image-}
PKGS="$KPKG mdadm busybox-static"

# 2. download .debs (cached) and unpack them without installing
for p in $PKGS; do
  if ! ls "$WORK/debs/${p}_"*.deb >/dev/null 2>&1; then
    # run as root: the _apt sandbox user cannot write into $WORK/debs
    (cd "$WORK/debs" && apt-get -o APT::Sandbox::User=root download "$p" >/dev/null)
  fi
  if [ ! -d "$WORK/x/$p" ]; then
    mkdir -p "$WORK/x/$p.tmp"
    dpkg-deb -x "$WORK/debs/${p}_"*.deb "$WORK/x/$p.tmp"
    mv "$WORK/x/$p.tmp" "$WORK/x/$p"
  fi
done
KROOT=$WORK/x/$KPKG
[ -f "$KROOT/lib/modules/$KVER/modules.dep" ] || depmod -b "$KROOT" "$KVER"

# 3. stage the root tree
R=$WORK/root
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib64,lib/x86_64-linux-gnu,proc,sys,dev,run,tmp,etc/mdadm,lab,root}

# busybox (static) + one symlink per applet
cp "$WORK/x/busybox-static/bin/busybox" "$R/bin/busybox"
for a in $("$R/bin/busybox" --list); do
  [ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done
# svmram's md command table names /sbin/modprobe and /sbin/rmmod (kmod's
# paths on Debian); busybox's applets stand in for them
for a in modprobe rmmod; do ln -s /bin/busybox "$R/sbin/$a"; done

# dynamic binaries + their shared libraries (resolved with the host's ldd;
# host is Debian bookworm, same libc6/libudev1 ABI as the guest userland)
copy_bin() { # src dst
  install -m 0755 "$1" "$R$2"
  ldd "$1" | awk '/=>/ {print $3} /^[ \t]*\/lib64/ {print $1}' | while read -r lib; do
    [ -n "$lib" ] && [ -f "$lib" ] || continue
    d=$(dirname "$lib"); mkdir -p "$R$d"
    [ -f "$R$lib" ] || cp -L "$lib" "$R$lib"
  done
}
copy_bin "$WORK/x/mdadm/sbin/mdadm" /sbin/mdadm
# coreutils dd/date: busybox dd prints no throughput, busybox date has no %N
copy_bin "$(command -v dd)"   /usr/local/bin/dd
copy_bin "$(command -v date)" /usr/local/bin/date
# e2fsprogs from the host: ext4 for the online-conversion test (busybox has none)
copy_bin /sbin/mke2fs /sbin/mke2fs
copy_bin /sbin/e2fsck /sbin/e2fsck
ln -sf mke2fs "$R/sbin/mkfs.ext4"
mkdir -p "$R/etc"; cp /etc/mke2fs.conf "$R/etc/" 2>/dev/null || true
[ -f "$R/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$R/lib64/"

# kernel modules: closure of what we need, then depmod on the staged tree
MODS="virtio_pci virtio_blk md-mod raid1 brd"
for m in $MODS; do
  modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1=="insmod"{print $2}'
done | sort -u | while read -r ko; do
  rel=${ko#$KROOT}
  mkdir -p "$R$(dirname "$rel")"
  cp "$ko" "$R$rel"
done
cp "$KROOT/lib/modules/$KVER/modules.builtin" "$KROOT/lib/modules/$KVER/modules.order" \
   "$R/lib/modules/$KVER/"
cp "$KROOT/lib/modules/$KVER/modules.builtin.modinfo" "$R/lib/modules/$KVER/" 2>/dev/null || true
depmod -b "$R" "$KVER"

# guest scripts
install -m 0755 "$HERE/guest-init.sh" "$R/init"
install -m 0644 "$HERE/guest-lib.sh"  "$R/lab/lib.sh"
printf 'DEVICE /dev/vd* /dev/ram* /dev/zram*\n' > "$R/etc/mdadm/mdadm.conf"
echo "root:x:0:0:root:/root:/bin/sh" > "$R/etc/passwd"
echo "$KVER" > "$R/etc/lab-kver"

# 4. pack (uncompressed: fastest to unpack under TCG, ~8 MB)
(cd "$R" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet) > "$WORK/base.cpio"
cp "$KROOT/boot/vmlinuz-$KVER" "$WORK/vmlinuz"

{
  echo "kernel-package: $(dpkg-deb -f "$WORK/debs/${KPKG}_"*.deb Package) $(dpkg-deb -f "$WORK/debs/${KPKG}_"*.deb Version)"
  for p in mdadm busybox-static; do
    echo "$p: $(dpkg-deb -f "$WORK/debs/${p}_"*.deb Version)"
  done
  echo "host coreutils (dd,date): $(dpkg-query -W -f '${Version}' coreutils)"
  echo "host libc6: $(dpkg-query -W -f '${Version}' libc6)"
  echo "host libudev1: $(dpkg-query -W -f '${Version}' libudev1)"
  echo "host e2fsprogs (mke2fs, e2fsck): $(dpkg-query -W -f '${Version}' e2fsprogs)"
  echo "qemu-system-x86: $(dpkg-query -W -f '${Version}' qemu-system-x86 2>/dev/null || echo not-installed)"
} > "$WORK/versions.txt"
if [ "${WITH_PYTHON:-0}" = 1 ]; then
  [ -x /usr/bin/python3.11 ] || { echo "missing host tool: /usr/bin/python3.11 (python3.11)" >&2; exit 1; }
  P=$WORK/pyroot; rm -rf "$P"; mkdir -p "$P/usr/bin" "$P/usr/lib"
  R0=$R; R=$P
  copy_bin /usr/bin/python3.11 /usr/bin/python3.11
  R=$R0
  ln -s python3.11 "$P/usr/bin/python3"
  excl="test idlelib tkinter turtledemo ensurepip lib2to3 pydoc_data distutils unittest dist-packages site-packages config-3.11-x86_64-linux-gnu"
  # shellcheck disable=SC2046
  tar -C /usr/lib --exclude=__pycache__ $(for e in $excl; do printf -- '--exclude=python3.11/%s ' "$e"; done) \
      -cf - python3.11 | tar -C "$P/usr/lib" -xf -
  /usr/bin/python3.11 -m compileall -q -j 0 "$P/usr/lib/python3.11" >/dev/null 2>&1 || true
  # compileall writes paths of the staging tree into the .pyc; harmless
  (cd "$P" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet) > "$WORK/python.cpio"
  echo "built $WORK/python.cpio ($(du -h "$WORK/python.cpio" | cut -f1)), python $(/usr/bin/python3.11 -c 'import sys; print(sys.version.split()[0])')"
fi

echo "built $WORK/base.cpio ($(du -h "$WORK/base.cpio" | cut -f1)) and $WORK/vmlinuz ($KVER)"
cat "$WORK/versions.txt"
