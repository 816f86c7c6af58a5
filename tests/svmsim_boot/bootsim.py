# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Helpers for the emulated svc.startd tests: an emulated host whose root
holds a fake start method, and helpers to import a manifest for it.

The fake method is a ksh93 script, as method scripts are on illumos.  It
sources the stand-in smf_include.sh, records what it saw, and exits with
the code in the instance property fake/exit (set in the manifest or with
svccfg + svcadm refresh) or, if the file exists, in
$SVMRAM_ROOT/etc/fake/<instance>.exit; "sleep" makes it hang.
"""

import contextlib
import io
import os
import shlex
import shutil
import subprocess

import pytest

from svmsim import cli

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LIB = os.path.join(REPO, "lib")

# Tue Nov 14 22:13:20 2023 UTC: the SMF clock of every command the tests
# run (log time stamps and svcs times are then fixed).
T0 = 1700000000

KSH = shutil.which("ksh93") or shutil.which("ksh")
needs_ksh = pytest.mark.skipif(KSH is None, reason="no ksh installed")

FAKE_METHOD = r"""#!/usr/bin/ksh93
#
# Fake SMF method for the svmsim boot tests.
#
. ${SVMRAM_ROOT}/lib/svc/share/smf_include.sh

inst=${SMF_FMRI##*:}
rec=${SVMRAM_ROOT}/tmp/fake
mkdir -p $rec
print -r -- "${SMF_FMRI} $1" >> $rec/runs
print -r -- "${SMF_FMRI} $1" >> $rec/runs.$inst
env | sort > $rec/env.$inst
svcs -H -o state,nstate $SMF_FMRI > $rec/state.$inst 2>&1
print "fake method: $1 for $SMF_FMRI"

code=$(svcprop -p fake/exit $SMF_FMRI 2>/dev/null)
if [[ -f ${SVMRAM_ROOT}/etc/fake/$inst.exit ]]; then
	code=$(< ${SVMRAM_ROOT}/etc/fake/$inst.exit)
fi
case $code in
sleep)	sleep 120
	exit $SMF_EXIT_OK ;;
'')	exit $SMF_EXIT_OK ;;
*)	exit $code ;;
esac
"""

MANIFEST = """<?xml version="1.0"?>
<!DOCTYPE service_bundle SYSTEM "/usr/share/lib/xml/dtd/service_bundle.dtd.1">
<service_bundle type="manifest" name="svmsim:%(dashed)s">
  <service name="%(service)s" type="service" version="1">
    <dependency name="metasync" grouping="require_all" restart_on="none"
        type="service">
      <service_fmri value="svc:/system/metasync"/>
    </dependency>
%(deps)s
    <exec_method type="method" name="start"
        exec="%(exec)s" timeout_seconds="%(timeout)d"/>
    <exec_method type="method" name="stop" exec=":true"
        timeout_seconds="60"/>
    <property_group name="startd" type="framework">
      <propval name="duration" type="astring" value="transient"/>
%(startd)s
    </property_group>
%(instances)s
    <stability value="Unstable"/>
    <template>
      <common_name>
        <loctext xml:lang="C">fake method for svmsim tests</loctext>
      </common_name>
    </template>
  </service>
