#!/bin/sh
# dixload crcbench: every guard is measured, JSON lines parse, rates are positive, and the paths this CPU cannot run are listed, matching /proc/cpuinfo's flags.
. "$top_srcdir/tests/sh/lib.sh"
need_python

run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 --json || fail "crcbench: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "crcbench JSON check failed"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
# an implementation this CPU cannot run is one row with the reason, no figures
skipped = [o for o in objs if o["type"] == "crc" and "skipped" in o]
if not (all(o["skipped"] and "gbps" not in o for o in skipped)):
    raise AssertionError(skipped)
crc = [o for o in objs if o["type"] == "crc" and "skipped" not in o]
guards = {o["guard"] for o in crc}
if not (guards == {"crc16", "ip", "crc32c", "crc64"}):
    raise AssertionError(guards)
cases = {o["case"] for o in crc}
if not ({"512", "4k", "64k", "1m-sectors"} <= cases):
    raise AssertionError(cases)
if not (all(o["gbps"] > 0 for o in crc)):
    raise AssertionError([o for o in crc if o["gbps"] <= 0])
# exactly one implementation per guard is the dispatch choice
for g in guards:
    d = {o["impl"] for o in crc if o["guard"] == g and o["dispatch"]}
    if not (len(d) == 1):
        raise AssertionError((g, d))
if not (any(o["type"] == "pi" for o in objs)):
    raise AssertionError("no PI generate+verify rows")
if not (any(o["type"] == "af_alg" for o in objs)):
    raise AssertionError("no AF_ALG line (measured or skipped)")
print("crcbench ok:", len(objs), "lines")
PY
cp "$WORK/o" "$WORK/json"
run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 || fail "human crcbench"
grep -q "<- dispatch" "$WORK/o" || fail "human table lacks the dispatch marker"

# The paths not run on this CPU: the JSON "paths" line, the human line and
# the skipped rows all name the implementations whose "needs" this CPU's
# flags lack, and no other.  The same check, fed flags with one of an
# implementation's needs taken away (or given), must see the mismatch: the
# check can fail.
[ -r /proc/cpuinfo ] || skip "no /proc/cpuinfo to hold the list to"
grep -q "^cpu: " "$WORK/o" || fail "human crcbench names no cpu"
grep -q "^not run on this CPU:" "$WORK/o" || fail "human crcbench has no 'not run on this CPU:' line"
grep -q "^refused by their self-test: none" "$WORK/o" ||
	fail "a build was refused by its self-test here: $(grep -A5 '^refused' "$WORK/o")"
python3 "$top_srcdir/tests/sh/crcbench-paths.py" "$WORK/json" "$WORK/o" /proc/cpuinfo ||
	fail "the not-run list does not match the CPU flags"
