# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Parse plain ``metastat`` / ``metastat dN`` output into a Config.

One pass over the lines.  A line of the form ``NAME: Mirror`` (and the
other device headers) starts a section; every other line belongs to the
current section, which knows the keyword lines and tables it may hold.
Indentation is ignored (tabs, spaces and the no-break spaces of text
copied from web pages alike), and so are blank lines and trailing
blanks, so the Solaris 9 and the Solaris 10/illumos layouts both parse.
Keywords, headers and state words are read in any letter case (the
option flags -g, -r and -S keep theirs).  The older layouts are taken
too: DiskSuite's tables without the Reloc (or State) column, its trans
tables without Reloc, and Solaris 9 hot spare rows without their column
header.

Formats (illumos-gate usr/src/lib/lvm/libmeta/common): meta_mirror.c
mirror_report, meta_stripe.c stripe_report, meta_raid.c raid_report,
meta_sp.c meta_sp_report, meta_trans.c trans_report and log_report,
meta_hotspares.c hsp_report, meta_print.c meta_print_devid; the stale
replica banner is in usr/src/cmd/lvm/util/metastat.c.

``metastat -t`` (timestamps) is not supported; ``metastat -c``
(concise) output is refused by name.  A device printed twice
(``metastat d10 d13`` with d13 in d10) is refused as a duplicate.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ..errors import ParseError
from .model import (COMPONENT_STATES, HOT_SPARE_STATES, LOG_STATES,
                    NAME_RE, RAID_COLUMN_STATES, RAID_STATES, SOFTPART_STATES,
                    SUBMIRROR_STATES, TRANS_STATES, Component, Config, Extent,
                    HotSpare, HotSparePool, Mirror, Raid5, Relocation, Row,
                    SoftPartition, Stripe, Trans, short_name, spellings)
from .names import PASS_MAX

SOURCE = "metastat"

_SUBMIRROR_STATE = MappingProxyType(spellings(SUBMIRROR_STATES))
_COMPONENT_STATE = MappingProxyType(spellings(COMPONENT_STATES))
_RAID_STATE = MappingProxyType(spellings(RAID_STATES))
_RAID_COLUMN_STATE = MappingProxyType(spellings(RAID_COLUMN_STATES))
_SOFTPART_STATE = MappingProxyType(spellings(SOFTPART_STATES))
_TRANS_STATE = MappingProxyType(spellings(TRANS_STATES))
_LOG_STATE = MappingProxyType(spellings(LOG_STATES))
_HOT_SPARE_STATE = MappingProxyType(spellings(HOT_SPARE_STATES))
_YES_NO = MappingProxyType({"yes": True, "no": False})

# Blanks between words may be any run of spaces or tabs.
# "KEY: value": the first colon followed by a blank.
_KEY = re.compile(r":\s")
# The part after "NAME: " of a section header.
_HEADER = re.compile(r"(?:(?P<simple>mirror|concat/stripe|raid"
                     r"|soft\s+partition)"
                     r"|submirror\s+of\s+(?P<parent>\S+)"
                     r"|(?P<trans>trans(?:\s+\(.*\))?)"
                     r"|logging\s+device\s+for\s+(?P<logged>\S+(?:\s+\S+)*)"
                     r"|(?P<spares>[0-9]+)\s+hot\s+spares?(?:\s+\(.*\))?"
                     r"|is\s+empty)\s*\Z", re.I)
_SLOT = re.compile(r"Submirror\s+([0-9]+)\Z", re.I)
_STRIPE = re.compile(r"Stripe\s+([0-9]+):(?:\s+\(interlace:\s+([0-9]+)\s+"
                     r"blocks\))?\Z", re.I)
_COLUMNS = re.compile(r"Device\s+Start\s+Block\s+Dbase(\s+State)?(\s+Reloc)?"
                      r"(\s+Hot\s+Spare)?\Z", re.I)
