# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The ramdisk driver's tunables, read from ramdisk.conf when the driver
initialises (an emulated boot).

illumos ramdisk.c (commit 3e2cb48) rd_init_tuneables, lines 258-301, run
by rd_attach (line 813) for the pseudo node:

* ``percent_physmem`` is looked up with ddi_prop_lookup_string (283-284)
  and converted with stoi (286): the leading decimal digits, 0 when
  there are none;
* a value of 100 or more is replaced by the default, 25
  (RD_DEFAULT_PERCENT_PHYSMEM), with a console warning (289-295);
* rd_max_physmem = availrmem_initial * rd_percent_physmem / 100 pages
  (300), fixed until the driver initialises again.

The string lookup matches only a string-typed property (sunddi.c
i_ddi_prop_search skips a property whose type differs), so
``percent_physmem="50";`` is read and ``percent_physmem=50;`` (an
integer in driver.conf syntax) is not.  GUESS: that driver.conf gives an
unquoted number the integer type (modsysfile.c was not read here).

On a profile with the switch ``driver_conf_local`` (Oracle Solaris 11),
``/etc/driver/drv/ramdisk.conf`` is read after ``/kernel/drv/ramdisk.conf``
and its properties win (Oracle's driver.conf(5); not verified here).
"""

import math
import os
import time

from svmsim import devices, svm

DEFAULT_PERCENT = 25             # ramdisk.h RD_DEFAULT_PERCENT_PHYSMEM
KERNEL_CONF = "/kernel/drv/ramdisk.conf"
LOCAL_CONF = "/etc/driver/drv/ramdisk.conf"
# usr/src/uts/common/io/ramdisk.conf as illumos-gate ships it.
SHIPPED = ("#\n# Copyright 1992, 2003 Sun Microsystems, Inc.  All rights "
           "reserved.\n# Use is subject to license terms.\n#\n\n"
           "name=\"ramdisk\" parent=\"pseudo\" instance=1024;\n")


def properties(text):
    """{name: (value text, quoted)} of a driver.conf, the last assignment
    of each name winning; comments run from '#' to the end of the line."""
    props = {}
    for line in text.splitlines():
        i, quoted, word, out = 0, False, "", []
        # Split into words on blanks and ';', keeping quoted strings whole.
        while i < len(line):
            ch = line[i]
            if ch == '"':
                end = line.find('"', i + 1)
                end = len(line) if end < 0 else end
                word += line[i + 1:end]
                quoted = True
                i = end + 1
                continue
            if ch == "#":
                break
            if ch in " \t;":
                if word:
                    out.append((word, quoted))
                word, quoted = "", False
            else:
                word += ch
            i += 1
        if word:
            out.append((word, quoted))
        for text_word, quoted in out:
            name, eq, value = text_word.partition("=")
            if eq and name:
                props[name] = (value, quoted)
    return props


def stoi(text):
    """The kernel's stoi: the leading decimal digits, 0 without any."""
    n = 0
    for ch in text:
        if not "0" <= ch <= "9":
            break
        n = n * 10 + ord(ch) - ord("0")
    return n


def conf_files(st):
    files = [KERNEL_CONF]
    if svm.switch(st, "driver_conf_local"):
        files.append(LOCAL_CONF)
    return files


def read_percent(st, root):
    """(percent the driver takes, warning or None) from the conf files."""
    found = None
    for path in conf_files(st):
        try:
            with open(devices.host_path(root, path)) as f:
                props = properties(f.read())
        except FileNotFoundError:
            continue
        if "percent_physmem" in props:
            found = props["percent_physmem"]
    if found is None or not found[1]:
        return DEFAULT_PERCENT, None
    value = stoi(found[0])
    if value >= 100:
        return DEFAULT_PERCENT, (
            "WARNING: ramdisk: rd_percent_physmem (%u) >= 100; using "
            "default (%u%%)." % (value, DEFAULT_PERCENT))
    return value, None


def driver_init(st, root):
    """rd_init_tuneables at an emulated boot: the percentage in effect
    until the next boot (ramdiskadm.cap_pages uses it)."""
    st["ramdisk_percent"], warning = read_percent(st, root)
    st["ramdisk_warning"] = warning


def boot(st, root):
    """What an emulated boot does here: the boot time kstat shows
    (unix:0:system_misc:boot_time, whole seconds), then the driver's
    initialisation.  A real boot takes far longer than a second, so a
    conf file written before it is older than its boot time and one
    written after is newer.  An emulated boot takes no time: a conf file
    written in the boot's own second is dated half a second before it,
    as a real boot would have left it, rather than the boot waiting for
    the next second."""
    boot_time = math.floor(time.time())
    for path in conf_files(st):
        host_path = devices.host_path(root, path)
        try:
            stat = os.stat(host_path)
        except FileNotFoundError:
            continue
        if stat.st_mtime >= boot_time:
            os.utime(host_path, (stat.st_atime, boot_time - 0.5))
    st["boot_time"] = int(boot_time)
    driver_init(st, root)


def install_shipped(root, extra=None):
    """/kernel/drv/ramdisk.conf as shipped, plus the host description's
    lines (``ramdisk_conf``)."""
    path = devices.host_path(root, KERNEL_CONF)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(SHIPPED + ("" if extra is None else extra.rstrip("\n")
                           + "\n"))
    installed = time.time() - 86400          # installed long before boot
    os.utime(path, (installed, installed))
