# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Runs svmram's md entry point (svmram.md.main, installed under
/usr/lib/svmram by `make install-linux`) inside the VM guest, optionally
with a power cut at a chosen point:

  guest_svmram.py [--cut SPEC] [--record FILE] OP ARRAY [DISK...]

SPEC is where the power goes:
  before=KEY   just before the step whose key is KEY (e.g. "shrink md0")
  wait=KEY     while md copies for the step KEY (its resync is >= 10 %)
  end          once the operation is done; if md is still recovering
               (restore does not wait), once the recovery is >= 25 %
At the cut the guest syncs, prints "LAB-MARK cut <SPEC>" (run.sh
--kill-on kills QEMU on it) and sleeps.  A cut point that never comes is
a failure ("LAB-FAIL cut point ... never reached").  Without --cut this
is `python3 -m svmram.md.main OP ARRAY`, and prints "RESULT py.<op>
rc=N".
"""

import os
import sys
import time

sys.path.insert(0, "/usr/lib/svmram")

from svmram.md import main as md_main            # noqa: E402


def cut(spec):
    os.sync()
    sys.stdout.write("\nLAB-MARK cut %s\n" % spec)
    sys.stdout.flush()
    while True:
        time.sleep(60)


def cutting_backend(spec):
    kind, _, key = spec.partition("=")

    class Cutting(md_main.MdHost):
        current = None

        def perform(self, step, values):
            Cutting.current = step.key
            if kind == "before" and step.key == key:
                cut(spec)
            super().perform(step, values)

        def resync_status(self, target):
            status = super().resync_status(target)
            if kind == "wait" and Cutting.current == key and status.active \
                    and status.percent is not None and status.percent >= 10:
                cut(spec)
            return status

    return Cutting


def recovery_percent(array):
    """How far md's recovery of `array` is; 100 when it is not degraded,
    None while md has not started it."""
    md = "/sys/block/%s/md/" % array
    try:
        with open(md + "degraded") as stream:
            if stream.read().strip() == "0":
                return 100
        with open(md + "sync_completed") as stream:
            done, _, total = stream.read().partition(" / ")
        return int(done) * 100 // int(total)
    except (OSError, ValueError):
        return None


def main(argv):
    spec = None
    if argv[:1] == ["--cut"]:
        spec, argv = argv[1], argv[2:]
    record = None
    if argv[:1] == ["--record"]:
        record, argv = argv[1], argv[2:]
    op, array, disks = argv[0], argv[1], argv[2:]
    make = cutting_backend(spec) if spec else md_main.MdHost
    rc = md_main.run(op, array, disks, record=record, make_backend=make)
    print("RESULT py.%s rc=%d" % (op, rc))
    sys.stdout.flush()
    if spec == "end" and rc == 0:
        for _ in range(1200):
            percent = recovery_percent(array)
            if percent is not None and percent >= 25:
                break
            time.sleep(0.1)
        cut("end (recovery %s%%)" % percent)
    if spec:
        print("LAB-FAIL cut point %s never reached (rc=%d)" % (spec, rc))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
