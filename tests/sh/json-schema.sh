#!/bin/sh
# doc/json.md documents every key of real runs (preconditioned write, a run with an action and a cap and its --lat-log, one with error extents, compare, two targets, a failed hot-load and unload, the --error-log lines, a sweep with its knees, an MPI job when built with MPI): no undocumented key, no missing "always" key.
. "$top_srcdir/tests/sh/lib.sh"
need_python
need_feature jsonc

F=$WORK/f.img
run_dix "$WORK/1.json" "$WORK/1.err" --dev "$F" --size 8m --rw write --bs 16k \
	--precondition on --output-format json || fail "write run: $(cat "$WORK/1.err")"
run_dix "$WORK/2.json" "$WORK/2.err" --dev "$F" --size 8m --rw randrw --bs 16k \
	--runtime 3 --interval 500 --exec 'true@1.5' --rate 200,100 --rate-iops 20000 \
	--output-format json --lat-log "$WORK/2.lat" || fail "action run: $(cat "$WORK/2.err")"
# a changed byte inside a block (header intact): a verify error and its extent
printf 'XXXXXXXX' | dd of="$F" bs=1 seek=$((409600 + 300)) conv=notrunc 2>/dev/null
run_dix "$WORK/3.json" "$WORK/3.err" --dev "$F" --size 8m --rw randread --bs 16k \
	--runtime 1 --output-format json --error-log "$WORK/3.errlog"
[ $? = 3 ] || fail "the corrupted read run did not exit 3: $(tail -n 3 "$WORK/3.err")"
"$DIXLOAD" compare "$WORK/1.json" "$WORK/2.json" --output-format json > "$WORK/4.json"
[ $? -le 5 ] || fail "compare failed"
# several targets: the devices[] rows, and an extent named by its device
run_dix "$WORK/5.json" "$WORK/5.err" --dev "$F,$WORK/g.img" --size 8m --rw randrw \
	--bs 16k --runtime 3 --interval 500 --exec 'true@1.5' --precondition on \
	--output-format json || fail "two-device run: $(cat "$WORK/5.err")"
printf 'XXXXXXXX' | dd of="$WORK/g.img" bs=1 seek=$((409600 + 300)) conv=notrunc 2>/dev/null
run_dix "$WORK/6.json" "$WORK/6.err" --dev "$F,$WORK/g.img" --size 8m --rw randread \
	--bs 16k --runtime 1 --output-format json --error-log "$WORK/6.errlog"
[ $? = 3 ] || fail "the corrupted two-device run did not exit 3: $(tail -n 3 "$WORK/6.err")"
# the module actions' keys (module, modules_loaded, crypto_added ...): a
# module that exists nowhere, so the host is not changed; the event carries
# its keys whether or not the load worked (exit 4: the action failed)
run_dix "$WORK/8.json" "$WORK/8.err" --dev "$F" --size 8m --rw randread --bs 16k \
	--runtime 2 --interval 500 --hotload dixload_no_such_module@0.5 \
	--unload dixload_no_such_module@1 --output-format json
[ $? = 4 ] || fail "the failing hot-load run did not exit 4: $(tail -n 3 "$WORK/8.err")"
# a sweep: one sweep_point line per point, one sweep_knee line per series
"$DIXLOAD" sweep bs=4k,16k iodepth=1,2 --json -- --dev "$F" --size 8m --rw randread --runtime 0.5 \
	> "$WORK/9.json" 2> "$WORK/9.err" || fail "sweep: $(cat "$WORK/9.err")"
# an MPI job (when this build has MPI): ranks[] rows, events with a host
mpi_run=
if have_mpi; then
	mpi_dix 2 --dev "$WORK/m%r.img" --size 8m --rw randrw --bs 16k \
		--runtime 3 --interval 500 --exec 'true@1.5' --output-format json \
		>"$WORK/7.json" 2>"$WORK/7.err" || fail "MPI run: $(cat "$WORK/7.err")"
	mpi_run=$WORK/7.json
