#!/bin/sh
# mpirun -np 4, one rank killed with SIGKILL mid-run: rank 0's --output holds the job's summary of the intervals every rank reached it for (their counters, their merged latency histograms), with the lost rank named and the job cut short (exit status 1), every other rank's --output its own figures to its end, within mpirun's gap before SIGKILL (Open MPI 5's 0.25 s, on 4.1 sent by the test); rank 0 lost, the others say they cannot tell which rank was.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python
need_feature mpi
need_tools mpirun
# Both Open MPI 4.1 and 5 abort the job when a rank dies: mpirun sends the
# others SIGCONT, SIGTERM and SIGKILL, as far apart each: 4.1's
# odls_base_sigkill_timeout (1 s by default), 5's PRRTE a fixed 0.25 s.
# That gap after the SIGTERM is all rank 0 has to stop its load and write
# the summary: at 4.1's 1 s enough in 35 of 36 runs on this 2-CPU machine,
# so on 4.1 the test gives it 3 s, as doc/running.md advises for a soak
# whose summary must survive (what is tested is that rank 0 writes the
# right summary on SIGTERM, not how fast a loaded host runs it); 5 has no
# such knob (PRRTE ignores the variable), and dixload's waits shrink to its
# 0.25 s
mpirun --version 2>&1 | head -n 1
v=$(mpirun --version 2>&1 | sed -n 's/.*(Open MPI) \([0-9]*\)\..*/\1/p' | head -n 1)
OMPI_MCA_odls_base_sigkill_timeout=3
export OMPI_MCA_odls_base_sigkill_timeout

# kill_rank R - SIGKILL this test's rank R once rank 0 has printed 3
# intervals; the rank's pid is found by its --output (this test's $WORK)
# and the rank mpirun gave it
kill_rank() {
	i=0
	until n=$(grep -c '"type":"interval"\|^\[' "$WORK/out.0" 2>/dev/null); [ "${n:-0}" -ge 3 ]; do
		i=$((i + 1))
		[ "$i" -le 600 ] || fail "no 3 intervals within 60 s: $(cat "$WORK/e")"
		sleep 0.1
	done
	sleep 0.4
	p=$(rank_pid "$1")
	[ -n "$p" ] || fail "rank $1's process not found"
	kill -KILL "$p"
}

# rank_pid R - the pid of this test's rank R, found by its --output (this
# test's $WORK) and the rank mpirun gave it
rank_pid() {
	for p in /proc/[0-9]*; do
		grep -qa "$WORK/out.%r" "$p/cmdline" 2>/dev/null || continue
		tr '\0' '\n' < "$p/environ" 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=$1" || continue
		echo "${p#/proc/}"
		return 0
	done
}

# prrte_kill R - what Open MPI 5's PRRTE does to the ranks but R once R is
# gone, sent by this test: SIGCONT, SIGTERM 0.25 s later, SIGKILL 0.25 s
# after that
prrte_kill() {
	ps=
	for r in 0 1 2 3; do
		[ "$r" = "$1" ] || ps="$ps $(rank_pid "$r")"
	done
	# shellcheck disable=SC2086
	kill -CONT $ps && sleep 0.25 && kill -TERM $ps && sleep 0.25 &&
		kill -KILL $ps 2>/dev/null
}

# lost RANK FORMAT - a 4-rank job, RANK killed with SIGKILL mid-run
lost() {
	rm -f "$WORK"/out.* "$WORK"/r*.img
	# capped: four ranks on two CPUs at full speed starve the main
	# threads, and mpirun's SIGKILL comes soon after its SIGTERM
	mpi_dix 4 --dev "$WORK/r%r.img" --size 16m --bs 4k --rate-iops 1000 \
		--runtime 60 --interval 500 --output-format "$2" \
		--output "$WORK/out.%r" >"$WORK/o" 2>"$WORK/e" &
	pid=$!
	kill_rank "$1"
	[ -z "${PRRTE:-}" ] || prrte_kill "$1"
	wait $pid
	st=$?
	[ $st -ne 0 ] || fail "mpirun exit 0 although rank $1 was killed"
	echo "mpirun: exit $st"
}