_SIZE = re.compile(r"([0-9]+)\s+blocks(?:\s*\([^()]*\))?\Z", re.I)
_BLOCKS = re.compile(r"([0-9]+)\s+blocks\Z", re.I)
_PERCENT = re.compile(r"([0-9]+)(?:\.([0-9]))?\s*%\s*done\Z", re.I)
# The option flags keep their case: -S is not -s.
_READ = re.compile(r"((?i:roundrobin|geometric|first))\s+"
                   r"\(((?i:default)|-g|-r)\)\Z")
_WRITE = re.compile(r"((?i:parallel|serial))\s+\(((?i:default)|-S)\)\Z")
_READ_FLAG = MappingProxyType(
    {"roundrobin": "default", "geometric": "-g", "first": "-r"})
_WRITE_FLAG = MappingProxyType({"parallel": "default", "serial": "-S"})
_NUMBER = re.compile(r"[0-9]+\Z")
_INVOKE_MORE = re.compile(r"(?:metareplace|metasync|metaonline|metastat|"
                          r"umount|fsck|mount)\s")
_EXTENTS = re.compile(r"Extent\s+Start\s+Block\s+Block\s+count\Z", re.I)
_EXTENT = re.compile(r"([0-9]+)\s+([0-9]+)\s+([0-9]+)\Z")
# DiskSuite 4.2.1 prints the trans tables without the Reloc column.
_MASTER_TABLE = re.compile(r"Master\s+Device\s+Start\s+Block\s+Dbase"
                           r"(?:\s+Reloc)?\Z", re.I)
_LOG_TABLE = re.compile(r"Logging\s+Device\s+Start\s+Block\s+Dbase"
                        r"(?:\s+Reloc)?\Z", re.I)
_SPARE_TABLE = re.compile(r"Device\s+Status\s+Length(?:\s+Reloc)?\Z", re.I)
_RELOC_TABLE = re.compile(r"Device\s+Reloc\s+Device\s+ID\Z", re.I)
_ABR = " - application based recovery (abr)"           # compared lower-case
_STALE = "warning: stale state database replicas"       # compared lower-case
_RELOCATION = "device relocation information"           # compared lower-case
# The time stamp metastat -t adds (meta_print.c meta_print_time,
# "%a %b %e %T %Y"), e.g. "Thu Nov  6 10:12:33 2008".
_TIMESTAMP = re.compile(r"\s[A-Za-z]{3}\s+[A-Za-z]{3}\s+[0-9]{1,2}\s+"
                        r"[0-9]{2}:[0-9]{2}:[0-9]{2}\s+[0-9]{4}\Z")
# A line of `metastat -c` (metastat.c print_concise): name, one-letter
# type, size with a unit, e.g. "d10              m  2.0GB d11 d12".
_CONCISE = re.compile(r"\S+\s+[mrstph]\s+(?:[0-9.]+[KMGTP]?B|-)(?:\s|\Z)")


def _is_banner(s):
    """True for a line of the stale-replica banner (metastat.c)."""
    return s == "****" or " ".join(s.split()).lower().startswith(_STALE)


def parse(text: str) -> Config:
    """The Config (with states) that a plain ``metastat`` output shows."""
    return _Parser(text).run()


