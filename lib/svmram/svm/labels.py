# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Labels and slots: what decides whether a RAM stripe can be attached to
a mirror, and where metattach and metadetach leave submirrors (pure).

Labels (illumos sources, see docs/emulator-profiles.md):

* a slice that starts at sector 0 holds the disk label
  (meta_nameinfo.c meta_vtoc_to_md); a ramdisk's slice 0 always does
  (ramdisk.c rd_fake_disk_geometry);
* a stripe is labeled when its first component (row 0, component 0) is
  such a slice and holds no replica (meta_stripe.c meta_create_stripe):
  its Start Block is then 0, where a replica would push it past itself;
* a mirror is labeled once a labeled submirror was built into it, and
  stays so (mirror.c build_submirror);
* metattach of a labeled submirror to an unlabeled mirror is refused,
  "can't attach labeled submirror to an unlabeled mirror"
  (mirror_ioctl.c mirror_attach).  Every ramdisk stripe is labeled.

svmram reads the first sector of each disk submirror's first slice with
`prtvtoc -h` (usr/src/cmd/prtvtoc/prtvtoc.c puttable/puttable64: rows of
partition, tag, flags, first sector, sector count, last sector and an
optional mount directory; the widths changed in 2021, the fields did not).
"""

import re

from ..errors import ParseError

_SLICE = re.compile(r"(?:/dev/r?dsk/)?(c[0-9]+(?:t[0-9A-Fa-f]+)?d[0-9]+)"
                    r"s([0-9]+)\Z")
_ROW = re.compile(r"\s*([0-9]+)\s+([0-9]+)\s+([0-9a-fA-F]{2})\s+([0-9]+)"
                  r"\s+([0-9]+)\s+([0-9]+)(?:\s+(\S.*))?\Z")


def slice_of(component):
    """'c0d1s0' -> ('c0d1', 0); None for anything that is not a disk
    slice name (a metadevice, another path)."""
    match = _SLICE.match(component)
    if match is None:
        return None
    return match.group(1), int(match.group(2))


def parse_prtvtoc(text, source="prtvtoc"):
    """{slice: first sector} from `prtvtoc -h` output."""
    starts = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("*"):
            continue
        match = _ROW.match(line)
        if match is None:
            raise ParseError("unexpected line", lineno, line, source)
        part, first, count, last = (int(match.group(i)) for i in (1, 4, 5, 6))
        if count and last != first + count - 1:
            raise ParseError("last sector does not follow from first and "
                             "count", lineno, line, source)
        starts[part] = first
    return starts


def stripe_label(component, first_start, prtvtoc_text):
    """(labeled: True/False/None, why) for a stripe whose first component
    is `component` with metastat's Start Block `first_start`, given the
    `prtvtoc -h` output of its disk (None when it could not be read)."""
    where = slice_of(component)
    if where is None:
        return None, "%s is not a disk slice" % component
    if prtvtoc_text is None:
        return None, "prtvtoc could not read the label of %s" % component
    try:
        starts = parse_prtvtoc(prtvtoc_text)
    except ParseError as error:
        return None, "prtvtoc's output for %s was not understood (%s)" % (
            component, error)
    first = starts.get(where[1])
    if first is None:
        return None, "prtvtoc shows no slice %d on %s" % (where[1], where[0])
    if first != 0:
        return False, "%s starts at sector %d" % (component, first)
    if first_start:
        return False, ("%s starts at sector 0 but holds a replica (its data "
                       "starts at block %d)" % (component, first_start))
    return True, "%s starts at sector 0" % component


def mirror_label(labels):
    """The mirror's label from its disk submirrors': True when one is
    labeled (it made the mirror labeled when it was built in), False when
    none is (an earlier, detached submirror may still have made it
    labeled: svmram cannot see that, so it predicts a refusal that may
    not come), None when one is unknown and none labeled."""
    values = list(labels.values())
    if any(value is True for value in values):
        return True
    if values and all(value is False for value in values):
        return False
    return None


# /etc/release first lines of the illumos distributions that shipped SVM
# (OpenIndiana, OmniOS, SmartOS, and any other that says "illumos").
_ILLUMOS = re.compile(r"illumos|OpenIndiana|OmniOS|SmartOS", re.I)


def release_compacts(release_text):
    """True when /etc/release names an illumos distribution, whose SVM is
    illumos-gate's (mirror_detach compacts the slots); None otherwise
    (Solaris: not known, to be tested)."""
    first = (release_text or "").strip().splitlines()[:1]
    if first and _ILLUMOS.search(first[0]):
        return True
    return None


def has_hole(numbers):
    """Do these slot numbers leave a free slot below a used one?  Only a
    metadetach that does not compact makes one."""
    return bool(numbers) and list(numbers) != list(range(len(numbers)))