# check_lost2 - rank 2 was lost: rank 0's job summary, the others' own
check_lost2() {
python3 - "$WORK" <<'PY' || fail "rank 2 lost (above): $(cat "$WORK/e")"
import json, sys
w = sys.argv[1]
def recs(r):
    out = []
    for l in open("%s/out.%d" % (w, r)):
        if not (l.endswith("\n")):
            raise AssertionError(("a cut line", r, l))
        out.append(json.loads(l))
    return out
r0 = recs(0)
iv = [x for x in r0 if x["type"] == "interval"]
sm = [x for x in r0 if x["type"] == "summary"]
if not (len(sm) == 1):
    raise AssertionError("rank 0: %d summaries" % len(sm))
s = sm[0]
c = s["cut_short"]
if not (c["job"] is True and c["lost_total"] == 1):
    raise AssertionError(c)
lost = c["lost"]
if not ([x["rank"] for x in lost] == [2]):
    raise AssertionError(lost)
host = [x["host"] for x in s["ranks"] if x["rank"] == 2][0]
if not (lost[0]["host"] == host and host):
    raise AssertionError((lost, host))
# the figures are those of the last interval rank 0 printed, which every
# rank's record reached it for
last = iv[-1]
if not (abs(c["upto"] - last["t"]) < 0.002):
    raise AssertionError((c["upto"], last["t"]))
if not (lost[0]["after"] == c["upto"] and lost[0]["before"] > c["upto"]):
    raise AssertionError(lost)
if not (c["at"] >= lost[0]["before"] - 0.01):
    raise AssertionError(c)
if not (s["ops"] == last["ops"]):
    raise AssertionError((s["ops"], last["ops"]))
if not (abs(s["elapsed"] - last["t"]) < 0.002):
    raise AssertionError((s["elapsed"], last["t"]))
by = {x["rank"]: x for x in last["ranks"]}
for x in s["ranks"]:
    if not (x["ops"] == by[x["rank"]]["ops"]):
        raise AssertionError((x, by[x["rank"]]))
if not (sum(x["ops"] for x in s["ranks"]) == s["ops"]):
    raise AssertionError('check failed: sum(x["ops"] for x in s["ranks"]) == s["ops"]')
if not (s["read_ops"] + s["write_ops"] == s["ops"]):
    raise AssertionError('check failed: s["read_ops"] + s["write_ops"] == s["ops"]')
# its latency: the reduced intervals' histograms merged (every I/O of
# them counted once, the largest maximum), not a rank's own
for d in ("read", "write"):
    n = sum(x["lat_ns"][d]["n"] for x in iv)
    if not (n == s[d + "_ops"]):
        raise AssertionError((d, n, s[d + "_ops"]))
    if not (s["lat_ns"][d]["max"] == max(x["lat_ns"][d]["max"] for x in iv)):
        raise AssertionError(d)
    if not (0 < s["lat_ns"][d]["p50"] <= s["lat_ns"][d]["p99"] <= s["lat_ns"][d]["max"]):
        raise AssertionError(s["lat_ns"])
if not ([x["rank"] for x in s["ranks"] if x["exit"] == 1] == [2]):
    raise AssertionError(s["ranks"])
if not (s["exit"] == 1 and s["exit_text"]):
    raise AssertionError(s["exit"])
# the lost rank: its start line, whole, and nothing after
r2 = recs(2)
if not ([x["type"] for x in r2] == ["start"]):
    raise AssertionError([x["type"] for x in r2])
# the others: their own figures to their end, past the job's
for r in (1, 3):
    rr = recs(r)
    if not ([x["type"] for x in rr] == ["start", "summary"]):
        raise AssertionError((r, [x["type"] for x in rr]))
    o = rr[1]
    oc = o["cut_short"]
    if not (oc["job"] is False and [x["rank"] for x in oc["lost"]] == [2]):
        raise AssertionError((r, oc))
    if not (o["ops"] >= by[r]["ops"]):
        raise AssertionError((r, o["ops"], by[r]["ops"]))
    if not (o["elapsed"] >= c["upto"]):
        raise AssertionError((r, o["elapsed"]))
    if not (o["exit"] == 1):
        raise AssertionError((r, o["exit"]))
print("rank 2 lost between %.2f s and %.2f s: job summary of %d intervals, ops %d = the %.2f s interval's; ranks 1 and 3 kept their own (%d, %d ops to %.2f s)"
      % (c["upto"], lost[0]["before"], len(iv), s["ops"], last["t"],
         recs(1)[1]["ops"], recs(3)[1]["ops"], recs(1)[1]["elapsed"]))
PY
}

lost 2 json
check_lost2
# Open MPI 5's 0.25 s between the SIGTERM and the SIGKILL, on 4.1 too:
# mpirun's own kill held back 5 s, this test sends PRRTE's sequence (on 5
# PRRTE itself did it above)
if [ "${v:-0}" -lt 5 ]; then
	OMPI_MCA_odls_base_sigkill_timeout=5 PRRTE=1 lost 2 json
	check_lost2
fi

# rank 0 lost (human lines): no rank can tell which rank was; each says
# so, points to mpirun's message and keeps its own figures
lost 0 human
grep -q '^exit status' "$WORK/out.0" && fail "rank 0 was killed, yet a summary: $(tail -n 3 "$WORK/out.0")"
for r in 1 2 3; do
	f=$WORK/out.$r
	grep -q "^--- $WORK/r$r.img: [0-9.]* s ---\$" "$f" ||
		fail "rank $r: no summary of its own: $(cat "$f")"
	grep -q "^cut short at [0-9.]* s: no verdict from rank 0 after the signal, so this rank cannot tell which rank was lost (mpirun's message names it); these are this rank's own figures, to its end\$" "$f" ||
		fail "rank $r: no line saying it cannot tell: $(tail -n 3 "$f")"
	[ "$(tail -n 1 "$f")" = "exit status 1: usage or setup error, or nothing measured" ] ||
		fail "rank $r: $(tail -n 1 "$f")"
done
echo "rank 0 lost: ranks 1-3 each wrote their own summary, cut short, no rank named"
echo "mpi-lost-rank checks passed"
