#!/usr/bin/ksh93
# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
#
# confirm.sh: check, on a real illumos host, the SVM behaviour that the
# emulator (lib/svmsim) only guesses and that `svmram selftest` does
# not check: what needs a reboot (checks 3, 5, 6 and 11b after it, 10), and
# the emulator's guesses that svmram does not rely on, which selftest
# leaves out so that its verdict is about svmram (2a-b: /dev/ramdisk
# paths, which svmram never gives SVM; 6 before the reboot: the listing
# with no ramdisk; 8: metareplace -e on an Okay component), or that need
# real spare slices rather than selftest's 8 MiB lofi files (7: sizes on
# the slices' own geometry; 9: a resync long enough to watch; 11a: the
# kstat before a mirror's first open, on a number not opened since
# boot).  Run `svmram selftest` first: it checks, with no reboot and no
# spare slice, what this script checked before as 1, 2c and 4
# (svmram(8)).  The report it prints is meant to be pasted into an
# issue; tests/illumos/README.md says how.
#
#   confirm.sh prepare [SLICE_A SLICE_B]  checks 2a-b 6 7 8 9 11a, then builds
#                                         the mirror that checks 3, 5, 10
#                                         and 11b need
#   (reboot by hand)
#   confirm.sh after-reboot               checks 3 5 6 10 11b, then removes
#                                         it all
#   confirm.sh cleanup                    removes whatever a run left behind
#
# The slices come from the arguments or from SVMRAM_TEST_DISKS="A B".
# THE DATA ON BOTH SLICES IS DESTROYED.  Run as root, on a scratch box.
#
# Environment (all optional):
#   SVMRAM_TEST_DISKS       the two spare slices, e.g. "c2t1d0s0 c2t2d0s0"
#   SVMRAM_CONFIRM_DIR      state and report files (default
#                           /var/tmp/svmram-confirm; must survive a reboot)
#   SVMRAM_CONFIRM_BASE     first metadevice number used (default 900:
#                           d900-d906 must be free)
#   SVMRAM_CONFIRM_MAX_MB   largest ramdisk it may create (default 1024)
#   SVMRAM_CONFIRM_TIMEOUT  seconds to wait for a resync (default 3600)
#   SVMRAM_CONFIRM_FAKE_NONROOT=1  behave as if not root (for the tests)

export LC_ALL=C LANG=C
PATH=/usr/bin:/usr/sbin
export PATH

# Every command by absolute path, as illumos' svc-metasync does.
UNAME=/usr/bin/uname
ID=/usr/bin/id
CAT=/usr/bin/cat
CMP=/usr/bin/cmp
DD=/usr/bin/dd
GREP=/usr/bin/grep
LN=/usr/bin/ln
LS=/usr/bin/ls
MKDIR=/usr/bin/mkdir
NAWK=/usr/bin/nawk
RM=/usr/bin/rm
SED=/usr/bin/sed
SLEEP=/usr/bin/sleep
DATE=/usr/bin/date
KSTAT=/usr/bin/kstat
SVCS=/usr/bin/svcs
METADB=/usr/sbin/metadb
METAINIT=/usr/sbin/metainit
METATTACH=/usr/sbin/metattach
METADETACH=/usr/sbin/metadetach
METACLEAR=/usr/sbin/metaclear
METAPARAM=/usr/sbin/metaparam
METAREPLACE=/usr/sbin/metareplace
METASTAT=/usr/sbin/metastat
RAMDISKADM=/usr/sbin/ramdiskadm
DEVFSADM=/usr/sbin/devfsadm
PRTVTOC=/usr/sbin/prtvtoc
SWAP=/usr/sbin/swap
ZPOOL=/usr/sbin/zpool
# Places, bound here too.
DEV=/dev
DEVICES=/devices
MNTTAB=/etc/mnttab

