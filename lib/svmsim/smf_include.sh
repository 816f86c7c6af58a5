#!/bin/sh
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
#
# smf_include.sh -- svmsim's stand-in for illumos'
# /lib/svc/share/smf_include.sh (usr/src/cmd/svc/shell/smf_include.sh).
#
# `svmsim init` installs this file as $SVMSIM_ROOT/lib/svc/share/smf_include.sh
# so that a method script installed into the emulated root can source it as
# ${SVMRAM_ROOT}/lib/svc/share/smf_include.sh.  It defines the same names as
# the illumos file: the helper functions and the SMF_EXIT_* codes.  The
# helpers behave as they would on an emulated host: a global zone, no
# Trusted Extensions, no network boot, SMF always present; process
# contracts are stood in for by process groups (svmsim's svc.startd starts
# every method in a new process group and uses its id as the contract id).
#
# Must stay ksh93 compatible (illumos' /bin/sh is ksh93) and `ksh -n` clean.
# Files of the emulated host are found under ${SVMSIM_ROOT:-$SVMRAM_ROOT}.
#

# smf_present
#
#   True when svc.configd's door exists, i.e. the script runs on a host
#   where SMF is up.  `svmsim init` creates the door as a directory in the
#   emulated root, which passes the same test.
#
smf_present () {
	[ -r "${SVMSIM_ROOT:-${SVMRAM_ROOT:-}}/etc/svc/volatile/repository_door" ] && \
	    [ ! -f "${SVMSIM_ROOT:-${SVMRAM_ROOT:-}}/etc/svc/volatile/repository_door" ]
}

smf_clear_env () {
	unset \
		SMF_FMRI \
		SMF_METHOD \
		SMF_RESTARTER \
		SMF_ZONENAME
}

# smf_console
#
#   Use as "echo message 2>&1 | smf_console".  The emulated host's console
#   is the file dev/msglog in the emulated root (appended to), unless
#   SMF_MSGLOG_REDIRECT names another file.
#
smf_console () {
	/usr/bin/tee -a \
	    ${SMF_MSGLOG_REDIRECT:-${SVMSIM_ROOT:-${SVMRAM_ROOT:-}}/dev/msglog}
}

# smf_zonename
#
#  Prints the name of this zone.  The emulated host is a global zone and
#  has no /sbin/zonename.
#
smf_zonename() {
	echo "${SMF_ZONENAME:=global}"
}

# smf_is_globalzone
#
#  Returns zero (success) if this is the global zone.  1 otherwise.
#
smf_is_globalzone() {
	[ "${SMF_ZONENAME:=global}" = "global" ] && return 0
	return 1
}

# smf_is_nonglobalzone
#
#  Returns zero (success) if this is not the global zone.  1 otherwise.
#
smf_is_nonglobalzone() {
	[ "${SMF_ZONENAME:=global}" != "global" ] && return 0
	return 1
}

# smf_configure_ip
#
#  Returns zero (success) if this zone needs IP to be configured i.e.
#  the global zone or has an exclusive stack.  1 otherwise.  A non-global
#  zone of the emulator has a shared stack.
#
smf_configure_ip() {
	[ "${SMF_ZONENAME:=global}" = "global" ] && return 0
	return 1
}

# smf_dont_configure_ip
#
#  Inverse of smf_configure_ip
#
smf_dont_configure_ip() {
	[ "${SMF_ZONENAME:=global}" != "global" ] && return 0
	return 1
}

# smf_dont_configure_vt
#
#  Returns zero (success) if vt functionality is not to be configured,
#  1 otherwise.  The emulated host has no /usr/lib/vtinfo: 1 in the
#  global zone.
#
smf_dont_configure_vt() {
	[ "${SMF_ZONENAME:=global}" != "global" ] && return 0
	return 1
}

# smf_is_system_labeled
#
#  Returns zero (success) if system is labeled (aka Trusted Extensions).
#  1 otherwise.  The emulated host has no /bin/plabel.
#
smf_is_system_labeled() {
	return 1
}

