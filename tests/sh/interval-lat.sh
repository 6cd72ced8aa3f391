#!/bin/sh
# Per-interval latency on a file and the null engine: each JSON interval's lat_ns has max >= p99.9 >= p99 >= p50 per direction, its counts are the interval's I/Os, several targets' rows add up to the total, the summary's maximum is the largest interval's or above; --lat-log's lines are the intervals' histograms (counts, quantiles) and dixload compare reads them; --meter-lat ends the meter line with p99 per direction.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python

run_dix "$WORK/f.json" "$WORK/f.err" --dev "$WORK/f.img" --size 8m --rw randrw --bs 4k \
	--jobs 2 --iodepth 4 --runtime 2 --interval 250 --output-format json ||
	fail "file run: $(cat "$WORK/f.err")"
run_dix "$WORK/n.json" "$WORK/n.err" --engine null --dev "$WORK/n.img" --size 64m \
	--rw randrw --bs 4k --jobs 2 --runtime 2 --interval 250 --output-format json \
	--lat-log "$WORK/n.lat" ||
	fail "null run: $(cat "$WORK/n.err")"
run_dix "$WORK/m.json" "$WORK/m.err" --dev "$WORK/a.img,$WORK/b.img" --size 8m \
	--rw randrw --bs 4k --runtime 2 --interval 250 --output-format json \
	--lat-log "$WORK/m.lat" ||
	fail "two-target run: $(cat "$WORK/m.err")"

python3 - "$WORK/f.json" "$WORK/n.json" "$WORK/m.json" <<'PY' || fail "interval latency (above)"
import json, sys

def check(lat, what):
    for d in ("read", "write"):
        q = lat[d]
        if not (q["max"] >= q["p99.9"] >= q["p99"] >= q["p50"]):
            raise AssertionError((what, d, q))
        if not ((q["n"] == 0) == (q["max"] == 0)):
            raise AssertionError((what, d, q))
        if q["n"]:
            if not (q["p50"] > 0):
                raise AssertionError((what, d, q))

for f in sys.argv[1:]:
    recs = [json.loads(l) for l in open(f)]
    iv = [r for r in recs if r["type"] == "interval"]
    summ = [r for r in recs if r["type"] == "summary"][0]
    if not (len(iv) >= 6):
        raise AssertionError((f, len(iv)))
    prev, pdev = 0, {}
    for r in iv:
        check(r["lat_ns"], (f, r["t"]))
        n = r["lat_ns"]["read"]["n"] + r["lat_ns"]["write"]["n"]
        if not (n == r["ops"] - prev):
            raise AssertionError((f, r["t"], n, r["ops"] - prev))
        prev = r["ops"]
        for x in r.get("devices", []):
            check(x["lat_ns"], (f, r["t"], x["dev"]))
            dn = x["lat_ns"]["read"]["n"] + x["lat_ns"]["write"]["n"]
            if not (dn == x["ops"] - pdev.get(x["dev"], 0)):
                raise AssertionError((f, x))
            pdev[x["dev"]] = x["ops"]
        if "devices" in r:
            for d in ("read", "write"):
                if not (r["lat_ns"][d]["n"] == sum(x["lat_ns"][d]["n"] for x in r["devices"])):
                    raise AssertionError(r)
                if not (r["lat_ns"][d]["max"] == max(x["lat_ns"][d]["max"] for x in r["devices"])):
                    raise AssertionError(r)
    if not ("devices" in iv[0] or f != sys.argv[3]):
        raise AssertionError(f)
    busy = [r for r in iv if r["lat_ns"]["read"]["n"] and r["lat_ns"]["write"]["n"]]
    if not (len(busy) >= len(iv) - 2):
        raise AssertionError((f, "intervals without reads or writes"))
    for d in ("read", "write"):
        if not (summ["lat_ns"][d]["max"] >= max(r["lat_ns"][d]["max"] for r in iv)):
            raise AssertionError((f, d))
    if not (summ["ops"] >= iv[-1]["ops"]):
        raise AssertionError(f)
    print("%s: %d intervals, %d I/Os in them, read p99 %d..%d ns" % (
        f.rsplit("/", 1)[1], len(iv), prev,
        min(r["lat_ns"]["read"]["p99"] for r in busy),
        max(r["lat_ns"]["read"]["p99"] for r in busy)))
PY
# the lat-log: one line per interval, each valid JSON on its own, its
# buckets' counts the interval's I/Os and its quantiles the record's;
# the quantiles taken again here from the buckets alone
python3 - "$WORK/n.json" "$WORK/n.lat" "$WORK/m.json" "$WORK/m.lat" <<'PY' || fail "lat-log (above)"
import json, sys

def quantile(b, n, q):
    want = max(1, int(q * n + 0.5))
    seen = 0
    for lo, hi, c in b:
        seen += c
        if seen >= want:
            return hi
    return None

