# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Parse ``metastat -p`` output (the md.tab format).

The line formats, from illumos-gate usr/src/lib/lvm/libmeta/common:

* meta_mirror.c mirror_print:  ``NAME -m SUB... [-r|-g] [-S] PASS``
* meta_stripe.c stripe_print:  ``NAME NROWS NCOMP COMP... [-i Nb]`` and
  more rows, joined by `` \\``, newline, TAB; then ``[-h HSP]``
* meta_sp.c meta_sp_short_print: ``NAME -p DEV -o OFF -b LEN `` per
  extent, each with a trailing blank
* meta_raid.c raid_print (commit 1cd3f00b): ``NAME -r COL... -k -i Nb
  [-w N] [-h HSP] [-o N]``; ``-k`` and ``-i`` are always printed and
  the columns always as full raw paths
* meta_trans.c trans_print: ``NAME -t MASTER [LOG]``; master and log are
  printed as cnames when their raw path is under /dev/rdsk or
  /dev/md/rdsk, else as the full raw path
* meta_hotspares.c hsp_print: ``HSP [SPARE...]``, spares printed like
  the trans master

Current illumos prints full raw paths (``/dev/md/rdsk/d13``,
``/dev/rdsk/c5t0d0s0``, ``/dev/md/blue/rdsk/d10``) for submirrors,
stripe components, soft partition devices and RAID columns; the 2005
code printed cnames.  Both are accepted; the model keeps cnames.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .model import (Component, Config, Extent, HotSpare, HotSparePool,
                    Mirror, NAME_RE, Raid5, Row, SoftPartition, Stripe, Trans,
                    is_metadevice_path, short_name)
from .names import NMIRROR, PASS_MAX

SOURCE = "metastat -p"

_NUMBER = re.compile(r"[0-9]+\Z")
_INTERLACE = re.compile(r"([0-9]+)b\Z")
_HSP_NAME = re.compile(r"(?:[A-Za-z][A-Za-z0-9_.-]*/)?hsp[0-9]+\Z")


def parse(text: str) -> Config:
    """The Config that a ``metastat -p`` output describes."""
    return _Parser(text).run()


class _Cursor:
    """The tokens of one logical line, with the physical line of each."""

    def __init__(self, tokens, linenos, lines):
        self.tokens = tokens
        self.linenos = linenos
        self.lines = lines
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.pos += 1
        return token

    def error(self, message):
        index = min(self.pos, len(self.tokens) - 1)
        lineno = self.linenos[index]
        raise ParseError(message, lineno=lineno, line=self.lines[lineno - 1],
                         source=SOURCE)

    def number(self, what):
        token = self.peek()
        if token is None:
            self.error("missing %s" % what)
        if not _NUMBER.match(token):
            self.error("expected %s, found %r" % (what, token))
        self.pos += 1
        return int(token)

    def end(self):
        if self.peek() is not None:
            self.error("unexpected %r" % self.peek())

    def at_name(self):
        token = self.peek()
        return (token is not None and not token.startswith("-")
                and not _NUMBER.match(token))


