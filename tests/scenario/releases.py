# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What svmram does differently on the emulator's release profiles, for
the article's host (docs/emulator-profiles.md):

* illumos-2016: /etc/release names illumos, whose metadetach compacts the
  slots: setup rotates, with no test first.
* solaris11: the slot behaviour is unknown until tested, so setup first
  tests it on a scratch mirror (SLOT_TEST), then rotates.
* solaris10: the test shows a hole, so setup fills it: it detaches d11,
  attaches the RAM submirror into slot 0 and attaches d11 behind it (one
  disk resync instead of two); d10 ends as d13, d12, d11.  Teardown tests
  again and puts d11 first once more.

Tests state each profile's exact commands and texts through `on(host,
...)`; the article's (illumos) ones are the default.
"""

ILLUMOS, SOLARIS11, SOLARIS10 = "illumos-2016", "solaris11", "solaris10"


def release(host):
    """The host's release profile; a real host counts as illumos when its
    /etc/release says so, else as solaris11 (compacting, tested first)."""
    return host.release()


def on(host, illumos, solaris11=None, solaris10=None):
    """The value for this host's profile; a profile not given takes the
    one before it (solaris10 <- solaris11 <- illumos)."""
    if solaris11 is None:
        solaris11 = illumos
    if solaris10 is None:
        solaris10 = solaris11
    return {ILLUMOS: illumos, SOLARIS11: solaris11,
            SOLARIS10: solaris10}[release(host)]


def slot_test(first_controller=90):
    """The test of the slot behaviour on a scratch mirror d127 of two
    1 MiB ramdisks, and its removal."""
    return [["ramdiskadm", "-a", "svmram_probe0", "1m"],
            ["ramdiskadm", "-a", "svmram_probe1", "1m"],
            ["metainit", "d126", "1", "1", "c%dt0d0s0" % first_controller],
            ["metainit", "d125", "1", "1",
             "c%dt0d0s0" % (first_controller + 1)],
            ["metainit", "d127", "-m", "d126", "d125"],
            ["metadetach", "d127", "d126"],
            ["metaclear", "d127"], ["metaclear", "d125"],
            ["metaclear", "d126"],
            ["ramdiskadm", "-d", "svmram_probe1"],
            ["ramdiskadm", "-d", "svmram_probe0"]]


RAM = [["ramdiskadm", "-a", "svmram_d10", "228m"],
       ["metainit", "d13", "1", "1", "c90t0d0s0"]]
ROTATE = RAM + [["metattach", "d10", "d13"],
                ["metadetach", "d10", "d11"], ["metattach", "d10", "d11"],
                ["metadetach", "d10", "d12"], ["metattach", "d10", "d12"],
                ["metaparam", "-r", "first", "d10"]]
FILL = RAM + [["metadetach", "d10", "d11"], ["metattach", "d10", "d13"],
              ["metattach", "d10", "d11"],
              ["metaparam", "-r", "first", "d10"]]
# `metastat -p` of the article's d10: as the host starts (and as teardown
# leaves it), and set up by rotate where metadetach compacts the slots.
ORIGINAL = (
    "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n")
RAM_FIRST = (
    "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1\n"
    "d13 1 1 /dev/rdsk/c90t0d0s0\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n")
FILLED = (
    "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d12 /dev/md/rdsk/d11 -r 1\n"
    "d13 1 1 /dev/rdsk/c90t0d0s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n")
CLEANUP = [["metaclear", "d13"], ["ramdiskadm", "-d", "svmram_d10"]]
TEARDOWN_ROTATED = [["metaparam", "-r", "roundrobin", "d10"],
                    ["metadetach", "d10", "d13"]] + CLEANUP
TEARDOWN_FILLED = [["metaparam", "-r", "roundrobin", "d10"],
                   ["metadetach", "d10", "d13"],
                   ["metadetach", "d10", "d11"], ["metattach", "d10", "d11"]
                   ] + CLEANUP


def setup_commands(host):
    """The SVM commands of setup on the article's mounted mirror."""
    return on(host, ROTATE, slot_test(90) + ROTATE, slot_test(90) + FILL)


def set_up(host, text):
    """metastat -p text (or a list of submirror names) of d10 set up by
    rotate as illumos leaves it, as this host's profile leaves it: where
    metadetach leaves a hole, d12 comes before d11."""
    if release(host) != SOLARIS10:
        return text
    if isinstance(text, list):
        swapped = {"d11": "d12", "d12": "d11"}
        return [swapped.get(name, name) for name in text]
    lines = text.splitlines(True)
    lines[0] = lines[0].replace("/dev/md/rdsk/d11 /dev/md/rdsk/d12",
                                "/dev/md/rdsk/d12 /dev/md/rdsk/d11")
    d11 = [n for n, line in enumerate(lines) if line.startswith("d11 ")]
    d12 = [n for n, line in enumerate(lines) if line.startswith("d12 ")]
    if d11 and d12:
        lines[d11[0]], lines[d12[0]] = lines[d12[0]], lines[d11[0]]
    return "".join(lines)


def set_up_metastat_p(host):
    """metastat -p d10 once set up."""
    return set_up(host, RAM_FIRST)


def teardown_commands(host):
    """The SVM commands of teardown after setup_commands.  Where the
    slots compact, d13 leaving puts d11 and d12 back in order; where they
    do not, a test (on c91 and c92: c90 is the RAM link) and a reattach
    of d11 do."""
    return on(host, TEARDOWN_ROTATED, TEARDOWN_ROTATED,
              slot_test(91) + TEARDOWN_FILLED)


def after_slot_test(host, trace):
    """A trace with the slot test at its start taken off, on the profiles
    where svmram tests first; the test must be there exactly (on any
    controllers)."""
    if release(host) == ILLUMOS or len(trace) < 11 or \
            trace[0] != ["ramdiskadm", "-a", "svmram_probe0", "1m"]:
        return trace
    first = int(trace[2][4][1:].split("t")[0])
    assert trace[:11] == slot_test(first), trace[:11]
    return trace[11:]