PROG=${0##*/}
SELF=$0
EXIT_USAGE=2
EXIT_FAILED=1

typeset -a MIRRORS STRIPES RAMDISKS LINKS
KEEP=0
REPORT_OPEN=0
RC=0
SEEN=""

function usage {
	print -u2 "usage: $PROG prepare [SLICE_A SLICE_B]"
	print -u2 "       $PROG after-reboot"
	print -u2 "       $PROG cleanup"
	print -u2 "The slices may also come from SVMRAM_TEST_DISKS=\"SLICE_A SLICE_B\";"
	print -u2 "their data is destroyed.  See tests/illumos/README.md."
	exit $EXIT_USAGE
}

# --- output ---------------------------------------------------------------------

# say TEXT: print a line of the report (and keep it in the report file).
function say {
	print -r -- "$*"
	(( REPORT_OPEN )) && print -r -- "$*" >&3
	return 0
}

# show LABEL FILE: a command's output with TABs and line ends visible.
# sed's l prints a TAB as \t and ends every line with $ (so trailing blanks
# show); a line that ends in a lone \ was folded by sed, not by the command.
function show {
	typeset label=$1 file=$2 line
	if [[ ! -s $file ]]; then
		say "$label: (empty)"
		return 0
	fi
	say "$label (sed -n l):"
	$SED -n l "$file" | while IFS= read -r line; do
		say "    $line"
	done
	return 0
}

# run CMD ARG...: print the command, run it, show exit status, stdout and
# stderr.  RC is the exit status; $OUT and $ERR keep the raw output.
function run {
	say "\$ $*"
	"$@" >"$OUT" 2>"$ERR"
	RC=$?
	say "exit status: $RC"
	show "stdout" "$OUT"
	show "stderr" "$ERR"
	return 0
}

# must CMD ARG...: run, and stop (cleaning up) when it fails.
function must {
	run "$@"
	if (( RC != 0 )); then
		fail "this command failed: $*"
	fi
	return 0
}

function fail {
	say ""
	say "ABORTED: $*"
	if (( KEEP )); then
		say "(nothing is removed: what prepare built stays for after-reboot)"
	else
		say "(everything this run created is removed now)"
	fi
	exit $EXIT_FAILED
}

function check_header {
	say ""
	say "======================================================================"
	say "CHECK $1: $2"
	say "Reference: $3"
	say "Emulator: $4"
	say "----------------------------------------------------------------------"
}

# verdict EXPECTED OBSERVED: one-line descriptions, compared as strings.
function verdict {
	say "EXPECTED (emulator): $1"
	say "OBSERVED: $2"
	if [[ $1 == "$2" ]]; then
		say "VERDICT: MATCH"
	else
		say "VERDICT: DIFFERS"
	fi
}

# expect_output EXIT STDOUT STDERR: compare the last run's exact output
# with the emulator's (the texts are given with real newlines).
function expect_output {
	typeset erc=$1 eout=$2 eerr=$3 same=yes
	print -rn -- "$eout" >"$EXP_OUT"
	print -rn -- "$eerr" >"$EXP_ERR"
	say "EXPECTED (emulator): exit status $erc"
	show "  stdout" "$EXP_OUT"
	show "  stderr" "$EXP_ERR"
	typeset o="exit status $RC" d=""
	[[ $RC == "$erc" ]] || d="$d exit-status"
	$CMP -s "$EXP_OUT" "$OUT" || d="$d stdout"
	$CMP -s "$EXP_ERR" "$ERR" || d="$d stderr"
	if [[ -z $d ]]; then
		say "OBSERVED: $o; stdout and stderr byte for byte as expected"
		say "VERDICT: MATCH"
	else
		say "OBSERVED: $o; differs in:$d (the real output is shown above)"
		say "VERDICT: DIFFERS"
	fi
}

# --- reading SVM ----------------------------------------------------------------

# md_kstat DEVICE: run `kstat -p md:N:mdN:writes` for metadevice dN and set
# SEEN to "none" (exit 1, nothing printed), "a count" or what else it was.
function md_kstat {
	typeset n=${1#d} line
	run $KSTAT -p md:$n:md$n:writes
	line=$(<"$OUT")
	if (( RC == 1 )) && [[ ! -s $OUT && ! -s $ERR ]]; then
		SEEN=none
	elif (( RC == 0 )) && [[ $line == md:$n:md$n:writes$'\t'+([0-9]) ]]; then
		SEEN="a count"
	else
		SEEN="unexpected output (exit status $RC)"
	fi
	return 0
}

# slots MIRROR: "0:d901 1:d902" from plain metastat.
function slots {
	$METASTAT "$1" 2>/dev/null | $NAWK '
	    /^    Submirror [0-9]+: / { sub(":", "", $2); printf "%s%s:%s", sep, $2, $3; sep = " " }'
}

# size_of DEVICE: the first "Size: N blocks" of plain metastat.
function size_of {
	$METASTAT "$1" 2>/dev/null | $NAWK '/^    Size: [0-9]+ blocks/ { print $2; exit }'
}

# sub_state MIRROR SUBMIRROR: the State of a submirror in the mirror section.
function sub_state {
	$METASTAT "$1" 2>/dev/null | $NAWK -v sm="$2" '
	    /^    Submirror [0-9]+: / { want = ($3 == sm); next }
	    want && /^      State: / { sub(/^      State: /, ""); sub(/ +$/, ""); print; exit }'
}

# comp_state MIRROR COMPONENT: the State column of a component row.
function comp_state {
	$METASTAT "$1" 2>/dev/null | $NAWK -v c="$2" '
	    $1 == c && NF >= 5 { s = $0; sub(/^\t[^ ]+ +[0-9]+ +[A-Za-z]+ +/, "", s);
	                         sub(/ +(Yes|No) *.*$/, "", s); print s; exit }'
}

function exists_md {
	$METASTAT "$1" >/dev/null 2>&1
}

function exists_ramdisk {
	$RAMDISKADM 2>/dev/null | $GREP -q "^/dev/ramdisk/$1 "
}

# wait_resync MIRROR: until no resync is active or pending.
function wait_resync {
	typeset m=$1 out waited=0
	say "(waiting for the resync of $m to finish: $METASTAT $m every 2 s)"
	while :; do
		out=$($METASTAT "$m" 2>&1) || fail "$METASTAT $m failed: $out"
		case $out in
		*"Resync in progress"*|*Resyncing*|*"Invoke: metasync"*)
			;;
		*)
			say "(no resync active on $m after ${waited} s)"
			return 0 ;;
		esac
		(( waited >= TIMEOUT )) && fail "$m still resyncing after $TIMEOUT s"
		$SLEEP 2
		(( waited += 2 ))
	done
}

# prtvtoc_field DEVICE slice|cyl N: a slice's sector count, or the
# sectors per cylinder ("" when the label has no cylinders, e.g. EFI).
function prtvtoc_field {
	$PRTVTOC "$1" 2>/dev/null | $NAWK -v what="$2" -v n="$3" '
	    what == "cyl" && /sectors\/cylinder/ { print $2; exit }
	    what == "slice" && $1 !~ /^\*/ && $1 == n { print $5; exit }'
}