class _Parser:
    def __init__(self, text):
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.config = Config(detailed=True)
        self.section = None
        self.where = {}             # device name -> header line number
        self.headers = {}           # column header line -> column flags

    def error(self, message, lineno):
        raise ParseError(message, lineno=lineno, line=self.lines[lineno - 1],
                         source=SOURCE)

    def run(self):
        header = _HEADER.match
        for lineno, line in enumerate(self.lines, 1):
            s = line.strip()
            section = self.section
            if not s:
                if section is not None:     # a blank line ends a table
                    section.invoke_open = section.row = None
                continue
            match = _KEY.search(s)
            i = match.start() if match else -1
            if i > 0:
                key, value = " ".join(s[:i].split()), s[i + 2:].lstrip()
                match = header(value)
                if match is not None and self._header(key, value, match,
                                                      lineno):
                    continue
                value = value.strip()
            elif s[-1] == ":":
                key, value = " ".join(s[:-1].split()), ""
                if key.lower() == _RELOCATION:
                    self._begin(_RelocationSection(self, lineno))
                    continue
            elif section is not None and section.row is not None:
                section.row(s, lineno)
                continue
            else:
                key = value = None
            if section is None:
                if not self._banner(s, lineno):
                    self.error("expected a device header such as "
                               "'d10: Mirror'", lineno)
                continue
            key, handler = section.handler(key)
            if handler is None:
                section.feed(s, key, value, lineno)
            elif key in section.seen:
                section.error("duplicate %s line" % key, lineno)
            else:
                section.invoke_open = None
                section.seen.add(key)
                handler(section, value, lineno)
        if self.section is not None:
            self.section.finish()
        self._check_mirrors()
        self.config.assign_parents()
        return self.config

    def _banner(self, s, lineno):
        if not _is_banner(s):
            if not self.config.devices and _CONCISE.match(s):
                self.error("this is 'metastat -c' (concise) output, which "
                           "is not read; give plain 'metastat' output",
                           lineno)
            return False
        if self.config.devices or self.config.relocation:
            self.error("stale-replica banner after the first device", lineno)
        self.config.stale_replicas = True
        return True

    def _header(self, name, kind, match, lineno):
        """Start a new section if ``name: kind`` is a section header;
        `match` is _HEADER's match of `kind`."""
        if not NAME_RE.match(name):
            return False
        found = match.groupdict()
        if found["simple"] is not None:
            kind = " ".join(found["simple"].split()).lower()
            section = _SIMPLE_SECTIONS[kind](self, lineno, name)
        elif found["parent"] is not None:
            self._expect_submirror(name, found["parent"], lineno)
            section = _StripeSection(self, lineno, name, found["parent"])
        elif found["trans"] is not None:
            section = _TransSection(self, lineno, name)
        elif found["logged"] is not None:
            section = _LogSection(self, lineno, name,
                                  found["logged"].split())
        else:
            section = _HspSection(self, lineno, name,
                                  int(found["spares"] or 0))
        self._begin(section)
        return True

    def _begin(self, section):
        if self.section is not None:
            self.section.finish()
        self.section = section
        device = section.device
        if device is not None:
            if device.name in self.config:
                self.error("duplicate device %s (first on line %d)"
                           % (device.name, self.where[device.name]),
                           section.lineno)
            self.config.add(device)
            self.where[device.name] = section.lineno

    def _expect_submirror(self, name, parent, lineno):
        mirror = self.config.get(parent)
        if not isinstance(mirror, Mirror) or name not in mirror.submirrors:
            self.error("%s is not listed as a submirror of mirror %s above"
                       % (name, parent), lineno)

    def _check_mirrors(self):
        for mirror in self.config.mirrors():
            for sub in mirror.submirrors:
                stripe = self.config.get(sub)
                if not isinstance(stripe, Stripe) or stripe.parent != \
                        mirror.name:
                    self.error("mirror %s: no 'Submirror of' section for %s"
                               % (mirror.name, sub), self.where[mirror.name])


