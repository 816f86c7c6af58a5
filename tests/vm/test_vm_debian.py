# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram on real Debian systems under systemd (issue 21, 3; issue 28):
debian-guest.sh builds the guest from Debian's packages with mmdebstrap
(cached outside the checkout, per release), installs the package `make
deb` builds, and boots it under QEMU (TCG).  On Debian 13 (trixie) the
guest's own check script (guest-debian-check.sh, run by a unit at every
boot) refuses bad input (brd loaded by someone else, an array without a
bitmap, not enough memory, disks in use) with nothing changed, tries an
array whose disks carry bad-block log entries (mdadm PR 154), sets up md0
through the shipped command and unit, reboots cleanly (the RAM member
back in sync, no read from the disks, no mdadm event or mail, no kernel
member failure, md's words, mismatch_cnt 0 after md's check, the
shutdown's kernel line dropped by svmram(8)'s logcheck and rsyslog
filters), restarts the unit with mdmonitor running (no event, no mail),
reboots during md's copy into RAM, is cut off with a writer running (the
boot after: no event, no mail), starts Debian's scrub (mdcheck) and
reboots with it due at boot (the copy into RAM not held back, the check
continued after it from mdcheck's marker under the administrator's
recovery speed limit, not svmram's raised one, and finished, status
truthful while it ran), boots without the second data disk (/data
mounted, the RAM member kept out of the disk's slot, status and --nagios
say so, mdadm alarms) and with it back (a disk failed by hand alarms),
removes the package with md0 set up, reboots, checks the array on its
disks, installs the package again (the RAM member comes back), tears
down; then svmram's Ansible collection, built and installed by Debian's
own ansible-core, with a local connection (issue 38): check mode and
diff mode change nothing (the host's digest), setup, a rerun changes
nothing; a reboot, after which the play finds md0 set up once its reads
come from RAM (no sector read from the disks) and tears it down; a
reboot and the ordinary array is checked.  Debian 12 (bookworm)
runs the short plan: setup, a clean reboot and restart, the power cut,
teardown; so does Debian 14 (forky, testing: kernel 7.x, mdadm 4.6), the
canary of the next release (issue 37), whose failure fails make test-vm
as any other's, and where md3's RAM member must be added (mdadm 4.5 and
later no longer copy the bad-blocks flag).  Debian 13 with the kernel of
trixie-backports (debian-guest.sh --kernel backports) runs the short plan
only with SVMRAM_VM_BACKPORTS=1 (make test-vm-backports).

test_power_cuts_under_systemd boots Debian 13's image 6 times in a
sequence of its own (debian-guest.sh --plan cuts) and cuts the power
(QEMU killed on the console's "LAB-MARK cut POINT", the command's test
switch SVMRAM_TEST_CUT) 5 times: inside `svmram setup -y md0` at each
point of guest-debian-check.sh's SETUP_CUTS, the second in the setup run
again after the first; in md's recovery into ram0 at least 25 % done
(the unit started again while a writer appends fsynced records to /data;
its restore does not wait for md's copy, the guest does, reading md's
sync_completed, then prints the mark); inside `svmram teardown -y md0`
at each point of TEARDOWN_CUTS, in the same way.  The points are those
whose state a boot under systemd meets differently (issue 28 cut the
chain from 21 boots to 6 for the CI's time; guest-debian-check.sh says
why each kept point is there and why the others add nothing under
systemd; the busybox chain of test_vm_md.py still cuts after every step
on the real kernel): setup's grow-add (the RAM member in the
superblocks, the unit enabled, md0 inactive at boot: only the unit
starts it), setup's end (the boot's own unit restores), teardown's mark
(the same inactive array with teardown's journal and marker) and
teardown's end (an ordinary array).  After each cut the next boot mounts
/data from fstab, reads back every noted record and the files, finds the
journal, record, raid devices, write-mostly disks, marker and unit the
table says, and md's check finds mismatch_cnt 0; the unit restores, or,
while a journal says a setup or teardown is unfinished, starts md0
(inactive when the cut left a RAM member in it) and stands aside; a
restore by hand stands aside too; after the last cut of each chain the
boot's unit has restored (setup) or the array is ordinary (teardown).
mdadm's monitor, once it runs, has reported nothing since the cut where
the array is whole again (setup's end, md's recovery cut, teardown's
end), and DegradedArray with its one mail alone where a setup or
teardown was cut short (md0 a raid device short until it is run again:
a true alarm).  It asserts each boot's phase, RESULT names and exact cut
point.

Slow (each release's first build 1 to 7 minutes, by the mirror; the
boots' times are in docs/md-backend.md): it runs only with
SVMRAM_VM_TESTS=1 (make test-vm), as root, and skips, saying why,
without mmdebstrap, QEMU, debhelper or the Debian mirror.  make test-vm
runs four sequences (issue 28 item 1, issue 37): trixie's full one
because it is the release people install and the only one with the disk
missing and back, the failed disk and the package's removal; its cuts
because they alone cut inside setup and teardown under systemd;
bookworm's short one so that oldstable does not rot; forky's short one
so that the next release's kernel and mdadm are met before its users.  Together with the busybox
guests they take about 23-26 minutes on a quiet machine, more than the
20 aimed at (docs/md-backend.md, "make test-vm's time").
"""

import os
import re
import shutil
import subprocess
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MIRROR = os.environ.get("SVMRAM_DEBIAN_MIRROR",
                        "http://deb.debian.org/debian")
NEEDED = {"mmdebstrap": "apt-get install mmdebstrap",
          "qemu-system-x86_64": "apt-get install qemu-system-x86",
          "debugfs": "apt-get install e2fsprogs",
          "mke2fs": "apt-get install e2fsprogs",
          "dpkg-buildpackage": "apt-get install dpkg-dev",
          "dh": "apt-get install debhelper",
          "dh_python3": "apt-get install dh-python"}

# What each boot must have checked and found right (guest-debian-check.sh).
BAD_INPUT = [name + "." + what for name in (
    "bad.brd_foreign", "bad.no_bitmap", "bad.memory", "bad.disk_of_md0",
    "bad.disk_mounted") for what in ("rc", "cause", "advice",
                                     "nothing_changed")]
CLEAN_REBOOT = [
    "ram.recovered", "unit.active", "copy_unit.result", "ram.in_sync",
    "write_mostly.vdb", "write_mostly.vdc", "data.mounted",
    "mount.no_last_resort", "reads.disks_none", "data.sums", "status.rc",
    "status.md_words", "unit.verify", "journal.says_what",
    "journal.md_words", "mdadm.no_events_of_reboot", "mail.none_of_reboot",
    "kernel.no_member_failure_at_boot", "mismatch_cnt.zero"]
RESTART = ["restart.monitor_running", "restart.unit_active",
           "restart.recovered", "restart.ram_in_sync", "restart.monitor_back",
           "restart.no_events", "restart.no_mail"]
LIMIT_LEFT = ["limit_left." + n for n in (
    "status_text", "status_json", "nagios", "fixed", "status_quiet")]
AFTER_POWER_CUT = ["power_cut." + n for n in (
    "data.mounted", "data.sums", "records", "records_of_writer",
    "unit_active", "recovered", "ram_in_sync", "mdadm.no_events",
    "mail.none")] + ["mismatch_cnt.zero"]
# md3 with bad-block log entries (mdadm PR 154), then these
BAD_BLOCKS = ["badblocks.entry", "badblocks.data", "badblocks.unit_gone"]
# and one of these outcomes: setup adds the RAM member and the unit's
# restart does too, or refuses quoting mdadm; or setup refuses so
BAD_BLOCKS_OUTCOMES = [
    {"badblocks.setup.added", "badblocks.restore.added"},
    {"badblocks.setup.added", "badblocks.restore.refusal_quotes_mdadm",
     "badblocks.restore.says_why"},
    {"badblocks.setup.refusal_quotes_mdadm", "badblocks.setup.says_why"}]
# The Ansible step (issue 38; guest-debian-check.sh ansible_setup and
# ansible_rebooted): Debian's ansible-core runs the collection's md play
ANSIBLE_SETUP = [
    "ansible.debian_package", "ansible.collection_installed",
    "ansible.check.rc", "ansible.check.nothing_changed", "ansible.setup.rc",
    "ansible.setup.ram_in_sync", "ansible.setup.unit_active",
    "ansible.rerun.rc", "ansible.rerun.unchanged",
    "ansible.rerun.nothing_changed", "ansible.data.sums"]
ANSIBLE_REBOOTED = [
    "ansible.rebooted.rc", "ansible.rebooted.unchanged",
    "ansible.rebooted.reads_from_ram", "ansible.teardown.rc",
    "ansible.teardown.no_ram_member", "ansible.teardown.raid_devices",
    "ansible.teardown.no_record", "ansible.teardown.data.sums"]
# before the reboot into the scrub's phase (k), and in k: the recovery
# speed limit the system's again after the boot's copy into RAM, and the
# check under it
SCRUB_PREPARE = ["scrub.limit_before", "scrub.started", "scrub.marker_kept"]
SCRUB = ["scrub.copy_not_held", "scrub.check_resumed",
         "scrub.check_after_copy", "scrub.limit_back", "scrub.status.text",
         "scrub.status.json",
         "scrub.status.prometheus", "scrub.status.nagios",
         "scrub.check_finished"]
PHASES = {
    "0": ["disks.present", "md0.created"] + BAD_INPUT + [
        "bad.brd_foreign.advice_works", "bad.no_bitmap.advice_works",
        "bad.disk_untouched"] + BAD_BLOCKS + [
        "mdadm.conf.lists_md0", "data.mounted",
        "setup.rc", "unit.enabled", "unit.active", "record", "ram.in_sync",
        "events.counted"],
    # a clean reboot, the unit restarted, then a reboot during md's copy
    # (trixie's mdmonitor-oneshot.service started meanwhile waits)
    "1": CLEAN_REBOOT + RESTART + LIMIT_LEFT + ["copy.under_way",
                                                 "copy.oneshot_waits"],
    # a clean reboot (after the one during the copy), then a power cut
    "2": CLEAN_REBOOT,
    # after the cut, md's check started by mdcheck_start.service, which
    # is stopped (its marker kept), then a reboot into k
    "p1": AFTER_POWER_CUT + SCRUB_PREPARE,
    # Debian's scrub at boot (issue 37, 1): mdcheck_continue.service
    # started at once, the system's limit lowered once the restore has
    # raised md0's own for the copy into RAM
    "k": SCRUB,
    "3": ["missing.vdc_absent", "missing.data.mounted", "missing.data.sums",
          "missing.restore_wait_bounded", "missing.ram_not_in_disk_slot",
          "missing.restore_says", "missing.status.rc",
          "missing.status.says_what_to_do", "missing.status.md_words",
          "missing.nagios_critical_names_disk", "missing.mdadm_alarms",
          "missing.mailed"],
    "4": ["back.vdc_present", "back.as_documented",
          "back.ram_not_in_disk_slot", "back.unit_active",
          "back.recovered", "back.members_in_sync", "back.status.rc",
          "back.data.sums", "failed.monitor_running",
          "failed.nagios_critical_names_disk", "failed.mdadm_alarms",
          "failed.mailed", "failed.disk_back", "failed.data.sums",
          "remove.rc", "removed.no_ram_member", "removed.raid_devices",
          "removed.brd_unloaded", "removed.record_kept",
          "removed.unit_link_kept", "removed.listed",
          "removed.command_gone", "removed.data.sums"],
    "5": ["nopkg.raid_devices", "nopkg.clean_state", "nopkg.data.mounted",
          "nopkg.data.sums", "nopkg.no_failed_unit", "reinstall.rc",
          "reinstall.unit_active", "reinstall.list_gone",
          "reinstall.recovered", "reinstall.ram_in_sync",
          "reinstall.data.sums", "teardown.rc"] + ANSIBLE_SETUP,
    "a1": ANSIBLE_REBOOTED,
    "6": ["plain.raid_devices", "plain.no_ram_member", "plain.clean_state",
          "plain.brd_unloaded", "plain.unit_disabled", "plain.no_record",
          "plain.not_write_mostly.vdb", "plain.not_write_mostly.vdc",
          "plain.data.mounted", "plain.data.sums"],
}
# Debian 12 (oldstable), debian-guest.sh --plan short: setup, a clean
# reboot and the unit's restart, a power cut with a writer, teardown.
SHORT_PHASES = {
    "0": PHASES["0"],
    "1": CLEAN_REBOOT + RESTART + LIMIT_LEFT,
    "p1": AFTER_POWER_CUT + ["teardown.rc"],
    "6": PHASES["6"],
}
# debian-guest.sh --plan ansible (trixie): the Ansible step alone, for
# working on it (no test runs it: the full sequence has it)
ANSIBLE_PHASES = {
    "a0": ["disks.present", "md0.created", "data.mounted"] + ANSIBLE_SETUP,
    "a1": ANSIBLE_REBOOTED,
    "6": PHASES["6"],
}


def _mirror_reachable():
    try:
        for suite in ("trixie", "bookworm", "forky"):
            with urllib.request.urlopen(
                    "%s/dists/%s/Release" % (MIRROR, suite),
                    timeout=15) as answer:
                if answer.status != 200:
                    return False
        return True
    except OSError:
        return False


def _why_not():
    if os.environ.get("SVMRAM_VM_TESTS") != "1":
        return ("boots a VM for minutes; run it with make test-vm "
                "(SVMRAM_VM_TESTS=1)")
    if os.geteuid() != 0:
        return "builds the guest with mmdebstrap --mode=root: run as root"
    for tool, how in sorted(NEEDED.items()):
        if shutil.which(tool) is None:
            return "%s is not installed (%s)" % (tool, how)
    if not _mirror_reachable():
        return "the Debian mirror %s is not reachable (no network?)" % MIRROR
    return None


def _deb(tmp_path):
    dist = tmp_path / "dist"
    built = subprocess.run(["make", "-s", "deb", "DISTDIR=%s" % dist,
                            "DEBBUILDDIR=%s" % (tmp_path / "build")],
                           cwd=REPO, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:]
    deb = [f for f in os.listdir(dist) if f.endswith("_all.deb")]
    assert len(deb) == 1, deb
    return str(dist / deb[0])


def _run_guest(deb, out, *more):
    proc = subprocess.run([os.path.join(HERE, "debian-guest.sh"), "run",
                           deb, "--out", str(out)] + list(more),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=4 * 3600, check=False)
    assert proc.returncode == 0 and "debian-guest: PASS" in proc.stdout, \
        _why_failed(out, proc.stdout)


def _why_failed(out, stdout):
    """The guest's failed checks first (a console tail alone hides them),
    then the boots' times and the end of the output."""
    failed = []
    console = os.path.join(str(out), "console.log")
    if os.path.exists(console):
        with open(console, errors="replace") as log:
            failed = [line.rstrip() for line in log
                      if " RESULT " in line and " FAIL " in line
                      or " VMTEST-DONE " in line]
    return "\n".join(["failed checks in the guest:"] + (failed or ["(none)"])
                     + ["", "end of the output:", stdout[-2500:]])


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_setup_reboot_teardown_on_debian_13_under_systemd(tmp_path):
    out = tmp_path / "run"
    _run_guest(_deb(tmp_path), out, "--suite", "trixie")
    check_console((out / "console.log").read_text(errors="replace"),
                  PHASES)


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_setup_reboot_cut_teardown_on_debian_12_under_systemd(tmp_path):
    out = tmp_path / "run"
    _run_guest(_deb(tmp_path), out, "--suite", "bookworm", "--plan",
               "short")
    check_console((out / "console.log").read_text(errors="replace"),
                  SHORT_PHASES)


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_setup_reboot_cut_teardown_on_debian_14_under_systemd(tmp_path):
    """Forky (Debian 14, testing: kernel 7.x, mdadm 4.6), the short
    plan, as the canary of the next release (issue 37): it fails make
    test-vm as any other sequence does.  mdadm 4.5 and later no longer
    copy the bad-blocks flag onto the new member (mdadm PR 154), so on
    forky the RAM member must be added to md3, by setup and by the
    restore."""
    out = tmp_path / "run"
    _run_guest(_deb(tmp_path), out, "--suite", "forky", "--plan", "short")
    check_console((out / "console.log").read_text(errors="replace"),
                  SHORT_PHASES, outcomes=BAD_BLOCKS_OUTCOMES[:1])


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
@pytest.mark.skipif(os.environ.get("SVMRAM_VM_BACKPORTS") != "1",
                    reason="Debian 13 with its backports kernel: run it "
                    "with make test-vm-backports (SVMRAM_VM_BACKPORTS=1)")
def test_setup_reboot_cut_teardown_on_debian_13_backports_kernel(tmp_path):
    """Trixie with linux-image-amd64 from trixie-backports (a 7.x kernel,
    synchronous del_gendisk) beside its own mdadm 4.4, the short plan
    (issue 37); make test-vm-backports, not make test-vm (CI's time).
    Its run's versions, checks and times are in docs/md-backend.md."""
    out = tmp_path / "run"
    _run_guest(_deb(tmp_path), out, "--suite", "trixie", "--kernel",
               "backports", "--plan", "short")
    check_console((out / "console.log").read_text(errors="replace"),
                  SHORT_PHASES)


def stamp_console(raw):
    """`raw` console output through debian-guest.sh's STAMP_CONSOLE (the
    perl program that stamps each line with the host's time), without
    the stamps."""
    with open(os.path.join(HERE, "debian-guest.sh")) as script:
        program = re.search(r"^STAMP_CONSOLE='(.*)'$", script.read(),
                            re.M).group(1)
    stamped = subprocess.run(["perl", "-MTime::HiRes=time", "-ne", program],
                             input=raw, stdout=subprocess.PIPE, check=True)
    return [line.split(b" ", 1)[1]
            for line in stamped.stdout.splitlines()]


def test_the_console_stamp_takes_out_terminal_escapes():
    """Forky's systemd 262 asks the terminal's name (XTGETTCAP) when the
    test's unit opens ttyS0, in front of the check script's first line
    (the forky guest's console, 2026-11-29), and systemd's status lines
    carry colours and cursor moves: the stamped console has the lines'
    text alone, so VMTEST-BOOT is at its line's start."""
    raw = (b"\x1bP+q6E616D65\x1b\\VMTEST-BOOT 0 uptime=25.30\r\n"
           b"\x1bP+q6E616D65\x1b\\\x1b[18t\x1b7\x1b[32766;32766H\x1b[6n"
           b"\x1b8\x1b[!p\x1b]104\x1b\\\x1b[0m\x1b[?7h\x1b[1G\x1b[0J\n"
           b"\x1bM[\x1b[0;32m  OK  \x1b[0m] Stopped svmram@md0.service\n"
           b"RESULT setup.rc ok rc=0\n")
    assert stamp_console(raw) == [
        b"VMTEST-BOOT 0 uptime=25.30", b"",
        b"[  OK  ] Stopped svmram@md0.service", b"RESULT setup.rc ok rc=0"]


def chain_cuts(table):
    """The entries of SETUP_CUTS or TEARDOWN_CUTS in guest-debian-check.sh
    (the chain of cuts inside setup and teardown), in order, each a list
    POINT, JOURNAL, RECORD, RAID, WRITE-MOSTLY, MARKER, UNIT."""
    with open(os.path.join(HERE, "guest-debian-check.sh")) as script:
        text = script.read()
    body = re.search(r"^%s=\((.*?)^\)" % table, text, re.M | re.S)
    return [entry.split("|") for entry in
            re.findall(r'^\s*"([^"]*)"\s*$', body.group(1), re.M)]


def mark(point):
    """The console's text after "LAB-MARK cut " for `point` (wait= adds
    how far its step's resync got)."""
    return re.escape(point) + r"( \(.*\))?"


# The power cuts (debian-guest.sh --plan cuts), boot by boot: the phase
# the check script ran (None: the boot never got to it), the RESULT names
# it must report ok, and where the power was cut (None: not cut; a
# pattern for the whole text after "LAB-MARK cut ").
AFTER_CUT = ["data.mounted", "data.sums", "records"]
RESTORED = ["unit_active", "recovered", "ram_in_sync"]
FOUND = ["journal", "record", "raid_devices", "write_mostly", "marker",
         "unit", "no_ram_member"]
# mdadm's events and mails in the boot after a cut (cut_alarms): none
# where the array is whole again, DegradedArray and its mail alone where
# a setup or teardown was cut short (md0 runs on 2 of its 3 raid devices
# until the command is run again)
QUIET = ["mdadm.no_events", "mail.none"]
DEGRADED = ["mdadm.degraded_only", "mail.degraded_only"]
SETUP_CUTS = chain_cuts("SETUP_CUTS")
TEARDOWN_CUTS = chain_cuts("TEARDOWN_CUTS")


def chain_boots(op, entries):
    """The boots after each cut of `op`'s chain: its checks, then the
    rerun cut at the next point (the last boot: none)."""
    boots = []
    for k, (_, journal, _, _, _, _, unit) in enumerate(entries, 1):
        tag = "%s%d." % (op, k)
        checks = [tag + n for n in AFTER_CUT + FOUND]
        if op == "setup" and k == len(entries):
            checks = [tag + n for n in AFTER_CUT + FOUND[:-1] + RESTORED] \
                + ["recovery_cut.unit_started"]
        elif unit == "enabled":
            checks.append(tag + "unit_stood_aside")
        else:
            checks.append(tag + "unit_not_run")
        if journal != "-":
            checks.append(tag + "restore_stands_aside")
        checks += [tag + n for n in (QUIET if journal == "-" else DEGRADED)]
        if op == "teardown" and k == len(entries):
            checks += [tag + "brd_unloaded", tag + "records_at_end"]
        nxt = mark(entries[k][0]) if k < len(entries) else (
            RECOVERY_CUT if op == "setup" else None)
        boots.append(("%s%d" % (op[0], k), checks + ["mismatch_cnt.zero"],
                      nxt))
    return boots


# after setup's last cut: md's recovery into ram0 with a writer, the
# unit started again, the guest's own mark once the copy is >= 25 % done
RECOVERY_CUT = r"after restore \(md0 recovery \d+ % done\)"
CUT_BOOTS = [
    ("c0", ["disks.present", "md0.created", "data.mounted",
            "records.written"], mark(SETUP_CUTS[0][0]))] + \
    chain_boots("setup", SETUP_CUTS) + [
    ("r2", ["recovery_cut." + n for n in AFTER_CUT + [
        "records_of_writer"] + RESTORED + QUIET] + ["mismatch_cnt.zero"],
     mark(TEARDOWN_CUTS[0][0]))] + \
    chain_boots("teardown", TEARDOWN_CUTS)


def test_the_chains_keep_the_points_of_distinct_states():
    """The chains' tables keep the points whose state a boot under
    systemd meets differently (guest-debian-check.sh says why each is
    there and why the others add nothing here): setup's grow-add, where
    md0 comes up inactive with the unit enabled and setup's journal;
    setup's end, where the boot's unit restores; teardown's mark, the
    same inactive array with teardown's journal and marker; teardown's
    end.  The unit is enabled whenever the array has a RAM member (3
    raid devices), so that a boot after a cut starts it."""
    assert SETUP_CUTS == [
        ["journal-before=completed:grow-add ram0", "setup", "yes", "3", "-",
         "-", "enabled"],
        ["journal-after=finish", "-", "yes", "3", "vdb vdc", "-",
         "enabled"]]
    assert TEARDOWN_CUTS == [
        ["journal-before=completed:mark teardown", "teardown", "yes", "3",
         "vdb vdc", "yes", "enabled"],
        ["journal-after=finish", "-", "-", "2", "-", "-", "disabled"]]
    for entry in SETUP_CUTS + TEARDOWN_CUTS:
        assert entry[3] == "2" or entry[6] == "enabled", entry
    assert [boot[0] for boot in CUT_BOOTS] == ["c0", "s1", "s2", "r2", "t1",
                                               "t2"]
    assert [boot[2] for boot in CUT_BOOTS] == [
        mark(SETUP_CUTS[0][0]), mark(SETUP_CUTS[1][0]), RECOVERY_CUT,
        mark(TEARDOWN_CUTS[0][0]), mark(TEARDOWN_CUTS[1][0]), None]


@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_power_cuts_under_systemd(tmp_path):
    out = tmp_path / "run"
    _run_guest(_deb(tmp_path), out, "--suite", "trixie", "--plan", "cuts")
    check_cut_boots(out)


def _boot_lines(path):
    """A boot's console, without the host's time stamps."""
    return [line.split(" ", 1)[1] if " " in line else ""
            for line in path.read_text(errors="replace").splitlines()]


def check_cut_boots(out):
    """Each boot of the cuts' run: its phase, its checks all ok, and its
    power cut exactly where CUT_BOOTS says (the console's mark, and
    debian-guest.sh's times.txt)."""
    times = (out / "times.txt").read_text()
    for number, (phase, wanted, cut) in enumerate(CUT_BOOTS, 1):
        lines = _boot_lines(out / ("console-%d.log" % number))
        where = "boot %d" % number
        failed = [l for l in lines if re.match(r"RESULT \S+ FAIL", l)]
        assert failed == [], (where, failed)
        phases = [m.group(1) for m in
                  (re.match(r"VMTEST-BOOT (\S+)", l) for l in lines) if m]
        assert phases == ([phase] if phase else []), (where, phases)
        seen = [m.group(1) for m in
                (re.match(r"RESULT (\S+) ok", l) for l in lines) if m]
        missing = [w for w in wanted if w not in seen]
        assert missing == [], (where, missing)
        marks = [m.group(1).strip() for m in
                 (re.search(r"LAB-MARK cut (.*)", l) for l in lines) if m]
        recorded = re.search(r"^boot%d: .* cut=(.*)$" % number, times, re.M)
        assert recorded, (where, times)
        if cut is None:
            assert marks == [] and recorded.group(1) == "none", \
                (where, marks, recorded.group(1))
        else:
            assert marks and re.fullmatch(cut, marks[0]), (where, marks)
            assert re.fullmatch(cut, recorded.group(1).strip()), \
                (where, recorded.group(1))
    assert not (out / ("console-%d.log" % (len(CUT_BOOTS) + 1))).exists()
    last = _boot_lines(out / ("console-%d.log" % len(CUT_BOOTS)))
    assert any(re.match(r"VMTEST-DONE pass=\d+ fail=0$", l) for l in last)


def check_console(text, phases, outcomes=BAD_BLOCKS_OUTCOMES):
    """The console of one debian-guest.sh run: the phases ran in the
    order `phases` lists them, each of their checks is there and right,
    none failed (of md3's bad-block log case, one of `outcomes`' checks)."""
    lines = [line.split(" ", 1)[1] if " " in line else ""
             for line in text.splitlines()]
    assert "RESULT" not in "".join(l for l in lines if " FAIL " in l), \
        [l for l in lines if l.startswith("RESULT") and " FAIL " in l]
    phase, seen, order = None, {}, []
    for line in lines:
        m = re.match(r"VMTEST-BOOT (\S+)", line)
        if m:
            phase = m.group(1)
            seen[phase] = []
            order.append(phase)
        m = re.match(r"RESULT (\S+) ok", line)
        if m and phase is not None:
            seen[phase].append(m.group(1))
    assert order == list(phases), order
    for name, wanted in phases.items():
        missing = [w for w in wanted if w not in seen[name]]
        assert missing == [], (name, missing)
    assert any(outcome <= set(seen["0"]) for outcome in outcomes), \
        seen["0"]
    assert any(re.match(r"VMTEST-DONE pass=\d+ fail=0$", l) for l in lines)
