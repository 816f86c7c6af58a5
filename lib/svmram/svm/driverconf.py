# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
r"""driver.conf as the illumos kernel reads it (modsysfile.c; pure): the
lexer (lex), the statements, the properties they set (read), the
assignment a driver's string lookup finds (found), and the kernel's stoi.
sizing.py reads ramdisk.conf's percent_physmem with it.

Written from the kernel's source (illumos-gate 15c5e8a; the emulator's
svmsim/drvconf.py is a separate reading of the same C, and
tests/svmsim/test_drvconf_agrees.py holds the two together):

* kobj_lex (kobj_lex.h for the character classes) skips ' ' and '\t'
  before every token.  '#' runs to before the next '\n', '\r' or '\f'
  (kobj_find_eol; every caller here skips comments that way).  A quoted
  string takes '\c' as c and '\' with octal digits as that character,
  and ends early at a NUL (strcpy); a '\n' or the end of the file
  before its '"' warns "Missing \"" and the string is "\n".  Numbers:
  digits, or 0x and hex digits, '-' or '~' in front; a name: a letter,
  '_' or '\' (which takes the next character in), then letters,
  digits, '_', '-'; a lone '-' is a name.  '\f' with the blanks after
  it, '&', '|', '*', ':', '/' and any other character are tokens no
  driver.conf statement takes.
* hwc_parse_now: a name starts a statement; any other token outside a
  statement warns and is skipped.
* get_hwc_spec: a statement runs to ';', across newlines: entries
  `key`, `key=v1,v2...` (all strings or all numbers), `name="..."`,
  `parent="..."`, `class="..."`.  A token out of place warns and is
  skipped; a token no statement takes, the end of the file, or a second
  name/parent/class drops the whole statement (the tokens after it are
  read as a new start); an entry still waiting for a value at ';' is
  lost; a statement with name but neither parent nor class, or with
  parent or class but no name, is dropped (hwc_parse_now); make_prop
  skips a key with a character below '!' or one of / \\ : [ ] @.
* A property's value here: (first string, True) for strings (what
  ddi_prop_lookup_string gives), (numbers as written joined by ',',
  False) for numbers, (None, False) for a key alone (a boolean, an
  integer 0).  Which assignment the driver sees: found().
"""

from types import MappingProxyType

_NAMECHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_HEX = frozenset("0123456789abcdefABCDEF")
_KEYWORDS = MappingProxyType({
    "name": "name", "NAME": "name", "parent": "parent",
    "PARENT": "parent", "class": "class", "CLASS": "class"})


def lex(text):
    """kobj_lex over the whole text, comments left out: a list of (kind,
    text, line); kinds: name str int = , ; newline eof other, and
    'missing-quote' problems as (line, message) after it."""
    out, problems, i, n = [], [], 0, len(text)

    def line_at(pos):
        return text.count("\n", 0, min(pos, n)) + 1

    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            out.append(("eof", "", line_at(n)))
            return out, problems
        start, c = i, text[i]
        i += 1
        if c == "#":
            while i < n and text[i] not in "\n\r\f":
                i += 1
        elif c in "\n\r":
            out.append(("newline", c, line_at(start)))
        elif c in "=,;":
            out.append((c, c, line_at(start)))
        elif c == "\f":
            while i < n and text[i] in " \t\f":
                i += 1
            out.append(("other", text[start:i], line_at(start)))
        elif c == '"':
            chars = []
            while True:
                if i >= n or text[i] == "\n":
                    problems.append((line_at(i), 'a " is missing'))
                    chars = ["\n"]
                    break
                ch = text[i]
                i += 1
                if ch == '"':
                    break
                if ch != "\\":
                    chars.append(ch)
                elif i >= n:
                    chars.append("\xff")           # (char)-1
                elif not "0" <= text[i] <= "9":
                    chars.append(text[i])
                    i += 1
                else:
                    code = 0
                    while i < n and "0" <= text[i] <= "7":
                        code = code * 8 + int(text[i])
                        i += 1
                    chars.append(chr(code & 0xff))
            out.append(("str", "".join(chars).split("\0")[0],
                        line_at(start)))
        else:
            lead = ""
            if c in "-~":
                nxt = text[i] if i < n else None
                i += 1
                if c == "-" and nxt in (" ", "\t", "\n"):
                    i -= 1
                    out.append(("name", "-", line_at(start)))
                    continue
                lead, c = c, nxt
            if c is not None and "0" <= c <= "9":
                if c == "0" and i < n and text[i] == "x":
                    i += 1
                    while i < n and text[i] in _HEX:
                        i += 1
                else:
                    while i < n and "0" <= text[i] <= "9":
                        i += 1
                out.append(("int", text[start:i], line_at(start)))
            elif c is not None and (c in "_\\" or c.isascii()
                                    and c.isalpha()):
                chars, i = [lead], i - 1
                while i < n and (text[i] in _NAMECHARS
                                 or text[i] == "\\"):
                    if text[i] == "\\":
                        i += 1
                        chars.append(text[i] if i < n else "\xff")
                    else:
                        chars.append(text[i])
                    i += 1
                out.append(("name", "".join(chars), line_at(start)))
            else:
                out.append(("other", lead + (c or ""), line_at(start)))


