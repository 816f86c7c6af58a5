# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svccfg(8), after usr/src/cmd/svc/svccfg/ (svccfg_main.c, svccfg.l,
svccfg.y, svccfg_engine.c, svccfg_libscf.c).

As in svccfg, the words after the options are joined with spaces and lexed
again, so a value with blanks must reach svccfg with its double quotes:
``svccfg -s FMRI setprop pg/p = astring: '"a b"'``.  In the list form every
string value must be quoted: ``setprop pg/p = astring: ("a" "b")``.

Errors in non-interactive use print ``svccfg: MESSAGE`` (or
``svccfg (FILE, line N): MESSAGE`` under -f) and exit 1 at once (semerr()).
"""

import os
import sys

from . import _common as C
from . import manifest
from . import repo as R
from .store import locked
from . import restarter
from ..lean import fnmatchcase

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


class _SynErr(Exception):
    pass


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


class Svccfg:
    def __init__(self, out, simdir, verbose=False):
        self.out = out
        self.simdir = simdir
        self.verbose = verbose
        self.cmd_file = None
        self.lineno = 0
        self.cur_svc = None     # service name
        self.cur_inst = None    # instance name
        self.pending = []
        self.preselect = None   # -s FMRI, selected before any command

    # -- messages (svccfg_main.c vmessage/semerr/warn/synerr) ----------------
    def _prefix(self):
        if self.cmd_file is None:
            return "%s: " % self.out.prog
        return "%s (%s, line %d): " % (self.out.prog, self.cmd_file,
                                       self.lineno)

    def warn(self, msg):
        if not msg.endswith("\n"):
            # vmessage() appends strerror(errno); GUESS: errno is 0 here.
            msg += ": %s.\n" % "Error 0"
        self.out.err(self._prefix() + msg)

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

    def _listing_pgs(self, repo):
        if self.cur_inst is not None:
            return repo.current_inst_pgs(self.cur_svc, self.cur_inst)
        return repo.get_service(self.cur_svc)["pgs"]

    # -- commands ------------------------------------------------------------
    def cmd_list(self, repo, pattern):
        if self.cur_inst is not None:
            self.out.out(":properties\n")
            return
        if self.cur_svc is not None:
            self.out.out(":properties\n")
            for iname in repo.get_service(self.cur_svc)["instances"]:
                if pattern is None or fnmatchcase(iname, pattern):
                    self.out.out(iname + "\n")
            return
        for sname in repo.services:
            if pattern is None or fnmatchcase(sname, pattern):
                self.out.out(sname + "\n")

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

    def cmd_delpg(self, repo, name):
        self._need_entity()
        if "/" in name:
            self.semerr(EMSG_INVALID_PG_NAME % name)
        self.cmd_delprop(repo, name)

    def cmd_listprop(self, repo, pattern, only_pgs=False):
        self._need_entity()
        items = []
        for pgname, pg in self._listing_pgs(repo).items():
            matched = pattern is None or fnmatchcase(pgname, pattern)
            if matched:
                items.append((pgname, pg, None))
            if only_pgs:
                continue
            for pname, prop in pg["props"].items():
                full = "%s/%s" % (pgname, pname)
                if pattern is None or matched or \
                        fnmatchcase(full, pattern):
                    items.append((full, pg, prop))
        width = max([len(name) for name, _, _ in items] or [0])
        for name, pg, prop in items:
            if prop is None:
                line = "%-*s  %s" % (width, name, pg["type"])
                if pg.get("flags", 0) & R.PG_FLAG_NONPERSISTENT:
                    line += "\tNONPERSISTENT"
                self.out.out(line + "\n")
                continue
            line = "%-*s  %-7s " % (width, name, prop["type"])
            multiple = len(prop["values"]) > 1 and \
                prop["type"] in ("astring", "ustring")
            for v in prop["values"]:
                if multiple or any(ch in v for ch in " \t\n\"()"):
                    line += ' "%s"' % v.replace("\\", "\\\\").replace(
                        '"', '\\"')
                else:
                    line += " " + v
            self.out.out(line + "\n")

    def _string_to_value(self, s, ty, require_quotes):
        if require_quotes and (len(s) < 2 or s[0] != '"' or s[-1] != '"'):
            self.semerr("Multiple string values or string values with "
                        "spaces must be quoted with '\"'.\n")
        nstr = s
        if s.startswith('"'):
            nstr = s[1:-1]
        v = R.value_from_string(ty, nstr)
        if v is None:
            self.semerr('Invalid "%s" value "%s".\n' % (ty, nstr))
        return v

    def cmd_setprop(self, repo, name, ty, value, values):
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
        if value is not None:
            vals = [self._string_to_value(value, ty, False)]
        else:
            req = ty in ("astring", "ustring")
            vals = [self._string_to_value(v, ty, req) for v in values]
        pg["props"][propname] = {"type": ty, "values": vals}
        repo.touch()

    def cmd_propvalue(self, repo, name, ty, arg, isadd):
        """addpropvalue / delpropvalue (lscf_setpropvalue())."""
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
        if cur is None:
            if not isadd:
                self.semerr("No such property %s/%s.\n" % (pgname, propname))
            if ty is None:
                self.semerr("Type required for new properties.\n")
            vals = []
        else:
            if isadd and ty is not None and cur["type"] != ty:
                self.semerr('Property "%s" is not of type "%s".\n'
                            % (propname, ty + ":"))
            ty = cur["type"]
            vals = list(cur["values"])
        if isadd:
            vals.append(arg)
        else:
            pat = arg
            if pat.endswith('"'):
                pat = pat[:-1]
            if pat.startswith('"'):
                pat = pat[1:]
            vals = [v for v in vals if not fnmatchcase(v, pat)]
        out = [self._string_to_value(v, ty, False) for v in vals]
        pg["props"][propname] = {"type": ty, "values": out}
        repo.touch()

    def cmd_refresh(self, repo):
        if self.cur_inst is None:
            self.semerr("Instance not selected.\n")
        repo.take_running(self.cur_svc, self.cur_inst)
        if self.verbose:
            self.warn("Refreshed %s.\n" % R.inst_fmri(self.cur_svc,
                                                      self.cur_inst))

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

        if word in ("end", "exit", "quit"):
            nwords(0)
            raise C.Exit(0)
        if word == "help":
            # GUESS: help output is not reproduced.
            return
        if word == "select":
            nwords(1)
            self.select(repo, words[0])
        elif word == "unselect":
            nwords(0)
            if self.cur_inst is not None:
                self.cur_inst = None
            elif self.cur_svc is not None:
                self.cur_svc = None
            else:
                self.semerr("Cannot unselect at scope level.\n")
        elif word == "list":
            nwords(0, 1)
            self.cmd_list(repo, words[0] if words else None)
        elif word == "add":
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
        elif word == "listpg":
            nwords(0, 1)
            self.cmd_listprop(repo, words[0] if words else None, True)
        elif word == "listprop":
            nwords(0, 1)
            self.cmd_listprop(repo, words[0] if words else None)
        elif word == "addpg":
            nwords(2, 3)
            self.cmd_addpg(repo, words[0], words[1],
                           words[2] if len(words) > 2 else None)
        elif word == "delpg":
            nwords(1)
            self.cmd_delpg(repo, words[0])
        elif word == "delprop":
            nwords(1)
            self.cmd_delprop(repo, words[0])
        elif word == "setprop":
            self._setprop(repo, args)
        elif word == "addpropvalue":
            if len(args) not in (2, 3) or kinds[0] != "WORD" or \
                    any(k not in ("WORD", "STRING") for k in kinds[1:]):
                self.synerr()
            if len(args) == 2:
                self.cmd_propvalue(repo, words[0], None, words[1], True)
            else:
                self.cmd_propvalue(repo, words[0], words[1], words[2], True)
        elif word == "delpropvalue":
            if len(args) != 2 or kinds[0] != "WORD" or \
                    kinds[1] not in ("WORD", "STRING"):
                self.synerr()
            self.cmd_propvalue(repo, words[0], None, words[1], False)
        elif word == "refresh":
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
            # GUESS: the rest of svccfg (export, archive, apply, describe,
            # editprop, setenv, snapshots, ...) is not emulated.
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
        # setprop WORD = [WORD] ( string-list ) -- newlines allowed inside
        k = [a[0] for a in args]
        v = [a[1] for a in args]
        if len(args) < 3 or k[0] != "WORD" or k[1] != "EQUALS":
            self.synerr()
        name = v[0]
        rest = args[2:]
        rk = k[2:]
        if len(rest) == 1 and rk[0] in ("WORD", "STRING"):
            self.cmd_setprop(repo, name, None, rest[0][1], None)
            return
        if len(rest) == 2 and rk[0] == "WORD" and \
                rk[1] in ("WORD", "STRING"):
            self.cmd_setprop(repo, name, rest[0][1], rest[1][1], None)
            return
        ty = None
        if rk and rk[0] == "WORD":
            ty = rest[0][1]
            rest, rk = rest[1:], rk[1:]
        if len(rest) >= 2 and rk[0] == "LPAREN" and rk[-1] == "RPAREN" and \
                all(x in ("WORD", "STRING") for x in rk[1:-1]):
            self.cmd_setprop(repo, name, ty, None,
                             [x[1] for x in rest[1:-1]])
            return
        self.synerr()

    def run_statements(self, stmts_src):
        """Run statements; ``stmts_src`` yields (lineno, tokens)."""
        with locked(self.simdir) as repo:
            if self.preselect is not None:
                # lscf_select() runs before the command file is opened, so
                # its errors carry no "(file, line N)".
                cmd_file, self.cmd_file = self.cmd_file, None
                self.select(repo, self.preselect)
                self.cmd_file = cmd_file
            for lineno, toks in stmts_src:
                self.lineno = lineno
                self.execute(repo, toks)
        if self.pending:
            restarter.run_pending(self.simdir, self.pending)
            self.pending = []


class _Silent(C.Out):
    def err(self, text):
        pass


def _join_statements(stmts):
    """Merge lines inside parentheses (multiline_string_list)."""
    out = []
    buf = []
    depth = 0
    start = 1
    for n, toks in enumerate(stmts, 1):
        if not buf:
            start = n
        buf.extend(toks)
        depth += sum(1 for k, _ in toks if k == "LPAREN")
        depth -= sum(1 for k, _ in toks if k == "RPAREN")
        if depth <= 0:
            out.append((start, buf))
            buf = []
            depth = 0
    if buf:
        out.append((start, buf))
    return out


def main(out, argv, simdir):
    try:
        opts, rest = C.getopt(out, argv, "vf:s:z:")
    except C.GetoptError:
        out.err(USAGE)
        return C.UU_EXIT_USAGE
    verbose = False
    fmri = cmdfile = None
    for o, a in opts:
        if o == "v":
            verbose = True
        elif o == "s":
            fmri = a
        elif o == "f":
            cmdfile = a
        elif o == "z":
            if a != "global":
                # GUESS: only the global zone exists in the emulator.
                out.die("invalid zone '%s'\n" % a)
    cfg = Svccfg(out, simdir, verbose)
    cfg.preselect = fmri
    if cmdfile is not None or not rest:
        if cmdfile is not None and cmdfile != "-":
            try:
                with open(cmdfile, "r", encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                cfg.semerr("Could not open %s: %s.\n"
                           % (cmdfile, "No such file or directory"))
            cfg.cmd_file = cmdfile
        else:
            # GUESS: interactive mode is not emulated; commands are read
            # from standard input as from a file.
            try:
                text = sys.stdin.read()
            except (OSError, ValueError):
                text = ""
            cfg.cmd_file = "<stdin>"
        stmts = lex(text, out)
        cfg.run_statements(_join_statements(stmts))
        return 0
    text = " ".join(rest) + " "
    stmts = lex(text, out)
    cfg.run_statements(_join_statements(stmts))
    return 0
