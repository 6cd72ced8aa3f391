#!/bin/sh
# dixload sweep: a point that completed no request (its --runtime over before the first one came back) is an error naming the point, with no figures, and the sweep's exit status is 1; the other points keep theirs.
. "$top_srcdir/tests/sh/lib.sh"

F=$WORK/f.img
truncate -s 16m "$F" || hard "truncate"
# 1 ns: over before the workers are let go (run.c checks the deadline
# before it opens the start gate), so the point issues nothing
run_dix "$WORK/o" "$WORK/e" sweep runtime=0.000000001,0.3 -- \
	--dev "$F" --size 16m --rw randread --bs 4k
st=$?
cat "$WORK/o" "$WORK/e"
[ $st -eq 1 ] || fail "a point without requests: sweep exit $st (want 1)"
grep -q "^dixload: sweep: point runtime=0.000000001: no request completed" "$WORK/e" ||
	fail "no error naming the empty point: $(cat "$WORK/e")"
grep -q "point runtime=0.3" "$WORK/e" && fail "the point that ran was named too"
grep -Eq "^0\.000000001 +- +- +- +- +- +1$" "$WORK/o" ||
	fail "the empty point's row has figures or exit status 0: $(cat "$WORK/o")"
grep -Eq "^0\.3 +[0-9.]+ +[0-9]+ .* 0$" "$WORK/o" ||
	fail "the point that ran lost its figures: $(cat "$WORK/o")"

run_dix "$WORK/o" "$WORK/e" sweep --json runtime=0.000000001 -- \
	--dev "$F" --size 16m --rw randread --bs 4k
st=$?
[ $st -eq 1 ] || fail "--json: sweep exit $st (want 1)"
grep -q '^{"type":"sweep_point","point":{"runtime":"0.000000001"},"exit":1}$' "$WORK/o" ||
	fail "--json: the empty point's record: $(cat "$WORK/o")"
echo "an empty sweep point is an error naming it"