</service_bundle>
"""

INSTANCE = """    <instance name="%(name)s" enabled="%(enabled)s">
      <property_group name="fake" type="application">
        <propval name="exit" type="astring" value="%(exit)s"/>
      </property_group>
    </instance>"""


class Host:
    """An emulated host (preset "article") in a temporary directory."""

    def __init__(self, path, release=None):
        self.dir = str(path)
        self.svmsim("init", self.dir,
                    *(("--release", release) if release else ()))
        out = self.svmsim("env", self.dir).stdout
        self.env = dict(os.environ)
        self.env.pop("PYTHONPATH", None)
        for line in out.splitlines():
            var, _, value = line[len("export "):].partition("=")
            self.env[var] = shlex.split(value)[0]
        self.env["SVMSIM_SMF_CLOCK"] = str(T0)
        self.env["TZ"] = "UTC"
        self.root = self.env["SVMSIM_ROOT"]
        self.bindir = os.path.join(self.dir, "bin")
        self.install_fake()

    # --- running things ---------------------------------------------------

    def svmsim(self, *args):
        """The control interface in-process, with this host's clock."""
        out, err = io.StringIO(), io.StringIO()
        old = {k: os.environ.get(k) for k in ("SVMSIM_SMF_CLOCK", "TZ")}
        os.environ["SVMSIM_SMF_CLOCK"] = str(T0)
        os.environ["TZ"] = "UTC"
        try:
            with contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                rc = cli.main(list(args))
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return subprocess.CompletedProcess(args, rc, out.getvalue(),
                                           err.getvalue())

    def reboot(self, *options):
        p = self.svmsim("reboot", self.dir, *options)
        assert p.returncode == 0, p.stderr
        return p

    def cmd(self, prog, *args, env=None):
        """An emulated command, as an administrator runs it."""
        return subprocess.run([os.path.join(self.bindir, prog)] + list(args),
                              env=dict(self.env, **(env or {})),
                              capture_output=True, text=True)

    def ok(self, prog, *args, env=None):
        p = self.cmd(prog, *args, env=env)
        assert p.returncode == 0, (prog, args, p.stdout, p.stderr)
        return p.stdout

    # --- the fake method --------------------------------------------------

    def path(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def install(self, path, text, mode=0o555):
        dest = self.path(path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
        os.chmod(dest, mode)

    def install_fake(self):
        self.install("/lib/svc/method/fake", FAKE_METHOD)

    def import_fake(self, service="site/fake", instances=(("one", False,
                                                             "0"),),
                    exec_="/lib/svc/method/fake start", timeout=30,
                    timeout_retry=None, deps=()):
        """Import a manifest for ``service`` through the emulated svccfg.
        ``instances``: (name, enabled, fake/exit value)."""
        startd = "" if timeout_retry is None else (
            '      <propval name="timeout_retry" type="boolean" '
            'value="%s"/>' % ("true" if timeout_retry else "false"))
        dep_xml = "".join(
            '    <dependency name="dep%d" grouping="require_all" '
            'restart_on="none" type="service">\n'
            '      <service_fmri value="%s"/>\n    </dependency>\n'
            % (n, fmri) for n, fmri in enumerate(deps))
        text = MANIFEST % {
            "service": service, "dashed": service.replace("/", "-"),
            "exec": exec_, "timeout": timeout, "startd": startd,
            "deps": dep_xml,
            "instances": "\n".join(
                INSTANCE % {"name": n, "enabled": "true" if e else "false",
                            "exit": x} for n, e, x in instances)}
        path = os.path.join(self.dir, service.replace("/", "-") + ".xml")
        with open(path, "w") as f:
            f.write(text)
        self.ok("svccfg", "import", path)
        return path

    def set_exit(self, inst, code):
        """Make the fake method of instance ``inst`` exit with ``code``."""
        d = self.path("/etc/fake")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, inst + ".exit"), "w") as f:
            f.write("%s\n" % code)

    def runs(self, inst=None):
        """The fake method's runs: ["FMRI ARG", ...] in order."""
        name = "runs" if inst is None else "runs." + inst
        try:
            with open(self.path("/tmp/fake/" + name)) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def record(self, what, inst):
        with open(self.path("/tmp/fake/%s.%s" % (what, inst))) as f:
            return f.read()

    def log(self, fmri="svc:/site/fake:one"):
        name = fmri[len("svc:/"):].replace("/", "-")
        with open(self.path("/var/svc/log/%s.log" % name)) as f:
            return f.read()

    def has_log(self, fmri):
        name = fmri[len("svc:/"):].replace("/", "-")
        return os.path.exists(self.path("/var/svc/log/%s.log" % name))

    def state(self, fmri="svc:/site/fake:one"):
        return self.ok("svcs", "-H", "-o", "state", fmri).strip()

    def aux(self, fmri="svc:/site/fake:one"):
        return self.ok("svcprop", "-p", "restarter/auxiliary_state",
                       fmri).strip()
