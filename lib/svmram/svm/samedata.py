# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The copy method's checks, as actions of a step (actions.py): that the
mirror is closed before the copy (Unopened: fuser), and the proof that
its copy in a ramdisk is exact (SameData: `cmp MIRROR RAMDISK`, read from
both devices).

The ramdisk is larger than the mirror (sizing.COPY_MARGIN), so an exact
copy is what cmp reports as the mirror ending first: "cmp: EOF on
MIRROR" on stderr, exit 1, nothing on stdout (illumos's /usr/bin/cmp is
the ksh93 builtin, usr/src/lib/libcmd/common/cmp.c cmp(); Solaris 10 and
11's is usr/src/cmd/cmp/cmp.c earg()).  Anything else (a difference, an
open failure, a mirror longer than the ramdisk) is a failure: the copy is
not used.
"""

import shlex
from dataclasses import dataclass

from ..errors import SvmramError
from . import listings


@dataclass(frozen=True)
class SameData:
    mirror: str         # /dev/md/rdsk/dM: the shorter
    copy: str           # /dev/rramdisk/NAME
    advice: str = ""

    def expected(self):
        return "cmp: EOF on %s" % self.mirror

    def perform(self, context):
        result = context.runner("cmp", [self.mirror, self.copy], check=False)
        if result.returncode == 1 and not result.stdout and \
                result.stderr.strip() == self.expected():
            return
        said = (result.stdout.strip() or result.stderr.strip() or
                "exit status %d" % result.returncode).splitlines()[0]
        raise SvmramError(
            "the copy in %s is not the same as %s (cmp: %s)" % (
                self.copy, self.mirror, said), advice=self.advice or None)

    def script_line(self, host_path, program_path):
        # The script stops (set -e) unless cmp says what svmram accepts.
        return "test \"$(%s %s %s 2>&1)\" = %s" % (
            program_path("cmp"), shlex.quote(self.mirror),
            shlex.quote(self.copy), shlex.quote(self.expected()))


@dataclass(frozen=True)
class Unopened:
    """Stop unless fuser shows nobody with the mirror open through either
    device node: the copy must not start on a mirror something may write
    to (a setup resumed from its journal did not ask before).  metaclear
    refuses a mirror that is open at its turn in any case."""
    mirror: str

    def paths(self):
        return ["/dev/md/%s/%s" % (kind, self.mirror)
                for kind in ("dsk", "rdsk")]

    def perform(self, context):
        holders = []
        for path in self.paths():
            result = context.runner("fuser", [path], check=False)
            if not result.ok:
                raise SvmramError(
                    "fuser could not tell whether %s is open, and the copy "
                    "needs it closed" % self.mirror,
                    advice="Check 'fuser %s' by hand." % path)
            holders += listings.parse_fuser(path, result.stdout,
                                            result.stderr)
        if holders:
            raise SvmramError(
                "%s is open (fuser: %s), and the copy needs it closed" % (
                    self.mirror, ", ".join(sorted(set(holders)))),
                advice="Unmount %s and stop what uses it, then run svmram "
                       "again." % self.mirror)

    def script_line(self, host_path, program_path):
        # fuser prints each name and ": " on stderr, and nothing else when
        # no one has it open.
        return "test \"$(%s %s 2>&1)\" = $'%s'" % (
            program_path("fuser"), " ".join(self.paths()),
            ": \\n".join(self.paths()) + ": ")


def _writes_stat(mirror):
    """The `writes` of the mirror's I/O kstat: md:UNIT:mdUNIT (illumos
    md_subr.c md_kstat_init_ui creates it with module "md", the unit
    number as instance and no name, which kstat_create(9F) makes the
    module and the instance)."""
    unit = int(mirror[1:])
    return "md:%d:md%d:writes" % (unit, unit)


def _read_writes(context, mirror):
    stat = _writes_stat(mirror)
    result = context.runner("kstat", ["-p", stat], check=False)
    words = result.stdout.split()
    if not result.ok or len(words) != 2 or words[0] != stat or \
            not words[1].isdigit():
        raise SvmramError(
            "kstat shows no write count for %s (kstat -p %s: %s), so svmram "
            "cannot tell whether something writes to it during the copy" % (
                mirror, stat, (result.stdout.strip() or result.stderr.strip()
                               or "exit status %d" % result.returncode
                               ).splitlines()[0]),
            advice="Nothing but the ramdisk was written; svmram removes "
                   "what it made.  Report this with 'kstat -p -m md'.")
    return int(words[1])


def _writes_line(mirror, program_path):
    return "$(%s -p %s | %s '{print $2}')" % (
        program_path("kstat"), _writes_stat(mirror), program_path("awk"))


@dataclass(frozen=True)
class WriteCount:
    """Keep the mirror's write count (its I/O kstat) in ${variable}, for
    NoWrites to compare after the copy and the comparison."""
    mirror: str
    variable: str

    def perform(self, context):
        context.values["${%s}" % self.variable] = str(
            _read_writes(context, self.mirror))

    def script_line(self, host_path, program_path):
        return "%s=%s\ntest -n \"$%s\"" % (
            self.variable, _writes_line(self.mirror, program_path),
            self.variable)


@dataclass(frozen=True)
class NoWrites:
    """Stop unless the mirror's write count is still the one WriteCount
    kept: nothing wrote to the mirror during the copy and the comparison,
    not even something that opened it and closed it again (which fuser
    before and metaclear after would not see), so the disks still hold
    what the ramdisk now holds.  `cleared`: read once more after
    metaclear, whose unit's kstat is dormant and still readable
    (illumos usr/src/uts/common/os/kstat_fr.c:1251-1256 @a593473611;
    audit 4 row T2), so a write between the last read and metaclear is
    seen too; the mirror is gone then, and the rollback recreates it
    from its disks."""
    mirror: str
    variable: str
    cleared: bool = False

    def perform(self, context):
        before = context.values["${%s}" % self.variable]
        now = str(_read_writes(context, self.mirror))
        if now == before:
            return
        if self.cleared:
            raise SvmramError(
                "something wrote to %s after the copy was compared and "
                "before metaclear (its write count, kstat %s, went from %s "
                "to %s), so the copy in RAM may be stale; %s is cleared, "
                "and its disks hold the data" % (
                    self.mirror, _writes_stat(self.mirror), before, now,
                    self.mirror),
                advice="The rollback recreates %s from its disks alone, "
                       "never from the ramdisk.  Find what opens %s "
                       "(fuser /dev/md/rdsk/%s), stop it, then run svmram "
                       "again." % (self.mirror, self.mirror, self.mirror))
        raise SvmramError(
            "something wrote to %s during the copy (its write count, "
            "kstat %s, went from %s to %s), so the copy in RAM may be "
            "stale" % (self.mirror, _writes_stat(self.mirror), before,
                       now),
            advice="Nothing but the ramdisk was written; svmram removes "
                   "what it made.  Find what opens %s (fuser "
                   "/dev/md/rdsk/%s), stop it, then run svmram again."
            % (self.mirror, self.mirror))

    def script_line(self, host_path, program_path):
        return "test \"%s\" = \"$%s\"" % (
            _writes_line(self.mirror, program_path), self.variable)
