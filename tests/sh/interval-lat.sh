#!/bin/sh
# Per-interval latency on a file and the null engine: each JSON interval's lat_ns has max >= p99.9 >= p99 >= p50 per direction, its counts are the interval's I/Os, several targets' rows add up to the total, and the summary's maximum is the largest interval's or above.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python

run_dix "$WORK/f.json" "$WORK/f.err" --dev "$WORK/f.img" --size 8m --rw randrw --bs 4k \
	--jobs 2 --iodepth 4 --runtime 2 --interval 250 --output-format json ||
	fail "file run: $(cat "$WORK/f.err")"
run_dix "$WORK/n.json" "$WORK/n.err" --engine null --dev "$WORK/n.img" --size 64m \
	--rw randrw --bs 4k --jobs 2 --runtime 2 --interval 250 --output-format json ||
	fail "null run: $(cat "$WORK/n.err")"
run_dix "$WORK/m.json" "$WORK/m.err" --dev "$WORK/a.img,$WORK/b.img" --size 8m \
	--rw randrw --bs 4k --runtime 2 --interval 250 --output-format json ||
	fail "two-target run: $(cat "$WORK/m.err")"

python3 - "$WORK/f.json" "$WORK/n.json" "$WORK/m.json" <<'PY' || fail "interval latency (above)"
import json, sys

def check(lat, what):
    for d in ("read", "write"):
        q = lat[d]
        assert q["max"] >= q["p99.9"] >= q["p99"] >= q["p50"], (what, d, q)
        assert (q["n"] == 0) == (q["max"] == 0), (what, d, q)
        if q["n"]:
            assert q["p50"] > 0, (what, d, q)

for f in sys.argv[1:]:
    recs = [json.loads(l) for l in open(f)]
    iv = [r for r in recs if r["type"] == "interval"]
    summ = [r for r in recs if r["type"] == "summary"][0]
    assert len(iv) >= 6, (f, len(iv))
    prev, pdev = 0, {}
    for r in iv:
        check(r["lat_ns"], (f, r["t"]))
        n = r["lat_ns"]["read"]["n"] + r["lat_ns"]["write"]["n"]
        assert n == r["ops"] - prev, (f, r["t"], n, r["ops"] - prev)
        prev = r["ops"]
        for x in r.get("devices", []):
            check(x["lat_ns"], (f, r["t"], x["dev"]))
            dn = x["lat_ns"]["read"]["n"] + x["lat_ns"]["write"]["n"]
            assert dn == x["ops"] - pdev.get(x["dev"], 0), (f, x)
            pdev[x["dev"]] = x["ops"]
        if "devices" in r:
            for d in ("read", "write"):
                assert r["lat_ns"][d]["n"] == sum(x["lat_ns"][d]["n"] for x in r["devices"]), r
                assert r["lat_ns"][d]["max"] == max(x["lat_ns"][d]["max"] for x in r["devices"]), r
    assert "devices" in iv[0] or f != sys.argv[3], f
    busy = [r for r in iv if r["lat_ns"]["read"]["n"] and r["lat_ns"]["write"]["n"]]
    assert len(busy) >= len(iv) - 2, (f, "intervals without reads or writes")
    for d in ("read", "write"):
        assert summ["lat_ns"][d]["max"] >= max(r["lat_ns"][d]["max"] for r in iv), (f, d)
    assert summ["ops"] >= iv[-1]["ops"], f
    print("%s: %d intervals, %d I/Os in them, read p99 %d..%d ns" % (
        f.rsplit("/", 1)[1], len(iv), prev,
        min(r["lat_ns"]["read"]["p99"] for r in busy),
        max(r["lat_ns"]["read"]["p99"] for r in busy)))
PY
echo "interval-lat checks passed"
