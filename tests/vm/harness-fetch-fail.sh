#!/bin/sh
# dixvm: a kernel package that cannot be fetched (unreachable mirror, empty cache) fails with status 125 and names suite and package.
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
exit 0