class _Section:
    """Lines of one device section.

    The parser calls the handler ``KEYS`` has for the keyword of a
    ``Keyword: value`` line (once per keyword, unless the handler allows
    more); other lines go to ``feed``.  While ``row`` is set, lines
    without a keyword are table rows and go straight to it.
    """

    KEYS = MappingProxyType({})
    # KEYS by the keyword in lower case: (keyword, handler); each
    # subclass's made once, when the class is (read-only, as KEYS).
    FOLDED = MappingProxyType({})
    device = None
    row = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.KEYS = MappingProxyType(dict(cls.KEYS))
        cls.FOLDED = MappingProxyType(
            {k.lower(): (k, h) for k, h in cls.KEYS.items()})

    def __init__(self, parser, lineno):
        self.parser = parser
        self.lineno = lineno
        self.seen = set()
        self.invoke_open = None     # the object whose Invoke may go on

    @property
    def name(self):
        return self.device.name

    @classmethod
    def handler(cls, key):
        """(canonical keyword, handler) for the keyword of a line, in any
        letter case; (key, None) when this section has no such keyword."""
        if key is None:
            return key, None
        return cls.FOLDED.get(key.lower(), (key, None))

    def error(self, message, lineno=None):
        self.parser.error(message, lineno or self.lineno)

    def feed(self, s, key, value, lineno):
        """A line that is not a ``Keyword: value`` line of this section."""
        if self.invoke_open is not None and _INVOKE_MORE.match(s):
            self.invoke_open.invoke += "\n" + s
            return
        self.invoke_open = None
        self.other(s, key, value, lineno)

    def other(self, s, key, value, lineno):
        if _is_banner(s):
            self.error("stale-replica banner after the first device", lineno)
        self.error("unexpected line in the section of %s" % self.name, lineno)

    def require(self, *keys):
        for key in keys:
            if key not in self.seen:
                self.error("%s: no %s line" % (self.name, key))

    def state(self, value, table, lineno):
        state = table.get(" ".join(value.split()).lower())
        if state is None:
            if _TIMESTAMP.search(value):
                self.error("a state with a time stamp: metastat -t output "
                           "is not read; give plain 'metastat' output",
                           lineno)
            self.error("unknown state %r" % value, lineno)
        return state

    def invoke(self, target, value):
        target.invoke = value
        if not value or value.endswith(":"):
            self.invoke_open = target

    def size(self, value, lineno):
        match = _SIZE.match(value)
        if not match:
            self.error("bad size %r" % value, lineno)
        return int(match.group(1))

    def percent(self, value, lineno):
        """(whole percent, tenths or None) from '15 % done'/' 1.5% done'."""
        match = _PERCENT.match(value)
        if not match:
            self.error("bad percentage %r" % value, lineno)
        whole = int(match.group(1))
        tenths = None
        if match.group(2) is not None:
            tenths = whole * 10 + int(match.group(2))
        if whole > 100 or (tenths or 0) > 1000:
            self.error("bad percentage %r" % value, lineno)
        return whole, tenths

    def name_of(self, value, lineno):
        name = short_name(value)
        if name is None:
            self.error("bad device name %r" % value, lineno)
        return name

    def columns(self, s, lineno):
        """Which of State, Reloc and Hot Spare a column header shows."""
        columns = self.parser.headers.get(s)
        if columns is None:
            match = _COLUMNS.match(s)
            if not match:
                self.error("unsupported column header (metastat -t is not "
                           "supported)", lineno)
            columns = tuple(group is not None for group in match.groups())
            self.parser.headers[s] = columns
        return columns

    def component(self, s, columns, states, lineno):
        """A Component from a table row under a `columns` header."""
        has_state, has_reloc, has_spare = columns
        toks = s.split()
        count = len(toks)
        if count < 3 or not _NUMBER.match(toks[1]):
            self.error("bad component line", lineno)
        dbase = _YES_NO.get(toks[2].lower())
        if dbase is None:
            self.error("bad Dbase value %r" % toks[2], lineno)
        comp = Component(self.name_of(toks[0], lineno), int(toks[1]), dbase)
        i = 3
        if has_state:
            if i + 1 < count:
                comp.state = states.get((toks[i] + " " + toks[i + 1]).lower())
                if comp.state is not None:
                    i += 2
            if comp.state is None:
                if i >= count:
                    self.error("component without a state", lineno)
                comp.state = self.state(toks[i], states, lineno)
                i += 1
        if has_reloc and i < count and toks[i].lower() in _YES_NO:
            comp.reloc = _YES_NO[toks[i].lower()]
            i += 1
        if has_spare and i < count:
            comp.hot_spare = self.name_of(toks[i], lineno)
            i += 1
        if i != count:
            self.error("unexpected %r in component line" % toks[i], lineno)
        return comp


