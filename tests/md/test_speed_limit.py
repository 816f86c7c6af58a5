# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""md's recovery speed limit raised for the copy into RAM lasts only for
the copy: svmram-copy@'s `svmram restore --after-copy`, once md has
copied the array into the RAM member at boot, puts back what the
restore found (md/sync_speed_max "200000 (system)": the system's limit,
not a local one), so that Debian's mdcheck, which starts right after,
and any later resync run under the administrator's limit; a limit
changed since is left alone.  On md's fake kernel (mdcli.py)."""

import json
import os

import fakekernel
import faketree
from mdcli import SETUP_ARGVS, stopped_by_the_unit
from test_scrub import checking

LIMIT = "/sys/block/md0/md/sync_speed_max"


def limit(host):
    with open(host.path(LIMIT)) as stream:
        return stream.read()


def restored(host):
    """The unit's stop, then the next boot's restore, which returns while
    md copies into ram0 under svmram's raised limit; then md's copy
    ends.  The limit as the restore found it."""
    stopped_by_the_unit(host)
    found = limit(host)
    faketree.write(host.root, "/" + fakekernel.RECOVERING, "")
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS[2:4]), err
    assert out == ("md0: md is copying the disks onto /dev/ram0; the disks "
                   "serve reads until it is in sync.\n")
    assert host.state("ram0") == "spare"
    assert limit(host) == "2147483647 (local)\n"
    copied(host)
    return found


def copied(host):
    """md's copy into ram0 has ended: in sync, md idle."""
    for attr, value in (("dev-ram0/state", "in_sync"),
                        ("dev-ram0/recovery_start", "none"),
                        ("sync_action", "idle"), ("sync_completed", "none"),
                        ("degraded", "0")):
        faketree.write(host.root, "/sys/block/md0/md/" + attr, value)


def test_after_the_copy_the_limit_is_what_the_restore_found(host):
    found = restored(host)
    assert found == "200000 (system)\n"
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs) == (0, []), err
    assert limit(host) == found
    assert err == ("restore md0: Put the recovery speed limit of md0 back "
                   "to the system's.\n")
    assert out == ("md0: md's copy into /dev/ram0 has ended; the recovery "
                   "speed limit is the system's again.\n")
    # once back, nothing to do
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs, err) == (0, [], "")
    assert out == ("md0: nothing to do: the recovery speed limit, 200000 "
                   "KiB/s (system), is not one svmram raised.\n")
    assert limit(host) == found


def test_the_put_back_is_a_step_of_the_plan_that_n_shows(host):
    restored(host)
    rc, out, err, argvs = host.svmram("restore", "-n", "--after-copy",
                                      "/dev/md0")
    assert (rc, argvs) == (0, []), err
    assert "printf %%s system > %s\n" % host.path(LIMIT) in out
    assert "# 1. Put the recovery speed limit of md0 back to the system's." \
        in out.splitlines()
    assert limit(host) == "2147483647 (local)\n"


def test_a_limit_the_administrator_set_since_is_left_alone(host):
    """svmram writes back only the value it wrote: an administrator's own
    limit on the array, or "system" written by hand, stays."""
    restored(host)
    faketree.write(host.root, LIMIT, "50000 (local)")
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs, err) == (0, [], "")
    assert out == ("md0: nothing to do: the recovery speed limit, 50000 "
                   "KiB/s (local), is not one svmram raised.\n")
    assert limit(host) == "50000 (local)\n"


def test_a_ram_member_still_to_be_copied_keeps_the_raised_limit(host):
    """svmram-copy@ gave up after 30 minutes, or md copies nothing yet (a
    frozen array): the raised limit is the copy's, and stays."""
    stopped_by_the_unit(host)
    faketree.write(host.root, "/" + fakekernel.RECOVERING, "")
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert rc == 0, err
    faketree.write(host.root, "/sys/block/md0/md/sync_completed",
                   "104040 / 260096")
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs, err) == (0, [], "")
    assert out == ("md0: nothing to do: /dev/ram0 is still to be copied "
                   "(40 % done), so the recovery speed limit stays "
                   "2147483647 KiB/s (local) until the next restore or the "
                   "unit's stop.\n")
    assert limit(host) == "2147483647 (local)\n"


