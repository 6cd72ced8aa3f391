#!/bin/sh
# On a regular file: meter lines appear once per interval in the seed's shape (then the CPU share), rates are sane.
. "$top_srcdir/tests/sh/lib.sh"

F=$WORK/f.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randrw --bs 64k \
	--iodepth 4 --runtime 2.2 --interval 500 || fail "run failed: $(cat "$WORK/e")"
cat "$WORK/o"
n=$(grep -cE '^\[ *[0-9.]+s\] R +[0-9]+\.[0-9]{2} MB/s, W +[0-9]+\.[0-9]{2} MB/s, IOPS +[0-9]+ \| Ops +[0-9]+, Rec +0, Err +0 \| CPU +[0-9]+ %$' "$WORK/o")
[ "$n" -ge 4 ] && [ "$n" -le 5 ] || fail "expected 4-5 meter lines for 2.2 s at 500 ms, got $n"
grep -q "^integrity: f.img format=none" "$WORK/o" || fail "integrity line missing"
grep -q "^dixload .* rw=randrw .* bs=64k iodepth=4 " "$WORK/o" || fail "settings line missing"
grep -q "^exit status 0: success" "$WORK/o" || fail "summary missing"
# Ops is cumulative and increasing
grep -oE 'Ops +[0-9]+' "$WORK/o" | awk '{ if ($2 < last) exit 1; last = $2 }' ||
	fail "Ops not monotonic"

# without --runtime the region is covered exactly once
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw write --bs 64k --interval 0 ||
	fail "write once failed"
grep -q "^write: *16.78 MB" "$WORK/o" || fail "write-once should move 16.78 MB: $(cat "$WORK/o")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randread --bs 4k --iodepth 8 \
	--jobs 2 --interval 0 || fail "randread once failed"
grep -q "^ops 4096," "$WORK/o" || fail "randread once over 16m/4k must be 4096 ops: $(cat "$WORK/o")"
grep -q "errors 0 " "$WORK/o" || fail "errors in randread"

# sync engine works too
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw randrw --bs 4k --engine sync --runtime 0.5 \
	--interval 0 || fail "sync engine: $(cat "$WORK/e")"
# --quiet: no meter lines
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --runtime 1.2 --quiet || fail "quiet"
grep -q "MB/s, W" "$WORK/o" && fail "--quiet printed meter lines"
echo "meter checks passed"
