#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
# systemctl-stub.sh - a stand-in for systemd's systemctl in the VM guest,
# whose init is busybox: just what the svmram command (and the demo) asks
# of it for svmram@mdN.service.  The unit's state is kept in
# /etc/svmram/stub-systemd/svmram-unit.mdN ("enabled active", ...; on the
# demo's vdb it lasts across a reboot; svmram runs systemctl with an
# environment of its own, so the place is fixed); start, stop, enable --now and disable --now run the installed
# unit's ExecStart and ExecStop lines (with its Environment=, and
# INVOCATION_ID set, as systemd does), as systemd would: a start whose
# ConditionPathExists= fails runs nothing and leaves the unit inactive
# (exit 0).  The last ExecStart's or ExecStop's exit status is kept for
# `systemctl show -P ExecMainStatus UNIT` (systemctl start itself says
# only 0 or 1, as systemd's does).  The caller's environment reaches the
# lines (SVMRAM_TEST_CUT: guest-md-faults.sh cuts the unit's start).
# Installed as /bin/systemctl by guest-svmram.sh (md-cycle, md-faults),
# guest-demo-md.sh and guest-md-bench.sh.
UNITDIR=/usr/lib/systemd/system
verb=$1; shift
# anything else (the unit's own ExecStop asks `systemctl -q is-active
# mdmonitor.service`) is refused before a state file is made for it
case $verb in
is-enabled|is-active|enable|disable|start|stop|show) ;;
*) echo "systemctl-stub: $verb is not supported" >&2; exit 2 ;;
esac
now=""
[ "${1:-}" = --now ] && { now=1; shift; }
if [ "$verb" = show ]; then
  # show -P ExecMainStatus UNIT, the one property asked of it
  [ "${1:-}" = -P ] && [ "${2:-}" = ExecMainStatus ] ||
    { echo "systemctl-stub: only show -P ExecMainStatus UNIT is supported" >&2; exit 2; }
  shift 2
fi
unit=$1
inst=${unit#svmram@}; inst=${inst%.service}
file=$UNITDIR/svmram@.service
[ -f "$file" ] || { echo "Failed to get unit file state for $unit: No such file or directory" >&2; exit 1; }
mkdir -p /etc/svmram/stub-systemd
state=/etc/svmram/stub-systemd/svmram-unit.$inst
[ -f "$state" ] || echo "disabled inactive" > "$state"
read -r enabled active < "$state"
line() { sed -n "s/^$1=//p" "$file" | sed "s/%i/$inst/g"; }
status_file=$state.status
# Every KEY= line of the unit in order, as systemd runs them: quoted as
# in the unit (eval), a leading "-" lets that line fail, any other
# failure ends the run with its status.  ExecStop is followed by
# ExecStopPost whatever it returned.
run_lines() { # KEY
  _status=0
  while IFS= read -r _cmd <&3; do
    [ -n "$_cmd" ] || continue
    _may_fail=""
    case $_cmd in -*) _may_fail=1; _cmd=${_cmd#-} ;; esac
    eval "env INVOCATION_ID=systemctl-stub $(line Environment) $_cmd" && continue
    _rc=$?
    [ -n "$_may_fail" ] || { _status=$_rc; break; }
  done 3<<EOF_LINES
$(line "$1")
EOF_LINES
  return $_status
}
run_line() { # ExecStart|ExecStop
  run_lines "$1"; _line_rc=$?
  [ "$1" = ExecStop ] && run_lines ExecStopPost
  echo "$_line_rc" > "$status_file"
  return $_line_rc
}
# a start: 0 and the unit active, 1 and failed, or 0 and inactive when
# the unit's condition fails (nothing run)
start_unit() {
  _cond=$(line ConditionPathExists)
  if [ -n "$_cond" ] && [ ! -e "$_cond" ]; then
    echo "systemctl-stub: $unit: ConditionPathExists=$_cond failed, nothing run" >&2
    echo 0 > "$status_file"
    return 0
  fi
  if run_line ExecStart; then active=active; else active=failed; return 1; fi
}
case $verb in
is-enabled) echo "$enabled"; [ "$enabled" = enabled ] ;;
is-active) echo "$active"; [ "$active" = active ] ;;
enable)
  # a unit that failed before is enabled all the same; with --now, the
  # start's failure is the command's
  enabled=enabled rc=0
  if [ -n "$now" ] && [ "$active" != active ]; then
    start_unit || rc=1
  fi
  echo "$enabled $active" > "$state"
  exit $rc ;;
disable)
  enabled=disabled
  if [ -n "$now" ] && [ "$active" = active ]; then
    run_line ExecStop; active=inactive
  fi
  echo "$enabled $active" > "$state" ;;
start)
  rc=0
  if [ "$active" != active ]; then
    start_unit || rc=1
  fi
  echo "$enabled $active" > "$state"
  exit $rc ;;
stop)
  [ "$active" = active ] && run_line ExecStop
  echo "$enabled inactive" > "$state" ;;
show) cat "$status_file" 2>/dev/null || echo 0 ;;
esac