def test_after_the_copy_nothing_else_of_the_restore_is_done(host):
    """--after-copy adds no RAM member: where the boot's restore added
    none (here: the unit's stop took it out), it leaves the array as it
    is, only the raised limit goes back; while md runs something else
    (a check started by hand) the limit stays."""
    restored(host)
    checking(host.root, 1000)
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs, err) == (0, [], "")
    assert out == ("md0: nothing to do: md is running a check, so the "
                   "recovery speed limit stays 2147483647 KiB/s (local) "
                   "until the next restore or the unit's stop.\n")
    faketree.write(host.root, "/sys/block/md0/md/sync_action", "idle")
    faketree.write(host.root, "/sys/block/md0/md/sync_completed", "none")
    for argv in (["mdadm", "/dev/md0", "--fail", "/dev/ram0", "--remove",
                  "/dev/ram0"], ["mdadm", "--grow", "/dev/md0",
                                 "--raid-devices=2"]):
        host.command(argv)
    rc, out, err, argvs = host.svmram("restore", "--after-copy", "/dev/md0")
    assert (rc, argvs) == (0, []), err
    assert limit(host) == "200000 (system)\n"
    assert not os.path.exists(host.path("/sys/block/md0/md/dev-ram0"))


def test_status_names_a_raised_limit_the_copy_left_and_the_fix_works(host):
    """Where the raised limit outlasts the copy (svmram-copy@'s
    --after-copy failed, or the restore ran outside its unit), every
    format of status says so, grades nothing by it, and names the command
    that puts the system's back; that command does, and status is quiet
    again."""
    restored(host)
    copied(host)
    fix = "svmram restore --after-copy md0"
    rc, out, err, _ = host.svmram("status", "--json", "/dev/md0")
    assert rc == 0, err
    entry, = json.loads(out)["targets"]
    assert entry["raised_speed_limit"] == {"kib_per_second": 2147483647,
                                           "fix": fix}
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert rc == 0, err
    assert ("    limit:      2147483647 KiB/s, raised by svmram for the copy "
            "into RAM, though nothing is copied now: '%s' puts back the "
            "system's" % fix) in out.splitlines()
    rc, out, err, _ = host.svmram("status", "--nagios")
    assert rc == 0, err
    assert out.startswith("SVMRAM OK - md0 serves reads from RAM; md0's "
                          "recovery speed limit is 2147483647 KiB/s, raised "
                          "by svmram for the copy into RAM, though nothing "
                          "is copied now: '%s' puts back the system's | "
                          % fix), out
    rc, out, err, argvs = host.svmram(*fix.split()[1:])
    assert (rc, argvs) == (0, []), err
    assert limit(host) == "200000 (system)\n"
    rc, out, err, _ = host.svmram("status", "--json", "/dev/md0")
    assert rc == 0, err
    assert json.loads(out)["targets"][0]["raised_speed_limit"] is None
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert rc == 0 and "limit:" not in out, out


def test_status_is_quiet_about_a_limit_the_copy_still_needs(host):
    """While md copies into RAM, or runs a check, the raised limit is the
    copy's (--after-copy would leave it); an administrator's own local
    limit is not svmram's."""
    stopped_by_the_unit(host)
    faketree.write(host.root, "/" + fakekernel.RECOVERING, "")
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert rc == 0, err
    assert limit(host) == "2147483647 (local)\n"
    for state in ("copying", "to copy", "checking", "admin"):
        if state == "to copy":
            # a moment before md starts the recovery: idle, ram0 a spare
            faketree.write(host.root, "/sys/block/md0/md/sync_action",
                           "idle")
            faketree.write(host.root, "/sys/block/md0/md/sync_completed",
                           "none")
        elif state == "checking":
            copied(host)
            checking(host.root, 1000)
        elif state == "admin":
            copied(host)
            faketree.write(host.root, LIMIT, "50000 (local)")
        rc, out, err, _ = host.svmram("status", "--json", "/dev/md0")
        # 4: not serving from RAM until ram0 is copied
        assert rc == (4 if "copy" in state else 0), (state, err)
        entry, = json.loads(out)["targets"]
        assert entry["raised_speed_limit"] is None, state
        rc, out, err, _ = host.svmram("status", "--nagios")
        assert "speed limit" not in out, state
