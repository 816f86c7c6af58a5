# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Parsers for what Linux md, brd and mdadm print (pure).

Each parser takes the exact text (a sysfs attribute with its newline,
/proc/mdstat) and returns plain values, or
raises ParseError: svmram refuses output it does not understand instead
of guessing.  The formats, with their sources:

* sysfs attributes of md: torvalds/linux drivers/md/md.c (level_show,
  raid_disks_show, array_state_show and array_states[], action_show,
  sync_completed_show, sync_speed_show, degraded_show, sync_speed_min_show/max,
  component_size_show, resync_start_show, metadata_show; per member
  state_show, slot_show, offset_show, rdev_size_show,
  recovery_start_show, and since 6.18 bitmap_type_show) and
  drivers/md/md-bitmap.c (location_show, backlog_show; bitmap_ops'
  name "bitmap"), drivers/md/md-llbitmap.c (llbitmap_ops' name
  "llbitmap"); Documentation/admin-guide/md.rst.
* brd's module parameters: drivers/block/brd.c, module_param(rd_size,
  ulong, 0444) and module_param(rd_nr, int, 0444), printed by
  param_get_ulong/param_get_int as "%lu\\n" / "%d\\n".
* /proc/mdstat: md.c md_seq_show, status_resync, raid1.c raid1_status,
  md-bitmap.c md_bitmap_status.
"""

import re
from types import MappingProxyType

from ..errors import ParseError

# --- sysfs attributes --------------------------------------------------------

ARRAY_STATES = ("clear", "inactive", "suspended", "readonly", "read-auto",
                "clean", "active", "write-pending", "active-idle", "broken")
SYNC_ACTIONS = ("idle", "frozen", "resync", "recover", "check", "repair",
                "reshape")
# state_show's words, in the order it prints them.
MEMBER_FLAGS = ("faulty", "in_sync", "journal", "write_mostly", "blocked",
                "spare", "write_error", "want_replacement", "replacement",
                "external_bbl", "failfast")
# Personality names (md_personality.name) and what mdadm's map_num(pers)
# prints for MD_LEVEL.
LEVELS = ("linear", "raid0", "raid1", "raid4", "raid5", "raid6", "raid10",
          "multipath", "faulty", "container")

_UINT = re.compile(r"(0|[1-9][0-9]*)\Z")
_SIGNED = re.compile(r"[+-](0|[1-9][0-9]*)\Z")


def _value(text, what):
    """The one line of a sysfs attribute, without its newline."""
    if not isinstance(text, str) or not text.endswith("\n") or \
            text.count("\n") != 1:
        raise ParseError("expected one line ending in a newline", 1, text,
                         what)
    return text[:-1]


def _uint(value, what, line=None):
    if not _UINT.match(value):
        raise ParseError("expected a whole number", 1,
                         value if line is None else line, what)
    return int(value)


def uint_attr(text, what):
    """degraded, component_size, offset, size, bitmap/backlog,
    bitmap/chunksize, mismatch_cnt, rd_size, rd_nr, /sys/block/X/size."""
    return _uint(_value(text, what), what)


# level_show prints a level that was set as a number ("%d\n").
_LEVEL_NUMBERS = MappingProxyType(
    {"-4": "multipath", "-5": "faulty", "-1": "linear",
     "0": "raid0", "1": "raid1", "4": "raid4", "5": "raid5",
     "6": "raid6", "10": "raid10"})


def level(text):
    """md/level: a personality name, or '' before one is set: level_show
    then returns nothing at all (not even a newline), as it does for an
    array that udev's incremental assembly left inactive (captured)."""
    if text == "":
        return ""
    value = _value(text, "md/level")
    value = _LEVEL_NUMBERS.get(value, value)
    if value not in LEVELS:
        raise ParseError("unknown RAID level", 1, value, "md/level")
    return value


