# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The SMF record of a configured mirror: the property group `svmram` of
the instance svc:/system/svmram:<mirror>, its properties and their types
(pure: the layout and parsing only; smf.py reads and writes it)."""

from ..errors import ParseError

SERVICE = "svc:/system/svmram"
PG = "svmram"
FORMAT = 1
DEV_VARIABLE = "ramdisk_dev"     # "major,minor" of the ramdisk, at run time
# Properties besides PROPERTIES that a complete record holds.
EXTRA_PROPERTIES = ("ramdisk_dev", "format")

# (property, SMF type); a property holds the intent's field of the same
# name, and disks are stored as "d11,d12".
PROPERTIES = (
    ("mirror", "astring"), ("ram", "astring"), ("ramdisk", "astring"),
    ("size_bytes", "count"), ("link", "astring"), ("method", "astring"),
    ("disks", "astring"), ("read_option", "astring"),
    ("write_option", "astring"), ("pass_num", "count"),
    ("size_blocks", "count"),
)


def fmri(mirror):
    return "%s:%s" % (SERVICE, mirror)


def _value(intent, name):
    value = getattr(intent, name)
    return ",".join(value) if name == "disks" else str(value)


def values(intent, ramdisk_dev):
    """[(property, SMF type, value)] of the record of `intent`, in the
    order smf.write_commands sets them."""
    return [(name, kind, _value(intent, name)) for name, kind in PROPERTIES
            ] + [("ramdisk_dev", "astring", ramdisk_dev),
                 ("format", "count", str(FORMAT))]


def expected(intent, ramdisk_dev):
    """The record smf.write_commands leaves, as {property: value}."""
    values = {name: _value(intent, name) for name, _ in PROPERTIES}
    values.update(ramdisk_dev=ramdisk_dev, format=str(FORMAT))
    return values


def complete(props):
    """Does an observed record hold every property?  A record step that
    stopped part-way leaves some out."""
    names = [name for name, _ in PROPERTIES] + list(EXTRA_PROPERTIES)
    return props is not None and all(name in props for name in names)


def parse(text):
    """`svcprop -p svmram FMRI` output -> {property: value} (strings).
    Lines look like `svmram/mirror astring d10`."""
    record = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        parts = line.split(" ", 2)
        if len(parts) != 3 or not parts[0].startswith(PG + "/"):
            raise ParseError("not a property line", lineno, line, "svcprop")
        record[parts[0][len(PG) + 1:]] = parts[2]
    return record


def to_intent_json(record):
    """The record's properties in the shape Intent.from_json takes."""
    data = dict(record)
    for name in ("size_bytes", "size_blocks", "pass_num"):
        if name in data:
            try:
                data[name] = int(data[name])
            except ValueError:
                pass            # Intent.from_json reports the bad type
    if "disks" in data:
        data["disks"] = [d for d in data["disks"].split(",") if d]
    return data