class _MirrorSection(_Section):
    def __init__(self, parser, lineno, name):
        super().__init__(parser, lineno)
        self.device = Mirror(name, slots=[], submirror_states=[])
        self.awaiting_state = None      # line of a submirror without State

    def other(self, s, key, value, lineno):
        match = _SLOT.match(key) if key is not None else None
        if match is None:
            return super().other(s, key, value, lineno)
        if self.seen & {"Pass", "Read option", "Write option", "Size"}:
            self.error("Submirror line after the mirror options", lineno)
        self._expect_no_state()
        mirror = self.device
        sub = short_name(value)
        if sub is None or sub in mirror.submirrors:
            self.error("bad submirror line", lineno)
        mirror.submirrors.append(sub)
        mirror.slots.append(int(match.group(1)))
        self.awaiting_state = lineno

    def _expect_no_state(self):
        if self.awaiting_state is not None:
            self.error("submirror %s has no State line"
                       % self.device.submirrors[-1], self.awaiting_state)

    def _state(self, value, lineno):
        if self.awaiting_state is None:
            self.error("State line without a submirror", lineno)
        self.seen.discard("State")      # one per submirror
        self.device.submirror_states.append(
            self.state(value, _SUBMIRROR_STATE, lineno))
        self.awaiting_state = None

    def _resync(self, value, lineno, what):
        if "resync" in self.seen:
            self.error("two resync lines", lineno)
        self.seen.add("resync")
        mirror = self.device
        mirror.resync = what
        mirror.resync_percent, mirror.resync_tenths = self.percent(value,
                                                                   lineno)

    def _resync_active(self, value, lineno):
        self._resync(value, lineno, "active")

    def _resync_cancelled(self, value, lineno):
        self._resync(value, lineno, "cancelled")

    def _pass(self, value, lineno):
        self._expect_no_state()
        if not _NUMBER.match(value) or int(value) > PASS_MAX:
            self.error("bad pass number %r" % value, lineno)
        self.device.pass_num = int(value)

    def _read(self, value, lineno):
        match = _READ.match(value)
        option = match.group(1).lower() if match else None
        if not match or _READ_FLAG[option] != match.group(2).lower():
            self.error("bad read option %r" % value, lineno)
        self.device.read_option = option

    def _write(self, value, lineno):
        match = _WRITE.match(value)
        option = match.group(1).lower() if match else None
        if not match or _WRITE_FLAG[option].lower() != match.group(2).lower():
            self.error("bad write option %r" % value, lineno)
        self.device.write_option = option

    def _size(self, value, lineno):
        self.device.size_blocks = self.size(value, lineno)

    def _resync_option(self, value, lineno):
        self.device.resync_option = value

    def _owner(self, value, lineno):
        self.device.owner = value

    KEYS = {
        "State": _state,
        "Resync in progress": _resync_active,
        "Resync cancelled": _resync_cancelled,
        "Pass": _pass,
        "Read option": _read,
        "Write option": _write,
        "Resync option": _resync_option,
        "Owner": _owner,
        "Size": _size,
    }

    def finish(self):
        self._expect_no_state()
        if not self.device.submirrors:
            self.error("mirror %s has no submirrors" % self.name)
        self.require("Pass", "Read option", "Write option", "Size")


class _StripeSection(_Section):
    """A ``Concat/Stripe`` or ``Submirror of`` section."""

    def __init__(self, parser, lineno, name, parent):
        super().__init__(parser, lineno)
        self.device = Stripe(name, parent=parent)
        self.table = None           # column flags of the current stripe

    def _state(self, value, lineno):
        self.device.state = self.state(value, _SUBMIRROR_STATE, lineno)

    def _invoke(self, value, lineno):
        self.invoke(self.device, value)

    def _reconnect(self, value, lineno):
        self.device.invoke = value

    def _hsp(self, value, lineno):
        self.device.hot_spare_pool = self.name_of(value, lineno)

    def _size(self, value, lineno):
        self.device.size_blocks = self.size(value, lineno)

    KEYS = {
        "State": _state,
        "Invoke": _invoke,
        "Reconnect disk and invoke": _reconnect,
        "Hot spare pool": _hsp,
        "Size": _size,
    }

    def other(self, s, key, value, lineno):
        rows = self.device.rows
        if key is not None and key[:7].lower() == "stripe ":
            match = _STRIPE.match(s)
            if not match or int(match.group(1)) != len(rows):
                self.error("bad or out-of-order stripe line", lineno)
            self._close_row()
            interlace = match.group(2)
            rows.append(Row(interlace_blocks=int(interlace)
                            if interlace else None))
            self.row = None
        elif key is None and rows and self.row is None \
                and s[:6].lower() == "device":
            self.table = self.columns(s, lineno)
            self.row = self._row
        else:
            super().other(s, key, value, lineno)

    def _row(self, s, lineno):
        self.device.rows[-1].components.append(
            self.component(s, self.table, _COMPONENT_STATE, lineno))

    def _close_row(self):
        rows = self.device.rows
        if rows and not rows[-1].components:
            self.error("%s: stripe %d has no components"
                       % (self.name, len(rows) - 1))

    def finish(self):
        self.require("Size")
        if not self.device.rows:
            self.error("%s has no stripes" % self.name)
        self._close_row()


