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
``percent_physmem="50";`` is read and ``percent_physmem=50;`` is not:
get_hwc_spec (modsysfile.c) makes an unquoted number an integer
property (e_ddi_prop_update_int_array).  The file is read as the kernel
reads it (parse, below): blanks and newlines may stand around '=' and
between entries, and a statement ends only at ';'.

On a profile with the switch ``driver_conf_local`` (Oracle Solaris 11),
``/etc/driver/drv/ramdisk.conf`` is read after ``/kernel/drv/ramdisk.conf``
and its properties win (Oracle's driver.conf(5); not verified here).
"""

import math
import os
import time

from svmsim import devices, svm
from svmsim.lean import MappingProxyType

DEFAULT_PERCENT = 25             # ramdisk.h RD_DEFAULT_PERCENT_PHYSMEM
KERNEL_CONF = "/kernel/drv/ramdisk.conf"
LOCAL_CONF = "/etc/driver/drv/ramdisk.conf"
# usr/src/uts/common/io/ramdisk.conf as illumos-gate ships it.
SHIPPED = ("#\n# Copyright 1992, 2003 Sun Microsystems, Inc.  All rights "
           "reserved.\n# Use is subject to license terms.\n#\n\n"
           "name=\"ramdisk\" parent=\"pseudo\" instance=1024;\n")


# --- driver.conf as the kernel reads it ------------------------------------
#
# illumos-gate usr/src/uts/common/os/modsysfile.c (commit 15c5e8a) and
# usr/src/uts/common/sys/kobj_lex.h, written again here from the C, not
# from svmram's copy (svm/driverconf.py):
#
# * kobj_lex skips ' ' and '\t' before every token; '=', ';', ',', '#',
#   '&', '|', '*', ':', '/' are one-character tokens; '\n' and '\r' are
#   NEWLINE; '\f' is WHITE_SPACE; '"' starts a STRING running to the next
#   '"' (a backslash takes the next character as it is, or the octal
#   digits after it as one character; a newline or the end of the file
#   before the closing '"' warns "Missing \"" and gives the STRING "\n";
#   a NUL ends the string, as strcpy copies it);
#   a digit starts a DECVAL (digits only) or, after "0x", a HEXVAL; '-' or
#   '~' before a digit belongs to the number, a lone '-' is a NAME; a
#   letter, '_' or '\' starts a NAME of letters, digits, '_' and '-'
#   ('\' takes the next character into it); anything else is UNEXPECTED.
# * hwc_parse_now reads the file token by token: '#' skips to the end of
#   the line (kobj_find_eol, which stops at '\n', '\r' or '\f'), a NAME
#   starts a statement (get_hwc_spec), NEWLINE is skipped, anything else
#   warns and is skipped.
# * get_hwc_spec runs to the next ';', across newlines and comments: NAME
#   [= value[,value...]] entries one after the other, each value list all
#   strings or all integers (kept here as written); a NAME with no value
#   is a boolean (an integer property 0).  ddi_prop_lookup_string finds
#   only a string property and gives its first string.  A token out of
#   place (e.g. a NAME after '=') warns and is ignored; a token of a kind
#   the statement never takes ('*', ':', '/', '&', '|', '\f', UNEXPECTED)
#   or the end of the file drops the whole statement (goto bad), and the
#   file is read on from the token after it.  A statement that ends while
#   an entry waits for its value ('a=;') warns "Unexpected end of line"
#   and loses that entry only.  'name=', 'parent=' and 'class=' make a
#   node spec (a second 'name' or 'parent' drops the statement); a node
#   spec without parent or class, or a global one with parent or class,
#   is dropped.  make_prop refuses a property name with a character
#   below '!' or one of / \\ : [ ] @ (valid_prop_name).
#
# Which statement's property the driver sees (lookup, below), from the
# source of the last illumos-gate with SVM (5f10ef697f^, before "6396
# remove SVM"):
#
# * a node statement's properties become the node's system properties:
#   get_hwc_spec keeps them in hwc_devi_sys_prop_ptr (modsysfile.c 1946),
#   init_spec_child makes the node with them (devcfg.c 4531-4532), and
#   i_ddi_alloc_node stores them as devi_sys_prop_ptr (devcfg.c 287-288); the
#   shipped ramdisk.conf's pseudo node statement is the node rd_attach
#   keeps as rd_dip (ramdisk.c 811-813);
# * a global statement's properties go on the driver's global list,
#   appended "in original order" (modsysfile.c 2106-2107, add_props
#   3231-3247), which every node of the driver references
#   (devcfg.c add_global_props 3097-3117);
# * ddi_prop_search_common searches the driver's own properties, then
#   the system (node) properties, then the global list, then the
#   hardware properties (sunddi.c 1238-1260), each list from its head,
#   and i_ddi_prop_search takes the first property of that name whose
#   type matches the lookup's (sunddi.c 1094-1123): a string
#   percent_physmem on the node statement wins over any global one,
#   wherever the lines are; among global statements the first string one
#   wins; a number is passed over and the search goes on.
#
# Not modelled: the token length limit (MAX_HWC_LINESIZE); a second node
# statement (another node: which one is rd_dip is not traced; here the
# node statements' properties are merged, the last winning).

_ONE = MappingProxyType({
    "=": "EQUALS", "&": "AMPERSAND", "|": "BIT_OR", "*": "STAR",
    "#": "POUND", ":": "COLON", ";": "SEMICOLON", ",": "COMMA",
    "/": "SLASH"})


def _digit(c):
    return c is not None and "0" <= c <= "9"


def _alpha(c):
    return c is not None and ("a" <= c <= "z" or "A" <= c <= "Z")


def _namechar(c):
    return _alpha(c) or _digit(c) or c in ("_", "-")


class _File:
    """kobj_getc / kobj_ungetc over a text; None is the end (-1)."""

    def __init__(self, text):
        self.text, self.pos, self.warnings = text, 0, []

    def getc(self):
        if self.pos >= len(self.text):
            self.pos = len(self.text) + 1
            return None
        self.pos += 1
        return self.text[self.pos - 1]

    def ungetc(self):
        self.pos -= 1

    def warn(self, message):
        line = self.text.count("\n", 0, min(self.pos, len(self.text))) + 1
        self.warnings.append((line, message))

    def find_eol(self):
        while True:
            c = self.getc()
            if c is None:
                return
            if c in "\n\r\f":
                self.ungetc()
                return

    def lex(self):
        """kobj_lex: (token, text)."""
        c = self.getc()
        while c in (" ", "\t"):
            c = self.getc()
        if c is None:
            return "EOF", ""
        if c in _ONE:
            return _ONE[c], c
        if c == "\f":
            out = c
            c = self.getc()
            while c in (" ", "\t", "\f"):
                out += c
                c = self.getc()
            self.ungetc()
            return "WHITE_SPACE", out
        if c in "\n\r":
            return "NEWLINE", c
        if c == '"':
            return self.lex_string()
        out = [c]
        if c in ("-", "~"):
            c = self.getc()
            out.append(c)
            if out[0] == "-" and (c in (" ", "\t", "\n")):
                self.ungetc()
                return "NAME", "-"
        if _digit(c):
            if c == "0":
                c = self.getc()
                if c == "x":
                    out.append(c)
                    c = self.getc()
                    while _digit(c) or (c is not None and c in "abcdefABCDEF"):
                        out.append(c)
                        c = self.getc()
                    self.ungetc()
                    return "HEXVAL", "".join(out)
            else:
                c = self.getc()
            while _digit(c):
                out.append(c)
                c = self.getc()
            self.ungetc()
            return "DECVAL", "".join(out)
        if _alpha(c) or c in ("_", "\\"):
            if c != "\\":
                c = self.getc()
            else:
                out.pop()
            while _namechar(c) or c == "\\":
                if c == "\\":
                    c = self.getc()
                out.append("\xff" if c is None else c)
                c = self.getc()
            self.ungetc()
            return "NAME", "".join(out)
        return "UNEXPECTED", "".join(x for x in out if x is not None)

    def lex_string(self):
        out = []
        while True:
            c = self.getc()
            if c == '"':
                break
            if c is None or c == "\n":
                self.ungetc()
                self.warn('Missing "')
                out = ["\n"]
                break
            if c == "\\":
                c = self.getc()
                if not _digit(c):
                    out.append("\xff" if c is None else c)
                    continue
                value = 0
                while c is not None and "0" <= c <= "7":
                    value = value * 8 + ord(c) - ord("0")
                    c = self.getc()
                self.ungetc()
                out.append(chr(value & 0xff))
                continue
            out.append(c)
        # add_val and the name/parent copies use strcpy: a NUL ends it.
        return "STRING", "".join(out).split("\0")[0]


def _valid_prop_name(name):
    return all(ord(ch) >= 0x21 and ch not in "/\\:[]@" for ch in name)


def _spec(f, first):
    """get_hwc_spec: ({name: (value, quoted)} in order, is_node), or None
    for a statement the kernel drops."""
    props, node = {}, {}
    state, prop, vals = "begin", None, []

    def make_prop():
        if prop is None:
            return
        if not _valid_prop_name(prop):
            # cmn_err, not kobj_file_err: no line in the message.
            f.warnings.append((None, "invalid property name '%s'" % prop))
            return
        if not vals:
            props[prop] = (None, False)        # boolean: integer 0
        elif vals[0][0] == "STRING":
            props[prop] = (vals[0][1], True)   # the first string
        else:
            props[prop] = (",".join(v[1] for v in vals), False)

    token, text = "NAME", first
    while True:
        if token == "NAME":
            if state in ("prop", "prop_string", "prop_integer", "begin"):
                if state != "begin":
                    make_prop()
                prop, vals = None, []
                if text in ("PARENT", "parent"):
                    state = "parent"
                elif text in ("NAME", "name"):
                    state = "name"
                elif text in ("CLASS", "class"):
                    state, prop = "class", text
                else:
                    state, prop = "prop", text
            else:
                f.warn("Unexpected token '%s'" % text)
        elif token == "EQUALS":
            if state in ("name", "parent", "class", "prop"):
                state += "_equals"
            else:
                f.warn("Unexpected token '%s'" % text)
        elif token == "STRING":
            if state in ("name_equals", "parent_equals"):
                key = state[:-7]
                if key in node:
                    f.warn("'%s' property already specified (the ';' may "
                           "have been omitted on previous spec!)" % key)
                    return None
                node[key] = text
                state = "begin"
            elif state in ("class_equals", "prop_equals", "prop_string_comma"):
                if state == "class_equals":
                    if "class" in node:
                        f.warn("'class' property already specified")
                        return None
                    node["class"] = text
                vals.append(("STRING", text))
                state = "prop_string"
            else:
                f.warn("Unexpected token '%s'" % text)
        elif token in ("HEXVAL", "DECVAL"):
            if state in ("prop_equals", "prop_integer_comma"):
                vals.append(("INTEGER", text))
                state = "prop_integer"
            else:
                f.warn("Unexpected token '%s'" % text)
        elif token == "COMMA":
            if state in ("prop_string", "prop_integer"):
                state += "_comma"
            else:
                f.warn("Unexpected token '%s'" % text)
        elif token == "NEWLINE":
            pass
        elif token == "POUND":
            f.find_eol()
        elif token == "EOF":
            f.warn("Unexpected EOF")
            return None
        else:
            f.warn("Unexpected token '%s'" % text)
            return None
        token, text = f.lex()
        if token == "SEMICOLON":
            break
    if state in ("prop", "prop_string", "prop_integer"):
        make_prop()
    elif state != "begin":
        f.warn("Unexpected end of line")
    if "name" not in node:
        if "parent" in node or "class" in node:
            f.warn("missing name attribute")
            return None
    elif "parent" not in node and "class" not in node:
        f.warn("missing parent or class attribute")
        return None
    return props, "name" in node


def _specs(f):
    """hwc_parse_now's loop over a driver.conf: each statement's spec,
    ({name: (value, quoted)}, whether it is a node statement), in file
    order; the kernel's warnings go to f.warnings."""
    while True:
        token, value = f.lex()
        if token == "EOF":
            return
        if token == "POUND":
            f.find_eol()
        elif token == "NAME":
            spec = _spec(f, value)
            if spec is not None:
                yield spec
        elif token != "NEWLINE":
            f.warn("Unexpected token '%s'" % value)


def parse(text):
    """hwc_parse_now over a driver.conf: ({name: (value, quoted)}, the
    last assignment of a name winning; [(line, kernel warning)]).  value
    is the first string of a string property (quoted True), the integers
    as written, joined by ',', of an integer one, None for a boolean."""
    f, props = _File(text), {}
    for spec_props, _ in _specs(f):
        props.update(spec_props)
    return props, f.warnings


def properties(text):
    """{name: (value, quoted)} of a driver.conf (parse)."""
    return parse(text)[0]


def lookup(text, name):
    """What ddi_prop_lookup_string(DDI_DEV_T_ANY, rd_dip, 0, NAME) finds
    in a driver.conf (the comment above the lexer): (value, True) of the
    node statement's string property, else of the first global string
    one; else (value, quoted) of the last assignment, which the lookup
    passes over (a number or a boolean); None without any."""
    node = first_global = other = None
    for spec_props, is_node in _specs(_File(text)):
        if name not in spec_props:
            continue
        found = spec_props[name]
        if not found[1]:
            other = found
        elif is_node:
            node = found
        elif first_global is None:
            first_global = found
    return node or first_global or other


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
    """(percent the driver takes, console warnings or None) from the conf
    files: the parser's, then the driver's.  kobj_file_err writes
    "MESSAGE on line N of FILE" (modsysfile.c 162-163), FILE being
    kobj_filename, the name kobj_open_file was given (kobj.c 3735-3739):
    the full path kobj_open_path made of a module directory and
    "drv/ramdisk.conf" (modsubr.c 392-393, kobj.c 3439-3506), i.e.
    /kernel/drv/ramdisk.conf as here unless a /platform/.../kernel/drv
    copy comes first on the module path."""
    found, console = None, []
    for path in conf_files(st):
        try:
            with open(devices.host_path(root, path)) as f:
                text = f.read()
            warnings = parse(text)[1]
        except FileNotFoundError:
            continue
        console += ["WARNING: %s%s" % (message, "" if line is None else
                                       " on line %d of %s" % (line, path))
                    for line, message in warnings]
        here = lookup(text, "percent_physmem")
        if here is not None:
            found = here
    value = DEFAULT_PERCENT
    if found is not None and found[1]:
        value = stoi(found[0])
        if value >= 100:
            console.append(
                "WARNING: ramdisk: rd_percent_physmem (%u) >= 100; using "
                "default (%u%%)." % (value, DEFAULT_PERCENT))
            value = DEFAULT_PERCENT
    return value, "\n".join(console) or None


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