# The ramdisk driver's fake geometry (ramdisk.c; lib/svmsim/devices.py
# ramdisk_geometry): prints "NSECT SLICE0_BLOCKS" for SIZE bytes.
function ramdisk_geometry {
	typeset -i size=$1 ncyl nsect
	if (( size < 2 * 1024 * 1024 )); then
		(( ncyl = size / (100 * 1024) ))
	else
		(( ncyl = size / (300 * 1024) ))
	fi
	(( ncyl < 1 )) && ncyl=1
	(( nsect = size / (512 * ncyl) ))
	print "$nsect $(( ncyl * nsect ))"
}

# --- clean-up -------------------------------------------------------------------

function cleanup {
	typeset m s r l left
	(( KEEP )) && return 0
	(( ${#MIRRORS[@]} + ${#STRIPES[@]} + ${#RAMDISKS[@]} + ${#LINKS[@]} )) \
	    || return 0
	say ""
	say "======================================================================"
	say "CLEANUP: removing what this run created"
	for m in "${MIRRORS[@]}"; do
		exists_md "$m" && run $METACLEAR -f "$m"
	done
	for s in "${STRIPES[@]}"; do
		exists_md "$s" && run $METACLEAR "$s"
	done
	for r in "${RAMDISKS[@]}"; do
		exists_ramdisk "$r" && run $RAMDISKADM -d "$r"
	done
	for l in "${LINKS[@]}"; do
		[[ -L $l ]] && run $RM -f "$l"
	done
	left=""
	for m in "${MIRRORS[@]}" "${STRIPES[@]}"; do
		exists_md "$m" && left+="    $METACLEAR -f $m"$'\n'
	done
	for r in "${RAMDISKS[@]}"; do
		exists_ramdisk "$r" && left+="    $RAMDISKADM -d $r"$'\n'
	done
	for l in "${LINKS[@]}"; do
		[[ -L $l ]] && left+="    $RM -f $l"$'\n'
	done
	if [[ -n $left ]]; then
		say "LEFT OVER: these could not be removed; once any resync has"
		say "finished, remove them by hand, in this order:"
		print -rn -- "$left" | while IFS= read -r l; do say "$l"; done
	else
		say "everything this run created is gone"
	fi
	MIRRORS=() STRIPES=() RAMDISKS=() LINKS=()
	return 0
}

# POSIX-style, so that its trap commands are global.
on_exit() {
	rc=$?
	trap - EXIT
	cleanup
	[[ -n $TMPD && -d $TMPD ]] && $RM -rf "$TMPD"
	exit $rc
}

# --- pre-flight -----------------------------------------------------------------

# Everything that can be checked without touching the system: the phase,
# the slices, root, and that this is illumos at all.  Every unmet
# requirement is reported, then the script stops before it runs anything.
function preflight {
	typeset problems="" s
	if [[ $PHASE == prepare ]]; then
		if (( ${#SLICES[@]} != 2 )); then
			problems+="prepare needs two spare slices whose data may be destroyed: give them as arguments ($PROG prepare c2t1d0s0 c2t2d0s0) or in SVMRAM_TEST_DISKS=\"c2t1d0s0 c2t2d0s0\"."$'\n'
		else
			for s in "${SLICES[@]}"; do
				[[ $s == c+([0-9])?(t+([0-9A-Fa-f]))d+([0-9])s+([0-9]) ]] ||
				    problems+="not a disk slice name (cNtNdNsN or cNdNsN): $s"$'\n'
			done
			[[ ${SLICES[0]} == "${SLICES[1]}" ]] &&
			    problems+="the two slices must differ: ${SLICES[0]}"$'\n'
		fi
	fi
	# /usr/bin/id has no -u on illumos; "uid=0(root) ..." on both systems.
	if [[ -n $SVMRAM_CONFIRM_FAKE_NONROOT || $($ID 2>/dev/null) != uid=0\(* ]]; then
		problems+="must run as root (it creates and clears metadevices and ramdisks): use pfexec or sudo."$'\n'
	fi
	s=$($UNAME -s 2>/dev/null)
	if [[ $s != SunOS ]]; then
		problems+="refusing to run on ${s:-an unknown system}: this script changes SVM devices and runs only on illumos (uname -s must say SunOS)."$'\n'
	fi
	if [[ -n $problems ]]; then
		print -rn -- "$problems" | while IFS= read -r s; do
			print -r -u2 -- "$PROG: $s"
		done
		exit $EXIT_USAGE
	fi
}

function check_replicas {
	typeset out
	out=$($METADB 2>&1)
	if [[ $? != 0 || $out != *[0-9]* ]]; then
		print -u2 "$PROG: this host has no SVM state database replicas ($METADB says: ${out:-nothing})."
		print -u2 "$PROG: create them first on a small spare slice (not one of the test slices), e.g.:"
		print -u2 "    $METADB -a -f -c 3 c2t3d0s7"
		exit $EXIT_USAGE
	fi
}

function open_report {
	if [[ -e $STATEDIR && ! -O $STATEDIR ]]; then
		print -u2 "$PROG: $STATEDIR exists and is not ours; refusing to use it"
		exit $EXIT_USAGE
	fi
	$MKDIR -p -m 700 "$STATEDIR" || exit $EXIT_FAILED
	REPORT=$STATEDIR/report.$PHASE.txt
	exec 3>"$REPORT" || exit $EXIT_FAILED
	REPORT_OPEN=1
}

function header {
	say "svmram confirm.sh $PHASE: $($DATE -u '+%Y-%m-%d %H:%M:%S UTC')"
	say "host: $HOST; $($UNAME -srvm)"
	[[ -r /etc/release ]] && say "release: $($SED -n 1p /etc/release | $SED 's/^ *//')"
	say "report also written to $REPORT"
	say "a DIFFERS is corrected where its Emulator: line says; docs/uncertainties.md maps each check"
}

function boot_time {
	$KSTAT -p unix:0:system_misc:boot_time 2>/dev/null | $NAWK '{ print $2 }'
}

# The first N unused controller numbers from 190 up (svmram uses 90 up).
function free_controllers {
	typeset -i n=$1 c=190
	typeset used=" $($LS $DEV/dsk $DEV/rdsk 2>/dev/null |
	    $SED -n 's/^c\([0-9][0-9]*\).*/\1/p' | $NAWK '{ printf "%s ", $1 }')"
	while (( n > 0 )); do
		if [[ $used != *" $c "* ]]; then
			print -n "$c "
			(( n-- ))
		fi
		(( c++ ))
	done
}

# Refuse slices that anything uses, and names that exist.
function check_free {
	typeset s md p
	p=$($METASTAT -p 2>/dev/null)
	for md in d$BASE d$((BASE + 1)) d$((BASE + 2)) d$((BASE + 3)) \
	    d$((BASE + 5)) d$((BASE + 6)); do
		exists_md "$md" && fail "$md exists; set SVMRAM_CONFIRM_BASE to a free range"
	done
	for s in "${SLICES[@]}"; do
		[[ -e $DEV/dsk/$s ]] || fail "$DEV/dsk/$s does not exist"
		print -r -- "$p" | $NAWK -v s="$s" '{ for (i = 1; i <= NF; i++) {
		    f = $i; sub(/.*\//, "", f); if (f == s) found = 1 } }
		    END { exit !found }' && fail "$s is used by SVM (metastat -p)"
		$GREP -q "^/dev/dsk/${s}[[:space:]]" $MNTTAB && fail "$s is mounted"
		$SWAP -l 2>/dev/null | $GREP -q "/$s " && fail "$s is a swap device"
		$METADB 2>/dev/null | $GREP -q "/$s\$" && fail "$s holds state database replicas"
		[[ -x $ZPOOL ]] && $ZPOOL status 2>/dev/null | $GREP -q "[[:space:]]${s%s+([0-9])}\(s[0-9]*\)\{0,1\}[[:space:]]" &&
		    fail "$s (or its disk) is in a ZFS pool"
	done
	exists_ramdisk "$RD" && fail "a ramdisk named $RD exists already"
	return 0
}

# --- prepare --------------------------------------------------------------------

function prepare {
	typeset -i sa sb sr m1 nway minsize cylr cylf want mib bytes slice cyl
	typeset ca=${SLICES[0]} cb=${SLICES[1]} first second cfirst csecond
	typeset geometry l s c comp before after e o
	typeset -a ctrls

	check_free
	ctrls=($(free_controllers 3))
	LC=${ctrls[0]} DC=${ctrls[1]} SC=${ctrls[2]}
	RLINK=c${LC}t0d0s0          # svmram-style link to the ramdisk
	DLINK=c${DC}t0d0s0          # dangles: its ramdisk never exists
	SLINK=c${SC}t0d0s0          # devfsadm-style link to the ramdisk

	say ""
	say "Slices (data destroyed): $ca $cb.  Metadevices: $MIR (checks 8, 9),"
	say "$SA on $ca, $SB on $cb, $SR on the ramdisk $RD, $NWAY (checks 7, 3), $SX (check 2)."
	say "Links: $DEV/dsk/$RLINK -> /dev/ramdisk/$RD (as svmram makes them),"
	say "$DEV/dsk/$DLINK -> /dev/ramdisk/$RDX (never created), $DEV/dsk/$SLINK in devfsadm's style."

	# CHECK 6 first, before this run creates a ramdisk.
	check_6 "before this run created any ramdisk"

	say ""
	say "======================================================================"
	say "SETUP: two concats on the spare slices"
	must $METAINIT $SA 1 1 $ca
	STRIPES+=($SA)
	must $METAINIT $SB 1 1 $cb
	STRIPES+=($SB)
	sa=$(size_of $SA) sb=$(size_of $SB)
	say "sizes: $SA $sa blocks, $SB $sb blocks"
	# The ramdisk must hold the larger concat (checks 4 and 7 attach both).
	(( want = sa > sb ? sa : sb ))
	(( mib = (want * 512 + 1048575) / 1048576 ))
	while :; do
		(( bytes = mib * 1048576 ))
		geometry=$(ramdisk_geometry $bytes)
		slice=${geometry#* }
		(( slice >= want )) && break
		(( mib++ ))
	done
	if (( mib > MAXMB )); then
		fail "the slices need a ramdisk of ${mib} MB, more than SVMRAM_CONFIRM_MAX_MB=$MAXMB; use slices of 50 MB to 1 GB (or raise the limit)"
	fi
	RAMSIZE=${mib}m
	say "ramdisk size: ${RAMSIZE} (its slice 0 would hold ${geometry#* } blocks per ramdisk.c's geometry)"
	# The smaller concat goes first, so that every attach below fits.
	if (( sa <= sb )); then
		first=$SA second=$SB cfirst=$ca csecond=$cb
	else
		first=$SB second=$SA cfirst=$cb csecond=$ca
	fi

	say ""
	say "======================================================================"
	say "SETUP: the ramdisk, svmram's links to it, and a concat on it"
	must $RAMDISKADM -a $RD $RAMSIZE
	RAMDISKS+=($RD)
	for l in dsk/$RLINK:/dev/ramdisk/$RD rdsk/$RLINK:/dev/rramdisk/$RD \
	    dsk/$DLINK:/dev/ramdisk/$RDX rdsk/$DLINK:/dev/rramdisk/$RDX \
	    dsk/$SLINK:../../devices/pseudo/ramdisk@0:$RD \
	    rdsk/$SLINK:../../devices/pseudo/ramdisk@0:$RD,raw; do
		must $LN -s "${l#*:}" "$DEV/${l%%:*}"
		LINKS+=("$DEV/${l%%:*}")
	done
	run $LS -lL $DEV/dsk/$RLINK $DEV/rdsk/$RLINK
	RD_DEV=$($LS -lL $DEV/rdsk/$RLINK 2>/dev/null | $NAWK '{ print $5 $6 }')
	must $METAINIT $SR 1 1 $RLINK
	STRIPES+=($SR)
	sr=$(size_of $SR)

	# CHECK 2 ---------------------------------------------------------------
	check_header 2a "metainit on a /dev/ramdisk path (the ramdisk exists)" \
	    "section 0.6 [unverified], 9.6 item 2" \
	    "lib/svmsim/programs/__init__.py resolve_component() (GUESS: getfullrawname fails, ENOENT)"
	run $METAINIT $SX 1 1 /dev/ramdisk/$RD
	(( RC == 0 )) && STRIPES+=($SX)
	expect_output 1 "" "metainit: $HOST: /dev/ramdisk/$RD: No such file or directory"$'\n\n'
	exists_md $SX && run $METACLEAR $SX

	check_header 2b "metainit on a /dev/ramdisk path that does not exist" \
	    "section 0.6 [unverified]" \
	    "lib/svmsim/programs/__init__.py resolve_component() (GUESS)"
	run $METAINIT $SX 1 1 /dev/ramdisk/$RDX
	(( RC == 0 )) && STRIPES+=($SX)
	expect_output 1 "" "metainit: $HOST: /dev/ramdisk/$RDX: No such file or directory"$'\n\n'
	exists_md $SX && run $METACLEAR $SX

	# (check 2c, a cNtNdNsN link that dangles: svmram selftest)
	run $RM -f $DEV/dsk/$DLINK $DEV/rdsk/$DLINK

	# (check 1, metastat -p's path form: svmram selftest)
	must $METAINIT $MIR -m $first
	MIRRORS+=($MIR)
	m1=$(size_of $MIR)
	say "one-way mirror $MIR on $first: $m1 blocks (used by check 7)"
	must $METATTACH $MIR $second
	wait_resync $MIR

	# (check 4, slot packing: svmram selftest.)  The moves stay: check 9
	# watches the re-attach's resync, and check 7 uses the ramdisk concat.
	must $METATTACH $MIR $SR
	wait_resync $MIR
	must $METADETACH $MIR $first
	must $METATTACH $MIR $first

	# CHECK 9, while the attach above resyncs --------------------------------
	check_9

	wait_resync $MIR

	# CHECK 8 ---------------------------------------------------------------
	comp=$csecond
	check_header 8 "metareplace -e on a component that is Okay" \
	    "section 2.6 [unverified]" \
	    "lib/svmsim/svm.py enable() (GUESS: an Okay component is resynced like an erred one); programs/metareplace.py run()"
	say "component state before: $(comp_state $MIR $comp)"
	run $METAREPLACE -e $MIR $comp
	expect_output 0 "$MIR: device $comp is enabled"$'\n' ""
	run $METASTAT $MIR
	o="no resync runs"
	$GREP -q 'Resync in progress' "$OUT" && o="a resync runs"
	say "(with small slices a resync can end before metastat looks)"
	verdict "afterwards $second is Resyncing and a resync runs" \
	    "afterwards $second is $(sub_state $MIR $second) and $o"
	wait_resync $MIR

	# CHECK 7 ---------------------------------------------------------------
	check_header 7 "size of an n-way metainit with the ramdisk first" \
	    "sections 2.1, 6.3, 9.2 and docs/design.md (swap method) [src]/[inferred]" \
	    "lib/svmsim/svm.py mirror_size(), stripe_size(); devices.py ramdisk_geometry(); programs/metainit.py init_mirror() NWAY_WARNING"
	must $METACLEAR $MIR
	run $PRTVTOC /dev/rramdisk/$RD
	cylr=$(prtvtoc_field /dev/rramdisk/$RD cyl)
	geometry=$(ramdisk_geometry $(( ${RAMSIZE%m} * 1048576 )))
	verdict "ramdisk $RAMSIZE: ${geometry% *} sectors/cylinder, concat $SR ${geometry#* } blocks" \
	    "ramdisk $RAMSIZE: ${cylr:-?} sectors/cylinder, concat $SR $sr blocks"
	# An EFI label has no cylinders: SVM takes libmeta's 128 x 256
	# (meta_nameinfo.c meta_efi_to_mdgeom; devices.py EFI_NHEAD, EFI_NSECT).
	cylf=$(prtvtoc_field /dev/rdsk/$cfirst cyl)
	cylf=${cylf:-32768}
	run $PRTVTOC /dev/rdsk/$cfirst
	for s in $cfirst:$first $csecond:$second; do
		c=${s%%:*}
		slice=$(prtvtoc_field /dev/rdsk/$c slice ${c##*s})
		cyl=$(prtvtoc_field /dev/rdsk/$c cyl)
		cyl=${cyl:-32768}
		if (( slice > 0 && cyl > 0 )); then
			verdict "concat ${s#*:} on $c ($slice blocks, $cyl per cylinder): $(( slice / cyl * cyl )) blocks" \
			    "concat ${s#*:} on $c ($slice blocks, $cyl per cylinder): $(size_of ${s#*:}) blocks"
		else
			say "(no size for slice ${c##*s} of $c in prtvtoc: concat size not predicted)"
		fi
	done
	if (( cylf > 0 )); then
		verdict "one-way $MIR -m $first: $(( $(size_of $first) / cylf * cylf )) blocks" \
		    "one-way $MIR -m $first: $m1 blocks"
	fi
	run $METAINIT $NWAY -m $SR $first $second
	(( RC == 0 )) || fail "the n-way metainit failed"
	MIRRORS+=($NWAY)
	expect_output 0 "$NWAY: Mirror is setup"$'\n' "metainit: $NWAY: WARNING: This form of metainit is not recommended."$'\n'"The submirrors may not have the same data."$'\n'"Please see ERRORS in metainit(1M) for additional information."$'\n'
	(( minsize = sr ))
	for s in $first $second; do
		(( $(size_of $s) < minsize )) && minsize=$(size_of $s)
	done
	(( cylr > 0 )) || cylr=${geometry% *}
	nway=$(size_of $NWAY)
	say "(the emulator sizes a mirror as its smallest submirror, $minsize blocks, rounded down to its first submirror's cylinder, $cylr blocks for $SR)"
	verdict "$NWAY -m $SR $first $second: $(( minsize / cylr * cylr )) blocks; one-way was $m1" \
	    "$NWAY -m $SR $first $second: $nway blocks; one-way was $m1"

	# CHECK 11 --------------------------------------------------------------
	# (svmram selftest checks that the kstat exists after a first open,
	# but not that it is absent before one: a number it opened earlier
	# since boot keeps a dormant kstat.)
	check_header 11a "the I/O kstat of a mirror made since boot, before and after its first open; of a cleared one" \
	    "audit 3 row 2.3: md_subr.c md_unit_incopen -> md_kstat_init; kstat_fr.c kstat_delete (dormant) [src]" \
	    "lib/svmsim/units.py open_kstats(); programs/kstat.py stats()"
	md_kstat $NWAY
	o="$NWAY made since boot: $SEEN"
	run $DD if=$DEV/md/rdsk/$NWAY of=/dev/null bs=512 count=1
	md_kstat $NWAY
	o+="; after one read: $SEEN"
	say "($MIR was opened by its resyncs, then cleared in check 7)"
	md_kstat $MIR
	o+="; cleared $MIR: $SEEN"
	verdict "$NWAY made since boot: none; after one read: a count; cleared $MIR: a count" "$o"

	# The fixture for checks 3 and 5 ------------------------------------------
	say ""
	say "======================================================================"
	say "CHECK 3 and CHECK 5, part 1 (before the reboot)"
	must $METAPARAM -r first $NWAY
	run $METASTAT $NWAY
	run $LS -l $DEV/dsk/$RLINK $DEV/rdsk/$RLINK $DEV/dsk/$SLINK $DEV/rdsk/$SLINK
	$CAT >"$STATE" <<-EOF
		# svmram confirm.sh state, written $($DATE -u '+%Y-%m-%d %H:%M:%S UTC')
		STATE_FORMAT=1
		STATE_BOOT_TIME='$(boot_time)'
		STATE_HOST='$HOST'
		STATE_NWAY='$NWAY'
		STATE_MIR='$MIR'
		STATE_SR='$SR'
		STATE_FIRST='$first'
		STATE_SECOND='$second'
		STATE_RD='$RD'
		STATE_RAMSIZE='$RAMSIZE'
		STATE_RD_DEV='$RD_DEV'
		STATE_RLINK='$RLINK'
		STATE_SLINK='$SLINK'
		STATE_MIRRORS='$NWAY'
		STATE_STRIPES='$SR $SA $SB'
		STATE_LINKS='$DEV/dsk/$RLINK $DEV/rdsk/$RLINK $DEV/dsk/$SLINK $DEV/rdsk/$SLINK'
	EOF
	KEEP=1
	say ""
	say "prepare is done.  Kept for checks 3 and 5: $NWAY = [$SR (ramdisk $RD), $first, $second],"
	say "read option first, and the links above.  State: $STATE."
	say ""
	say "NEXT: reboot this host by hand (e.g. 'reboot'), then run:"
	say "    $SELF after-reboot"
	say "(or '$SELF cleanup' to remove everything without rebooting)"
}

# CHECK 6: ramdiskadm with no ramdisk.
function check_6 {
	typeset when=$1 present
	check_header 6 "ramdiskadm output when no ramdisk exists ($when)" \
	    "section 6.1 [src]; 9.6 item 6" \
	    "lib/svmsim/report.py ramdisk_listing()"
	present=$($LS $DEVICES/pseudo 2>/dev/null | $GREP '^ramdisk@0:' | $GREP -v ':ctl$')
	if [[ -n $present ]]; then
		say "SKIPPED: ramdisks exist on this host ($present)."
		say "VERDICT: NOT CHECKED"
		return 0
	fi
	run $RAMDISKADM
	expect_output 0 "" ""
}

# CHECK 9: metastat while a resync runs (polled without a pause, so
# that even a short resync is seen).
function check_9 {
	typeset -i i
	typeset line o
	check_header 9 "metastat while a resync runs" \
	    "section 1.4 [src], 5.3" \
	    "lib/svmsim/report.py mirror_report(); resync.py start(), advance()"
	for (( i = 1; i <= 300; i++ )); do
		$METASTAT $MIR >"$OUT" 2>"$ERR"
		RC=$?
		$GREP -q 'Resync in progress' "$OUT" && break
	done
	if ! $GREP -q 'Resync in progress' "$OUT"; then
		say "INCONCLUSIVE: the resync ended before metastat saw it (slices too small?)"
		say "VERDICT: NOT CHECKED"
		return 0
	fi
	say "\$ $METASTAT $MIR    (call $i of a loop; the first that showed the resync)"
	say "exit status: $RC"
	show "stdout" "$OUT"
	show "stderr" "$ERR"
	line=$($GREP 'Resync in progress' "$OUT")
	run $METASTAT -c $MIR
	if [[ $line == '    Resync in progress: '+([0-9])' % done' ]]; then
		o='"    Resync in progress: N % done"'
	else
		o="\"$line\""
	fi
	verdict '"    Resync in progress: N % done"' "$o"
}

# --- after-reboot ---------------------------------------------------------------

function load_state {
	[[ -f $STATE ]] || { print -u2 "$PROG: no state file $STATE: run '$PROG prepare' first"; exit $EXIT_USAGE; }
	[[ -O $STATE ]] || { print -u2 "$PROG: $STATE is not ours; refusing to read it"; exit $EXIT_USAGE; }
	. "$STATE"
	[[ $STATE_FORMAT == 1 ]] || { print -u2 "$PROG: $STATE: unknown format"; exit $EXIT_USAGE; }
	MIRRORS=($STATE_MIRRORS) STRIPES=($STATE_STRIPES) LINKS=($STATE_LINKS)
	RAMDISKS=($STATE_RD)
}

function after_reboot {
	typeset m=$STATE_NWAY ram=$STATE_SR comp=$STATE_RLINK s1 c1 s2 c2 inv
	typeset metasync l e o dev
	typeset -i waited=0

	if [[ $(boot_time) == "$STATE_BOOT_TIME" ]]; then
		KEEP=1
		fail "the host has not rebooted since '$PROG prepare' (same boot time); reboot first"
	fi
	check_6 "after the reboot"

	# CHECK 3 ---------------------------------------------------------------
	check_header 3 "the ramdisk submirror after a reboot" \
	    "section 9.1 [inferred], 9.6 item 3" \
	    "lib/svmsim/cli.py cmd_reboot(); programs/metasync.py boot_resync(); svm.py snarf(), sm_state_name(); units.py first_open() (GUESS: Last Erred when no other source)"
	say "(waiting for svc:/system/metasync to be online)"
	while metasync=$($SVCS -H -o state svc:/system/metasync:default 2>/dev/null) &&
	    [[ $metasync != online ]] && (( waited < 300 )); do
		$SLEEP 5
		(( waited += 5 ))
	done
	run $SVCS -H -o state,fmri svc:/system/metainit:default svc:/system/metasync:default
	run $METASTAT $m
	s1=$(sub_state $m $ram) c1=$(comp_state $m $comp)
	inv=$($NAWK -v sm="$ram" '$1 == sm ":" { want = 1 } want && /^    Invoke: / { sub(/^    Invoke: /, ""); print; exit }' "$OUT")
	run $METASTAT -c $m
	verdict "as booted: submirror $ram Needs maintenance, component $comp Maintenance, Invoke: metareplace $m $comp <new device>" \
	    "as booted: submirror $ram ${s1:-?}, component $comp ${c1:-?}, Invoke: ${inv:-(none)}"

	# CHECK 11, after the reboot ---------------------------------------------
	check_header 11b "the I/O kstats after a reboot" \
	    "audit 3 row 2.3: gone at reboot; svc:/system/metasync's metasync -r opens every mirror with pass 1-9 and 2+ submirrors (meta_mirror_resync.c, mirror_resync.c) [src]" \
	    "lib/svmsim/cli.py cmd_reboot() (drops them); programs/metasync.py boot_resync()"
	md_kstat $m
	o="$m (pass 1, opened by metasync -r): $SEEN"
	if [[ -n $STATE_MIR ]]; then        # absent from an older state file
		md_kstat $STATE_MIR
		o+="; $STATE_MIR (cleared before the reboot): $SEEN"
	fi
	verdict "$m (pass 1, opened by metasync -r): a count${STATE_MIR:+; $STATE_MIR (cleared before the reboot): none}" "$o"

	check_header "3 (continued)" "the ramdisk submirror after the mirror's first read" \
	    "section 9.1 [inferred], 9.6 item 3" "lib/svmsim/units.py first_open()"
	say "Now one read opens $m (reference 9.1: the first open errs a missing component)."
	run $DD if=$DEV/md/rdsk/$m of=/dev/null bs=512 count=1
	run $METASTAT $m
	s2=$(sub_state $m $ram) c2=$(comp_state $m $comp)
	verdict "after one read: submirror $ram Needs maintenance, component $comp Maintenance" \
	    "after one read: submirror $ram ${s2:-?}, component $comp ${c2:-?}"

	# CHECK 5 ---------------------------------------------------------------
	check_header 5 "hand-made /dev/dsk links across a reboot and devfsadm -C" \
	    "section 7 [inferred], 9.6 item 5" \
	    "lib/svmsim/cli.py cmd_reboot() (keeps every /dev/dsk link); devices.py remove_ramdisk_nodes() (drops /dev/ramdisk/NAME, devfsadm is not emulated)"
	run $LS -l $DEV/dsk/$comp $DEV/rdsk/$comp $DEV/dsk/$STATE_SLINK $DEV/rdsk/$STATE_SLINK
	run $LS -l $DEV/ramdisk $DEV/rramdisk
	o="after reboot:"
	for l in $comp $STATE_SLINK; do
		[[ -L $DEV/dsk/$l && -L $DEV/rdsk/$l ]] && o+=" $l kept" || o+=" $l gone"
	done
	run $DEVFSADM -C
	run $LS -l $DEV/dsk/$comp $DEV/rdsk/$comp $DEV/dsk/$STATE_SLINK $DEV/rdsk/$STATE_SLINK
	o+="; after devfsadm -C:"
	for l in $comp $STATE_SLINK; do
		[[ -L $DEV/dsk/$l && -L $DEV/rdsk/$l ]] && o+=" $l kept" || o+=" $l gone"
	done
	say "(the emulator does not model devfsadm: its expectation for -C is the reference's, section 7)"
	verdict "after reboot: $comp kept $STATE_SLINK kept; after devfsadm -C: $comp kept $STATE_SLINK gone" "$o"

	# CHECK 6 ran above.  CHECK 10: what svmram's restore does ----------------
	check_header 10 "metareplace -e after recreating the ramdisk (svmram restore)" \
	    "section 2.6 [inferred] (a changed dev_t goes through the replace path), 6.3" \
	    "lib/svmsim/programs/metareplace.py run() (GUESS); programs/ramdiskadm.py create() (first free minor)"
	[[ -L $DEV/dsk/$comp ]] || must $LN -s /dev/ramdisk/$STATE_RD $DEV/dsk/$comp
	[[ -L $DEV/rdsk/$comp ]] || must $LN -s /dev/rramdisk/$STATE_RD $DEV/rdsk/$comp
	must $RAMDISKADM -a $STATE_RD $STATE_RAMSIZE
	run $LS -lL $DEV/rdsk/$comp
	dev=$($LS -lL $DEV/rdsk/$comp 2>/dev/null | $NAWK '{ print $5 $6 }')
	say "device number before the reboot: $STATE_RD_DEV; now: $dev"
	wait_resync $m
	run $METAREPLACE -e $m $comp
	if [[ $dev == "$STATE_RD_DEV" ]]; then
		expect_output 0 "$m: device $comp is enabled"$'\n' ""
	else
		expect_output 0 "$m: device $comp is replaced with $comp"$'\n' ""
	fi
	run $METASTAT $m
	wait_resync $m
	run $METASTAT $m
	verdict "after the resync: submirror $ram Okay" \
	    "after the resync: submirror $ram $(sub_state $m $ram)"
}

# --- main -----------------------------------------------------------------------

PHASE=$1
(( $# > 0 )) && shift
case $PHASE in
prepare)
	if (( $# == 2 )); then
		SLICES=("$1" "$2")
	elif (( $# == 0 )); then
		SLICES=($SVMRAM_TEST_DISKS)
	else
		usage
	fi
	set -A SLICES -- "${SLICES[@]#/dev/dsk/}"
	set -A SLICES -- "${SLICES[@]#/dev/rdsk/}"
	;;
after-reboot|cleanup)
	(( $# == 0 )) || usage
	;;
*)
	usage ;;
esac

preflight          # nothing has been touched before this returns

STATEDIR=${SVMRAM_CONFIRM_DIR:-/var/tmp/svmram-confirm}
STATE=$STATEDIR/state
BASE=${SVMRAM_CONFIRM_BASE:-900}
MAXMB=${SVMRAM_CONFIRM_MAX_MB:-1024}
TIMEOUT=${SVMRAM_CONFIRM_TIMEOUT:-3600}
MIR=d$BASE SA=d$((BASE + 1)) SB=d$((BASE + 2)) SR=d$((BASE + 3))
NWAY=d$((BASE + 5)) SX=d$((BASE + 6))
RD=svmram_confirm RDX=svmram_confirm_absent
HOST=$($UNAME -n)

check_replicas
if [[ $PHASE == prepare && -f $STATE ]]; then
	print -u2 "$PROG: $STATE exists: a previous run kept its mirror; run '$PROG after-reboot' or '$PROG cleanup' first"
	exit $EXIT_USAGE
fi
open_report
TMPD=$STATEDIR/tmp.$$
$MKDIR -m 700 "$TMPD" || exit $EXIT_FAILED
OUT=$TMPD/out ERR=$TMPD/err EXP_OUT=$TMPD/exp_out EXP_ERR=$TMPD/exp_err
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

header
case $PHASE in
prepare)
	prepare ;;
after-reboot)
	load_state
	after_reboot
	$RM -f "$STATE"
	say ""
	say "after-reboot is done; everything it created is removed below." ;;
cleanup)
	if [[ -f $STATE ]]; then
		load_state
		$RM -f "$STATE"
	else
		say "no state file $STATE: nothing recorded to remove"
	fi ;;
esac
exit 0
