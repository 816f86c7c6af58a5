# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every access of the SVM backend to SMF, in one module, as illumos keeps
libmeta's in meta_smf.c and pkg5 its own in smf.py: the states of
svc:/system/svmram's instances (svcs), their records (svcprop), the
service's presence, the SVM services `check` looks at, the record written
with one `svccfg -f` command file and deleted, and the boot service
enabled.  Commands run through the backend's Programs (programs.py);
what svcs and svcprop print is parsed here, and a svcs or svcprop that
could not read SMF is refused, never taken for "no instances".

The record's layout (its properties and their types) is record.py's.
"""

import os
import re
import shlex
import stat
from dataclasses import dataclass
from typing import Tuple

from ..actions import under
from ..errors import ParseError, SvmramError
from ..target import slug
from . import programs, record

# svcs(1)'s states (smf(7)); "*" marks an instance in transition, and "-"
# one that has no state yet (svcs.c sprint_state).
SMF_STATES = ("uninitialized", "offline", "online", "degraded", "maintenance",
              "disabled", "legacy_run", "-")
_PROPERTIES = "/:properties/"

# What svcs and svcprop print, and exit 1 with, when they read SMF well
# and found nothing: a pattern that matches nothing (libscf scf_walk_fmri,
# "Pattern '%s' doesn't match any instances"), and an instance without
# the property group (svcprop.c process_ent, an interrupted setup).
_FOUND_NOTHING = re.compile(
    r"(svcs|svcprop): Pattern '[^']*' doesn't match any "
    r"(instances|entities)$|svcprop: Couldn't find property group `%s' "
    r"for instance `%s:[^']*'\.$" % (re.escape(record.PG),
                                      re.escape(record.SERVICE)))
SMF_UNREADABLE_ADVICE = (
    "SMF's repository server (svc.configd) answers svcs and svcprop; "
    "svmram works again once 'svcs %s' does." % record.SERVICE)

# Where the record's command file is written for `svccfg -f`, and removed
# after: /var/run is a tmpfs cleared at boot, as the host lock's; named
# by the mirror's slug (target.slug), d10's svmram.d10.svccfg.
COMMAND_FILE = "/var/run/svmram.%s.svccfg"


class Smf:
    """SMF as the SVM backend reads and changes it; `runner` is the
    backend's (programs.run_command's signature: name, args, check)."""

    def __init__(self, runner=programs.run_command):
        self._run = runner

    def _read(self, prog, args):
        result = self._run(prog, args, check=False)
        check_read(result)
        return result

    def state(self, mirror):
        """The state of svc:/system/svmram:MIRROR, None if it does not
        exist."""
        result = self._read("svcs", ["-H", "-o", "state",
                                     record.fmri(mirror)])
        state = result.stdout.strip()
        return state if result.ok and state else None

    def states(self, mirror=None):
        """{instance: state} of svc:/system/svmram's instances (or of the
        one of `mirror`), from `svcs -H -o inst,state`."""
        target = record.fmri(mirror) if mirror else record.SERVICE + ":*"
        return parse_services(self._read(
            "svcs", ["-H", "-o", "inst,state", target]).stdout)

    def instances(self):
        """The instances of svc:/system/svmram, sorted: the configured
        mirrors."""
        result = self._read("svcs", ["-H", "-o", "inst",
                                     record.SERVICE + ":*"])
        found = []
        for lineno, line in enumerate(result.stdout.splitlines(), 1):
            if len(line.split()) > 1:
                raise ParseError("expected one instance name", lineno, line,
                                 "svcs")
            if line.strip():
                found.append(line.strip())
        return sorted(found)

    def blockers(self, mirror):
        """[(dependency, state)] of the dependencies of `mirror`'s
        instance that keep it from ever starting: disabled or in
        maintenance (svcs -d; svmram's manifest declares require_all
        dependencies only, so each must be online for it to start)."""
        result = self._read("svcs", ["-H", "-o", "state,fmri", "-d",
                                     record.fmri(mirror)])
        found = []
        for lineno, line in enumerate(result.stdout.splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2 or fields[0].rstrip("*") not in SMF_STATES:
                raise ParseError("expected a state and a service", lineno,
                                 line, "svcs -d")
            if fields[0] in ("disabled", "maintenance"):
                found.append((fields[1], fields[0]))
        return found

    def service_states(self, fmris):
        """{fmri: state} of other services (`check`'s SVM services); one
        that svcs does not list is left out."""
        result = self._run("svcs", ["-H", "-o", "state,fmri"] + list(fmris),
                           check=False)
        states = {}
        for line in result.stdout.splitlines():
            words = line.split()
            if len(words) == 2:
                states[words[1]] = words[0]
        return states

    def record(self, mirror):
        """The record's properties; {} for an instance without them (an
        interrupted setup)."""
        result = self._read("svcprop", ["-p", record.PG,
                                        record.fmri(mirror)])
        if not result.ok:
            return {}
        return record.parse(result.stdout)

    def records(self, mirror=None):
        """{instance: {property: value}}, the property group svmram of
        every instance (or of the one of `mirror`), from one `svcprop -f`.
        An instance without the group (svcprop then exits 1 and names it)
        is left out."""
        target = record.fmri(mirror) if mirror else record.SERVICE + ":*"
        return parse_records(self._read(
            "svcprop", ["-f", "-p", record.PG, target]).stdout)

    def imported(self):
        """Does svc:/system/svmram exist?  Its manifest must be imported
        for setup to record a mirror."""
        return self._read("svcprop", ["-p", "general/entity_stability",
                                      record.SERVICE]).ok

    def enable(self, argv):
        """Run one of a plan's `afterwards` commands (enable_argv: svcadm
        enable -s), not checked: the caller reads the state."""
        return self._run(argv[0], list(argv[1:]), check=False)


def check_read(result):
    """Refuse a svcs or svcprop that could not read SMF (its repository
    server down: "Could not bind to repository server"): it is never "no
    instances".  Exit 1 with only _FOUND_NOTHING lines read well."""
    lines = result.stderr.splitlines()
    if result.ok or (result.returncode == 1 and lines and all(
            _FOUND_NOTHING.match(line) for line in lines)):
        return
    text = (result.stderr.strip() or result.stdout.strip()).splitlines()
    raise SvmramError(
        "cannot read the svmram service's instances and records from SMF: "
        "%s" % (text[0] if text else "exit status %d" % result.returncode),
        advice=SMF_UNREADABLE_ADVICE)


