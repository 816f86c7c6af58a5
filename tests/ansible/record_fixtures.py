#!/usr/bin/env python3
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Record svmram's output on the SVM emulator (illumos-2016, the article's
host) as the fixtures of the collection's fake svmram (ansible/.../tests/
unit/plugins/modules/fixtures).  Run from the top of the tree:
  python3 tests/ansible/record_fixtures.py DIR
"""
import json, os, subprocess, sys, tempfile
sys.path[:0] = ["tests/scenario", "lib"]
from hosts import EmulatedHost
OUT = sys.argv[1]
def cap(host, *args):
    p = subprocess.run([sys.executable, "sbin/svmram"] + list(args), env=host.env, text=True, capture_output=True)
    return {"rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr}
def save(name, table):
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(table, f, indent=1, sort_keys=True); f.write("\n")
base = tempfile.mkdtemp(prefix="svmram-fixtures-")
h = EmulatedHost(base + "/a")
save("not_set_up", {" ".join(a): cap(h, *a) for a in (("status","--json","d10"),("check","--json","d10"),("setup","-n","d10"),("teardown","-n","d10"),("status","--json"),("check","--json"))})
setup = cap(h, "setup", "-y", "d10")
t = {" ".join(a): cap(h, *a) for a in (("status","--json","d10"),("check","--json","d10"),("setup","-n","d10"),("teardown","-n","d10"),("status","--json"),("check","--json"))}
t["setup -y d10"] = cap(h, "setup", "-y", "d10")
for method in ("rotate", "swap"):
    t["setup -n --method %s d10" % method] = cap(h, "setup", "-n", "--method", method, "d10")
save("set_up", t)
teardown = cap(h, "teardown", "-y", "d10")
h.reboot()
setup2 = cap(h, "setup", "-y", "d10")
assert setup2["rc"] == 0, setup2
h.reboot("--no-services")
save("boot_window", {" ".join(a): cap(h, *a) for a in (("status","--json","d10"),("check","--json","d10"))})
h2 = EmulatedHost(base + "/b")
assert h2.cmd("metadetach", "d10", "d12").returncode == 0
save("degraded", {" ".join(a): cap(h2, *a) for a in (("status","--json","d10"),("check","--json","d10"),("setup","-n","d10"),("setup","-y","d10"))})
h2.sim("smf", "down")
save("unreadable", {" ".join(a): cap(h2, *a) for a in (("status","--json","d10"),("status","--json"),("check","--json"))})
save("transitions", {"setup -y d10": setup, "teardown -y d10": teardown})