def _raid_progress(what):
    """Handler for a RAID-5 ``... in progress: %2d.%1d% done`` line."""
    def handler(self, value, lineno):
        if self.device.progress is not None:
            self.error("two progress lines", lineno)
        whole, tenths = self.percent(value, lineno)
        self.device.progress = what
        self.device.progress_tenths = whole * 10 if tenths is None else tenths
    return handler


def _raid_part(name, after):
    """Handler for the ``Original device:`` / ``Concatenated Devices:``
    lines, which must come in that order."""
    def handler(self, value, lineno):
        if value or self.part != after:
            self.error("unexpected %r line" % name, lineno)
        if after is not None:
            self.original = len(self.device.columns)
        self.part, self.table, self.row = name, None, None
    return handler


class _RaidSection(_Section):
    def __init__(self, parser, lineno, name):
        super().__init__(parser, lineno)
        self.device = Raid5(name)
        self.part = None            # None, "Original device", "Concatenated"
        self.table = None
        self.original = 0

    def _state(self, value, lineno):
        self.device.state = self.state(value, _RAID_STATE, lineno)

    def _invoke(self, value, lineno):
        self.invoke(self.device, value)

    def _hsp(self, value, lineno):
        self.device.hot_spare_pool = self.name_of(value, lineno)

    def _interlace(self, value, lineno):
        match = _BLOCKS.match(value)
        if not match:
            self.error("bad interlace %r" % value, lineno)
        self.device.interlace_blocks = int(match.group(1))

    def _size(self, value, lineno):
        size = self.size(value, lineno)
        if self.part is None:
            self.device.size_blocks = size
        self.seen.discard("Size")       # one per part, checked below
        if ("size", self.part) in self.seen:
            self.error("duplicate Size line", lineno)
        self.seen.add(("size", self.part))

    KEYS = {
        "State": _state,
        "Invoke": _invoke,
        "Resync in progress": _raid_progress("resync"),
        "Initialization in progress": _raid_progress("initialization"),
        "Parity regeneration in progress": _raid_progress("regeneration"),
        "Hot spare pool": _hsp,
        "Interlace": _interlace,
        "Size": _size,
        "Original device": _raid_part("Original device", None),
        "Concatenated Devices": _raid_part("Concatenated Devices",
                                           "Original device"),
    }

    def other(self, s, key, value, lineno):
        if key is None and self.part is not None and self.table is None \
                and s[:6].lower() == "device":
            self.table = self.columns(s, lineno)
            self.row = self._row
        else:
            super().other(s, key, value, lineno)

    def _row(self, s, lineno):
        self.device.columns.append(
            self.component(s, self.table, _RAID_COLUMN_STATE, lineno))

    def finish(self):
        self.require("State", "Interlace", "Original device")
        if self.device.size_blocks is None:
            self.error("%s: no Size line" % self.name)
        if not self.device.columns:
            self.error("RAID-5 %s has no columns" % self.name)
        if self.part == "Concatenated Devices":
            self.device.original_columns = self.original


