# Shared helpers for dixload's shell tests (sourced).
# Exit statuses (automake test-driver): 0 pass, 77 skip, 99 hard error, else fail.

: "${DIXLOAD:=${top_builddir:-.}/dixload}"
: "${top_srcdir:=.}"

# DIXLOAD_TEST_NO_SKIP=1 (set by .ci/run, where every dependency is installed
# and every optional library required) turns a skip into a failure, so a
# missing package can never hide behind "skipped".
skip() {
	if [ "${DIXLOAD_TEST_NO_SKIP:-0}" = 1 ]; then
		echo "FAIL: would skip, but DIXLOAD_TEST_NO_SKIP=1: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}
# part_skip REASON - leave one part of a test out and carry on with the rest
# (the MPI job when the build has no MPI, the loop device when not root),
# said on a line of its own; under DIXLOAD_TEST_NO_SKIP=1 the test fails
# instead, as skip() does.  The same rule as tests/unit/tap.h: a missing
# dependency (package, build option, root, device) is a skip only outside
# CI; what the machine cannot have (a CPU feature, a kernel era) is not a
# part_skip.
part_skip() {
	if [ "${DIXLOAD_TEST_NO_SKIP:-0}" = 1 ]; then
		echo "FAIL: would leave a part out, but DIXLOAD_TEST_NO_SKIP=1: $*"
		exit 1
	fi
	echo "PART SKIPPED: $*"
}
fail() { echo "FAIL: $*"; exit 1; }
hard() { echo "ERROR: $*"; exit 99; }

# A test's files live in $WORK; without it they would land in / (a failed
# mktemp prints nothing), so a failure ends the test here.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dixload-test.XXXXXX") && [ -d "$WORK" ] ||
	hard "mktemp -d ${TMPDIR:-/tmp}/dixload-test.XXXXXX failed: no work directory"
cleanup_hooks=""
# DIXLOAD_TEST_KEEP=DIR: a copy of $WORK (a VM test's guest output) is left
# in DIR/TEST for a look after the test
cleanup() {
	eval "$cleanup_hooks"
	[ -n "${DIXLOAD_TEST_KEEP:-}" ] && mkdir -p "$DIXLOAD_TEST_KEEP" &&
		rm -rf "$DIXLOAD_TEST_KEEP/${0##*/}" && cp -r "$WORK" "$DIXLOAD_TEST_KEEP/${0##*/}"
	rm -rf "$WORK"
}
trap cleanup EXIT
on_exit() { cleanup_hooks="$1; $cleanup_hooks"; }

# run_dix OUT ERR ARGS... : run dixload, capture stdout/stderr, return its status
run_dix() {
	out=$1; err=$2; shift 2
	"$DIXLOAD" "$@" >"$out" 2>"$err"
}

# flip_byte FILE OFFSET - invert one byte of FILE in place; sets flip_was and
# flip_now to the old and new values as two hex digits.  Inverted, not
# overwritten with a constant: the pattern byte is random per run, and a
# constant equal to it (1 run in 256) moves the first changed byte on.
flip_byte() {
	flip_was=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	[ -n "$flip_was" ] || hard "flip_byte: cannot read byte $2 of $1"
	flip_now=$((flip_was ^ 255))
	printf "$(printf '\\%03o' "$flip_now")" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none || hard "flip_byte: write $1"
	flip_was=$(printf %02x "$flip_was")
	flip_now=$(printf %02x "$flip_now")
}

# need_feature WORD... - skip unless this build of dixload has every WORD on
# its --version "engines:" or "features:" line (configure left it out).
need_feature() {
	have=$("$DIXLOAD" --version | sed -n 's/^\(engines\|features\): */ /p' | tr '\n' ' ')
	for w in "$@"; do
		case "$have " in
		*" $w "*) ;;
		*) skip "this dixload was built without '$w' (configure's summary says why)" ;;
		esac
	done
}

# have_mpi - true when this dixload was built with MPI and mpirun is installed
# (a test that adds an MPI job to its runs when it can).
have_mpi() {
	"$DIXLOAD" --version | grep -q '^features:.* mpi' && command -v mpirun >/dev/null
}

# mpi_dix NP ARGS... - dixload ARGS under mpirun -np NP: oversubscribed (more
# ranks than this host's CPUs), allowed as root (CI), and, in a sanitized
# build, without leak checks of Open MPI's exit (see tests/sh/mpi.sh).
mpi_dix() {
	_np=$1
	shift
	_mpirun="mpirun --oversubscribe -np $_np"
	[ "$(id -u)" = 0 ] && _mpirun="$_mpirun --allow-run-as-root"
	_san=
	"$DIXLOAD" --version | grep -q '^sanitizers:' && _san=:detect_leaks=0
	ASAN_OPTIONS="${ASAN_OPTIONS:-}$_san" $_mpirun "$DIXLOAD" "$@"
}

need_python() { command -v python3 >/dev/null || skip "python3 not installed (needed to parse JSON)"; }

# need_root WHAT - skip unless root; WHAT names what needs it.
need_root() { [ "$(id -u)" = 0 ] || skip "not root (needed for $*)"; }

# need_tools TOOL... - skip, naming the first TOOL not installed.
need_tools() {
	for t in "$@"; do
		command -v "$t" >/dev/null || skip "$t not installed"
	done
}

# need_dixload - the built binary must exist: make check builds it first.
need_dixload() { [ -x "$DIXLOAD" ] || hard "dixload binary $DIXLOAD not built"; }

# make_image SIZE - a sparse image file $WORK/img of SIZE (truncate's units),
# for a test to put a filesystem or partition table in before make_loop.
make_image() { truncate -s "$1" "$WORK/img" || hard "truncate $WORK/img"; }

# make_loop [LOSETUP-OPTION...] - attach $WORK/img to a free loop device,
# set $LOOP, and detach it on exit; skip when no loop device is free.
make_loop() {
	LOOP=$(losetup --find --show "$@" "$WORK/img" 2>/dev/null) ||
		skip "no loop device available"
	on_exit "losetup -d $LOOP"
}

# make_loop_parts FIRST-SIZE - write a dos partition table with two Linux
# partitions (FIRST-SIZE, then the rest) to $WORK/img and make_loop it with
# partition scanning; skip when the kernel shows no ${LOOP}p1 and p2.
make_loop_parts() {
	printf ',%s,L\n,,L\n' "$1" | sfdisk -q "$WORK/img" >/dev/null 2>&1 ||
		hard "sfdisk failed"
	make_loop --partscan
	# Kernels without the msdos partition parser scan nothing: add them by hand.
	[ -b "${LOOP}p2" ] || partx -a "$LOOP" 2>/dev/null
	[ -b "${LOOP}p1" ] && [ -b "${LOOP}p2" ] ||
		skip "the kernel shows no partitions of $LOOP"
}

# mount_scratch DEV - mount DEV on $WORK/mnt, unmounted on exit (unless the
# test did it already); skip when it cannot be mounted here.
mount_scratch() {
	mkdir -p "$WORK/mnt" || hard "mkdir $WORK/mnt"
	mount "$1" "$WORK/mnt" 2>/dev/null || skip "cannot mount $1 here"
	on_exit "umount '$WORK/mnt' 2>/dev/null"
}
