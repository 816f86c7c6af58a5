# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Fault injection, the env contract and misc commands."""

import os
import shlex


def test_fault_nth_call(sim):
    sim.sim("faults", "add", "metattach", "--nth", "2", "--exit", "1",
            "--svm-error", "submirror open error", "--name", "d13")
    sim.sim("faults", "add", "ramdiskadm", "--exit", "1",
            "--message", "ramdiskadm: couldn't create ramdisk: boom")
    assert "metattach call 2" in sim.sim("faults", "list").stdout
    p = sim.run("ramdiskadm -a x 1m")
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "", "ramdiskadm: couldn't create ramdisk: boom\n")
    assert sim.ok("ramdiskadm") == ""              # changed nothing
    p = sim.run("metattach d10 d99")               # call 1: real error
    assert p.stderr == "metattach: myhost: d99: unit not set up\n\n"
    sim.ok("ramdiskadm -a x 1m")
    sim.link("x")
    sim.ok("metainit d13 1 1 c5t0d0s0")
    before = sim.config()
    p = sim.run("metattach d10 d13")               # call 2: the fault
    assert (p.returncode, p.stderr) == (
        1, "metattach: myhost: d13: submirror open error\n\n")
    assert sim.config() == before
    sim.sim("faults", "clear")
    assert sim.sim("faults", "list").stdout == ""


def test_env_exports(sim):
    out = sim.sim("env").stdout
    env = {}
    for line in out.splitlines():
        var, _, value = line[len("export "):].partition("=")
        env[var] = shlex.split(value)[0]
    assert env["PATH"].split(":")[0] == os.path.join(sim.dir, "bin")
    assert env["SVMSIM_DIR"] == sim.dir
    assert env["SVMSIM_ROOT"] == env["SVMRAM_ROOT"] == \
        os.path.join(sim.dir, "root")
    assert env["SVMRAM_BINDIR"] == os.path.join(sim.dir, "bin")
    for prog in ("metadb", "metainit", "metattach", "metadetach", "metaclear",
                 "metaparam", "metareplace", "metasync", "metaoffline",
                 "metaonline", "metastat", "ramdiskadm", "svcadm", "svccfg",
                 "svcprop", "svcs"):
        assert os.access(os.path.join(env["SVMRAM_BINDIR"], prog), os.X_OK)


def test_metadb_listing(sim):
    out = sim.ok("metadb")
    assert out.split("\n")[0] == "\tflags\t\tfirst blk\tblock count"
    assert out.split("\n")[1] == \
        "     a m  p  luo    \t16\t\t8192\t\t/dev/dsk/c0d0s7"
    out = sim.ok("metadb -i")
    assert out.endswith(
        " B - tagged data associated with the replica is not valid\n")


def test_device_nodes_for_disks(sim):
    for d in ("dsk", "rdsk"):
        for s in ("c0d0s0", "c0d1s0", "c1d0s0"):
            assert os.path.exists(os.path.join(sim.root, "dev", d, s))
    st = os.stat(os.path.join(sim.root, "dev/rdsk/c0d1s0"))
    assert 240 <= os.major(st.st_rdev) <= 254
    assert os.path.exists(os.path.join(sim.root, "dev/md/rdsk/d10"))


def test_open_close(sim):
    p = sim.sim("close", "d10")
    assert p.returncode == 0
    p = sim.sim("close", "d10")
    assert p.returncode == 1
    assert sim.ok("metaclear d10") == "d10: Mirror is cleared\n"


def test_real_cli_contract(tmp_path):
    """`python3 -m svmsim` as other code and the demo drive it."""
    import subprocess
    import sys
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "lib")
    env = dict(os.environ, PYTHONPATH=lib)
    d = str(tmp_path / "host")

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "svmsim"] + list(args),
                              env=env, capture_output=True, text=True)

    assert cli("init", d, "--preset", "article").returncode == 0
    out = cli("env", d).stdout
    assert out.startswith("export PATH=")
    assert "export SVMRAM_BINDIR=" + shlex.quote(d + "/bin") in out
    p = subprocess.run(["sh", "-c", out + "\nmetastat -p"], env=env,
                       capture_output=True, text=True)
    assert p.stdout.startswith("d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1")
    assert cli("reboot", d, "--before-metasync").returncode == 0
    p = cli("monitor", d)
    assert (p.returncode, p.stdout) == (0, "no violations\n")
    assert '"nodename": "myhost"' in cli("state", d).stdout


