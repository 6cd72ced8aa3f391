#!/bin/sh
# --output FILE: a plain run's file equals its stdout (human and JSON), even for a run stopped by SIGINT; a file that cannot be written stops the run at its start (exit 1).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

for fmt in human json; do
	"$DIXLOAD" --dev "$WORK/t.img" --size 8m --bs 4k --runtime 2 \
		--interval 500 --output-format $fmt --output "$WORK/f.$fmt" \
		>"$WORK/o.$fmt" 2>"$WORK/e" || fail "$fmt run: exit $? $(cat "$WORK/e")"
	grep -q . "$WORK/o.$fmt" || fail "$fmt run printed nothing"
	cmp "$WORK/o.$fmt" "$WORK/f.$fmt" ||
		fail "--output differs from stdout ($fmt): $(diff "$WORK/o.$fmt" "$WORK/f.$fmt" | head)"
done
grep -q '^\[' "$WORK/f.human" || fail "no meter line in the file"
grep -q '^exit status 0' "$WORK/f.human" || fail "no summary in the file"

# SIGINT: the file ends with the summary, as stdout does
"$DIXLOAD" --dev "$WORK/t.img" --size 8m --bs 4k --runtime 60 \
	--interval 200 --output "$WORK/f.int" >"$WORK/o.int" 2>"$WORK/e" &
pid=$!
i=0
until grep -q '^\[' "$WORK/f.int" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -le 100 ] || { kill -KILL $pid; fail "no meter line in the file within 20 s"; }
	sleep 0.2
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 6 ] || fail "SIGINT run: exit $rc, want 6 (stopped by a signal) $(cat "$WORK/e")"
cmp "$WORK/o.int" "$WORK/f.int" || fail "--output differs from stdout after SIGINT"
tail -n 1 "$WORK/f.int" | grep -q '^exit status 6' ||
	fail "the file does not end with the summary: $(tail -n 2 "$WORK/f.int")"

rc=0
"$DIXLOAD" --dev "$WORK/t.img" --size 8m --runtime 1 \
	--output "$WORK/no/such/dir/f" >"$WORK/o" 2>"$WORK/e" || rc=$?
[ "$rc" = 1 ] || fail "unwritable --output: exit $rc, not 1"
grep -q -- "--output $WORK/no/such/dir/f: cannot write" "$WORK/e" ||
	fail "no message naming the file: $(cat "$WORK/e")"
[ -s "$WORK/o" ] && fail "the load started despite the unwritable file: $(cat "$WORK/o")"
echo "output checks passed"