class _SoftPartSection(_Section):
    def __init__(self, parser, lineno, name):
        super().__init__(parser, lineno)
        self.device = SoftPartition(name, device="")
        self.table = None

    def _device(self, value, lineno):
        if self.device.device:
            self.error("duplicate Device line", lineno)
        self.device.device = self.name_of(value, lineno)

    def _state(self, value, lineno):
        if self.device.state is not None:
            self.error("duplicate State line", lineno)
        if value.lower().endswith(_ABR):
            value = value[:-len(_ABR)]
        self.device.state = self.state(value, _SOFTPART_STATE, lineno)

    def _size(self, value, lineno):
        self.device.size_blocks = self.size(value, lineno)

    KEYS = {
        "Device": _device,
        "Component": _device,           # Solaris 9 wording
        "State": _state,
        "Status": _state,               # Solaris 9 wording
        "Size": _size,
    }

    def other(self, s, key, value, lineno):
        sp = self.device
        if key is None and self.row is None and _EXTENTS.match(s):
            self.row = self._extent
        elif key is None and self.table is None and not sp.extents \
                and s[:6].lower() == "device":
            self.table = self.columns(s, lineno)
            self.row = self._component
        else:
            super().other(s, key, value, lineno)

    def _component(self, s, lineno):
        sp = self.device
        comp = self.component(s, self.table, _COMPONENT_STATE, lineno)
        if comp.device != sp.device:
            self.error("component %s is not the device %s"
                       % (comp.device, sp.device), lineno)
        sp.start_block, sp.dbase, sp.reloc = (comp.start_block, comp.dbase,
                                              comp.reloc)
        self.row = None

    def _extent(self, s, lineno):
        extents = self.device.extents
        match = _EXTENT.match(s)
        if not match or int(match.group(1)) != len(extents):
            self.error("bad extent line", lineno)
        extents.append(Extent(int(match.group(2)), int(match.group(3))))

    def finish(self):
        if not self.device.device:
            self.error("%s: no Device line" % self.name)
        if self.device.state is None:
            self.error("%s: no State line" % self.name)
        self.require("Size")
        if not self.device.extents:
            self.error("soft partition %s has no extents" % self.name)


class _TransSection(_Section):
    def __init__(self, parser, lineno, name):
        super().__init__(parser, lineno)
        self.device = Trans(name, master="")

    def _state(self, value, lineno):
        self.device.state = self.state(value, _TRANS_STATE, lineno)

    def _fix(self, value, lineno):
        self.device.invoke = value

    def _size(self, value, lineno):
        self.device.size_blocks = self.size(value, lineno)

    def _master(self, value, lineno):
        self.device.master = self.name_of(value, lineno)

    def _log(self, value, lineno):
        self.device.log = self.name_of(value, lineno)

    KEYS = {
        "State": _state,
        "To Fix": _fix,
        "Size": _size,
        "Master Device": _master,
        "Logging Device": _log,
    }

    def other(self, s, key, value, lineno):
        if key is None and _MASTER_TABLE.match(s):
            self.row = self._device_row
        else:
            super().other(s, key, value, lineno)

    def _device_row(self, s, lineno):
        self.component(s, (False, True, False), {}, lineno)
        self.row = None

    def finish(self):
        self.require("State", "Size", "Master Device")


class _Invoke:
    invoke = None


class _LogSection(_Section):
    """``dN: Logging device for dM``: the log's state goes to the trans."""

    def __init__(self, parser, lineno, log, trans_names):
        super().__init__(parser, lineno)
        self.log = log
        self.trans = []
        for name in trans_names:
            trans = parser.config.get(name)
            if not isinstance(trans, Trans) or trans.log != log:
                self.error("%s is not the log of a trans device %s above"
                           % (log, name))
            self.trans.append(trans)
        self.fix = _Invoke()

    @property
    def name(self):
        return self.log

    def _state(self, value, lineno):
        state = self.state(value, _LOG_STATE, lineno)
        for trans in self.trans:
            trans.log_state = state

    def _invoke(self, value, lineno):
        # The umount/fsck/mount advice is not modelled, only accepted.
        self.invoke(self.fix, value)

    def _size(self, value, lineno):
        size = self.size(value, lineno)
        for trans in self.trans:
            trans.log_size_blocks = size

    KEYS = {"State": _state, "Invoke": _invoke, "Size": _size}

    def other(self, s, key, value, lineno):
        if key is None and _LOG_TABLE.match(s):
            self.row = self._device_row
        else:
            super().other(s, key, value, lineno)

    def _device_row(self, s, lineno):
        self.component(s, (False, True, False), {}, lineno)
        self.row = None

    def finish(self):
        self.require("State", "Size")