def parse_services(text):
    """`svcs -H -o inst,state` output -> {instance: state}."""
    found = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2 or fields[1].rstrip("*") not in SMF_STATES:
            raise ParseError("expected an instance name and its state",
                             lineno, line, "svcs")
        found[fields[0]] = fields[1]
    return found


def parse_records(text):
    """`svcprop -f -p svmram PATTERN` output -> {instance: {property:
    value}}.  Lines look like
    `svc:/system/svmram:d10/:properties/svmram/mirror astring d10`."""
    found = {}
    prefix = record.SERVICE + ":"
    for lineno, line in enumerate(text.splitlines(), 1):
        parts = line.split(" ", 2)
        entity, _, prop = parts[0].partition(_PROPERTIES)
        if len(parts) != 3 or not entity.startswith(prefix) or \
                not prop.startswith(record.PG + "/"):
            raise ParseError("not a property line", lineno, line, "svcprop")
        found.setdefault(entity[len(prefix):], {})[
            prop[len(record.PG) + 1:]] = parts[2]
    return found


# --- writing the record: one svccfg -f ---------------------------------------

def _value(value):
    """A value as a word of svccfg's command language (svccfg.l): bare
    when it has none of the characters that end a word or start a
    comment, else double-quoted with `\\` before `"` and `\\`."""
    if value and not any(c in value for c in ' \t\n"#>=()\\'):
        return value
    return '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')


