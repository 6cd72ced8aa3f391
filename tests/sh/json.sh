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
if not (types[0] == "start"):
    raise AssertionError(types)
if not (types[-1] == "summary"):
    raise AssertionError(types)
iv = [o for o in objs if o["type"] == "interval"]
if not (5 <= len(iv) <= 7):
    raise AssertionError(len(iv))
for o in iv:
    for k in ("t", "read_bps", "write_bps", "iops", "ops", "rec", "err"):
        if not (k in o):
            raise AssertionError((k, o))
    if not (o["read_bps"] >= 0 and o["write_bps"] >= 0 and o["dt"] > 0):
        raise AssertionError(o)
# both directions moved data over the run; one interval may see only one of them (a
# starved 0.14 s last interval on a loaded host held 4 writes and no read)
if not (sum(o["read_bps"] * o["dt"] for o in iv) > 0):
    raise AssertionError(iv)
if not (sum(o["write_bps"] * o["dt"] for o in iv) > 0):
    raise AssertionError(iv)
s = objs[-1]
for k in ("read_bps", "write_bps", "read_iops", "write_iops", "errors", "settings",
          "lat_ns", "integrity", "exit"):
    if not (k in s):
        raise AssertionError(k)
if not (set(s["errors"]) >= {"io", "verify", "guard", "app", "ref", "unknown", "recovered"}):
    raise AssertionError(s["errors"])
if not (all(v == 0 for v in s["errors"].values())):
    raise AssertionError(s["errors"])
for d in ("read", "write"):
    l = s["lat_ns"][d]
    if not (0 < l["p50"] <= l["p99"] <= l["p99.9"] <= l["max"]):
        raise AssertionError(l)
if not (s["settings"]["bs"] == 16384 and s["settings"]["rw"] == "randrw"):
    raise AssertionError(s["settings"])
if not (s["integrity"]["format"] == "none"):
    raise AssertionError('check failed: s["integrity"]["format"] == "none"')
if not (s["exit"] == 0):
    raise AssertionError('check failed: s["exit"] == 0')
# summary rates agree with the bytes moved over the elapsed time
if not (abs(s["read_bps"] - s["read_bytes"] / s["elapsed"]) <= 1e-5 * s["read_bps"] + 1):
    raise AssertionError('check failed: abs(s["read_bps"] - s["read_bytes"] / s["elapsed"]) <= 1e-5 ')
print("json ok:", len(objs), "objects")
PY