def raid_disks(text):
    """md/raid_disks: "N", or "N (M)" while a reshape changes N to M.
    Returns (N, M or None); (0, None) for the empty text raid_disks_show
    returns while the array has no raid disks set (inactive, captured)."""
    if text == "":
        return 0, None
    value = _value(text, "md/raid_disks")
    match = re.match(r"(0|[1-9][0-9]*)(?: \((0|[1-9][0-9]*)\))?\Z", value)
    if not match:
        raise ParseError("expected N or N (M)", 1, value, "md/raid_disks")
    return int(match.group(1)), (int(match.group(2)) if match.group(2)
                                 else None)


def array_state(text):
    value = _value(text, "md/array_state")
    if value not in ARRAY_STATES:
        raise ParseError("unknown array state", 1, value, "md/array_state")
    return value


def sync_action(text):
    value = _value(text, "md/sync_action")
    if value not in SYNC_ACTIONS:
        raise ParseError("unknown sync action", 1, value, "md/sync_action")
    return value


def sync_completed(text):
    """md/sync_completed: None ("none"), "delayed", or (done, total) in
    sectors."""
    value = _value(text, "md/sync_completed")
    if value == "none":
        return None
    if value == "delayed":
        return "delayed"
    match = re.match(r"(0|[1-9][0-9]*) / (0|[1-9][0-9]*)\Z", value)
    if not match or int(match.group(1)) > int(match.group(2)):
        raise ParseError("expected none, delayed or DONE / TOTAL", 1, value,
                         "md/sync_completed")
    return int(match.group(1)), int(match.group(2))


def sync_rate(text):
    """md/sync_speed: the resync's or recovery's rate in KiB/s, None
    ("none") when md runs none.  md.c sync_speed_show: "none\\n" while
    curr_resync is MD_RESYNC_NONE, else "%lu\\n" of the sectors done
    since the resync's mark (up to about 30 s back) over the seconds
    since it, halved ("K/sec"); the captured trees show "none" when idle
    (tests/md/fixtures/vm-*.sysfs.txt)."""
    value = _value(text, "md/sync_speed")
    return None if value == "none" else _uint(value, "md/sync_speed")


def none_or_uint(text, what):
    """md/resync_start, md/dev-*/recovery_start: None for "none"."""
    value = _value(text, what)
    return None if value == "none" else _uint(value, what)


def sync_speed(text, what):
    """md/sync_speed_min and _max: "N (system)" or "N (local)".
    Returns (KiB/s, local)."""
    value = _value(text, what)
    match = re.match(r"(0|[1-9][0-9]*) \((system|local)\)\Z", value)
    if not match:
        raise ParseError("expected N (system) or N (local)", 1, value, what)
    return int(match.group(1)), match.group(2) == "local"


def metadata_version(text):
    """md/metadata_version: "none", "0.90", "1.2", "external:imsm"..."""
    value = _value(text, "md/metadata_version")
    if value == "none" or re.match(r"[0-9]+\.[0-9]+\Z", value) or \
            re.match(r"external:\S+\Z", value):
        return value
    raise ParseError("unknown metadata version", 1, value,
                     "md/metadata_version")


def member_state(text):
    """md/dev-*/state: the set of state_show's words ('' when none)."""
    value = _value(text, "md/dev-*/state")
    if not value:
        return frozenset()
    words = value.split(",")
    for word in words:
        if word not in MEMBER_FLAGS:
            raise ParseError("unknown member state", 1, value,
                             "md/dev-*/state")
    if len(set(words)) != len(words):
        raise ParseError("a member state twice", 1, value, "md/dev-*/state")
    return frozenset(words)


def slot(text):
    """md/dev-*/slot: a slot number, None ("none": a spare or a failed
    member) or "journal"."""
    value = _value(text, "md/dev-*/slot")
    if value in ("none", "journal"):
        return None if value == "none" else value
    return _uint(value, "md/dev-*/slot")


def bitmap_location(text):
    """md/bitmap/location: "none", "file" or the signed sector offset of an
    internal bitmap from the superblock ("+8")."""
    value = _value(text, "md/bitmap/location")
    if value in ("none", "file") or _SIGNED.match(value):
        return value
    raise ParseError("expected none, file or +N", 1, value,
                     "md/bitmap/location")