class _Parser:
    def __init__(self, text):
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.config = Config(detailed=False)
        self.where = {}             # device name -> line number
        self.meta_refs = []         # (name, lineno): must be defined
        self.disk_refs = []         # (name, lineno): must not be defined

    def error(self, message, lineno):
        raise ParseError(message, lineno=lineno, line=self.lines[lineno - 1],
                         source=SOURCE)

    def run(self):
        for cursor in self._logical_lines():
            self._device(cursor)
        self._check_references()
        self.config.assign_parents()
        return self.config

    def _logical_lines(self):
        """Cursors over logical lines: a trailing backslash continues a
        line onto the next one, which must be indented."""
        tokens, linenos = [], []
        continued = None            # line number of the open backslash
        for lineno, line in enumerate(self.lines, 1):
            stripped = line.strip()
            if continued is not None:
                if not stripped or not line[:1].isspace():
                    self.error("backslash continuation is not followed by "
                               "an indented line", continued)
            elif not stripped:
                continue
            elif self._banner(stripped, lineno):
                continue
            words = stripped.split()
            continued = None
            if words[-1] == "\\":
                words.pop()
                continued = lineno
            elif words[-1].endswith("\\"):
                words[-1] = words[-1][:-1]
                continued = lineno
            tokens.extend(words)
            linenos.extend([lineno] * len(words))
            if continued is None:
                yield _Cursor(tokens, linenos, self.lines)
                tokens, linenos = [], []
        if continued is not None:
            self.error("backslash continuation at the end of the output",
                       continued)

    def _banner(self, stripped, lineno):
        """True for the stale-replica banner metastat prints first."""
        if stripped != "****" and not " ".join(stripped.split()).lower(
                ).startswith("warning: stale state database replicas"):
            return False
        if self.config.devices:
            self.error("stale-replica banner after the first device", lineno)
        self.config.stale_replicas = True
        return True

    def _device(self, cursor):
        token = cursor.take()
        if not NAME_RE.match(token):
            cursor.pos = 0
            cursor.error("%r is not a metadevice or hot spare pool name"
                         % token)
        name = token
        if name in self.config:
            cursor.pos = 0
            cursor.error("duplicate device %s (first on line %d)"
                         % (name, self.where[name]))
        keyword = cursor.peek()
        if keyword == "-m":
            device = self._mirror(name, cursor)
        elif keyword == "-p":
            device = self._softpart(name, cursor)
        elif keyword == "-r":
            device = self._raid(name, cursor)
        elif keyword == "-t":
            device = self._trans(name, cursor)
        elif keyword is not None and keyword[0].isdigit():
            device = self._stripe(name, cursor)
        elif _HSP_NAME.match(name) and (keyword is None
                                        or cursor.at_name()):
            device = self._hsp(name, cursor)
        elif keyword is None:
            cursor.error("%s has no definition" % name)
        else:
            cursor.error("unknown keyword %r after %s" % (keyword, name))
        self.config.add(device)
        self.where[name] = cursor.linenos[0]

    def _ref(self, cursor, what, meta=False):
        """The short name of the next token, remembering whether its path
        says metadevice or disk, for the checks at the end."""
        token = cursor.peek()
        if token is None:
            cursor.error("missing %s" % what)
        name = short_name(token)
        if name is None or token.startswith("-") or _NUMBER.match(token):
            cursor.error("expected %s, found %r" % (what, token))
        lineno = cursor.linenos[cursor.pos]
        if meta or is_metadevice_path(token):
            self.meta_refs.append((name, lineno))
        elif name != token:
            self.disk_refs.append((name, lineno))
        cursor.pos += 1
        return name

    def _mirror(self, name, cursor):
        cursor.take()
        submirrors = []
        while cursor.at_name():
            submirrors.append(self._ref(cursor, "submirror", meta=True))
        if not submirrors:
            cursor.error("mirror %s has no submirrors" % name)
        if len(submirrors) > NMIRROR:
            cursor.error("mirror %s has more than %d submirrors"
                         % (name, NMIRROR))
        if len(set(submirrors)) != len(submirrors):
            cursor.error("mirror %s names a submirror twice" % name)
        mirror = Mirror(name, submirrors)
        seen = set()
        while cursor.peek() in ("-r", "-g", "-S"):
            option = cursor.take()
            if option in seen or (option != "-S" and seen - {"-S"}):
                cursor.pos -= 1
                cursor.error("conflicting mirror option %r" % option)
            seen.add(option)
            if option == "-S":
                mirror.write_option = "serial"
            else:
                mirror.read_option = "first" if option == "-r" else "geometric"
        mirror.pass_num = cursor.number("the pass number")
        if mirror.pass_num > PASS_MAX:
            cursor.pos -= 1
            cursor.error("pass number %d is not 0-%d"
                         % (mirror.pass_num, PASS_MAX))
        cursor.end()
        return mirror

    def _stripe(self, name, cursor):
        stripe = Stripe(name)
        nrows = cursor.number("the number of stripes")
        if nrows < 1:
            cursor.pos -= 1
            cursor.error("%s has no stripes" % name)
        for index in range(nrows):
            if cursor.peek() is None:
                cursor.error("%s: expected %d stripes, found %d"
                             % (name, nrows, index))
            ncomp = cursor.number("the number of components")
            if ncomp < 1:
                cursor.pos -= 1
                cursor.error("%s: stripe %d has no components"
                             % (name, index))
            row = Row()
            for found in range(ncomp):
                if not cursor.at_name():
                    cursor.error("%s: stripe %d: expected %d components, "
                                 "found %d" % (name, index, ncomp, found))
                row.components.append(
                    Component(self._ref(cursor, "a component")))
            if cursor.peek() == "-i":
                cursor.take()
                row.interlace_blocks = self._interlace(cursor)
            stripe.rows.append(row)
        if cursor.peek() == "-h":
            cursor.take()
            stripe.hot_spare_pool = self._hsp_ref(cursor)
        cursor.end()
        return stripe

    def _softpart(self, name, cursor):
        cursor.take()
        softpart = SoftPartition(name, self._ref(cursor, "a device"))
        while cursor.peek() == "-o":
            cursor.take()
            offset = cursor.number("an extent offset")
            if cursor.take() != "-b":
                cursor.pos -= 1
                cursor.error("expected -b after the extent offset")
            softpart.extents.append(Extent(offset,
                                           cursor.number("an extent length")))
        if not softpart.extents:
            cursor.error("soft partition %s has no extents" % name)
        cursor.end()
        return softpart

    def _raid(self, name, cursor):
        cursor.take()
        raid = Raid5(name)
        while cursor.at_name():
            raid.columns.append(Component(self._ref(cursor, "a column")))
        if not raid.columns:
            cursor.error("RAID-5 %s has no columns" % name)
        seen = set()
        while cursor.peek() is not None:
            option = cursor.take()
            if option in seen or option not in ("-k", "-i", "-w", "-h", "-o"):
                cursor.pos -= 1
                cursor.error("unexpected %r" % option)
            seen.add(option)
            if option == "-i":
                raid.interlace_blocks = self._interlace(cursor)
            elif option == "-w":
                raid.prewrite_count = cursor.number("the prewrite count")
            elif option == "-h":
                raid.hot_spare_pool = self._hsp_ref(cursor)
            elif option == "-o":
                raid.original_columns = cursor.number("the column count")
                if not 1 <= raid.original_columns <= len(raid.columns):
                    cursor.pos -= 1
                    cursor.error("bad original column count %d"
                                 % raid.original_columns)
        return raid

    def _trans(self, name, cursor):
        cursor.take()
        # Trans logs may be left out of `metastat -p dN`: no checks.
        master = self._unchecked_ref(cursor, "the master device")
        log = None
        if cursor.at_name():
            log = self._unchecked_ref(cursor, "the log")
        cursor.end()
        return Trans(name, master, log)

    def _hsp(self, name, cursor):
        pool = HotSparePool(name)
        while cursor.peek() is not None:
            spare = self._unchecked_ref(cursor, "a spare")
            pool.spares.append(HotSpare(spare))
        return pool

    def _unchecked_ref(self, cursor, what):
        token = cursor.peek()
        name = short_name(token) if token is not None else None
        if name is None or token.startswith("-") or _NUMBER.match(token):
            cursor.error("expected %s, found %r" % (what, token))
        cursor.pos += 1
        return name

    def _hsp_ref(self, cursor):
        token = cursor.peek()
        if token is None or not _HSP_NAME.match(token):
            cursor.error("expected a hot spare pool name, found %r" % token)
        cursor.pos += 1
        return token

    def _interlace(self, cursor):
        token = cursor.peek()
        match = _INTERLACE.match(token or "")
        if not match or int(match.group(1)) == 0:
            cursor.error("bad interlace %r (expected blocks, like 32b)"
                         % token)
        cursor.pos += 1
        return int(match.group(1))

    def _check_references(self):
        config = self.config
        for name, lineno in self.meta_refs:
            if name not in config:
                self.error("metadevice %s is not defined in the output"
                           % name, lineno)
        for name, lineno in self.disk_refs:
            if name in config:
                self.error("%s is given as a disk but is a metadevice"
                           % name, lineno)
        owner = {}
        for mirror in config.mirrors():
            for sub in mirror.submirrors:
                if not isinstance(config.get(sub), Stripe):
                    self.error("submirror %s of %s is not a concat/stripe"
                               % (sub, mirror.name), self.where[mirror.name])
                if sub in owner:
                    self.error("%s is a submirror of both %s and %s"
                               % (sub, owner[sub], mirror.name),
                               self.where[mirror.name])
                owner[sub] = mirror.name
