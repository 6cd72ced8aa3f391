#!/bin/sh
# SIGINT and SIGTERM stop a run cleanly (in-flight I/O drained, summary printed, JSON stream complete) and say so: the summary names the signal, its time and the runtime asked, exit status 6; I/O errors (2) still win over it; a sweep stopped by one ends there with 6.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
for sig in INT TERM; do
	"$DIXLOAD" --dev "$F" --size 16m --rw randrw --bs 16k --iodepth 16 --runtime 60 \
		--interval 200 --output-format json >"$WORK/o" 2>"$WORK/e" &
	pid=$!
	sleep 1.2
	kill -$sig $pid
	t0=$(date +%s)
	wait $pid; st=$?
	t1=$(date +%s)
	[ $st -eq 6 ] || fail "SIG$sig: exit $st, want 6 (stopped by a signal) ($(cat "$WORK/e"))"
	[ $((t1 - t0)) -le 3 ] || fail "SIG$sig: took $((t1 - t0)) s to stop"
	python3 - "$WORK/o" "SIG$sig" <<'PY' || fail "SIG$sig: JSON stream (above)"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
if not (objs[0]["type"] == "start" and objs[-1]["type"] == "summary"):
    raise AssertionError([o["type"] for o in objs])
s = objs[-1]
# the signal came 1.2 s after the process started; elapsed counts from the
# start gate, after the engines' set-up, which took over 0.2 s once on a
# busy Debian 13 root (0.994 s): at least half a second says the load ran
# until the signal rather than ending by itself
if not (0.5 <= s["elapsed"] < 4):
    raise AssertionError(s["elapsed"])
if not (s["err"] == 0 and s["ops"] > 0):
    raise AssertionError(s)
# every I/O counted in the summary completed: ops equal the cumulative meter count or more
iv = [o for o in objs if o["type"] == "interval"]
if not (iv and s["ops"] >= iv[-1]["ops"]):
    raise AssertionError((s["ops"], iv[-1]["ops"]))
# which signal, when (before the drain: at most the elapsed time), of what
st = s["stopped"]
if not (st == {"signal": sys.argv[2], "phase": "load", "at_s": st["at_s"], "runtime_s": 60}):
    raise AssertionError(st)
if not (0.4 <= st["at_s"] <= s["elapsed"] + 0.001):
    raise AssertionError((st, s["elapsed"]))
if not (s["exit"] == 6 and s["exit_text"] == "stopped by a signal before the load's end"):
    raise AssertionError((s["exit"], s["exit_text"]))
print("stopped cleanly after", s["elapsed"], "s with", s["ops"], "ops:", st)
PY
done

# the human summary: the line before the exit status names signal, time and
# runtime; a run without --runtime (the region once) says it was not covered
"$DIXLOAD" --dev "$F" --size 16m --rw randrw --bs 16k --runtime 60 --interval 0 \
	>"$WORK/o" 2>"$WORK/e" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; st=$?
[ $st -eq 6 ] || fail "human: exit $st, want 6 ($(cat "$WORK/e"))"
tail -n 2 "$WORK/o" | head -n 1 |
	grep -Eq '^stopped by SIGINT at [0-9]+\.[0-9]{2} s of --runtime 60 s: the figures cover the load up to there$' ||
	fail "human: no 'stopped by SIGINT' line: $(tail -n 3 "$WORK/o")"
[ "$(tail -n 1 "$WORK/o")" = "exit status 6: stopped by a signal before the load's end" ] ||
	fail "human: exit line: $(tail -n 1 "$WORK/o")"

truncate -s 64g "$WORK/big.img" || hard "truncate"
"$DIXLOAD" --dev "$WORK/big.img" --rw read --bs 4k --interval 0 --output-format json \
	>"$WORK/o" 2>"$WORK/e" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid; st=$?
[ $st -eq 6 ] || fail "no --runtime: exit $st, want 6 ($(cat "$WORK/e"))"
python3 - "$WORK/o" <<'PY' || fail "no --runtime: JSON (above)"
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
st = s["stopped"]
if not (st["signal"] == "SIGTERM" and st["runtime_s"] is None and s["exit"] == 6):
    raise AssertionError(s)
PY

# a run that ends by itself has no "stopped" and exits 0
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw randrw --bs 16k --runtime 0.3 \
	--interval 0 --output-format json || fail "whole run: exit $? ($(cat "$WORK/e"))"
grep -q '"stopped"' "$WORK/o" && fail "a whole run has a stopped object: $(tail -n 1 "$WORK/o")"

# I/O errors win over the stop (3 too: tests/sh/error-extents.sh)
"$DIXLOAD" --engine null --dev "$WORK/n.img" --size 16m --rw randrw --bs 4k --runtime 60 \
	--interval 0 --fail-every 1 --fail-errno enospc --max-report 0 >"$WORK/o" 2>"$WORK/e" &
pid=$!
sleep 1
kill -INT $pid
wait $pid; st=$?
[ $st -eq 2 ] || fail "I/O errors and SIGINT: exit $st, want 2 ($(tail -n 3 "$WORK/o"))"
grep -q '^stopped by SIGINT at ' "$WORK/o" || fail "I/O errors and SIGINT: the stop is not said: $(tail -n 3 "$WORK/o")"

# a sweep stopped by a signal ends at the point it stopped, 6
"$DIXLOAD" sweep --json bs=4k,8k,16k -- --dev "$F" --size 16m --rw randrw --runtime 60 \
	>"$WORK/o" 2>"$WORK/e" &
pid=$!
sleep 1
kill -INT $pid
t0=$(date +%s)
wait $pid; st=$?
t1=$(date +%s)
[ $st -eq 6 ] || fail "sweep: exit $st, want 6 ($(cat "$WORK/e"))"
[ $((t1 - t0)) -le 3 ] || fail "sweep: took $((t1 - t0)) s to stop (it went on to the next point)"
grep -q '^dixload: sweep: stopped by a signal: 2 of 3 points not run$' "$WORK/e" ||
	fail "sweep: no line saying the points not run: $(cat "$WORK/e")"
[ "$(grep -c '"type":"sweep_point"' "$WORK/o")" = 1 ] || fail "sweep: not one point: $(cat "$WORK/o")"
grep -q '"point":{"bs":"4k"}.*"exit":6}' "$WORK/o" || fail "sweep: the stopped point's row: $(cat "$WORK/o")"
echo "stopped runs say so and exit 6"