args = sys.argv[1:]
for jf, lf in zip(args[0::2], args[1::2]):
    iv = [o for o in map(json.loads, open(jf)) if o["type"] == "interval"]
    lines = open(lf).read().splitlines()
    if not (len(lines) == len(iv)):
        raise AssertionError((lf, len(lines), len(iv)))
    for line, r in zip(lines, iv):
        h = json.loads(line)
        if not (h["type"] == "lat_hist" and h["index"] == r["index"] and h["t"] == r["t"]):
            raise AssertionError((h["index"], r["index"]))
        for d in ("read", "write"):
            x, q = h[d], r["lat_ns"][d]
            b = x["buckets"]
            if not (sum(c for _, _, c in b) == x["n"] == q["n"]):
                raise AssertionError((lf, h["index"], d))
            if not (all(lo <= hi and c > 0 for lo, hi, c in b)):
                raise AssertionError(b)
            if not (all(b[i][1] < b[i + 1][0] for i in range(len(b) - 1))):
                raise AssertionError("buckets out of order")
            for k in ("p50", "p99", "p99.9", "max"):
                if not (x[k] == q[k]):
                    raise AssertionError((lf, h["index"], d, k, x[k], q[k]))
            if x["n"]:
                if not (b[0][0] <= x["max"] <= b[-1][1]):
                    raise AssertionError((x["max"], b[-1]))
                for k, qq in (("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)):
                    if not (x[k] == min(quantile(b, x["n"], qq), x["max"])):
                        raise AssertionError((k, x[k]))
    print("%s: %d lines, %d I/Os" % (lf.rsplit("/", 1)[1], len(lines),
          sum(json.loads(l)[d]["n"] for l in lines for d in ("read", "write"))))
PY

# compare: a lat-log against itself, and against its own run
"$DIXLOAD" compare "$WORK/n.lat" "$WORK/n.lat" --output-format json > "$WORK/c1" ||
	fail "compare of a lat-log with itself: exit $?: $(cat "$WORK/c1")"
"$DIXLOAD" compare "$WORK/m.json" "$WORK/m.lat" --output-format json > "$WORK/c2"
[ $? -le 5 ] || fail "compare of a run with its lat-log failed"
python3 - "$WORK/c1" "$WORK/c2" "$WORK/m.json" <<'PY' || fail "compare of lat-logs (above)"
import json, sys
c1, c2 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
names = [r["metric"] for r in c1["rows"]]
want = ["%s lat %s" % (d, p) for d in ("read", "write") for p in ("p50", "p99", "p99.9", "p99 worst interval")]
if not (names == want):
    raise AssertionError(names)
if not (all(r["a"] == r["b"] and r["a"] > 0 for r in c1["rows"])):
    raise AssertionError(c1["rows"])
if not (c1["regressions"] == 0 and c1["settings"] == []):
    raise AssertionError(c1)
# the run's worst interval is its lat-log's; the lat-log's whole-run
# quantiles are its intervals', the run's summary adds the tail after them
iv = [o for o in map(json.loads, open(sys.argv[3])) if o["type"] == "interval"]
rows = {r["metric"]: r for r in c2["rows"]}
if not ([r["metric"] for r in c2["rows"]] == want):
    raise AssertionError(list(rows))
for d in ("read", "write"):
    w = rows["%s lat p99 worst interval" % d]
    worst = max(r["lat_ns"][d]["p99"] for r in iv if r["lat_ns"][d]["n"])
    if not (abs(w["a"] - worst / 1e3) < 1e-6 and w["a"] == w["b"]):
        raise AssertionError((w, worst))
PY
echo 'not json' > "$WORK/bad.lat"
"$DIXLOAD" compare "$WORK/bad.lat" "$WORK/n.lat" > /dev/null 2> "$WORK/e"
[ $? = 1 ] && grep -q "no summary record and no lat_hist line" "$WORK/e" ||
	fail "a file that is neither a run nor a lat-log: $(cat "$WORK/e")"

# --meter-lat: the seed's line, unchanged, then " | p99 R ..., W ..."
run_dix "$WORK/h" "$WORK/h.err" --engine null --dev "$WORK/n.img" --size 64m \
	--rw randrw --bs 4k --runtime 1 --interval 250 --meter-lat ||
	fail "--meter-lat run: $(cat "$WORK/h.err")"
grep -q '^\[' "$WORK/h" || fail "no meter line: $(cat "$WORK/h")"
grep '^\[' "$WORK/h" | grep -vq ' | CPU *[0-9]* % | p99 R [0-9.]* [nmu]s, W [0-9.]* [nmu]s$' &&
	fail "a meter line without its p99: $(grep '^\[' "$WORK/h")"
run_dix "$WORK/h" "$WORK/h.err" --engine null --dev "$WORK/n.img" --size 64m \
	--rw read --runtime 1 --interval 250 --meter-lat ||
	fail "--meter-lat read run: $(cat "$WORK/h.err")"
grep '^\[' "$WORK/h" | grep -vq ' | p99 R [0-9.]* [nmu]s, W -$' &&
	fail "a read-only meter line's p99: $(grep '^\[' "$WORK/h")"
run_dix "$WORK/h" "$WORK/h.err" --engine null --dev "$WORK/n.img" --size 64m \
	--rw read --runtime 1 --interval 250 ||
	fail "plain run: $(cat "$WORK/h.err")"
grep '^\[' "$WORK/h" | grep -q 'p99' && fail "p99 on the meter line without --meter-lat"
echo "interval-lat checks passed"
