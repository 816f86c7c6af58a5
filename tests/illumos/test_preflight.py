# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""tests/scenario/preflight.py: when the scenario tests may use a real
illumos host, and whether its spare slices are really spare.  Pure
functions, fed here with what an illumos host would report."""

import os
import subprocess

import pytest

import preflight

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
SLICES = ["c2t1d0s0", "c2t2d0s0"]
REAL = {"SVMRAM_TEST_HOST": "real", "SVMRAM_TEST_DISKS": "c2t1d0s0 c2t2d0s0"}


# --- host_config -------------------------------------------------------------

def config(environ, system="SunOS", euid=0, exists=lambda path: True):
    return preflight.host_config(environ, system, euid, exists)


def refusal(environ, **kwargs):
    with pytest.raises(preflight.Refusal) as caught:
        config(environ, **kwargs)
    return str(caught.value)


@pytest.mark.parametrize("environ", [{}, {"SVMRAM_TEST_HOST": ""},
                                     {"SVMRAM_TEST_HOST": "emulator"}])
def test_the_emulator_by_default(environ):
    assert config(dict(environ, SVMRAM_TEST_DISKS="x")) == ("emulator", None)


def test_a_configured_illumos_host_is_accepted():
    seen = []
    assert config(REAL, exists=lambda path: seen.append(path) or True) == (
        "real", SLICES)
    assert seen == ["/dev/dsk/c2t1d0s0", "/dev/dsk/c2t2d0s0"]


def test_an_unknown_host_kind():
    text = refusal({"SVMRAM_TEST_HOST": "bogus"})
    assert text.startswith("svmram scenario tests: SVMRAM_TEST_HOST=bogus is "
                           "not understood.\n")
    assert "set it to 'emulator'" in text
    assert 'SVMRAM_TEST_HOST=real and SVMRAM_TEST_DISKS="c2t1d0s0 ' \
           'c2t2d0s0"' in text
    assert text.endswith("See docs/testing-on-a-real-host.md.")


def test_every_problem_in_one_message():
    text = refusal({"SVMRAM_TEST_HOST": "real"}, system="Linux", euid=1000)
    assert text.splitlines() == [
        "svmram scenario tests: SVMRAM_TEST_HOST=real cannot run here:",
        "  - this is Linux, not illumos (uname -s must say SunOS): the "
        "real-host tests drive this host's own SVM; here, leave "
        "SVMRAM_TEST_HOST unset to use the emulator.",
        "  - not running as root: the tests create and clear metadevices and "
        "ramdisks; run pytest as root (pfexec or sudo).",
        "  - SVMRAM_TEST_DISKS is not set: name two spare slices whose data "
        'may be destroyed, e.g. SVMRAM_TEST_DISKS="c2t1d0s0 c2t2d0s0".',
        'Set SVMRAM_TEST_HOST=real and SVMRAM_TEST_DISKS="c2t1d0s0 c2t2d0s0" '
        "on an illumos host, as root, or leave SVMRAM_TEST_HOST unset for the "
        "emulator.  See docs/testing-on-a-real-host.md."]


@pytest.mark.parametrize("disks, message", [
    ("c2t1d0s0", "names 1 slice (c2t1d0s0); it needs exactly two"),
    ("a b c", "names 3 slices (a b c); it needs exactly two"),
    ("c2t1d0s0 /dev/dsk/c2t2d0s0", "'/dev/dsk/c2t2d0s0' is not a disk slice "
     "name (cNtNdNsN or cNdNsN, without /dev/dsk/)"),
    ("c2t1d0s0 c2t1d0", "'c2t1d0' is not a disk slice name"),
    ("c2t1d0s0 c2t1d0s0", "names c2t1d0s0 twice"),
])
def test_a_bad_disk_list(disks, message):
    assert message in refusal(dict(REAL, SVMRAM_TEST_DISKS=disks))


def test_a_slice_that_does_not_exist():
    text = refusal(REAL, exists=lambda path: path.endswith("s0") and
                   "c2t2" not in path)
    assert "/dev/dsk/c2t2d0s2" not in text
    assert "SVMRAM_TEST_DISKS: /dev/dsk/c2t2d0s0 does not exist" in text
    assert "c2t1d0s0 does not exist" not in text


def test_names_with_a_wwn_target_are_slices():
    disks = "c0t5000CCA012345678d0s0 c3d1s4"
    assert config(dict(REAL, SVMRAM_TEST_DISKS=disks)) == (
        "real", disks.split())


# --- problems ----------------------------------------------------------------

VTOC = """\
* /dev/rdsk/c2t1d0s2 partition map
*
* Dimensions:
*     512 bytes/sector
*      63 sectors/track
*     255 tracks/cylinder
*   16065 sectors/cylinder
*
*                          First     Sector    Last
* Partition  Tag  Flags    Sector     Count    Sector  Mount Directory
       0      2    00      16065    465885    481949
       2      5    01          0    514080    514079
       7      0    00     481950     32130    514079
       8      1    01          0     16065     16064
