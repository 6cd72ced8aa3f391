#!/bin/sh
# The --lat-log, the JSON intervals and the --log CSV hold every completion the summary counts, the last partial interval and the drain included: compare of a run's JSON against its own lat-log is 0.0 % on every row, for a --runtime that ends between ticks, on a tick, and a run stopped by SIGINT.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
# check NAME: the run's $WORK/NAME.{json,lat,csv} agree with its summary
check() {
	run_dix "$WORK/$1.cmp" "$WORK/$1.cmperr" compare "$WORK/$1.json" "$WORK/$1.lat" ||
		fail "$1: compare of the run with its own lat-log: exit $? $(cat "$WORK/$1.cmp" "$WORK/$1.cmperr")"
	rows=$(grep -Ec ' [+-][0-9.]+ %' "$WORK/$1.cmp")
	[ "$rows" -ge 6 ] || fail "$1: compare printed $rows rows with a change: $(cat "$WORK/$1.cmp")"
	grep -E ' [+-][0-9.]+ %' "$WORK/$1.cmp" | grep -v ' +0\.0 %$' &&
		fail "$1: rows that are not +0.0 % (above): $(cat "$WORK/$1.cmp")"
	python3 - "$WORK/$1.json" "$WORK/$1.lat" "$WORK/$1.csv" "$1" <<'PY' || fail "$1: the records do not add up to the summary (above)"
import csv, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
s = recs[-1]
if s["type"] != "summary":
    raise AssertionError(s["type"])
iv = [r for r in recs if r["type"] == "interval"]
lat = [json.loads(l) for l in open(sys.argv[2])]
if [h["index"] for h in lat] != [r["index"] for r in iv]:
    raise AssertionError(("lat-log lines", len(lat), "intervals", len(iv)))
for d in ("read", "write"):
    n = sum(h[d]["n"] for h in lat)
    b = sum(c for h in lat for _, _, c in h[d]["buckets"])
    if not (n == b == s[d + "_ops"] > 0):
        raise AssertionError((d, "lat-log n", n, "buckets", b, "summary", s[d + "_ops"]))
    m = sum(r["lat_ns"][d]["n"] for r in iv)
    if m != s[d + "_ops"]:
        raise AssertionError((d, "intervals' n", m, "summary", s[d + "_ops"]))
if iv[-1]["ops"] != s["ops"]:
    raise AssertionError(("the last interval's ops", iv[-1]["ops"], "summary", s["ops"]))
rows = [r for r in csv.DictReader(open(sys.argv[3])) if r["type"] == "interval"]
if int(rows[-1]["ops"]) != s["ops"] or len(rows) != len(iv):
    raise AssertionError(("csv", len(rows), rows[-1]["ops"], s["ops"]))
print("%s: %d intervals (the last %.3f s long), %d + %d I/Os in the lat-log as in the summary"
      % (sys.argv[4], len(iv), iv[-1]["dt"], s["read_ops"], s["write_ops"]))
PY
}

run1() {
	name=$1
	shift
	"$DIXLOAD" --dev "$F" --size 16m --rw randrw --bs 4k --iodepth 16 --interval 1000 \
		--output-format json --lat-log "$WORK/$name.lat" --log "$WORK/$name.csv" "$@" \
		>"$WORK/$name.json" 2>"$WORK/$name.err"
}

# 2.4 s at 1 s intervals: 0.4 s after the last tick, under half a period
# (the lat-log left it out: 23 % of the I/Os, write p99.9 +25.9 %)
run1 between --runtime 2.4 || fail "between: exit $? $(cat "$WORK/between.err")"
check between
# the end on a tick: the drain after it
run1 ontick --runtime 2 || fail "ontick: exit $? $(cat "$WORK/ontick.err")"
check ontick
# stopped by a signal between ticks
# (dixload itself in the background: a function would be a subshell)
"$DIXLOAD" --dev "$F" --size 16m --rw randrw --bs 4k --iodepth 16 --interval 1000 \
	--output-format json --lat-log "$WORK/stopped.lat" --log "$WORK/stopped.csv" --runtime 60 \
	>"$WORK/stopped.json" 2>"$WORK/stopped.err" &
pid=$!
sleep 1.6
kill -INT $pid
wait $pid
st=$?
[ $st -eq 6 ] || fail "stopped: exit $st, want 6 $(cat "$WORK/stopped.err")"
check stopped
echo "the lat-log, intervals and CSV hold every completion"
