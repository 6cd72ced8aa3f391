#!/bin/sh
# Scheduled --exec actions on a file target: events, exit 4 for a failed action, well-formed --plot naming each action at its marker, --log CSV rows, usage errors; --sysfs on a plain file is refused (tests/sh/sysfs-confined.sh has the rest).
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
FLAG=$WORK/flag
echo 1 > "$FLAG"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --bs 16k --runtime 6 --interval 250 \
	--exec 'echo broken >&2; exit 3'@1 --exec "echo 0 > $FLAG@3" \
	--plot "$WORK/p.svg" --log "$WORK/l.csv" --output-format json
st=$?
[ "$st" = 4 ] || fail "exit status $st, want 4: $(cat "$WORK/e")"
[ "$(cat "$FLAG")" = 0 ] || fail "--exec did not write the file"

python3 - "$WORK/o" "$WORK/p.svg" "$WORK/l.csv" "$FLAG" <<'PY' || fail "checks failed"
import csv, json, sys, xml.dom.minidom
objs = [json.loads(l) for l in open(sys.argv[1])]
ev = [o for o in objs if o["type"] == "event" and o["kind"] == "action"]
ex = [e for e in ev if e["what"] == "exec 'echo broken >&2; exit 3'"]
sy = [e for e in ev if e["what"] == "exec 'echo 0 > %s'" % sys.argv[4]]
if not (len(ex) == 1 and ex[0]["ok"] is False and ex[0]["detail"] == "exit 3: broken"):
    raise AssertionError(ex)
if not (abs(ex[0]["t"] - 1) < 0.2):
    raise AssertionError(ex)
if not (len(sy) == 1 and sy[0]["ok"] is True and sy[0]["detail"] == "exit 0"):
    raise AssertionError(sy)
if not (abs(sy[0]["t"] - 3) < 0.2):
    raise AssertionError(sy)
s = objs[-1]
if not (s["exit"] == 4 and s["exit_text"] == "a scheduled action failed"):
    raise AssertionError(s)
# one row, for the action that succeeded; before/after in bytes/s
tr = s["transitions"]
if not (len(tr) == 1 and tr[0]["event"] == sy[0]["what"]):
    raise AssertionError(tr)
if not (tr[0]["n_before"] >= 3 and tr[0]["n_after"] >= 3 and tr[0]["before"] > 1e5 and tr[0]["after"] > 1e5):
    raise AssertionError(tr)

doc = xml.dom.minidom.parse(sys.argv[2])          # well-formed or raises
marks = {}
for g in doc.getElementsByTagName("g"):
    if g.getAttribute("class") == "event":
        txt = "".join(n.data for t in g.getElementsByTagName("text") for n in t.childNodes)
        marks[round(float(g.getAttribute("data-t")))] = txt
if not (marks.get(1) == "exec: echo broken >&2; exit 3 FAILED"):
    raise AssertionError(marks)
if not (marks.get(3) == ("exec: echo 0 > %s" % sys.argv[4])[:79]):
    raise AssertionError(marks)

rows = list(csv.reader(open(sys.argv[3])))
if not (rows[0] == ["type", "t", "dt", "read_bps", "write_bps", "total_bps", "iops",
                   "ops", "errors", "recovered", "kind", "what", "ok", "duration",
                   "detail", "unwritten", "cpu_busy_pct", "cpu_self_pct",
                   "read_lat_p50_ns", "read_lat_p99_ns", "read_lat_p999_ns", "read_lat_max_ns",
                   "write_lat_p50_ns", "write_lat_p99_ns", "write_lat_p999_ns", "write_lat_max_ns"]):
    raise AssertionError(rows[0])
iv = [r for r in rows[1:] if r[0] == "interval"]
er = [r for r in rows[1:] if r[0] == "event"]
if not (len(iv) == len([o for o in objs if o["type"] == "interval"])):
    raise AssertionError(len(iv))
if not (len(er) == len([o for o in objs if o["type"] == "event"])):
    raise AssertionError(len(er))
ts = [float(r[1]) for r in rows[1:]]
if not (ts == sorted(ts)):
    raise AssertionError(ts)
if not (all(len(r) == 26 for r in rows)):
    raise AssertionError([len(r) for r in rows])
# the interval's unwritten and CPU columns agree with its JSON record
js = [o for o in objs if o["type"] == "interval"]
for r, o in zip(iv, js):
    if not (int(r[15]) == o["unwritten"]):
        raise AssertionError((r, o))
    if not (abs(float(r[17]) - o["cpu"]["self_pct"]) < 0.051):
        raise AssertionError((r, o["cpu"]))
    # the latency columns are the JSON interval's lat_ns
    lat = [o["lat_ns"][d][k] for d in ("read", "write") for k in ("p50", "p99", "p99.9", "max")]
    if not ([int(x) for x in r[18:26]] == lat):
        raise AssertionError((r, o["lat_ns"]))
if not (["exec 'echo broken >&2; exit 3'", "0", "exit 3: broken"] == [er[0][11], er[0][12], er[0][14]]):
    raise AssertionError(er[0])
PY

# usage errors come before the load, with exit status 1
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --runtime 2 --hotload 'bad name@1'
st=$?
[ "$st" = 1 ] || fail "bad module name: exit $st"
grep -q "^dixload: --hotload 'bad name@1': 'bad name' is not a module name" "$WORK/e" ||
	fail "bad module name message: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --runtime 2 --exec 'true@5'
[ $? = 1 ] && grep -q "5 s is after the end of the run (--runtime 2)" "$WORK/e" ||
	fail "action after the end: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --runtime 2 --sysfs "$WORK/nope=1@1"
[ $? = 1 ] && grep -q "No such file or directory" "$WORK/e" ||
	fail "missing sysfs file: $(cat "$WORK/e")"
# --sysfs writes only files under /sys: a plain file is refused, untouched
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --runtime 2 --sysfs "$FLAG=1@1"
[ $? = 1 ] && grep -qF "$FLAG is not under /sys" "$WORK/e" ||
	fail "--sysfs on a plain file not refused: $(cat "$WORK/e")"
[ "$(cat "$FLAG")" = 0 ] || fail "the refused --sysfs wrote the file"
exit 0