"""

INSTALLED = [("/usr/sbin/svmram", b"same", b"same")]


def clean_facts():
    return {
        "mnttab": "rpool/ROOT/openindiana\t/\tzfs\trw\t1700000000\n"
                  "swap\t/tmp\ttmpfs\txattr\t1700000000\n",
        "swap": "swapfile             dev    swaplo   blocks     free\n"
                "/dev/zvol/dsk/rpool/swap 96,2      8  2097144  2097144\n",
        "dump": "      Dump content: kernel pages\n"
                "       Dump device: /dev/zvol/dsk/rpool/dump (dedicated)\n",
        "zpool": "  pool: rpool\n state: ONLINE\nconfig:\n\n"
                 "\tNAME        STATE     READ WRITE CKSUM\n"
                 "\trpool       ONLINE       0     0     0\n"
                 "\t  c2t0d0    ONLINE       0     0     0\n",
        "metadb": (0, "\tflags           first blk       block count\n"
                      "     a        u         16              8192      "
                      "      /dev/dsk/c2t3d0s0\n"),
        "metastat_p": (0, "", ""),
        "vtoc": {"c2t1d0": VTOC, "c2t2d0": VTOC},
        "ramdisks": "",
        "instances": [],
        "service": True,
        "links": ["c2t0d0s0", "c2t1d0s0", "c2t2d0s0", "c2t3d0s0"],
        "journals": [],
        "installed": INSTALLED,
    }


def problems(**changes):
    return preflight.problems(dict(clean_facts(), **changes), SLICES)


def test_a_clean_host_has_no_problem():
    assert problems() == []


@pytest.mark.parametrize("changes, message", [
    ({"mnttab": "/dev/dsk/c2t1d0s0\t/data\tufs\trw\t1\n"},
     "c2t1d0s0 is mounted (/etc/mnttab): it is not spare."),
    ({"swap": "/dev/dsk/c2t2d0s0   33,64      8  1000  1000\n"},
     "c2t2d0s0 is a swap device (swap -l): it is not spare."),
    ({"dump": "Dump device: /dev/dsk/c2t1d0s0 (dedicated)\n"},
     "c2t1d0s0 is the dump device (dumpadm): it is not spare."),
    ({"zpool": "\ttank ONLINE 0 0 0\n\t  c2t2d0 ONLINE 0 0 0\n"},
     "c2t2d0s0 is not spare: its disk c2t2d0 is in a ZFS pool "
     "(zpool status)."),
    ({"zpool": "\ttank ONLINE 0 0 0\n\t  c2t1d0p0 ONLINE 0 0 0\n"},
     "c2t1d0s0 is not spare: its disk c2t1d0p0 is in a ZFS pool"),
    ({"metastat_p": (0, "d20 1 1 c2t1d0s0\n", "")},
     "c2t1d0s0 is used by SVM (metastat -p): it is not spare."),
    ({"metastat_p": (0, "d20 1 1 /dev/rdsk/c2t2d0s0\n", "")},
     "c2t2d0s0 is used by SVM (metastat -p): it is not spare."),
    ({"metadb": (0, "   a u  16  8192   /dev/dsk/c2t1d0s0\n")},
     "c2t1d0s0 is holding state database replicas (metadb): it is not "
     "spare."),
    # Slice 2 covers the disk: it overlaps slice 0.
    ({"mnttab": "/dev/dsk/c2t1d0s2\t/old\tufs\trw\t1\n"},
     "c2t1d0s0 is not spare: c2t1d0s2, which overlaps it, is mounted "
     "(/etc/mnttab)."),
    # Slice 5 is not in the label: whether it overlaps cannot be told.
    ({"mnttab": "/dev/dsk/c2t1d0s5\t/old\tufs\trw\t1\n"},
     "c2t1d0s0 may not be spare: c2t1d0s5 is mounted (/etc/mnttab), and the "
     "label does not tell whether it overlaps c2t1d0s0."),
    ({"vtoc": {"c2t1d0": VTOC, "c2t2d0": None}},
     "cannot read the label of c2t2d0 (prtvtoc /dev/rdsk/c2t2d0s0 failed): "
     "label the disk and make slice 0 with format."),
    ({"vtoc": {"c2t1d0": VTOC.replace("465885", "0"), "c2t2d0": VTOC}},
     "c2t1d0s0 has no space in the label of c2t1d0 (prtvtoc): make slice 0 "
     "with format."),
    ({"metadb": (1, "metadb: myhost: there are no existing databases\n"),
      "metastat_p": (1, "", "metastat: myhost: there are no existing "
                            "databases\n")},
     "this host has no SVM state database replicas: create them on a small "
     "slice that is not a test slice, e.g. metadb -a -f -c 3 c2t3d0s0."),
    ({"metastat_p": (0, "d10 -m d20 1\nd20 1 1 c2t5d0s0\n", "")},
     "d10 exists: the tests build d10-d13 themselves (and expect no d99); "
     "clear it (metaclear) or use another host."),
    ({"metastat_p": (0, "d99 1 1 /dev/rdsk/c2t5d0s0\n", "")},
     "d99 exists"),
    ({"mnttab": "/dev/md/dsk/d50\t/mnt\tufs\trw\t1\n"},
     "/mnt is a mount point (/dev/md/dsk/d50): the tests mount d10 there; "
     "unmount it."),
    ({"ramdisks": "Block Device          Size  Removable\n"
                  "/dev/ramdisk/scratch  1048576    Yes\n"},
     "ramdisks exist (scratch): the tests expect none"),
    ({"instances": ["svc:/system/svmram:d20"]},
     "svmram is set up here already (svc:/system/svmram:d20): the tests "
     "need a host without it; run svmram teardown -y d20."),
    ({"links": ["c2t1d0s0", "c90t0d0s0"]},
     "c90t0d0s0 exists in /dev/dsk or /dev/rdsk"),
    ({"journals": ["d10.journal"]},
     "/var/svmram/d10.journal exists: an svmram command did not finish; "
     "finish it (svmram teardown -y d10)."),
    ({"installed": [("/usr/sbin/svmram", b"x", None)]},
     "svmram is not installed from this checkout (/usr/sbin/svmram "
     "missing)"),
    ({"installed": [("/usr/lib/svmram/svmram/cli.py", b"new", b"old")]},
     "the installed svmram differs from this checkout "
     "(/usr/lib/svmram/svmram/cli.py)"),
    ({"service": False},
     "the SMF service svc:/system/svmram is not imported: run svcadm "
     "restart manifest-import (after installing)."),
])
def test_each_problem_is_found(changes, message):
    found = problems(**changes)
    assert len(found) == 1, found
    assert message in found[0]


def test_a_slice_on_the_same_disk_that_does_not_overlap_is_fine():
    # Replicas on slice 7, the test slice is slice 0: they do not overlap.
    found = problems(metadb=(0, "  a u 16 8192 /dev/dsk/c2t1d0s7\n"))
    assert found == []


def test_two_test_slices_that_overlap():
    found = preflight.problems(clean_facts(), ["c2t1d0s0", "c2t1d0s2"])
    assert found == ["c2t1d0s0 and c2t1d0s2 may overlap on c2t1d0 (the label "
                     "says they do, or does not tell): use slices that do "
                     "not."]
    assert preflight.problems(clean_facts(), ["c2t1d0s0", "c2t1d0s7"]) == []


def test_other_disks_and_links_do_not_count():
    found = problems(metastat_p=(0, "d50 1 1 /dev/rdsk/c2t11d0s0\n"
                                    "d51 1 1 /dev/rdsk/c12t1d0s0\n", ""),
                     links=["c91t0d0s0", "c9t0d0s0"])
    assert found == []


# --- the installed copy ------------------------------------------------------

def test_install_pairs_match_what_make_install_puts_in_place(tmp_path):
    done = subprocess.run(["make", "-s", "install", "DESTDIR=%s" % tmp_path],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    pairs = preflight.install_pairs(REPO, str(tmp_path))
    assert len(pairs) > 10
    assert preflight.install_problems(preflight.read_pairs(pairs)) == []

    method = tmp_path / "lib/svc/method/svmram"
    method.chmod(0o644)
    method.write_text("#!/usr/bin/ksh93\nexit 0\n")
    assert preflight.install_problems(preflight.read_pairs(pairs)) == [
        "the installed svmram differs from this checkout (%s): install it "
        "again (the boot service runs the installed copy)." % method]
    (tmp_path / "usr/sbin/svmram").unlink()
    assert "svmram is not installed from this checkout (%s missing)" % (
        tmp_path / "usr/sbin/svmram") in preflight.install_problems(
            preflight.read_pairs(pairs))[0]
