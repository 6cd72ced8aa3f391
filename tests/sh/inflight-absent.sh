#!/bin/sh
# The in-flight figures are measured or absent: a run whose engine does not count its requests (null) has no inflight_max or inflight_mean in its JSON summary and no "in flight:" line in its human one; a sweep's points say inflight_measured false and the table marks the configured depth with *; never the configured depth passed off as measured.
. "$top_srcdir/tests/sh/lib.sh"
need_python

run_dix "$WORK/o" "$WORK/e" --engine null --dev "$WORK/n.img" --size 4m --rw randrw --bs 4k \
	--iodepth 8 --runtime 0.3 --interval 0 --output-format json ||
	fail "null run failed: $(cat "$WORK/e")"
run_dix "$WORK/h" "$WORK/e" --engine null --dev "$WORK/n.img" --size 4m --rw randrw --bs 4k \
	--iodepth 8 --runtime 0.3 --interval 0 ||
	fail "null run failed: $(cat "$WORK/e")"
grep -q '^in flight:' "$WORK/h" && fail "the human summary gives an in-flight figure nothing measured: $(grep '^in flight:' "$WORK/h")"
run_dix "$WORK/s" "$WORK/e" sweep --json iodepth=1,4 -- --engine null --dev "$WORK/n.img" \
	--size 4m --rw randrw --bs 4k --runtime 0.3 --interval 0 ||
	fail "sweep failed: $(cat "$WORK/e")"
run_dix "$WORK/t" "$WORK/e" sweep iodepth=1,4 -- --engine null --dev "$WORK/n.img" \
	--size 4m --rw randrw --bs 4k --runtime 0.3 --interval 0 ||
	fail "sweep failed: $(cat "$WORK/e")"
cat "$WORK/t"
python3 - "$WORK/o" "$WORK/s" "$WORK/t" <<'PY' || exit 1
import json, sys
summ = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
summ = [r for r in summ if r["type"] == "summary"]
if len(summ) != 1:
    print("FAIL: want one summary, got %d" % len(summ)); sys.exit(1)
for k in ("inflight_max", "inflight_mean"):
    if k in summ[0]:
        print("FAIL: %s in a summary nothing measured: %s" % (k, summ[0][k])); sys.exit(1)
pts = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
pts = [p for p in pts if p["type"] == "sweep_point"]
if len(pts) != 2:
    print("FAIL: want 2 points, got %d" % len(pts)); sys.exit(1)
for p in pts:
    want = int(p["point"]["iodepth"])
    if p.get("inflight_measured") is not False or "inflight_max" in p or p["inflight"] != want:
        print("FAIL: point %s: %s, want inflight %d configured, not measured" % (p["point"], p, want)); sys.exit(1)
rows = [l.split() for l in open(sys.argv[3]) if l.split()[:1] in (["1"], ["4"])]
if len(rows) != 2 or any(r[3] != r[0] + "*" for r in rows):
    print("FAIL: the table's in-flight column does not mark the configured depth: %s" % rows); sys.exit(1)
print("no in-flight figure where nothing measured; the sweep's configured depth marked *")
PY