else
	part_skip "no MPI in this build or no mpirun: an MPI job's keys are not checked"
fi
"$DIXLOAD" --dump-options | cut -f1 > "$WORK/options"

python3 - "$top_srcdir/doc/json.md" "$WORK/options" "$WORK/1.json" "$WORK/2.json" \
	"$WORK/3.json" "$WORK/4.json" "$WORK/5.json" "$WORK/6.json" "$WORK/8.json" "$WORK/9.json" "$WORK/3.errlog" "$WORK/6.errlog" "$WORK/2.lat" $mpi_run <<'PY' || fail "output and doc/json.md disagree (above)"
import json, re, sys
doc, optfile, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
options = set(open(optfile).read().split())
# the doc's tables: "## record: TYPE" then "| `key` | type | unit | presence | meaning |"
spec, rec = {}, None
for line in open(doc):
    # crcbench.crc ...: probe's and crcbench's records (tests/sh/json-doc.py)
    m = re.match(r"## record: ([\w.]+)", line)
    if m:
        rec = m.group(1); spec[rec] = {}
        continue
    m = re.match(r"\| `([^`]+)` \|[^|]*\|[^|]*\| (always|optional) \|", line)
    if m and rec:
        spec[rec][m.group(1)] = m.group(2)
if not (set(spec) >= {"start", "interval", "event", "precondition", "summary", "compare", "error_log"}):
    raise AssertionError(spec.keys())

def paths(o, pre=""):
    """every key as a dotted path; array elements as key[]; settings by option name"""
    for k, v in o.items():
        p = pre + k
        yield p
        if p in ("settings", "point", "series", "best_point") and isinstance(v, dict):
            for s in v:
                if s not in options:
                    yield p + "." + s   # not an option: undocumented
            continue
        if isinstance(v, dict) and k not in ("from", "to") and not p.endswith("[].a") and not p.endswith("[].b"):
            yield from paths(v, p + ".")
        elif isinstance(v, list):
            for e in v:
                if isinstance(e, dict):
                    yield from paths(e, p + "[].")

bad, seen = [], {}
for f in runs:
    for n, line in enumerate(open(f), 1):
        o = json.loads(line)
        # --error-log's lines have no type: the file says what they are
        t = "error_log" if f.endswith(".errlog") else o.get("type")
        if t not in spec:
            bad.append("%s:%d: record type %r not documented" % (f, n, t)); continue
        got = set(paths(o))
        seen.setdefault(t, set()).update(got)
        for p in sorted(got - set(spec[t])):
            bad.append("%s:%d: %s key %r is not in doc/json.md" % (f, n, t, p))
        for p, pres in spec[t].items():
            if pres == "always" and p not in got:
                bad.append("%s:%d: %s key %r (always) is missing" % (f, n, t, p))
for t in ("start", "interval", "event", "precondition", "summary", "compare", "error_log", "sweep_point", "sweep_knee", "lat_hist"):
    if t not in seen:
        bad.append("no %s record in the runs: the test would not check it" % t)
# the optional keys these runs must exercise
for t, p in (("interval", "cap.read_bps"), ("summary", "bad_extents[].lba"),
             ("summary", "transitions[].ratio"), ("event", "ok"), ("compare", "rows[].change_pct"),
             ("interval", "devices[].iops"), ("summary", "devices[].bad_extents[].lba"),
             ("summary", "bad_extents[].dev"), ("summary", "devices[].transitions[].ratio"),
             ("event", "module"), ("event", "modules_loaded"), ("event", "crypto_removed"),
             ("error_log", "byte"), ("error_log", "dev"), ("sweep_point", "mb_per_s")):
    if p not in seen.get(t, ()):
        bad.append("%s key %s never written: the run did not exercise it" % (t, p))
start = json.loads(open(runs[0]).readline())
if start.get("schema_version") != 1:
    bad.append("start record schema_version %r, doc says 1" % start.get("schema_version"))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo "json-schema: every key documented, every 'always' key present"
exit 0
