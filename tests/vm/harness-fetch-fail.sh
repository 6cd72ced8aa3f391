#!/bin/sh
# dixvm: a kernel package that cannot be fetched (unreachable mirror, empty cache) fails with status 125 and names suite and package; a VM test on that kernel skips saying so, fails under DIXLOAD_TEST_NO_SKIP=1, and is never taken for NOT FOR THIS ERA (sid is outside the seed's era).
. "$top_srcdir/tests/vm/lib.sh"
command -v apt-get > /dev/null || skip "apt-get not installed (dixvm fetches kernels with it)"

# The real fetch path with a fresh cache and a mirror that refuses
# connections (the discard port on loopback is closed here).
XDG_CACHE_HOME=$WORK/cache DIXVM_APT_MIRROR=http://127.0.0.1:9/debian \
	"$DIXVM" --kernel bookworm-backports -- true > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 125 ] || fail "exit status $st, want 125 (stderr: $(cat "$WORK/err"))"
[ -s "$WORK/out" ] && fail "stdout not empty: $(cat "$WORK/out")"
grep '^dixvm: error:' "$WORK/err" > "$WORK/msg" || fail "no 'dixvm: error:' line: $(cat "$WORK/err")"
grep -q "bookworm-backports" "$WORK/msg" || fail "error does not name the suite: $(cat "$WORK/msg")"
grep -q "linux-image-amd64" "$WORK/msg" || fail "error does not name the package: $(cat "$WORK/msg")"
# Nothing half-fetched may pass for a cached kernel on the next run.
[ -e "$WORK/cache/dixload/kernels/bookworm-backports/current" ] &&
	fail "a failed fetch left a 'current' kernel in the cache"

# The same through a VM test that declares an era (the seed: <= 6.13) on
# sid, outside it: the fetch is checked first, so the outcome is a skip
# (a failure in CI), never "NOT FOR THIS ERA".
for ns in 0 1; do
	XDG_CACHE_HOME=$WORK/cache-t$ns DIXVM_APT_MIRROR=http://127.0.0.1:9/debian \
		DIXVM_KERNEL=sid DIXLOAD_TEST_NO_SKIP=$ns \
		sh "$top_srcdir/tests/vm/hotload-seed.sh" > "$WORK/t$ns" 2>&1
	st=$?
	grep -q 'NOT FOR THIS ERA' "$WORK/t$ns" &&
		fail "NO_SKIP=$ns: a kernel that cannot be fetched was taken for an era: $(cat "$WORK/t$ns")"
	if [ "$ns" = 1 ]; then
		want=1 line="^FAIL: would skip, but DIXLOAD_TEST_NO_SKIP=1: kernel package 'sid' cannot be had: .*error:"
	else
		want=77 line="^SKIP: kernel package 'sid' cannot be had: .*error:"
	fi
	[ "$st" = "$want" ] || fail "NO_SKIP=$ns: the seed test's status is $st, want $want: $(cat "$WORK/t$ns")"
	grep -q "$line" "$WORK/t$ns" || fail "NO_SKIP=$ns: no line matching '$line': $(cat "$WORK/t$ns")"
done
exit 0