class _HspSection(_Section):
    def __init__(self, parser, lineno, name, count):
        super().__init__(parser, lineno)
        self.device = HotSparePool(name)
        self.count = count

    def other(self, s, key, value, lineno):
        if key is None and self.row is None and not self.device.spares:
            # Solaris 9 printed the spares without the column header
            # (Solaris Volume Manager Administration Guide, "Example--
            # Viewing Hot Spare Pool Status").
            self.row = self._spare
            if not _SPARE_TABLE.match(s):
                self._spare(s, lineno)
        else:
            super().other(s, key, value, lineno)

    def _spare(self, s, lineno):
        toks = s.split()
        state_words = 2 if len(toks) > 1 and toks[1].lower() == "in" else 1
        rest = toks[1 + state_words:]
        if len(rest) not in (2, 3) or rest[1].lower() != "blocks" \
                or not _NUMBER.match(rest[0]):
            self.error("bad hot spare line", lineno)
        state = self.state(" ".join(toks[1:1 + state_words]),
                           _HOT_SPARE_STATE, lineno)
        reloc = None
        if len(rest) == 3:
            reloc = _YES_NO.get(rest[2].lower())
            if reloc is None:
                self.error("bad Reloc value %r" % rest[2], lineno)
        self.device.spares.append(HotSpare(self.name_of(toks[0], lineno),
                                           state, int(rest[0]), reloc))

    def finish(self):
        if len(self.device.spares) != self.count:
            self.error("hot spare pool %s: header says %d spares, found %d"
                       % (self.name, self.count, len(self.device.spares)))


class _RelocationSection(_Section):
    """The ``Device Relocation Information:`` trailer."""

    name = "Device Relocation Information"

    # A blank line ends a table (row = None), and real metastat output can
    # end with blank lines, so whether the header came is kept apart.
    header_seen = False

    def feed(self, s, key, value, lineno):
        if self.row is None:
            if not _RELOC_TABLE.match(s):
                self.error("expected 'Device Reloc Device ID'", lineno)
            self.row = self._relocation
            self.header_seen = True
        else:
            self._relocation(s, lineno)

    def _relocation(self, s, lineno):
        toks = s.split(None, 2)
        reloc = _YES_NO.get(toks[1].lower()) if len(toks) == 3 else None
        if reloc is None:
            self.error("bad relocation line", lineno)
        self.parser.config.relocation.append(Relocation(
            self.name_of(toks[0], lineno), reloc,
            None if toks[2] == "-" else toks[2]))

    def finish(self):
        if not self.header_seen:
            self.error("no 'Device Reloc Device ID' header")


_SIMPLE_SECTIONS = MappingProxyType({
    "mirror": _MirrorSection,
    "concat/stripe": lambda parser, lineno, name: _StripeSection(
        parser, lineno, name, None),
    "raid": _RaidSection,
    "soft partition": _SoftPartSection,
})


# metastat.c main runs meta_smf_isonline() after printing everything and
# exits 1 with MDE_SMF_NO_SERVICE, whose name lists each core service that
# is not online as "\n\t%s" (meta_smf.c online(), meta_error.c).
_SMF_NOT_ONLINE = re.compile(
    r"metastat: [^\n]+?: ((?:\n\t[a-z0-9/_.-]+:[a-z0-9_.-]+)+): "
    r"service\(s\) not online in SMF\n\n?\Z")


def smf_not_online(stderr):
    """The services metastat's stderr names as not online in SMF, when that
    message is all it holds; None otherwise."""
    m = _SMF_NOT_ONLINE.match(stderr)
    if m is None:
        return None
    return tuple(m.group(1).split("\n\t")[1:])
