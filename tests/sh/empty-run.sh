#!/bin/sh
# A load that ran to its end and completed no request measured nothing: exit status 1 with one line saying so, not "success" with figures of 0; the JSON summary says the same; a load that completed requests keeps exit 0.
. "$top_srcdir/tests/sh/lib.sh"

F=$WORK/f.img
truncate -s 16m "$F" || hard "truncate"
# 1 ns: over before the workers are let go (run.c checks the deadline
# before it opens the start gate), so the load issues nothing
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randread --bs 4k \
	--runtime 0.000000001
st=$?
cat "$WORK/o" "$WORK/e"
[ $st -eq 1 ] || fail "a load without requests: exit $st (want 1)"
grep -q '^ops 0,' "$WORK/o" || fail "the run was meant to complete no request"
[ "$(grep -c '^dixload: no request completed in the [0-9.]* s the load ran, so its figures measure nothing' "$WORK/e")" = 1 ] ||
	fail "want one line saying nothing was measured: $(cat "$WORK/e")"
grep -q '^exit status 1: usage or setup error, or nothing measured$' "$WORK/o" ||
	fail "the summary's exit line: $(grep '^exit status' "$WORK/o")"

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randread --bs 4k \
	--runtime 0.000000001 --output-format json
st=$?
[ $st -eq 1 ] || fail "--output-format json: exit $st (want 1)"
python3 - "$WORK/o" <<'PY' || fail "JSON summary"
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
s = [r for r in s if r["type"] == "summary"]
if not (len(s) == 1):
    raise AssertionError(s)
s = s[0]
if not (s["exit"] == 1 and s["exit_text"] == "usage or setup error, or nothing measured"):
    raise AssertionError(s)
print("json summary: exit %d, %s" % (s["exit"], s["exit_text"]))
PY

# the same target with time for requests: success
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randread --bs 4k \
	--runtime 0.3
st=$?
[ $st -eq 0 ] || fail "a load that completed requests: exit $st: $(cat "$WORK/e")"
grep -q "no request completed" "$WORK/e" && fail "a load with requests said it had none"
echo "a load without requests is exit 1, said once"
