#!/bin/sh
# lib.sh's rules hold: a part left out (part_skip) carries on, but fails under DIXLOAD_TEST_NO_SKIP=1, like a skip; a failed mktemp ends a test (lib.sh's work directory, compare-rate.sh's tmpfs one) before it writes anywhere.
. "$top_srcdir/tests/sh/lib.sh"

# a test of its own, sourcing lib.sh: one part left out, then the rest
cat > "$WORK/part.sh" <<'EOF'
. "$top_srcdir/tests/sh/lib.sh"
echo "first part checked"
part_skip "no frobnicator here: the frob part is not checked"
echo "the rest checked"
EOF
# case NAME NO_SKIP WANT-STATUS LINE... - run it, want the status and each LINE
case_of() {
	_n=$1 _ns=$2 _want=$3
	shift 3
	DIXLOAD_TEST_NO_SKIP=$_ns sh "$WORK/part.sh" > "$WORK/out" 2>&1
	_st=$?
	[ "$_st" = "$_want" ] || fail "$_n: exit $_st, want $_want: $(cat "$WORK/out")"
	for _l in "$@"; do
		grep -qx -- "$_l" "$WORK/out" || fail "$_n: no line '$_l' in: $(cat "$WORK/out")"
	done
	echo "ok: $_n: exit $_st"
}
case_of "part left out" 0 0 "PART SKIPPED: no frobnicator here: the frob part is not checked" \
	"the rest checked"
case_of "part left out under NO_SKIP=1" 1 1 \
	"FAIL: would leave a part out, but DIXLOAD_TEST_NO_SKIP=1: no frobnicator here: the frob part is not checked"
grep -q "the rest checked" "$WORK/out" && fail "NO_SKIP=1: the test went on after the part it left out"

# a mktemp that fails, first on PATH
mkdir "$WORK/bin" || hard "mkdir $WORK/bin"
cat > "$WORK/bin/mktemp" <<'EOF'
#!/bin/sh
case "$*" in *${MKTEMP_FAIL:-/}*) echo "mktemp: failed to create directory via template: Permission denied" >&2; exit 1 ;; esac
exec /usr/bin/env -u MKTEMP_FAIL PATH="$REAL_PATH" mktemp "$@"
EOF
chmod +x "$WORK/bin/mktemp" || hard "chmod $WORK/bin/mktemp"
REAL_PATH=$PATH
export REAL_PATH

# lib.sh's own work directory
PATH=$WORK/bin:$PATH sh "$WORK/part.sh" > "$WORK/out" 2>&1
st=$?
[ $st = 99 ] || fail "a failed mktemp in lib.sh: exit $st, want 99: $(cat "$WORK/out")"
grep -q "^ERROR: mktemp -d .*dixload-test.XXXXXX failed: no work directory" "$WORK/out" ||
	fail "a failed mktemp in lib.sh is not named: $(cat "$WORK/out")"
grep -q "first part checked" "$WORK/out" && fail "the test ran on without its work directory"
echo "ok: a failed mktemp in lib.sh ends the test with 99"

# compare-rate.sh's tmpfs directory (where it wrote /f.img before)
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	PATH=$WORK/bin:$PATH MKTEMP_FAIL=/dev/shm/ \
		sh "$top_srcdir/tests/sh/compare-rate.sh" > "$WORK/out" 2>&1
	st=$?
	[ $st = 99 ] || fail "a failed mktemp in compare-rate.sh: exit $st, want 99: $(cat "$WORK/out")"
	grep -q "^ERROR: mktemp -d /dev/shm/dixload-cmp.XXXXXX failed" "$WORK/out" ||
		fail "compare-rate.sh's failed mktemp not named: $(cat "$WORK/out")"
	echo "ok: a failed mktemp in compare-rate.sh ends it with 99"
else
	part_skip "no writable /dev/shm: compare-rate.sh takes no mktemp there"
fi
echo "skip-rules: parts left out fail under NO_SKIP, a failed mktemp ends the test"
