#!/bin/sh
# --precondition on a file: start and result lines, the JSON object, headers on every block (strict read), Ops and the clock exclude it, progress on a terminal, SIGINT during it exits 6 with "the load never started" and the signal named; off and auto change nothing.
. "$top_srcdir/tests/sh/lib.sh"
need_python
need_dixload

# check_json FILE PYTHON - every line of FILE is one JSON object; PYTHON
# runs with recs (the objects) and by_type(t) defined.
check_json()
{
	_f=$1
	shift
	python3 - "$_f" "$@" <<EOF
import json, sys
recs = []
for n, l in enumerate(open(sys.argv[1]), 1):
    try:
        recs.append(json.loads(l))
    except ValueError as e:
        sys.exit("line %d is not one JSON object (%s): %r" % (n, e, l[:200]))
def by_type(t):
    return [r for r in recs if r["type"] == t]
$(cat)
EOF
}

# 1. on, a fresh file, the region covered once: 50 blocks of 64 KiB in two
# jobs' slices of 1600 KiB, each preconditioned as 1 MiB + a 576 KiB tail.
F=$WORK/on.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 3200k --bs 64k --jobs 2 \
	--rw randrw --precondition on --seed 7 ||
	fail "precondition on: exit $? ($(cat "$WORK/e"))"
grep -qxF 'precondition: on (precondition=on)' "$WORK/o" ||
	fail "no decision line: $(grep precondition "$WORK/o")"
grep -q '^precondition: 3.1 MiB written in .* MB/s (1 MiB writes, QD4); not counted in the load$' "$WORK/o" ||
	fail "no result line: $(grep precondition "$WORK/o")"
grep -q '^ops 50,' "$WORK/o" || fail "Ops must count the load's 50 I/Os only: $(grep ^ops "$WORK/o")"
grep -q 'never written' "$WORK/o" &&
	fail "reads found blocks without a header after preconditioning: $(grep 'never written' "$WORK/o")"
[ -s "$WORK/e" ] && fail "stderr not empty without a terminal: $(cat "$WORK/e")"

# every block carries a header: a strict read of the region finds them all
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 3200k --bs 64k --rw read \
	--verify strict || fail "strict read after preconditioning: exit $? ($(cat "$WORK/e"))"
grep -q 'errors 0 (' "$WORK/o" || fail "strict read: $(grep errors "$WORK/o")"

# 2. the same as JSON on another fresh file
F=$WORK/json.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 3200k --bs 64k --jobs 2 \
	--rw randrw --precondition on --output-format json --interval 1 ||
	fail "JSON run: exit $? ($(cat "$WORK/e"))"
check_json "$WORK/o" <<'PY' || fail "JSON run"
start, = by_type("start")
if not (start["precondition"] == {"mode": "on", "decided": "on", "reason": "precondition=on"}):
    raise AssertionError(start["precondition"])
pre = by_type("precondition")
if not (len(pre) == 1):
    raise AssertionError(pre)
pre = pre[0]
if not (recs.index(pre) == 1):
    raise AssertionError("the precondition object comes right after the start object")
for k, v in {"mode": "on", "decided": "on", "reason": "precondition=on", "complete": True,
             "bytes": 3276800, "region": 3276800, "io_size": 1048576, "iodepth": 4,
             "jobs": 2, "errors": 0}.items():
    if not (pre[k] == v):
        raise AssertionError((k, pre[k], v))
# seconds are printed to the millisecond
if not (pre["seconds"] > 0 and abs(pre["bps"] * pre["seconds"] - pre["bytes"]) <= pre["bps"] * 0.0005 + 1):
    raise AssertionError(pre)
if not (abs(pre["mb_per_s"] - pre["bps"] / 1e6) < 0.01):
    raise AssertionError(pre)
iv = by_type("interval")
if not (iv and all(i["unwritten"] == 0 for i in iv)):
    raise AssertionError([i["unwritten"] for i in iv])
s, = by_type("summary")
if not (s["load_started"] is True and s["ops"] == 50):
    raise AssertionError(s["ops"])
if not (s["read_bytes"] + s["write_bytes"] == 3276800):
    raise AssertionError("precondition bytes counted in the summary")
if not (s["unwritten_blocks"] == 0):
    raise AssertionError(s["unwritten_blocks"])
print("precondition object:", pre)
PY

# 3. the clock starts after it: a 1 s load after preconditioning 1 GiB
# (0.8 s here) lasts 1 s and its meter starts at t = 0.  With stderr on a
# terminal (script(1)) the progress shows there, rewritten in place.
F=$WORK/clock.img
args="--dev $F --size 1g --bs 64k --rw randrw --runtime 1 --interval 250 --precondition on --output-format json"
if command -v script > /dev/null; then
	script -qec "'$DIXLOAD' $args > '$WORK/o'" /dev/null > "$WORK/tty" 2>&1 < /dev/null ||
		fail "clock run under script(1): $(cat "$WORK/tty")"
else
	part_skip "script(1) not installed: terminal progress not checked"
	run_dix "$WORK/o" "$WORK/tty" $args || fail "clock run: exit $? ($(cat "$WORK/tty"))"
fi
check_json "$WORK/o" <<'PY' || fail "clock run"
pre, = by_type("precondition")
s, = by_type("summary")
iv = by_type("interval")
if not (pre["complete"] and pre["bytes"] == 1 << 30):
    raise AssertionError(pre)
# counted from the start of preconditioning it would be 1 s + its length
if not (0.95 < s["elapsed"] < 1.05 + pre["seconds"] / 2):
    raise AssertionError(("elapsed", s["elapsed"], pre["seconds"]))
