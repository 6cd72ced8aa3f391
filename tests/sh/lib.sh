# Shared helpers for dixload's shell tests (sourced).
# Exit statuses (automake test-driver): 0 pass, 77 skip, 99 hard error, else fail.

: "${DIXLOAD:=${top_builddir:-.}/dixload}"
: "${top_srcdir:=.}"

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
hard() { echo "ERROR: $*"; exit 99; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dixload-test.XXXXXX") || hard "mktemp"
cleanup_hooks=""
cleanup() { eval "$cleanup_hooks"; rm -rf "$WORK"; }
trap cleanup EXIT
on_exit() { cleanup_hooks="$1; $cleanup_hooks"; }

# run_dix OUT ERR ARGS... : run dixload, capture stdout/stderr, return its status
run_dix() {
	out=$1; err=$2; shift 2
	"$DIXLOAD" "$@" >"$out" 2>"$err"
}

need_python() { command -v python3 >/dev/null || skip "python3 not installed (needed to parse JSON)"; }

# A scratch file target on a filesystem that supports O_DIRECT.
scratch_file() {
	f="$WORK/$1"
	echo "$f"
}