# smf_netstrategy
#   -> (_INIT_NET_IF, _INIT_NET_STRATEGY)
#
#   The emulated host never boots from the network: the strategy is
#   "none" and _INIT_NET_IF is left alone.
#
smf_netstrategy () {
	_INIT_NET_STRATEGY="none" export _INIT_NET_STRATEGY
	return 0
}

#
# smf_kill_contract CONTRACT SIGNAL WAIT TIMEOUT
#
#   To be called from stop methods of non-transient services.
#   Sends SIGNAL to the service contract CONTRACT.  If the
#   WAIT argument is non-zero, smf_kill_contract will wait
#   until the contract is empty before returning, or until
#   TIMEOUT expires.
#
#   In the emulator a contract is the process group svmsim's svc.startd
#   started the method in; CONTRACT is its id.
#
#   Returns 1 if the contract is invalid.
#   Returns 2 if WAIT is "1", TIMEOUT is > 0, and TIMEOUT expires.
#   Returns 0 on success.
#
smf_kill_contract() {

	time_waited=0
	time_to_wait=$4

	[ -z "$time_to_wait" ] && time_to_wait=0

	# convert to 10ths.
	time_to_wait=$(expr $time_to_wait '*' 10)

	case $1 in
	''|*[!0-9]*)
		echo "Error, invalid contract \"$1\"" >&2
		return 1
		;;
	esac

	# Return if contract is already empty.
	kill -0 -- -$1 > /dev/null 2>&1 || return 0

	# Kill contract.
	if ! kill -s $2 -- -$1 > /dev/null 2>&1; then
		kill -0 -- -$1 > /dev/null 2>&1 || return 0
		echo "Error, could not kill contract \"$1\"" >&2
		return 1
	fi

	# Return if WAIT is not set or is "0"
	[ -z "$3" ] && return 0
	[ "$3" -eq 0 ] && return 0

	# If contract does not empty, keep killing the contract to catch
	# any child processes missed because they were forking
	while kill -0 -- -$1 > /dev/null 2>&1; do
		# Return 2 if TIMEOUT was passed, and it has expired
		[ "$time_to_wait" -gt 0 -a $time_waited -ge $time_to_wait ] && \
		    return 2

		#
		# At five second intervals, issue the kill again.
		#
		remainder=$(expr $time_waited % 50)
		if [ $time_waited -gt 0 -a $remainder -eq 0 ]; then
			kill -s $2 -- -$1 > /dev/null 2>&1
		fi

		# Wait two tenths, and go again.
		sleep 0.2
		time_waited=$(expr $time_waited + 2)
	done

	return 0
}

#
# smf(5) method and monitor exit status definitions
#   SMF_EXIT_ERR_OTHER, although not defined, encompasses all non-zero
#   exit status values.
#
SMF_EXIT_OK=0
SMF_EXIT_ERR_FATAL=95
SMF_EXIT_ERR_CONFIG=96
SMF_EXIT_MON_DEGRADE=97
SMF_EXIT_MON_OFFLINE=98
SMF_EXIT_ERR_NOSMF=99
SMF_EXIT_ERR_PERM=100
#@solaris11-begin
#
# Oracle Solaris 11.4 only: svmsim init keeps the lines down to
# "#@solaris11-end" when the host's release switch smf_exit_degraded is
# set (profile solaris11), and leaves them out otherwise, as illumos'
# file has neither.  A start method exiting SMF_EXIT_DEGRADED leaves its
# instance degraded.  GUESS: the value 103 (methods use the name, never
# the number).
#
SMF_EXIT_DEGRADED=103

# smf_method_exit EXIT_CODE SHORT_REASON LONG_REASON
#
#   Solaris 11.4 hands the reasons to the restarter, which shows them in
#   svcs -x.  GUESS: the emulator's restarter does not record them; this
#   only exits.
#
smf_method_exit () {
	exit $1
}
#@solaris11-end
