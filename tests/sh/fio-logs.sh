#!/bin/sh
# fio's log format (issue 34: fio's tools read dixload's outputs): --write_bw_log/--write_iops_log (fio's names of --bw-log/--iops-log) write PREFIX_bw.1.log and PREFIX_iops.1.log with a line per direction per interval, each equal to the JSON interval with the same end (KiB/s = bytes/s / 1024, I/Os per second of the interval), the last partial interval included; fio 3.33 writes the same columns for the same options (msec, value, direction, 0, 0 with log_avg_msec), checked on a fio run beside it; fio2gnuplot, fio's own tool, reads dixload's logs and its min/max/avg are the logs' own; a write-only run logs direction 1 alone; with a job file of two jobs the log is refused (each run would write it over the other's).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python
need_tools fio fio2gnuplot

F=$WORK/f.img
run_dix "$WORK/r.json" "$WORK/r.err" --dev "$F" --size 16m --rw randrw --bs 4k --runtime 2.5 \
	--seed 3 --output-format json --write_bw_log "$WORK/p" --write_iops_log "$WORK/p" ||
	fail "dixload: $(cat "$WORK/r.err")"
grep -q "note: --write_bw_log is --bw-log" "$WORK/r.err" || fail "no note of the difference from fio's write_bw_log: $(cat "$WORK/r.err")"
run_dix "$WORK/w.json" "$WORK/w.err" --dev "$F" --rw write --bs 4k --runtime 1 --bw-log "$WORK/w" ||
	fail "dixload, write only: $(cat "$WORK/w.err")"
# a job file of two jobs would write one PREFIX_bw.1.log twice: refused
printf '[a]\nfilename=%s\nsize=4m\nrw=write\nruntime=1\n[b]\nfilename=%s\nsize=4m\nrw=write\nruntime=1\n' \
	"$WORK/a.img" "$WORK/b.img" >"$WORK/two.fio"
"$DIXLOAD" --write_bw_log "$WORK/two" "$WORK/two.fio" >"$WORK/two.out" 2>&1 && fail "two jobs, one bw log: accepted"
grep -q -- "--write_bw_log: the job files make 2 runs" "$WORK/two.out" || fail "two jobs, one bw log: $(cat "$WORK/two.out")"
[ ! -e "$WORK/two_bw.1.log" ] || fail "two jobs, one bw log: refused, yet the file was written"
# fio beside it, with the options dixload's logs stand for
(cd "$WORK" && fio --name=j --filename="$WORK/fio.img" --size=16m --rw=randrw --bs=4k --runtime=1 \
	--time_based --ioengine=psync --write_bw_log=fio --write_iops_log=fio --log_avg_msec=500 \
	>/dev/null 2>&1) || fail "fio itself failed"
(cd "$WORK" && fio2gnuplot -b -p 'p_bw.1.log' >fio2gnuplot.out 2>&1) ||
	fail "fio2gnuplot: $(tail -3 "$WORK/fio2gnuplot.out")"

python3 - "$WORK" <<'PY' || exit 1
import json, os, sys
w = sys.argv[1]
def fail(m):
    print("FAIL:", m)
    sys.exit(1)
def rows(path):
    out = []
    for l in open(path):
        f = [x.strip() for x in l.split(",")]
        if len(f) != 5 or not all(x.lstrip("-").isdigit() for x in f):
            fail("%s: not fio's 5 integer columns: %r" % (path, l))
        out.append(tuple(int(x) for x in f))
    return out
recs = [json.loads(l) for l in open(os.path.join(w, "r.json"))]
ivs = [r for r in recs if r.get("type") == "interval"]
if len(ivs) < 3:
    fail("want 3 intervals of 2.5 s, got %d" % len(ivs))
bw, iops = rows(os.path.join(w, "p_bw.1.log")), rows(os.path.join(w, "p_iops.1.log"))
fbw, fiops = rows(os.path.join(w, "fio_bw.1.log")), rows(os.path.join(w, "fio_iops.1.log"))
# fio's own lines: the same shape, directions 0 and 1, block size and priority 0
for name, r in (("fio's bw", fbw), ("fio's iops", fiops)):
    if sorted({x[2] for x in r}) != [0, 1] or any(x[3] or x[4] for x in r):
        fail("%s log is not the shape dixload writes: %s" % (name, r[:4]))
if len(bw) != 2 * len(ivs) or len(iops) != 2 * len(ivs):
    fail("want a line per direction per interval: %d intervals, %d bw and %d iops lines" % (len(ivs), len(bw), len(iops)))
prev = [0, 0]
for i, iv in enumerate(ivs):
    t = round(iv["t"] * 1000)
    for d, key in ((0, "read"), (1, "write")):
        b, o = bw[2 * i + d], iops[2 * i + d]
        want_b = round(iv[key + "_bps"] / 1024)
        ops = iv["lat_ns"][key]["n"]
        # the JSON's dt has 3 decimals: an interval's rate from it is
        # within 0.05 %, and the log's is rounded to an integer
        want_o = ops / iv["dt"] if iv["dt"] > 0 else 0
        if b != (t, want_b, d, 0, 0) or o[0] != t or o[2] != d or o[3:] != (0, 0) or \
                abs(o[1] - want_o) > 1 + want_o * 5e-4:
            fail("interval %d %s: bw %s iops %s, want (%d, %d) and (%d, %.1f)" % (i + 1, key, b, o, t, want_b, t, want_o))
print("dixload: %d intervals, %d lines a log, each the JSON's; last at %d ms (the run's %.3f s)"
      % (len(ivs), len(bw), bw[-1][0], ivs[-1]["t"]))
# fio2gnuplot read them: its statistics are the log's values'
g = dict(l.strip().split("=") for l in open(os.path.join(w, "p_bw.1.global")) if "=" in l)
vals = [x[1] for x in bw]
mine = {"min": min(vals), "max": max(vals), "avg": sum(vals) / len(vals), "values_count": len(vals)}
print("fio2gnuplot: %s; the log's own: %s" % (g, mine))
for k, v in mine.items():
    if abs(float(g[k]) - v) > 0.01:
        fail("fio2gnuplot's %s is %s, the log's %s" % (k, g[k], v))
wr = rows(os.path.join(w, "w_bw.1.log"))
if not wr or {x[2] for x in wr} != {1}:
    fail("a write-only run's log: want direction 1 alone: %s" % wr[:3])
PY