def _value(values):
    if not values:
        return (None, False)
    if values[0][0] == "str":
        return (values[0][1], True)
    return (",".join(v for _, v in values), False)


def _statement(tokens, k, problems):
    """get_hwc_spec from tokens[k], a name: (index after the statement,
    {key: value} it sets, whether it is a node statement)."""
    props, node, key, values, state = {}, {}, None, [], "start"

    def finish():
        if any(ord(ch) < 0x21 or ch in "/\\:[]@" for ch in key):
            problems.append((line, "the property name %r is invalid" % key))
        else:
            props[key] = _value(values)

    def odd():
        problems.append((line, "%r is out of place" % word))

    while True:
        kind, word, line = tokens[k]
        if kind == "eof":
            problems.append((line, "the file ends before the ';'"))
            return k, {}, False
        k += 1
        if kind == "other":
            problems.append((line, "%r drops the statement" % word))
            return k, {}, False
        if kind == "name":
            if state in ("start", "key", "str", "int"):
                if state != "start":
                    finish()
                values = []
                kw = _KEYWORDS.get(word)
                state, key = ("kw " + kw, word) if kw else ("key", word)
            else:
                odd()
        elif kind == "=":
            if state == "key" or state.startswith("kw ") and \
                    not state.endswith("="):
                state += "="
            else:
                odd()
        elif kind == "str":
            if state in ("kw name=", "kw parent=", "kw class="):
                kw = state[3:-1]
                if kw in node:
                    problems.append((line, "a second %s= drops the "
                                     "statement" % kw))
                    return k, {}, False
                node[kw] = word
                if kw == "class":
                    values, state = [("str", word)], "str"
                else:
                    state = "start"
            elif state in ("key=", "str,"):
                values.append(("str", word))
                state = "str"
            else:
                odd()
        elif kind == "int":
            if state in ("key=", "int,"):
                values.append(("int", word))
                state = "int"
            else:
                odd()
        elif kind == ",":
            if state in ("str", "int"):
                state += ","
            else:
                odd()
        if tokens[k][0] == ";":
            line = tokens[k][2]
            k += 1
            break
    if state in ("key", "str", "int"):
        finish()
    elif state != "start":
        problems.append((line, "the statement ends without a value"))
    if ("name" in node) == ("parent" in node or "class" in node):
        return k, props, "name" in node
    problems.append((line, "the statement has %s" % (
        "a name but no parent or class" if "name" in node else
        "a parent or class but no name")))
    return k, {}, False


def _statements(text, problems):
    """The statements of a driver.conf as the kernel reads them, in file
    order: (their tokens, {key: value} each sets, whether it is a node
    statement); what the kernel warns of goes into `problems`."""
    tokens, lexed = lex(text)
    problems.extend(lexed)
    k = 0
    while tokens[k][0] != "eof":
        kind, word, line = tokens[k]
        if kind == "name":
            start = k
            k, got, is_node = _statement(tokens, k, problems)
            yield tokens[start:k], got, is_node
        else:
            if kind != "newline":
                problems.append((line, "%r is out of place" % word))
            k += 1


def read(text):
    """A driver.conf as the kernel reads it: ({key: (value, quoted)},
    [(line, problem)]), the problems being where the kernel warns."""
    props, problems = {}, []
    for _, got, _ in _statements(text, problems):
        props.update(got)
    problems.sort(key=lambda p: p[0])
    return props, problems


def found(text, key):
    """What the driver's ddi_prop_lookup_string finds for `key`, as
    (value, quoted, line of the key): the node statement's string value
    (its system properties, searched before the driver's global list:
    sunddi.c ddi_prop_search_common), else the first global statement's
    string value (global properties are kept in file order, modsysfile.c
    add_props), else the last value the lookup passes over (a number or
    a boolean), for the note; None without any.  (svmsim/drvconf.py
    lookup is the emulator's reading of the same.)"""
    node = first_global = other = None
    for tokens, got, is_node in _statements(text, []):
        if key not in got:
            continue
        line = [t[2] for t in tokens if t[:2] == ("name", key)][-1]
        match = got[key] + (line,)
        if not got[key][1]:
            other = match
        elif is_node:
            node = match
        elif first_global is None:
            first_global = match
    return node or first_global or other


def stoi(text):
    n = 0
    for ch in text:
        if not "0" <= ch <= "9":
            break
        n = n * 10 + ord(ch) - ord("0")
    return n
