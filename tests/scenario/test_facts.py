# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Every line and exit status the emulator gives svmram is a fact of the
inventory (lib/svmsim/facts.py) with a source or a GUESS and the real-host
check that settles it (issue 36 section 1).

On each release profile, with the emulator's recorder on (`svmsim
record-facts`, svmsim/factlog.py): `svmram selftest`, `check`, and setup,
status in every format, restore after a reboot and teardown for each
method (rotate on the article's mounted mirror, swap on a closed one, copy
on an unlabeled one), the article's restore also by the boot service
after the reboot; status with SMF's repository down and with stale
replicas.  The gate itself is shown to fail on a line the
emulator prints without an inventory entry.
"""

import os

import pytest

import inprocess
from svmsim import facts, factlog

pytestmark = pytest.mark.emulator_only(
    "records the emulator's own output (svmsim record-facts)")

FIELDS = ("mirror,verdict,health,serving,ram,ramstate,resync,ramdisk,"
          "ramdiskstate,size,disks,current,redundancy,service,method")
STATUS_FORMATS = ([], ["-j"], ["-p"], ["-H", "-o", FIELDS], ["-x"],
                  ["-q"], ["--nagios"], ["--prometheus"])


def recording(host, log):
    result = host.sim("record-facts", str(log))
    assert result.returncode == 0, result.stderr
    return host


def must(result):
    assert result.returncode == 0, (result.stdout, result.stderr)


def flow(host, setup_args, formats=STATUS_FORMATS):
    """setup, status in each format, a reboot, restore, status, teardown
    (status's exit status says whether reads come from RAM, which a
    resync may not yet let it say: it is not asserted)."""
    must(host.svmram("setup", "-y", *setup_args))
    for options in formats:
        host.svmram("status", *options)
    must(host.reboot())
    host.svmram("status")
    must(host.svmram("restore", "d10"))
    host.svmram("status", "-j")
    must(host.svmram("teardown", "-y", "d10"))


def trouble_flow(host):
    """What svmram reads when the host is in trouble: SMF's repository
    server down, then the state database stale after a reboot (svmram
    refuses; its exit statuses are its own tests' business)."""
    must(host.svmram("setup", "-y", "d10"))
    must(host.sim("smf", "down"))
    host.svmram("status")
    host.svmram("status", "-j")
    must(host.sim("smf", "up"))
    must(host.sim("fail-replicas", "c0d0s7"))
    must(host.reboot())
    host.svmram("status", "-j")
    host.svmram("restore", "d10")


def unsourced_text(log):
    return "\n".join("%s %s: %s %r" % (prog, " ".join(argv), stream, line)
                     for prog, argv, stream, line in
                     facts.unsourced(factlog.read(str(log))))


def test_every_emulated_line_svmram_reads_is_in_the_inventory(
        host, host_factory, tmp_path):
    log = tmp_path / "facts.jsonl"
    # Installed, so that the reboot's boot service restores (svmram as a
    # process, started by the start method, as on a real host).
    host.install()
    recording(host, log)
    must(host.svmram("selftest"))
    must(host.svmram("check", "d10"))
    flow(host, ["d10"])
    flow(recording(host_factory("swap"), log), ["d10"], [["-j"]])
    flow(recording(host_factory("unlabeled-x86"), log),
         ["--allow-label", "d10"], [[], ["-j"]])
    trouble_flow(recording(host_factory("article"), log))
    records = factlog.read(str(log))
    programs = {record["prog"] for record in records}
    # The flows reached every kind of command the inventory covers.
    assert {"metastat", "metainit", "metattach", "metadetach", "metaclear",
            "metareplace", "metasync", "metaparam", "metadb", "ramdiskadm",
            "kstat", "prtvtoc", "dd", "cmp", "fuser", "lofiadm", "mkfile",
            "newfs", "mount", "umount", "svcs", "svcprop", "svcadm",
            "svccfg"} <= programs
    assert unsourced_text(log) == ""


@pytest.mark.skipif(not inprocess.enabled(),
                    reason="patches the emulator in the test's process")
def test_a_line_added_without_a_fact_fails_the_gate(host_after, tmp_path,
                                                    monkeypatch):
    from svmsim import report
    log = tmp_path / "facts.jsonl"
    host = recording(host_after(("svmram", "setup", "-y", "d10")), log)
    host.svmram("status", "d10")
    assert unsourced_text(log) == ""
    original = report.devid_section
    monkeypatch.setattr(report, "devid_section", lambda *args: original(
        *args).replace("Relocation Information:", "Relocations:"))
    log.unlink()
    host.svmram("status", "d10")
    assert unsourced_text(log) == \
        "metastat d10: stdout 'Device Relocations:'"


def stopped(host):
    """The recorder off: what the test does next is the administrator's,
    not svmram's reading."""
    must(host.sim("record-facts"))
    return host


def admin_stripe(host, name, *links):
    """The administrator's stripe of ramdisks linked as cNt0d0s0 names
    (one row, an interlace when more than one)."""
    for link in links:
        ramdisk = "admin_" + link
        must(host.cmd("ramdiskadm", "-a", ramdisk, "10m"))
        for kind, device in (("dsk", "ramdisk"), ("rdsk", "rramdisk")):
            os.symlink("/dev/%s/%s" % (device, ramdisk),
                       os.path.join(host.root, "dev", kind, link))
    must(host.cmd("metainit", name, "1", str(len(links)), *links))


def test_every_emulated_line_svmram_reads_of_an_odd_host_is_in_the_inventory(
        host_factory, tmp_path):
    """What svmram reads beyond its own flows: status before anything is
    set up and of a unit that does not exist; status of the
    administrator's striped concat, then of an instance without its
    record; setup of a mirror a process holds open; a restore after a
    reboot that gives the ramdisk's link another name, then status with
    the disk submirror offline; status and setup on a host without
    replicas."""
    log = tmp_path / "facts.jsonl"
    host = recording(host_factory("article"), log)
    host.svmram("status")
    host.svmram("status", "d99")
    stopped(host)
    admin_stripe(host, "d50", "c95t0d0s0", "c96t0d0s0")
    recording(host, log)
    host.svmram("status")
    stopped(host)
    must(host.cmd("svccfg", "-s", "svc:/system/svmram", "add", "d20"))
    recording(host, log)
    host.svmram("status", "-j")
    host = host_factory("unlabeled-x86")
    must(host.sim("open", "d10"))
    recording(host, log)
    host.svmram("setup", "-y", "--allow-label", "d10")
    host = host_factory("article")
    must(host.svmram("setup", "-y", "d10"))
    must(host.reboot())
    must(host.cmd("ramdiskadm", "-a", "admin_first", "1m"))
    recording(host, log)
    must(host.svmram("restore", "d10"))
    stopped(host)
    must(host.sim("tick"))          # the RAM submirror's resync ends
    must(host.cmd("metaoffline", "d10", "d11"))
    recording(host, log)
    host.svmram("status")
    host = host_factory("article-bare")
    must(host.cmd("metadb", "-d", "-f", "c0d0s7"))
    recording(host, log)
    host.svmram("status")
    host.svmram("setup", "-y", "d10")
    assert unsourced_text(log) == ""
    read = {facts.matching(r["prog"], r["argv"], stream, line).id
            for r in factlog.read(str(log)) for stream in ("stdout", "stderr")
            for line in r[stream].splitlines()
            if facts.matching(r["prog"], r["argv"], stream, line)}
    # The flows reached the facts they are here for.
    assert {"metastat.p.stripe", "metastat.submirror.invoke",
            "svcprop.no-pg", "fuser.name", "fuser.pids",
            "metareplace.replaced",
            "metastat.no-database"} <= read
    shown = "".join(r["stdout"] for r in factlog.read(str(log))
                    if r["prog"] == "metastat")
    assert "d50 1 2 /dev/rdsk/c95t0d0s0 /dev/rdsk/c96t0d0s0 -i " in shown
    assert "    Invoke: metaonline d10 d11\n" in shown