def bitmap_type(text):
    """md/bitmap_type (kernel 6.18 and later, md.c bitmap_type_show): the
    kinds of bitmap this kernel has, "none" first, the array's own in
    brackets ("none [bitmap] llbitmap "); returns the bracketed one."""
    value = _value(text, "md/bitmap_type")
    words = value.split()
    chosen = [word[1:-1] for word in words
              if len(word) > 2 and word[0] == "[" and word[-1] == "]"]
    if not words or words[0].strip("[]") != "none" or len(chosen) != 1 or \
            not re.match(r"[a-z][a-z0-9_]*\Z", chosen[0]):
        raise ParseError("expected the kinds of bitmap, one in brackets",
                         1, value, "md/bitmap_type")
    return chosen[0]


def kernel_release(text):
    """/proc/sys/kernel/osrelease ("6.1.0-56-cloud-amd64") as (major,
    minor, patch, the whole string)."""
    value = _value(text, "kernel osrelease")
    match = re.match(r"([0-9]+)\.([0-9]+)(?:\.([0-9]+))?([-+.~_a-zA-Z0-9]*)\Z",
                     value)
    if not match:
        raise ParseError("not a kernel release", 1, value, "kernel osrelease")
    return (int(match.group(1)), int(match.group(2)),
            int(match.group(3) or 0), value)


def meminfo(text):
    """/proc/meminfo: {"MemTotal": KiB, "MemAvailable": KiB, ...}."""
    values = {}
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line and lineno == text.count("\n") + 1:
            break
        match = re.match(r"([A-Za-z][A-Za-z0-9_()]*):[ ]+(0|[1-9][0-9]*)"
                         r"( kB)?\Z", line)
        if not match or match.group(1) in values:
            raise ParseError("unexpected line", lineno, line, "/proc/meminfo")
        values[match.group(1)] = int(match.group(2))
    for needed in ("MemTotal", "MemAvailable"):
        if needed not in values:
            raise ParseError("no %s line" % needed, source="/proc/meminfo")
    return values


# --- /proc/mdstat ------------------------------------------------------------

_HEADER = re.compile(
    r"(?P<name>[A-Za-z0-9_]+) : (?P<active>active|inactive)"
    r"(?: \((?P<ro>read-only|auto-read-only)\))?"
    r"(?: (?P<level>[a-z0-9]+))?(?P<members>(?: [^ \[\]]+\[[0-9]+\]"
    r"(?:\([WJFSR]\))*)*)\Z")
_MEMBER = re.compile(r" ([^ \[\]]+)\[([0-9]+)\]((?:\([WJFSR]\))*)")
_BLOCKS = re.compile(
    r"      (?P<blocks>[0-9]+) blocks(?: super (?P<super>[0-9]+\.[0-9]+|"
    r"external:\S+|non-persistent))?(?P<rest>.*)\Z")
_RAID1 = re.compile(r" \[([0-9]+)/([0-9]+)\] \[([U_]+)\]\Z")
_PROGRESS = re.compile(
    r"      \[=*>\.*\]  (?P<kind>recovery|resync|reshape|check) ="
    r" *(?P<permille>[0-9]+\.[0-9])% \((?P<done>[0-9]+)/(?P<total>[0-9]+)\)"
    r"(?: finish=[0-9]+\.[0-9]min)?(?: speed=[0-9]+K/sec)?\Z")
_WAITING = re.compile(r"      \tresync=(DELAYED|PENDING|REMOTE)\Z")
_BITMAP = re.compile(
    r"      bitmap: [0-9]+/[0-9]+ pages \[[0-9]+KB\], [0-9]+KB chunk"
    r"(?:, file: .+)?\Z")
_PERSONALITIES = re.compile(r"Personalities :(?: \[[a-z0-9]+\])* ?\Z")
_UNUSED = re.compile(r"unused devices: (?:<none>|(?:[^ <>]+ )+)\Z")


