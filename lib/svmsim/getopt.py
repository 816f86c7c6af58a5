# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""POSIX/Solaris getopt(3C): no argument permutation, stops at the first
operand or at ``--``.  Errors are printed like libc does when opterr is set.
"""


class GetoptError(Exception):
    def __init__(self, opt, missing):
        self.opt = opt
        self.missing = missing
        super().__init__(opt)


def getopt(argv, optstring, prog=None, err=None):
    """Return (opts, operands). opts is a list of (char, value-or-None).

    On an unknown option or a missing argument, writes the libc message to
    ``err`` (a callable) if given and raises GetoptError.
    """
    opts = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        j = 1
        while j < len(arg):
            c = arg[j]
            pos = optstring.find(c)
            if c == ":" or pos < 0:
                if err:
                    err("%s: illegal option -- %s\n" % (prog, c))
                raise GetoptError(c, False)
            takes = pos + 1 < len(optstring) and optstring[pos + 1] == ":"
            if takes:
                if j + 1 < len(arg):
                    opts.append((c, arg[j + 1:]))
                elif i + 1 < len(argv):
                    i += 1
                    opts.append((c, argv[i]))
                else:
                    if err:
                        err("%s: option requires an argument -- %s\n"
                            % (prog, c))
                    raise GetoptError(c, True)
                break
            opts.append((c, None))
            j += 1
        i += 1
    return opts, argv[i:]
