#!/bin/sh
# dixload crcbench: every guard is measured, JSON lines parse, rates are positive.
. "$top_srcdir/tests/sh/lib.sh"
need_python

run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 --json || fail "crcbench: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "crcbench JSON check failed"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
# an implementation this CPU cannot run is one row with the reason, no figures
skipped = [o for o in objs if o["type"] == "crc" and "skipped" in o]
assert all(o["skipped"] and "gbps" not in o for o in skipped), skipped
crc = [o for o in objs if o["type"] == "crc" and "skipped" not in o]
guards = {o["guard"] for o in crc}
assert guards == {"crc16", "ip", "crc32c", "crc64"}, guards
cases = {o["case"] for o in crc}
assert {"512", "4k", "64k", "1m-sectors"} <= cases, cases
assert all(o["gbps"] > 0 for o in crc), [o for o in crc if o["gbps"] <= 0]
# exactly one implementation per guard is the dispatch choice
for g in guards:
    d = {o["impl"] for o in crc if o["guard"] == g and o["dispatch"]}
    assert len(d) == 1, (g, d)
assert any(o["type"] == "pi" for o in objs), "no PI generate+verify rows"
assert any(o["type"] == "af_alg" for o in objs), "no AF_ALG line (measured or skipped)"
print("crcbench ok:", len(objs), "lines")
PY
run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 || fail "human crcbench"
grep -q "<- dispatch" "$WORK/o" || fail "human table lacks the dispatch marker"
