# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg(8), after usr/src/cmd/svc/svccfg/ (svccfg_main.c, svccfg.l,
svccfg.y, svccfg_engine.c, svccfg_libscf.c).

What svmram, its start method and the tests of its boot service run:
``svccfg [-s FMRI] COMMAND ARGS`` and ``svccfg [-s FMRI] -f FILE`` (a
command file, one command a line, as svmram writes its record), with the
commands add, addpg, setprop (one value), delete, delprop, select,
refresh, import and validate, and their refusals.  Not emulated: -v, -z,
interactive use and reading commands from stdin (a usage error), the
other commands (``... is not supported by the svmsim emulator.``) and
setprop's list form (a syntax error).

As in svccfg, the words after the options are joined with spaces and lexed
again, so a value with blanks must reach svccfg with its double quotes:
``svccfg -s FMRI setprop pg/p = astring: '"a b"'``.

Errors print ``svccfg: MESSAGE`` (``svccfg (FILE, line N): MESSAGE``
for a command of a -f FILE, svccfg_main.c vmessage()) and exit 1 at once
(semerr()); the commands before it in the file stay done, each being its
own repository transaction.
"""

import os

from . import _common as C
from . import manifest
from . import repo as R
from .store import locked
from . import restarter

# tmpl, and xml.etree (manifest.parse), are imported by the subcommands
# that use them (import, validate): svccfg -s ... setprop, the form
# svmram runs most, never needs them (bench/emulator).

USAGE = ("Usage:\tsvccfg [-v] [-s FMRI] [-f file]\n"
         "\tsvccfg [-v] [-s FMRI] <command> [args]\n")

EMSG_ENTITY_NOT_SELECTED = "An entity is not selected.\n"
EMSG_INVALID_PG_NAME = 'Invalid property group name "%s".\n'
EMSG_INVALID_PROP_NAME = 'Invalid property name "%s".\n'
EMSG_NO_SUCH_PG = 'No such property group "%s".\n'

# svccfg.l: command words, recognised only at the start of a command.
COMMANDS = ("validate", "import", "export", "archive", "restore", "apply",
            "extract", "repository", "inventory", "set", "end", "exit",
            "quit", "help", "list", "add", "delete", "select", "unselect",
            "listpg", "addpg", "delpg", "delhash", "listprop", "setprop",
            "delprop", "editprop", "describe", "addpropvalue",
            "delpropvalue", "setenv", "unsetenv", "listsnap", "selectsnap",
            "revert", "refresh")
_WORD_STOP = ' \t\n">=()'


def lex(text, out):
    """svccfg.l as a list of statements, each a list of (kind, value);
    kinds: CMD, WORD, STRING, EQUALS, LPAREN, RPAREN, REDIRECT.  A quoted
    STRING keeps its double quotes; backslashes inside are removed."""
    stmts = []
    cur = []
    i, n = 0, len(text)
    initial = True
    while i < n:
        c = text[i]
        if c == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "\n":
            stmts.append(cur)
            cur = []
            initial = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        if c == ">":
            cur.append(("REDIRECT", c))
            i += 1
            continue
        if c == "=":
            cur.append(("EQUALS", c))
            i += 1
            continue
        if c == "(":
            cur.append(("LPAREN", c))
            i += 1
            continue
        if c == ")":
            cur.append(("RPAREN", c))
            i += 1
            continue
        if c == '"':
            j = i + 1
            buf = ['"']
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    if j + 1 >= n:
                        break
                    j += 1
                buf.append(text[j])
                j += 1
            if j >= n:
                out.die("unrecognized character %s\n" % c)
            buf.append('"')
            cur.append(("STRING", "".join(buf)))
            i = j + 1
            continue
        j = i
        while j < n and text[j] not in _WORD_STOP:
            j += 1
        word = text[i:j]
        i = j
        if initial and word in COMMANDS:
            cur.append(("CMD", word))
            if word != "help":
                initial = False
        else:
            cur.append(("WORD", word))
            initial = False
    if cur:
        stmts.append(cur)
    return stmts


def statement_lines(text, stmts):
    """The line number svccfg names in an error for each statement of a
    command file: svccfg.l counts a newline when it reads one, and
    vmessage() prints that count less one, so a statement ended by a
    newline is named by its own line, and a last one ended by the end of
    the file by the line before (svccfg_main.c, svccfg_engine.c)."""
    lines = list(range(1, len(stmts) + 1))
    if stmts and not text.endswith("\n"):
        lines[-1] -= 1
    return lines


class Svccfg:
    def __init__(self, out, simdir):
        self.out = out
        self.simdir = simdir
        self.cur_svc = None     # service name
        self.cur_inst = None    # instance name
        self.pending = []
        self.preselect = None   # -s FMRI, selected before any command
        self.cmd_file = None    # -f FILE: its name, for messages
        self.lineno = 0         # the line vmessage() names

    # -- messages (svccfg_main.c vmessage/semerr/warn/synerr) ----------------
    def warn(self, msg):
        if not msg.endswith("\n"):
            # vmessage() appends strerror(errno); GUESS: errno is 0 here.
            msg += ": %s.\n" % "Error 0"
        if self.cmd_file is None:
            self.out.err("%s: %s" % (self.out.prog, msg))
        else:
            self.out.err("%s (%s, line %d): %s" % (
                self.out.prog, self.cmd_file, self.lineno, msg))

    def semerr(self, msg):
        self.warn(msg)
        raise C.Exit(1)

    def synerr(self):
        self.semerr("Syntax error.\n")

    # -- selection -----------------------------------------------------------
    def select(self, repo, fmri):
        if fmri == "svc:":
            self.cur_svc = self.cur_inst = None
            return
        if fmri == ":properties":
            self.semerr(":properties is not an entity.  Try 'listprop' to "
                        "list properties.\n")
        if self.cur_inst is not None:
            pass
        elif self.cur_svc is not None:
            if repo.get_instance(self.cur_svc, fmri) is not None:
                self.cur_inst = fmri
                return
        else:
            if repo.get_service(fmri) is not None:
                self.cur_svc = fmri
                return
        infos, err = R.walk(repo, [fmri], R.SCF_WALK_SERVICE, self.semerr)
        for wi in infos:
            self.cur_svc = wi.svc
            self.cur_inst = wi.inst

    def _need_entity(self):
        if self.cur_svc is None and self.cur_inst is None:
            self.semerr(EMSG_ENTITY_NOT_SELECTED)

    def _pgs(self, repo):
        if self.cur_inst is not None:
            return repo.get_instance(self.cur_svc, self.cur_inst)["pgs"]
        return repo.get_service(self.cur_svc)["pgs"]

    # -- commands ------------------------------------------------------------
    def cmd_add(self, repo, name):
        if self.cur_inst is not None:
            self.semerr("Cannot add entities to an instance.\n")
        if self.cur_svc is not None:
            if not R.uu_check_name(name, R.UU_NAME_DOMAIN):
                self.semerr("Invalid name.\n")
            if repo.get_instance(self.cur_svc, name) is not None:
                self.semerr("Instance already exists.\n")
            repo.add_instance(self.cur_svc, name)
            # GUESS: svc.startd treats a new instance without general/enabled
            # as disabled.
            repo.set_state(self.cur_svc, name, "disabled")
            return
        if not R.uu_check_name(name, R.UU_NAME_DOMAIN | R.UU_NAME_PATH):
            self.semerr("Invalid name.\n")
        if repo.get_service(name) is not None:
            self.semerr("Service already exists.\n")
        repo.add_service(name)

    def _delete_instance(self, repo, svc, inst, force):
        i = repo.get_instance(svc, inst)
        if not force and i["state"] in ("online", "degraded"):
            self.semerr("Instance %s may be running.  Use delete -f if it is "
                        "not.\n" % R.inst_fmri(svc, inst))
        del repo.services[svc]["instances"][inst]
        repo.touch()

    def cmd_delete(self, repo, fmri, force):
        if self.cur_inst is not None:
            pass
        elif self.cur_svc is not None:
            if repo.get_instance(self.cur_svc, fmri) is not None:
                self._delete_instance(repo, self.cur_svc, fmri, force)
                return
        else:
            if repo.get_service(fmri) is not None:
                self._delete_service(repo, fmri, force)
                return
        infos, err = R.walk(repo, [fmri], R.SCF_WALK_SERVICE, self.semerr)
        for wi in infos:
            if wi.inst is not None:
                self._delete_instance(repo, wi.svc, wi.inst, force)
            else:
                self._delete_service(repo, wi.svc, force)

    def _delete_service(self, repo, svc, force):
        for inst in list(repo.services[svc]["instances"]):
            self._delete_instance(repo, svc, inst, force)
        del repo.services[svc]
        repo.touch()
        if self.cur_svc == svc:
            # GUESS: the deleted selection is dropped silently here; svccfg
            # says "Current selection has been deleted." at its next prompt.
            self.cur_svc = self.cur_inst = None

    def cmd_addpg(self, repo, name, ty, flags):
        self._need_entity()
        fl = 0
        for c in flags or "":
            if c == "P":
                fl |= R.PG_FLAG_NONPERSISTENT
            elif c == "p":
                fl &= ~R.PG_FLAG_NONPERSISTENT
            else:
                self.semerr("Invalid property group flag %c." % c)
        if not R.uu_check_name(name, R.UU_NAME_DOMAIN) or \
                not R.uu_check_name(ty, R.UU_NAME_DOMAIN):
            self.semerr("Name, type, or flags are invalid.\n")
        pgs = self._pgs(repo)
        if name in pgs or (self.cur_inst is not None and name == "restarter"):
            self.semerr("Property group already exists.\n")
        pgs[name] = R.new_pg(ty, fl)
        repo.touch()

    def cmd_delprop(self, repo, pgn):
        self._need_entity()
        if "/" in pgn:
            pgname, pn = pgn.split("/", 1)
        else:
            pgname, pn = pgn, None
        pgs = self._pgs(repo)
        if not R.uu_check_name(pgname, R.UU_NAME_DOMAIN):
            self.semerr(EMSG_INVALID_PG_NAME % pgname)
        if pgname not in pgs:
            self.semerr(EMSG_NO_SUCH_PG % pgname)
        if pn is None:
            del pgs[pgname]
            repo.touch()
            return
        if not R.uu_check_name(pn, R.UU_NAME_DOMAIN):
            self.semerr(EMSG_INVALID_PROP_NAME % pn)
        if pn not in pgs[pgname]["props"]:
            self.semerr("No such property %s/%s.\n" % (pgname, pn))
        del pgs[pgname]["props"][pn]
        repo.touch()

    def _string_to_value(self, s, ty):
        nstr = s
        if s.startswith('"'):
            nstr = s[1:-1]
        v = R.value_from_string(ty, nstr)
        if v is None:
            self.semerr('Invalid "%s" value "%s".\n' % (ty, nstr))
        return v

    def cmd_setprop(self, repo, name, ty, value):
        self._need_entity()
        if "/" not in name:
            self.semerr("Property names must contain a `/'.\n")
        pgname, propname = name.split("/", 1)
        if ty is not None:
            if not ty.endswith(":") or ty[:-1] not in R.TYPES:
                self.semerr('Unknown type "%s".\n' % ty)
            ty = ty[:-1]
        pgs = self._pgs(repo)
        if not R.uu_check_name(pgname, R.UU_NAME_DOMAIN):
            self.semerr(EMSG_INVALID_PG_NAME % pgname)
        pg = pgs.get(pgname)
        if pg is None:
            self.semerr(EMSG_NO_SUCH_PG % pgname)
        if not R.uu_check_name(propname, R.UU_NAME_DOMAIN):
            self.semerr(EMSG_INVALID_PROP_NAME % propname)
        cur = pg["props"].get(propname)
        if cur is not None:
            if ty is None:
                ty = cur["type"]
        elif ty is None:
            # Infer from the service's group of the same name, as svccfg
            # does for an instance.  # GUESS: template types not consulted.
            inferred = None
            if self.cur_inst is not None:
                spg = repo.get_service(self.cur_svc)["pgs"].get(pgname)
                if spg is not None and propname in spg["props"]:
                    inferred = spg["props"][propname]["type"]
            if inferred is None:
                self.semerr("Type required for new properties.\n")
            ty = inferred
        vals = [self._string_to_value(value, ty)]
        pg["props"][propname] = {"type": ty, "values": vals}
        repo.touch()

    def cmd_refresh(self, repo):
        """svccfg_libscf.c lscf_refresh(): the selected instance, as
        refresh_entity() does it, which is what `svcadm refresh` asks
        svc.startd for: the running snapshot taken from the editing view
        (svcadm.py)."""
        if self.cur_inst is None:
            self.semerr("Instance not selected.\n")
        repo.take_running(self.cur_svc, self.cur_inst)

    def cmd_import(self, repo, args):
        opts = []
        files = []
        try:
            opts, files = C.getopt(_Silent(self.out.prog), args, "np:V")
        except C.GetoptError:
            self.synerr()
        if not files:
            self.synerr()
        refresh = not any(o == "n" for o, _ in opts)
        paths = []
        for f in files:
            if not os.path.exists(f):
                self.semerr("Unable to stat file %s.  %s\n"
                            % (f, "No such file or directory"))
            if os.path.isdir(f):
                paths.extend(manifest.manifests_in(f))
            else:
                paths.append(f)
        for path in paths:
            try:
                with open(path, "r", encoding="utf-8") as fh:
                    text = fh.read()
            except OSError as e:
                self.semerr("unable to open file: %s\n" % e.strerror)
            try:
                bundle = manifest.parse(text)
            except manifest.ImportError_ as e:
                self.semerr(str(e))
            try:
                to_start = manifest.apply(repo, bundle, refresh)
            except manifest.ImportError_ as e:
                self.warn(str(e))
                self.semerr("Import of %s failed.\n" % path)
            for svc, inst in to_start:
                if restarter.begin_start(repo, svc, inst):
                    self.pending.append((svc, inst))

    # -- statement dispatch (svccfg.y) ---------------------------------------
    def execute(self, repo, toks):
        if not toks:
            return
        kind, word = toks[0]
        args = toks[1:]
        if kind != "CMD":
            if kind == "WORD":
                if all(k in ("WORD", "STRING") for k, _ in args):
                    self.semerr('Unknown command "%s".\n' % word)
            self.synerr()
        words = [v for k, v in args]
        kinds = [k for k, v in args]
        only_words = all(k == "WORD" for k in kinds)

        def nwords(*counts):
            if not only_words or len(args) not in counts:
                self.synerr()

        if word == "add":
            nwords(1)
            self.cmd_add(repo, words[0])
        elif word == "delete":
            nwords(1, 2)
            if len(words) == 2:
                if words[0] != "-f":
                    self.synerr()
                self.cmd_delete(repo, words[1], True)
            else:
                self.cmd_delete(repo, words[0], False)
        elif word == "addpg":
            nwords(2, 3)
            self.cmd_addpg(repo, words[0], words[1],
                           words[2] if len(words) > 2 else None)
        elif word == "delprop":
            nwords(1)
            self.cmd_delprop(repo, words[0])
        elif word == "setprop":
            self._setprop(repo, args)
        elif word == "select":
            # svccfg.y select_cmd: SCC_SELECT SCV_WORD terminator
            nwords(1)
            self.select(repo, words[0])
        elif word == "refresh":
            # svccfg.y refresh_cmd: SCC_REFRESH terminator
            nwords(0)
            self.cmd_refresh(repo)
        elif word == "import":
            if any(k not in ("WORD", "STRING") for k in kinds):
                self.synerr()
            # A quoted string keeps its quotes, as in svccfg.y.
            self.cmd_import(repo, words)
        elif word == "validate":
            self._validate(repo, words, kinds)
        else:
            # GUESS: the rest of svccfg (list, listprop, delpg,
            # addpropvalue, export, archive, apply, describe,
            # editprop, setenv, snapshots, ...) is not emulated: svmram, its
            # method and its boot tests run none of it.
            self.semerr("%s is not supported by the svmsim emulator.\n"
                        % word)

    def _validate(self, repo, words, kinds):
        """svccfg.y validate_cmd and svccfg_libscf.c lscf_validate():
        ``validate`` checks the selected instance, ``validate ARG`` a
        manifest file (``file:`` prefix, or a readable file) or an
        instance (``svc:`` prefix, or anything else)."""
        if not words:
            self.validate_fmri(repo, None)
            return
        if len(words) != 1 or kinds[0] != "WORD":
            self.synerr()
        arg = words[0]
        if arg.startswith("file:"):
            self.validate_file(arg[len("file:"):])
        elif arg.startswith("svc:"):
            self.validate_fmri(repo, arg[len("svc:"):])
        elif os.access(arg, os.R_OK | os.F_OK):
            self.validate_file(arg)
        else:
            self.validate_fmri(repo, arg)

    def validate_file(self, path):
        """lscf_validate_file(): the manifest must parse.
        # GUESS: neither the DTD nor tmpl_validate_bundle()'s checks of the
        manifest's own instances against its templates are emulated."""
        try:
            with open(path, "r", encoding="utf-8") as fh:
                text = fh.read()
        except OSError as e:
            self.semerr("unable to open file: %s\n" % e.strerror)
        try:
            manifest.parse(text)
        except manifest.ImportError_ as e:
            self.semerr(str(e))

    def validate_fmri(self, repo, fmri):
        """lscf_validate_fmri(): the instance against its templates
        (scf_tmpl_validate_fmri(), tmpl.py).  Each template error goes to
        stderr as scf_tmpl_strerror() renders it, with no "svccfg:"
        prefix; the exit status stays 0 (no semerr(), and engine_exec()
        returns 0).  Only a missing selection or an FMRI that names no
        single instance is an error (exit 1)."""
        if fmri is None:
            if self.cur_inst is None:
                self.semerr("No instance selected\n")
            svc, inst = self.cur_svc, self.cur_inst
            inst_fmri = R.inst_fmri(svc, inst)
        else:
            # scf_walk_fmri(flags 0): instances only; validate_callback()
            # keeps the last FMRI it is called with.
            infos, err = R.walk(repo, [fmri], 0, self.semerr)
            infos = [wi for wi in infos if wi.inst is not None]
            if err or not infos:
                return
            svc, inst, inst_fmri = infos[-1].svc, infos[-1].inst, \
                infos[-1].fmri
        # GUESS: svccfg's interactive mode (SCF_TMPL_STRERROR_HUMAN) is not
        # emulated: errors are always one line each.
        from . import tmpl
        for e in tmpl.validate(repo, svc, inst, inst_fmri):
            self.out.err(tmpl.strerror(e) + "\n")

    def _setprop(self, repo, args):
        # setprop WORD = string
        # setprop WORD = WORD string
        # (svccfg.y's list form, "setprop WORD = [WORD] ( string-list )",
        # is not emulated: svmram sets one value per property.)
        k = [a[0] for a in args]
        v = [a[1] for a in args]
        if len(args) < 3 or k[0] != "WORD" or k[1] != "EQUALS":
            self.synerr()
        name = v[0]
        rest = args[2:]
        rk = k[2:]
        if len(rest) == 1 and rk[0] in ("WORD", "STRING"):
            self.cmd_setprop(repo, name, None, rest[0][1])
            return
        if len(rest) == 2 and rk[0] == "WORD" and \
                rk[1] in ("WORD", "STRING"):
            self.cmd_setprop(repo, name, rest[0][1], rest[1][1])
            return
        self.synerr()

    def run_statements(self, stmts_src, lines=None, cmd_file=None):
        """Run statements; ``stmts_src`` yields each one's tokens, and
        ``lines`` gives, for the command file ``cmd_file``, the line each
        is named by (-s is selected before the file is read: its errors
        name no line)."""
        with locked(self.simdir) as repo:
            if self.preselect is not None:
                self.select(repo, self.preselect)
            self.cmd_file = cmd_file
            for number, toks in enumerate(stmts_src):
                if lines is not None:
                    self.lineno = lines[number]
                self.execute(repo, toks)
        if self.pending:
            restarter.run_pending(self.simdir, self.pending)
            self.pending = []


