# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""json.dumps, json.loads and fnmatch.fnmatchcase, for every emulated
command, without importing json, fnmatch or re.

Every emulated command is a process of its own, and `import json` or
`import fnmatch` also imports re, enum, functools and more: several
milliseconds of each command's start-up (bench/emulator).  dumps and loads
call the C codec that json.dumps and json.loads use, with the same
arguments, so the text and the objects are the same; where it is missing
or refuses, the json package does the work (and raises its own errors).
fnmatchcase decides patterns without `?` and `[` itself and leaves the
rest to fnmatch (tests/svmsim/test_lean.py compares them).  No other
svmsim module is imported here, so the SMF stand-ins (svmsim.smf) can use
it.
"""

# types.MappingProxyType, without importing types: a read-only view of a
# dict, for the emulator's tables (no module holds mutable state:
# tests/svmram/test_module_state.py).
MappingProxyType = type(type.__dict__)

try:
    from _json import (encode_basestring_ascii as _c_string,
                       make_encoder as _c_make_encoder,
                       make_scanner as _c_make_scanner)
except ImportError:          # pragma: no cover (CPython has _json)
    _c_make_encoder = _c_make_scanner = None


def _parse_constant(name):
    return {"-Infinity": float("-inf"), "Infinity": float("inf"),
            "NaN": float("nan")}[name]


# What _json.make_scanner reads of its context, by attribute name:
# json.JSONDecoder's defaults.  A class made from a table, so that the
# names the C code reads are written where this module uses them.
_Decoder = type("_Decoder", (), {
    "strict": True, "object_hook": None, "object_pairs_hook": None,
    "parse_float": float, "parse_int": int,
    "parse_constant": staticmethod(_parse_constant)})


def _default(obj):
    raise TypeError("Object of type %s is not JSON serializable"
                    % type(obj).__name__)


def dumps(obj, sort_keys=False):
    """json.dumps(obj, sort_keys=sort_keys), without importing json."""
    if _c_make_encoder is not None and not isinstance(obj, str):
        try:
            # No markers (json.dumps's check_circular=False): a quarter
            # less time for the SMF repository; a circular structure
            # recurses until RecursionError, and json.dumps below says
            # what it says of it.
            encode = _c_make_encoder(None, _default, _c_string, None, ": ",
                                     ", ", sort_keys, False, True)
            return "".join(encode(obj, 0))
        except (TypeError, ValueError, RecursionError):
            pass                  # json.dumps says what is wrong
    import json
    return json.dumps(obj, sort_keys=sort_keys)


def loads(text):
    """json.loads(text), without importing json for a document that
    starts at the text's first character (as dumps() writes it)."""
    if _c_make_scanner is not None:
        try:
            obj, end = _c_make_scanner(_Decoder())(text, 0)
            if end == len(text) or not text[end:].strip(" \t\n\r"):
                return obj
        except (StopIteration, ValueError, TypeError):
            pass                  # json.loads says what is wrong
    import json
    return json.loads(text)


def fnmatchcase(name, pattern):
    """fnmatch.fnmatchcase(name, pattern); fnmatch only for `?` and `[`.

    fnmatch makes `*` match any run of characters (newlines too) and every
    other character itself, so a pattern of literal parts joined by `*`
    matches when the name starts with the first part, ends with the last,
    and holds the others in order between them."""
    if "?" in pattern or "[" in pattern:
        import fnmatch
        return fnmatch.fnmatchcase(name, pattern)
    parts = pattern.split("*")
    if len(parts) == 1:
        return name == pattern
    first, last = parts[0], parts[-1]
    if not name.startswith(first):
        return False
    at = len(first)
    for part in parts[1:-1]:
        found = name.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return len(name) - len(last) >= at and name.endswith(last)
