# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# guest-svmram.sh - sourced by the guest scripts (after /lab/lib.sh):
# the installed svmram command (make install-linux: /usr/sbin/svmram),
# run the way an administrator and the boot unit run it, optionally with
# a power cut at a chosen point (the command's test switch
# SVMRAM_TEST_CUT, svmram(8) ENVIRONMENT):
#   sv ARGS...             run it, its output on the console as "sv| ...",
#                          then "RESULT svmram.<subcommand> rc=N"
#   powercut POINT ARGS... run it with SVMRAM_TEST_CUT=POINT (and the
#                          trace), its output straight on the console: at
#                          the point it syncs, prints "LAB-MARK cut POINT"
#                          (run.sh --kill-on kills QEMU on it) and sleeps.
#                          If it returns, the point was never reached:
#                          LAB-FAIL, and the boot ends.
# Also installs the stand-in systemctl (this guest's init is busybox, not
# systemd), which setup and teardown call to enable and disable the unit.
SVMRAM=/usr/sbin/svmram
cp /opt/svmram/tests/vm/systemctl-stub.sh /bin/systemctl

sv() {
  $SVMRAM "$@" > /tmp/sv.out 2>&1; _rc=$?
  sed 's/^/sv| /' /tmp/sv.out
  res "svmram.$1" "rc=$_rc"
  return $_rc
}

powercut() {
  _point=$1; shift
  SVMRAM_TEST_CUT=$_point SVMRAM_TEST_TRACE=1 $SVMRAM "$@"; _rc=$?
  fail "cut point $_point never reached (svmram $* rc=$_rc)"
  finish
}
