# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SVM error catalogue and the libmeta error format.

mde_perror() prints ``<prog>: <host>: [<name>: ]<message>\\n`` and the message
itself ends in ``\\n`` (meta_error.c mde_vsperror), so every SVM error is
followed by an empty line.
"""

import errno
import os
from svmsim.lean import MappingProxyType

CATALOGUE = MappingProxyType({
    "UNIT_NOT_SETUP": "unit not set up",
    "UNIT_ALREADY_SETUP": "unit already set up",
    "NOT_MM": "unit is not a mirror",
    "NOT_STRIPE": "unit is not a concat/stripe",
    "UNIT_NOT_FOUND": "unit not found",
    "INVAL_UNIT": "invalid unit",
    "IS_OPEN": "metadevice is open",
    "IN_USE": "metadevice in use",
    "IS_MOUNTED": "is mounted on %s",
    "ALREADY": "has appeared more than once in the specification of %s",
    "OVERLAP": "overlaps with device in %s",
    "C_WITH_INVAL_SM":
        "attempted to clear mirror with submirror(s) in invalid state",
    "RESYNC_ACTIVE": "resync in progress",
    "LAST_SM_RE":
        "attempt to replace a component on the last running submirror",
    "MIRROR_FULL": "mirror has maximum number of submirrors",
    "IN_UNAVAIL_STATE":
        "component is in unavailable state; run 'metastat -i'",
    "SM_TOO_SMALL": "submirror too small to attach",
    "SM_OPEN_ERR": "submirror open error",
    "NO_LABELED_SM":
        "can't attach labeled submirror to an unlabeled mirror",
    "CANT_FIND_SM": "can't find submirror in mirror",
    "LAST_SM": "attempt to detach last running submirror",
    "NO_READABLE_SM": "operation would result in no readable submirrors",
    "SM_FAILED_COMPS":
        "attempt an operation on a submirror that has erred components",
    "ILLEGAL_SM_STATE": "attempt operation on a submirror in illegal state",
    "NSUBMIRS": "not enough submirrors specified",
    "NROWS": "not enough stripes specified",
    "NCOMPS": "not enough components specified",
    "BAD_MIRROR": "invalid mirror configuration",
    "MIRROR_OPEN_FAILURE": "insufficient devices to open",
    "BAD_RD_OPT": "invalid read option",
    "BAD_WR_OPT": "invalid write option",
    "BAD_PASS_NUM": "invalid pass number",
    "BAD_INTERLACE": "invalid interlace",
    "SYNTAX": "syntax error",
    "OPTION": "illegal option",
    "NAME_ILLEGAL": "Invalid name for metadevice or hot spare pool.",
    "NAME_IN_USE": "Name already in use for metadevice or hot spare pool.",
    "NOT_META": "not a metadevice",
    "IS_META": "is a metadevice",
    "NOT_DISK": "not a disk device",
    "CANT_FIND_COMP": "can't find component in unit",
    "REPL_INVAL_STATE": "component in invalid state to replace - "
                        "Replace \"Maintenance\" components first",
    "COMP_TOO_SMALL": "replace failure, new component is too small",
    "FIX_INVAL_STATE": "cannot enable hotspared device",
    "MULTNM": "multiple entries for device in Solaris Volume Manager "
              "configuration",
    "DB_NODB": "there are no existing databases",
    "DB_STALE": "stale databases",
    "DB_TOOFEW": "not enough databases",
    "DB_EXISTS": "metadevice database replica exists on device",
    "NO_SET": "no such set",
    "ABR_SET": "Invalid command for mirror with ABR set",
    "SMF_NO_SERVICE": "service(s) not online in SMF",
    "INVAL_HSP": "invalid hotspare pool",
})


class SvmError(Exception):
    """A libmeta/kernel error: printed by mde_perror, exit status 1."""

    def __init__(self, code, name=None, args=(), text=None):
        self.code = code
        self.name = name
        if text is None:
            text = CATALOGUE[code]
            if args:
                text = text % tuple(args)
        self.text = text
        super().__init__("%s: %s" % (name, text) if name else text)


# illumos strerror() texts (they differ from glibc's, e.g. EBUSY)
STRERROR = MappingProxyType({
    errno.ENOENT: "No such file or directory",
    errno.ENXIO: "No such device or address",
    errno.EBUSY: "Device busy",
    errno.EEXIST: "File exists",
    errno.EINVAL: "Invalid argument",
    errno.EAGAIN: "Resource temporarily unavailable",
    errno.EPERM: "Not owner",
    errno.EACCES: "Permission denied",
})


def strerror(err):
    return STRERROR.get(err) or os.strerror(err)


def sys_error(err, path):
    """A SYS-class error: strerror() text, naming the path (0.1)."""
    return SvmError("SYS", name=path, text=strerror(err))


ENOENT = errno.ENOENT
ENXIO = errno.ENXIO


def format_error(prog, host, err):
    """``prog: host: [name: ]message`` + newline + empty line."""
    parts = [host]
    if err.name:
        parts.append(err.name)
    parts.append(err.text)
    return "%s: %s\n\n" % (prog, ": ".join(parts))


def format_svm_text(prog, host, text, name=None):
    """Same format for free text (fault injection's --svm-error)."""
    return format_error(prog, host, SvmError("X", name=name, text=text))