class _Silent(C.Out):
    def err(self, text):
        pass


def main(out, argv, simdir):
    # "svccfg [-s FMRI] command [args]" and "svccfg [-s FMRI] -f FILE":
    # svmram and its tests never pass -v or -z, nor run svccfg
    # interactively or on stdin (a usage error).
    try:
        opts, rest = C.getopt(out, argv, "s:f:")
    except C.GetoptError:
        out.err(USAGE)
        return C.UU_EXIT_USAGE
    command_file = None
    cfg = Svccfg(out, simdir)
    for opt, value in opts:
        if opt == "s":
            cfg.preselect = value
        else:
            command_file = value
    if command_file is not None:
        # svccfg_main.c: -s is selected first, then engine_source(FILE),
        # which ignores any words after the options.
        return _source(cfg, command_file)
    if not rest or command_file == "-":
        out.err(USAGE)
        return C.UU_EXIT_USAGE
    cfg.run_statements(lex(" ".join(rest) + " ", out))
    return 0


def _source(cfg, name):
    """svccfg_engine.c engine_source(FILE, dont_exit 0): a file that
    cannot be opened, or is not a regular file, is an error (exit 1)
    named without a line; then each line is one command, and the first
    error ends the run (exit 1).  GUESS: "-" (stdin) is not emulated."""
    if name == "-":
        cfg.out.err(USAGE)
        return C.UU_EXIT_USAGE
    # The file is the emulated host's, under its root, as mkfile's and
    # dd's are (devices.host_path); messages name it as given.
    path = os.path.join(cfg.simdir, "root", name.lstrip("/")) \
        if name.startswith("/") else name
    if os.path.isdir(path):
        # fopen(3C) opens a directory for reading; the S_ISREG check
        # refuses it.
        cfg.warn("%s is not a regular file.\n" % name)
        return 1
    try:
        with open(path, "r", encoding="utf-8") as stream:
            if not stat_is_regular(stream):
                cfg.warn("%s is not a regular file.\n" % name)
                return 1
            text = stream.read()
    except OSError as e:
        # semerr("Could not open %s") + vmessage's ": strerror(errno)."
        cfg.out.err("%s: Could not open %s: %s.\n" % (
            cfg.out.prog, name, e.strerror or e))
        return 1
    stmts = lex(text, cfg.out)
    cfg.run_statements(stmts, statement_lines(text, stmts), name)
    return 0


def stat_is_regular(stream):
    import stat
    return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
