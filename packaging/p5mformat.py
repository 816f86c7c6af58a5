# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""IPS actions written in pkgfmt's form, so that `pkgfmt -c` accepts the
manifest packaging/p5m writes.

The rules are those of pkgfmt's default format, v2 (pkg5
src/util/publish/pkgfmt.py: cmplines, write_line and its kvord, grow and
astr), for the actions svmram's manifest has (set, dir, file, link,
license, depend); quoting is pkg5's quote_attr_value
(src/modules/actions/generic.py):

* actions in groups: set, then the file system actions (dir, file, link)
  by path, then license, then depend by type and fmri;
* set pkg.fmri first, then pkg.summary, pkg.description, the other pkg.*
  names, then the rest by name;
* in an action, its key attribute first (path, name, fmri, license); then
  owner (or a link's target), group, mode; then the other attributes by
  name; then multi-valued ones, facet.* and variant.* last (depend: type,
  then fmri);
* an action is one line if it fits in 80 characters; else each attribute
  that does not fit goes to a continuation line ("    ", the line before
  ending in " \\"), a line taking up to 78 characters (80 for the
  action's last value); an action whose only attribute does not fit
  stays on one line;
* dir is followed by two spaces, lining its path up with file's.
"""

from typing import NamedTuple, Sequence, Tuple, Union

Value = Union[str, Tuple[str, ...]]

KEY_ATTRIBUTES = {"set": "name", "dir": "path", "file": "path",
                  "link": "path", "license": "license", "depend": "fmri"}
JOIN = " \\\n    "


class Action(NamedTuple):
    kind: str
    attrs: Sequence[Tuple[str, Value]]
    # The positional field after the action's name: a license's payload.
    payload: str = ""

    def get(self, name):
        return dict(self.attrs).get(name)


def quote(value):
    """pkg5's quote_attr_value."""
    if " " in value or "'" in value or '"' in value or value == "":
        if '"' not in value:
            return '"%s"' % value
        if "'" not in value:
            return "'%s'" % value
        return '"%s"' % value.replace('"', '\\"')
    return value


def manifest_text(actions):
    """The manifest of these actions, sorted and wrapped by pkgfmt's rules."""
    return "".join(action_text(a) + "\n" for a in sorted(actions,
                                                          key=_order))


def _order(action):
    """pkgfmt's cmplines (v2) for these kinds, as a sort key; ties fall
    back on the action's text, as pkgfmt's do on its string form."""
    if action.kind == "set":
        name = action.get("name")
        first = ("pkg.fmri", "pkg.summary", "pkg.description")
        rank = first.index(name) if name in first else (
            3 if name.startswith("pkg.") else 4)
        key = (1, rank, name)
    elif action.kind == "license":
        key = (4, action.get("license"))
    elif action.kind == "depend":
        key = (5, action.get("type"), action.get("fmri"))
    else:
        key = (2, action.get("path"), action.get("target") or "")
    return key + (action_text(action),)


def _attribute_rank(kind, name, value):
    """pkgfmt's kvord (v2)."""
    if name.startswith("variant."):
        return 7
    if name.startswith("facet."):
        return 6
    if isinstance(value, tuple):
        return 5
    ranks = ({"type": 0, "fmri": 1} if kind == "depend" else
             {"owner": 1, "target": 1, "group": 2, "mode": 3})
    if name in ranks:
        return ranks[name]
    return 0 if name == KEY_ATTRIBUTES[kind] else 4


def action_text(action):
    words = []
    for name, value in sorted(action.attrs, key=lambda a: (
            _attribute_rank(action.kind, *a), a[0])):
        values = sorted(value) if isinstance(value, tuple) else [value]
        words += ["%s=%s" % (name, quote(v)) for v in values]
    head = action.kind + (" " + action.payload if action.payload else "")
    text, first_line_count = _wrap(head, words)
    # A lone attribute that cannot fit stays on the action's line.
    positional = 1 if action.payload else 0
    if (first_line_count + positional == 0 and len(words) == 1
            and JOIN in text):
        text = head + " " + words[0]
    if action.kind == "dir":
        text = "dir  " + text[len("dir "):]
    return text


def _wrap(head, words):
    """pkgfmt's grow: the text, and how many words its first line has."""
    text, first_line_count = head, None
    for index, word in enumerate(words):
        last = index == len(words) - 1
        # pkgfmt counts from the last newline itself, as here.
        line_length = len(text) - max(text.rfind("\n"), 0)
        if line_length + len(word) < (80 if last else 78):
            text += " " + word
        else:
            text += JOIN + word
            if first_line_count is None:
                first_line_count = index
    return text, len(words) if first_line_count is None else first_line_count