def mdstat(text):
    """/proc/mdstat as {array: {"active": bool, "readonly": None,
    "read-only" or "auto-read-only", "level": str or None, "members":
    {name: {"number": n, "flags": "WF"...}}, "blocks": n, "super": "1.2"
    or None, "raid": (disks, working, "UU_") or None, "progress": (kind,
    done, total) or "DELAYED"/"PENDING"/"REMOTE" or None, "percent": the
    whole percent the progress line prints ("23.1%": 23) or None,
    "bitmap": bool}}.

    The percent is md's own (md.c status_resync, per mille of the
    position md has reached), which `svmram status` reports: md's
    md/sync_completed lags behind it by up to a sixteenth of the array.
    """
    what = "/proc/mdstat"
    if not text.endswith("\n"):
        raise ParseError("output does not end with a newline", source=what)
    lines = text[:-1].split("\n")
    if not lines or not _PERSONALITIES.match(lines[0]):
        raise ParseError("no Personalities line", 1, lines[0] if lines
                         else None, what)
    arrays, current, stage, ended = {}, None, None, False
    for lineno, line in enumerate(lines[1:], 2):
        if ended:
            raise ParseError("text after the unused devices line", lineno,
                             line, what)
        if current is None:
            if line == "":
                continue
            if _UNUSED.match(line):
                ended = True
                continue
            match = _HEADER.match(line)
            if not match or match.group("name") in arrays:
                raise ParseError("unexpected line", lineno, line, what)
            active = match.group("active") == "active"
            if active != bool(match.group("level")) or \
                    (match.group("ro") and not active) or \
                    match.group("level") == "container":
                raise ParseError("unexpected array line", lineno, line, what)
            members = {}
            for member in _MEMBER.finditer(match.group("members")):
                if member.group(1) in members:
                    raise ParseError("a member twice", lineno, line, what)
                members[member.group(1)] = {
                    "number": int(member.group(2)),
                    "flags": member.group(3).replace("(", "").replace(
                        ")", "")}
            current = {"active": active, "readonly": match.group("ro"),
                       "level": match.group("level"), "members": members,
                       "blocks": None, "super": None, "raid": None,
                       "progress": None, "percent": None, "bitmap": False}
            arrays[match.group("name")] = current
            stage = "blocks"
            continue
        if stage == "blocks":
            match = _BLOCKS.match(line)
            if match:
                current["blocks"] = int(match.group("blocks"))
                current["super"] = match.group("super")
                rest = match.group("rest")
                raid = _RAID1.match(rest)
                if raid and current["level"] == "raid1":
                    disks, working, map_ = (int(raid.group(1)),
                                            int(raid.group(2)),
                                            raid.group(3))
                    if len(map_) != disks or map_.count("U") != working:
                        raise ParseError("inconsistent [n/m] [U_]", lineno,
                                         line, what)
                    current["raid"] = (disks, working, map_)
                elif rest and (current["level"] == "raid1" or
                               not current["active"]):
                    raise ParseError("unexpected status", lineno, line, what)
                stage = "after"
                continue
            if not current["members"] and line.strip() == "":
                current, stage = None, None      # an array with no member
                continue
            raise ParseError("expected the blocks line", lineno, line, what)
        # after the blocks line: progress, bitmap, then the end of the array
        match = _PROGRESS.match(line)
        if match and stage == "after" and current["progress"] is None:
            done, total = int(match.group("done")), int(match.group("total"))
            if done > total:
                raise ParseError("done beyond the total", lineno, line, what)
            current["progress"] = (match.group("kind"), done, total)
            current["percent"] = int(match.group("permille").split(".")[0])
            continue
        match = _WAITING.match(line)
        if match and stage == "after" and current["progress"] is None:
            current["progress"] = match.group(1)
            continue
        if _BITMAP.match(line) and stage == "after":
            current["bitmap"] = True
            stage = "bitmap"
            continue
        if line.strip() == "" and not (stage == "bitmap" and line):
            current, stage = None, None
            continue
        raise ParseError("unexpected line", lineno, line, what)
    if current is not None or not ended:
        raise ParseError("output ends early (no unused devices line)",
                         source=what)
    return arrays