def write_commands(intent, ramdisk_dev):
    """The svccfg commands that create, fill and refresh the instance
    (left disabled), one a line; `ramdisk_dev` may be a ${VAR} an earlier
    action sets (record.DEV_VARIABLE)."""
    lines = ["select %s" % record.SERVICE, "add %s" % intent.mirror,
             "select %s" % intent.mirror,
             "addpg %s application" % record.PG]
    for name, kind, value in record.values(intent, ramdisk_dev):
        lines.append("setprop %s/%s = %s: %s" % (record.PG, name, kind,
                                                 _value(value)))
    lines.append("refresh")
    return tuple(lines)


def update_commands(mirror, link, ramdisk_dev):
    """After the RAM component was replaced under a new link name."""
    return ("select %s" % record.fmri(mirror),
            "setprop %s/link = astring: %s" % (record.PG, _value(link)),
            "setprop %s/ramdisk_dev = astring: %s" % (record.PG,
                                                      _value(ramdisk_dev)),
            "refresh")


def delete_argvs(mirror):
    target = record.fmri(mirror)
    return [("svcadm", "disable", "-s", target),
            ("svccfg", "delete", target)]


@dataclass(frozen=True)
class CommandFile:
    """An action (actions.py): write `lines` to the host file `path`
    (${VAR}s filled in), run `svccfg -f PATH` through the host's runner,
    and remove the file, whatever svccfg did.  One svccfg process for the
    whole record, where a command per property would be one each."""
    path: str
    lines: Tuple[str, ...]

    def _text(self, values):
        text = "\n".join(self.lines) + "\n"
        for name, value in values.items():
            text = text.replace(name, value)
        return text

    def _open(self, path):
        """The command file opened for writing: made here (O_EXCL), or the
        one a svmram command killed before its unlink left (the host lock
        is held, so no other svmram writes it): a plain file of this user
        with one name.  No link is followed, and nothing else is written
        over, so the unlink after removes only svmram's own file."""
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                           os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            pass
        found = os.lstat(path)
        if (stat.S_ISREG(found.st_mode) and found.st_nlink == 1
                and found.st_uid == os.geteuid()):
            fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino) == (found.st_dev, found.st_ino):
                os.ftruncate(fd, 0)
                return fd
            os.close(fd)
        raise SvmramError(
            "%s is there already and is not a file a killed svmram left (a "
            "link, or a file with another owner or name): svmram never "
            "writes over a file it did not make; look at it and remove it"
            % self.path)

    def perform(self, context):
        path = under(context.root, self.path)
        fd = self._open(path)
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(self._text(context.values))
        try:
            context.runner("svccfg", ["-f", self.path])
        finally:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    def script_line(self, host_path, program_path):
        # A ${VAR} is expanded by the shell inside the double quotes, as
        # the run fills it in.  The file is written where the host has it
        # (under SVMRAM_ROOT on an emulated host); svccfg is given the
        # host's own path, as in the run.
        path = shlex.quote(host_path(self.path))
        quoted = ['"%s"' % line.replace("\\", "\\\\").replace(
            '"', '\\"').replace("`", "\\`").replace("$", "\\$").replace(
                "\\${%s}" % record.DEV_VARIABLE, "${%s}" % record.DEV_VARIABLE)
            for line in self.lines]
        return "\n".join(
            ["printf '%s\\n' \\"] + ["    %s \\" % line for line in quoted] +
            ["    > %s" % path,
             "%s -f %s" % (shlex.quote(program_path("svccfg")),
                           shlex.quote(self.path)),
             "%s -f %s" % (program_path("rm"), path)])


def enable_argv(mirror):
    """Enabling the instance runs its start method (svmram restore), which
    takes the host lock: setup runs this only after releasing it (a
    plan's `afterwards`, run by Smf.enable)."""
    return ("svcadm", "enable", "-s", record.fmri(mirror))


def write_actions(intent, ramdisk_dev):
    return (CommandFile(COMMAND_FILE % slug(intent.mirror),
                        write_commands(intent, ramdisk_dev)),)


def update_actions(mirror, link, ramdisk_dev):
    return (CommandFile(COMMAND_FILE % slug(mirror),
                        update_commands(mirror, link, ramdisk_dev)),)