def test_host_description(tmp_path, make_sim):
    import json
    from svmsim import cli
    host = {"nodename": "box", "physmem": 4 * 1024 ** 3,
            "disks": {"c0t0d0": {"nhead": 255, "nsect": 63,
                                 "devid": "id1,sd@n5000c500", "slices":
                                 {"0": 4192965, "7": 32130}},
                      "c0t1d0": {"nhead": 255, "nsect": 63,
                                 "slices": {"0": 4192965}}},
            "replicas": [{"slice": "c0t0d0s7", "count": 2}],
            "data": {"c0t0d0s0": 3},
            "metadevices": ["d1 1 1 c0t0d0s0", "d0 -m d1"],
            "vfstab": {"d0": "/data"}}
    path = tmp_path / "host.json"
    path.write_text(json.dumps(host))
    d = str(tmp_path / "h")
    assert cli.main(["init", d, "--host", str(path)]) == 0
    p = __import__("subprocess").run(
        [os.path.join(d, "bin", "metastat"), "d0"], capture_output=True,
        text=True)
    assert p.stdout.startswith("d0: Mirror\n    Submirror 0: d1\n")
    assert "c0t0d0   Yes  \tid1,sd@n5000c500\n" in p.stdout
    p = __import__("subprocess").run(
        [os.path.join(d, "bin", "metaclear"), "d0"], capture_output=True,
        text=True)
    assert p.stderr == "metaclear: box: d0: metadevice is open\n\n"


def test_faults_apply_to_the_smf_commands(sim):
    fmri = "svc:/system/metasync:default"
    sim.sim("faults", "add", "svcadm", "--nth", "2", "--exit", "1",
            "--message", "svcadm: %s: Permission denied." % fmri)
    assert sim.run("svcadm disable " + fmri).returncode == 0
    p = sim.run("svcadm enable " + fmri)            # call 2: the fault
    assert (p.returncode, p.stdout, p.stderr) == (
        1, "", "svcadm: %s: Permission denied.\n" % fmri)
    assert sim.ok("svcs -H -o state " + fmri) == "disabled\n"
    assert "[fired]" in sim.sim("faults", "list").stdout
    assert sim.run("svcadm enable " + fmri).returncode == 0
    assert sim.ok("svcs -H -o state " + fmri) == "online\n"


def test_fault_with_stdout_text(sim):
    """--stdout: the faulty call prints that text instead of its output
    (exit status 0 allowed), changes nothing, and fires once."""
    good = sim.ok("metastat -p")
    before = sim.config()
    sim.sim("faults", "add", "metastat", "--nth", "2", "--exit", "0",
            "--stdout", "d10 -m what is this\n\tnot metastat")
    assert "(stdout 'd10 -m what is this" in sim.sim("faults", "list").stdout
    assert sim.ok("metastat -p") == good             # call 1: real output
    p = sim.run("metastat -p")                       # call 2: the fault
    assert (p.returncode, p.stdout, p.stderr) == (
        0, "d10 -m what is this\n\tnot metastat\n", "")
    assert sim.ok("metastat -p") == good             # fired once only
    assert sim.config() == before
    sim.sim("faults", "add", "ramdiskadm", "--exit", "1", "--stdout", "",
            "--message", "ramdiskadm: boom")
    p = sim.run("ramdiskadm")
    assert (p.returncode, p.stdout, p.stderr) == (1, "", "ramdiskadm: boom\n")
    sim.sim("faults", "add", "svcprop", "--exit", "0", "--stdout", "garbage")
    p = sim.run("svcprop -p svmram svc:/system/svmram:d10")
    assert (p.returncode, p.stdout) == (0, "garbage\n")


def test_fault_needs_some_text(sim):
    p = sim.sim("faults", "add", "metastat", "--exit", "1")
    assert p.returncode == 1
    assert "give --message, --svm-error or --stdout" in p.stderr
    assert sim.sim("faults", "list").stdout == ""
