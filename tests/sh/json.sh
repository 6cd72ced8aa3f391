#!/bin/sh
# --output-format json: every stdout line is one valid JSON object; the summary has the fixed keys.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 8m --rw randrw --bs 16k --iodepth 4 \
	--runtime 1.5 --interval 250 --output-format json || fail "run: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "JSON check failed"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]          # every line parses on its own
types = [o["type"] for o in objs]
assert types[0] == "start", types
assert types[-1] == "summary", types
iv = [o for o in objs if o["type"] == "interval"]
assert 5 <= len(iv) <= 7, len(iv)
for o in iv:
    for k in ("t", "read_bps", "write_bps", "iops", "ops", "rec", "err"):
        assert k in o, (k, o)
    assert o["read_bps"] >= 0 and o["write_bps"] >= 0 and o["dt"] > 0, o
# both directions moved data over the run; one interval may see only one of them (a
# starved 0.14 s last interval on a loaded host held 4 writes and no read)
assert sum(o["read_bps"] * o["dt"] for o in iv) > 0, iv
assert sum(o["write_bps"] * o["dt"] for o in iv) > 0, iv
s = objs[-1]
for k in ("read_bps", "write_bps", "read_iops", "write_iops", "errors", "settings",
          "lat_ns", "integrity", "exit"):
    assert k in s, k
assert set(s["errors"]) >= {"io", "verify", "guard", "app", "ref", "unknown", "recovered"}, s["errors"]
assert all(v == 0 for v in s["errors"].values()), s["errors"]
for d in ("read", "write"):
    l = s["lat_ns"][d]
    assert 0 < l["p50"] <= l["p99"] <= l["p99.9"] <= l["max"], l
assert s["settings"]["bs"] == 16384 and s["settings"]["rw"] == "randrw", s["settings"]
assert s["integrity"]["format"] == "none"
assert s["exit"] == 0
# summary rates agree with the bytes moved over the elapsed time
assert abs(s["read_bps"] - s["read_bytes"] / s["elapsed"]) <= 1e-5 * s["read_bps"] + 1
print("json ok:", len(objs), "objects")
PY