if not (iv and 0.2 < iv[0]["t"] < 0.35):
    raise AssertionError(("first interval not 250 ms into the load", iv[0]))
print("preconditioned 1 GiB in %.2f s; load elapsed %.2f s; first interval at %.3f s"
      % (pre["seconds"], s["elapsed"], iv[0]["t"]))
open(sys.argv[1] + ".secs", "w").write("%.3f\n" % pre["seconds"])
PY
if command -v script > /dev/null; then
	secs=$(cat "$WORK/o.secs")
	if grep -q 'precondition: [0-9]*/1024 MiB, [0-9]* MB/s, eta [0-9]* s' "$WORK/tty"; then
		grep -q "$(printf '\r')precondition: " "$WORK/tty" ||
			fail "progress not rewritten in place with CR"
		echo "progress: $(tr '\r' '\n' < "$WORK/tty" | grep -m1 'MB/s, eta')"
	elif awk "BEGIN { exit !($secs >= 0.6) }"; then
		fail "preconditioning took $secs s on a terminal and showed no progress: $(cat "$WORK/tty")"
	else
		echo "preconditioning took only $secs s: no progress line due (every 0.5 s)"
	fi
fi
rm -f "$F"

# 5. SIGINT during preconditioning: exit 6 (stopped by a signal: a script
# cannot take it for a run that ran), the load never started.  An
# 8 GiB sparse file takes seconds to write here; the signal comes as soon
# as the decision line is out, and the run must not have begun the load.
for fmt in human json; do
	F=$WORK/int.img
	"$DIXLOAD" --dev "$F" --size 8g --rw randrw --runtime 30 --precondition on \
		--output-format $fmt > "$WORK/o" 2> "$WORK/e" &
	pid=$!
	n=0
	until grep -q '"precondition":{\|^precondition: on' "$WORK/o" 2> /dev/null; do
		n=$((n + 1))
		[ $n -gt 200 ] && { kill $pid; fail "$fmt: no decision line after 10 s"; }
		sleep 0.05
	done
	sleep 0.2
	kill -INT $pid
	wait $pid
	st=$?
	[ $st -eq 6 ] || fail "$fmt: SIGINT during preconditioning: exit $st, want 6 ($(cat "$WORK/e"))"
	if [ $fmt = human ]; then
		grep -q '^precondition: stopped at [0-9]*/8192 MiB after .*: the load never started$' "$WORK/o" ||
			fail "human: no 'stopped' line: $(cat "$WORK/o")"
		grep -q "^--- $F: the load never started (stopped by SIGINT during preconditioning, at [0-9.]* s) ---$" "$WORK/o" ||
			fail "human: summary does not say the load never started: $(cat "$WORK/o")"
		grep -q '^\[' "$WORK/o" && fail "human: meter lines after an interrupted precondition"
		grep -q '^exit status 6: stopped by a signal before the load.s end$' "$WORK/o" || fail "human: exit line: $(tail -n 1 "$WORK/o")"
	else
		check_json "$WORK/o" <<'PY' || fail "json: interrupted precondition"
types = [r["type"] for r in recs]
if not (types == ["start", "precondition", "summary"]):
    raise AssertionError(types)
pre, = by_type("precondition")
s, = by_type("summary")
if not (pre["complete"] is False and pre["bytes"] < pre["region"] == 8 << 30):
    raise AssertionError(pre)
if not (s["load_started"] is False and s["ops"] == 0 and s["exit"] == 6):
    raise AssertionError(s)
st = s["stopped"]
if not (st["signal"] == "SIGINT" and st["phase"] == "precondition" and st["runtime_s"] == 30 and 0 < st["at_s"] < 30):
    raise AssertionError(st)
print("interrupted after %d MiB of %d" % (pre["bytes"] >> 20, pre["region"] >> 20))
PY
	fi
	rm -f "$F"
done

# 6. off, and auto on a file, change nothing: no precondition object, the
# region covered once, a fresh file's reads find never-written blocks.
for mode in off auto; do
	F=$WORK/$mode.img
	want="precondition=off"
	[ $mode = auto ] && want="auto: file has no PI"
	run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --bs 64k --rw randrw \
		--precondition $mode --output-format json ||
		fail "$mode: exit $? ($(cat "$WORK/e"))"
	MODE=$mode check_json "$WORK/o" <<'PY' || fail "precondition $mode"
import os
mode = os.environ["MODE"]
start, = by_type("start")
want = "precondition=off" if mode == "off" else "auto: file has no PI"
if not (start["precondition"]["decided"] == "off" and start["precondition"]["reason"] == want):
    raise AssertionError(start["precondition"])
if not (not by_type("precondition")):
    raise AssertionError("a precondition object although it was off")
s, = by_type("summary")
if not (s["ops"] == 64 and s["read_bytes"] + s["write_bytes"] == 4 << 20):
    raise AssertionError(s)
if not (s["unwritten_blocks"] > 0):
    raise AssertionError("nothing may be written before the load")
iv = by_type("interval")
if not (sum(i["unwritten"] for i in iv) <= s["unwritten_blocks"]):
    raise AssertionError("interval unwritten counts exceed the total")
PY
	run_dix "$WORK/o" "$WORK/e" --dev "$WORK/h$mode.img" --size 4m --bs 64k \
		--rw randrw --precondition $mode || fail "$mode human: exit $?"
	grep -qxF "precondition: off ($want)" "$WORK/o" ||
		fail "$mode: no decision line: $(cat "$WORK/o")"
	grep -q "^precondition: .* written" "$WORK/o" && fail "$mode: it preconditioned"
done
exit 0
