#!/bin/sh
# --metrics: a real Prometheus (Debian's) scrapes dixload every second during a two-file run with an --exec event and --metrics-linger (its last scrape reads the summary's exit status and transitions) and, with MPI, a two-rank job; afterwards its HTTP API gives, for every scrape, gauges (rates, latency quantiles) and counters equal to dixload's JSON interval record of the index the scrape names (total, each device, each rank) and the events' series equal the JSON events; the exposition parses with prometheus_client in both formats and promtool check metrics passes every 0.0.4 exposition fetched (promtool reads no OpenMetrics); the total's latency is a cumulative histogram whose _count is the ops counter and whose histogram_quantile(0.99) in Prometheus agrees with the JSON summary's p99 within one exposed bucket over a two-rank job; a port in use or a bad address stops the run at its start (exit 1).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_feature microhttpd
need_tools prometheus promtool
# Debian's python3-prometheus-client is the system python's
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import prometheus_client' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip "python3-prometheus-client not installed (no python3 imports prometheus_client)"

# lint FILE - promtool's conventions on a 0.0.4 text exposition
lint() {
	promtool check metrics <"$1" >"$WORK/lint.out" 2>&1 ||
		fail "promtool check metrics on ${1##*/}: $(sort "$WORK/lint.out" | uniq -c | head -n 5)"
	lints=$((lints + 1))
}
lints=0

# free_port - a port no one listens on now (the kernel's pick)
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# get URL [ACCEPT] - GET URL to stdout (status 1 unless 200); its
# Content-Type on stderr
get() {
	"$PY" - "$@" <<'EOF'
import sys, urllib.request
req = urllib.request.Request(sys.argv[1])
if len(sys.argv) > 2:
    req.add_header("Accept", sys.argv[2])
try:
    with urllib.request.urlopen(req, timeout=5) as r:
        sys.stdout.buffer.write(r.read())
        sys.stderr.write(r.headers.get("Content-Type", "") + "\n")
except Exception as e:
    sys.stderr.write("%s\n" % e)
    sys.exit(1)
EOF
}

# refused WHY ARGS... - dixload ARGS exits 1 before any load, with a message
refused() {
	why=$1
	shift
	rc=0
	"$DIXLOAD" --dev "$WORK/r.img" --size 4m --runtime 1 "$@" >"$WORK/ro" 2>"$WORK/re" || rc=$?
	[ "$rc" = 1 ] || fail "$why: exit $rc, not 1 ($(cat "$WORK/re"))"
	[ -s "$WORK/ro" ] && fail "$why: the load started: $(head -n 2 "$WORK/ro")"
	grep -q -- "--metrics" "$WORK/re" || fail "$why: the message names no --metrics: $(cat "$WORK/re")"
	echo "refused ($why): $(cat "$WORK/re")"
}

dport=$(free_port)
mport=$(free_port)
pport=$(free_port)
cat >"$WORK/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: files
    static_configs:
      - targets: ['127.0.0.1:$dport']
  - job_name: mpi
    static_configs:
      - targets: ['127.0.0.1:$mport']
EOF
prometheus --config.file="$WORK/prom.yml" --storage.tsdb.path="$WORK/tsdb" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$WORK/prom.log" 2>&1 &
ppid=$!
on_exit "kill $ppid 2>/dev/null; wait $ppid 2>/dev/null"
i=0
until get "http://127.0.0.1:$pport/-/ready" >/dev/null 2>&1; do
	i=$((i + 1))
	kill -0 $ppid 2>/dev/null || hard "prometheus did not start: $(tail -n 5 "$WORK/prom.log")"
	[ $i -le 150 ] || hard "prometheus not ready within 30 s: $(tail -n 5 "$WORK/prom.log")"
	sleep 0.2
done

# the failures first: Prometheus' own port is in use
refused "port in use" --metrics "127.0.0.1:$pport"
grep -q "Address already in use" "$WORK/re" || fail "port in use: no errno in $(cat "$WORK/re")"
refused "bad IPv4 address" --metrics "300.1.2.3:$dport"
grep -q "'300.1.2.3' is not an address" "$WORK/re" || fail "bad address: $(cat "$WORK/re")"
refused "bad port" --metrics 127.0.0.1:70000
grep -q "'70000' is not a port (allowed: 1-65535)" "$WORK/re" || fail "bad port: $(cat "$WORK/re")"
refused "IPv6 without brackets" --metrics "::1:$dport"
refused "address of no interface" --metrics "192.0.2.1:$dport"
refused "linger without an endpoint" --metrics-linger 5

# served PORT - wait until the endpoint on PORT serves an interval (in
# $WORK/text.txt, its Content-Type in $WORK/text.hdr); $1 is the run's pid
served() {
	i=0
	until get "http://127.0.0.1:$2/metrics" >"$WORK/text.txt" 2>"$WORK/text.hdr" &&
		grep -q '^dixload_interval_index' "$WORK/text.txt"; do
		i=$((i + 1))
		kill -0 "$1" 2>/dev/null || fail "dixload ended before serving an interval: $(cat "$WORK/run.err")"
		[ $i -le 300 ] || fail "no interval served within 30 s"
		sleep 0.1
	done
	lint "$WORK/text.txt"
}

# scraped JOB OUT - every dixload sample Prometheus holds of JOB, raw, to OUT
scraped() {
	q=$("$PY" -c 'import sys, urllib.parse; print(urllib.parse.urlencode({"query": sys.argv[1], "time": sys.argv[2]}))' \
		"{__name__=~\"dixload_.+\",job=\"$1\"}[5m]" "$(($(date +%s) + 1))")
	get "http://127.0.0.1:$pport/api/v1/query?$q" >"$2" 2>"$WORK/api.hdr" ||
		fail "Prometheus API query failed: $(cat "$WORK/api.hdr")"
}

cat >"$WORK/check.py" <<'EOF'
# check.py [--end] RUN.json API.json [TEXT OM]: Prometheus' scrapes against the JSON
# (rates, counters and latency quantiles of the total, each device, each rank)
import json, sys
from collections import defaultdict

end = sys.argv[1] == "--end"
if end:
    del sys.argv[1]
run, api = sys.argv[1], sys.argv[2]
BS = 4096

def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)

if len(sys.argv) > 3:
    # the expositions parse, and name the families
    from prometheus_client.parser import text_string_to_metric_families
    from prometheus_client.openmetrics.parser import \
        text_string_to_metric_families as om_families
    fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[3]).read())}
    omf = {f.name: f for f in om_families(open(sys.argv[4]).read())}
    for need in ("dixload_interval_index", "dixload_interval_end_seconds",
                 "dixload_rate_bytes_per_second", "dixload_bytes", "dixload_ops",
                 "dixload_errors", "dixload_caught", "dixload_device_ops",
                 "dixload_run", "dixload_events", "dixload_event_seconds",
                 "dixload_latency_seconds", "dixload_device_latency_seconds"):
        # the 0.0.4 format has no info type: a gauge named as its sample
        if (need if need != "dixload_run" else "dixload_run_info") not in fams:
            fail("0.0.4 text: no family %s (have %s)" % (need, sorted(fams)))
        if need not in omf:
            fail("OpenMetrics: no family %s (have %s)" % (need, sorted(omf)))
    if omf["dixload_bytes"].type != "counter" or omf["dixload_run"].type != "info":
        fail("OpenMetrics types: bytes %s, run %s" % (omf["dixload_bytes"].type,
                                                      omf["dixload_run"].type))
    print("expositions parse: %d families (0.0.4), %d (OpenMetrics)" % (len(fams), len(omf)))

recs = [json.loads(l) for l in open(run)]
summ = [r for r in recs if r["type"] == "summary"]
ivs = {r["index"]: r for r in recs if r["type"] == "interval"}
evs = [r for r in recs if r["type"] == "event"]
if sorted(ivs) != list(range(1, len(ivs) + 1)):
    fail("JSON interval indexes are not 1..n: %s" % sorted(ivs))

res = json.load(open(api))
if res.get("status") != "success":
    fail("API: %s" % res)
# every scrape's samples share its timestamp: group by it
scrapes = defaultdict(dict)
for m in res["data"]["result"]:
    lab = dict(m["metric"])
    name = lab.pop("__name__")
    for k in ("job", "instance"):
        lab.pop(k, None)
    key = (name,) + tuple(sorted(lab.items()))
    for ts, v in m["values"]:
        scrapes[ts][key] = float(v)

def g(s, name, **lab):
    key = (name,) + tuple(sorted(lab.items()))
    if key not in s:
        fail("scrape has no %s%s" % (name, lab))
    return s[key]

def same(what, idx, prom, want, decimals):
    """@prom printed as JSON prints it equals the JSON value (null: NaN)"""
    if want is None:
        ok = prom != prom
    elif decimals is None:
        ok = prom == want
    else:
        ok = "%.*f" % (decimals, prom) == "%.*f" % (decimals, want)
    if not ok:
        fail("interval %d: %s: Prometheus %r, JSON %r" % (idx, what, prom, want))

def check_row(s, idx, row, prefix, lab):
    """a JSON interval row (the total, a device, a rank) against one scrape"""
    p = "dixload_" + prefix
    same(prefix + "read_bps", idx, g(s, p + "rate_bytes_per_second", dir="read", **lab), row["read_bps"], 0)
    same(prefix + "write_bps", idx, g(s, p + "rate_bytes_per_second", dir="write", **lab), row["write_bps"], 0)
    same(prefix + "iops", idx, g(s, p + "rate_iops", **lab), row["iops"], 1)
    same(prefix + "dt", idx, g(s, p + "interval_length_seconds", **lab), row["dt"], 3)
    if "unwritten" in row:
        same(prefix + "unwritten", idx, g(s, p + "interval_unwritten_blocks", **lab), row["unwritten"], None)
    ops = [g(s, p + "ops_total", dir=d, **lab) for d in ("read", "write")]
    same(prefix + "ops", idx, sum(ops), row["ops"], None)
    # bytes are in no JSON interval: they are ops x bs exactly (the meter
    # takes both from one snapshot of the latency histograms)
    for d, n in zip(("read", "write"), ops):
        b = g(s, p + "bytes_total", dir=d, **lab)
        if b != n * BS:
            fail("interval %d: %s%s bytes %d are not ops x %d (%d)"
                 % (idx, prefix, d, b, BS, n * BS))
    same(prefix + "rec", idx, g(s, p + "recovered_total", **lab), row["rec"], None)
    errs = 0
    for k in ("io", "verify", "guard", "app", "ref", "unknown"):
        pv = g(s, p + "errors_total", kind=k, **lab)
        if "errors" in row:
            same(prefix + "errors." + k, idx, pv, row["errors"][k], None)
        errs += pv
    same(prefix + "err", idx, errs, row["err"], None)
    # the interval's latency: seconds to the JSON's ns, NaN where it has n 0
    for d in ("read", "write"):
        q = row["lat_ns"][d]
        same(prefix + d + " lat n", idx, g(s, p + "latency_ios", dir=d, **lab), q["n"], None)
        for qn, key in (("0.5", "p50"), ("0.99", "p99"), ("0.999", "p99.9"), ("1", "max")):
            v = g(s, "dixload_" + (prefix or "interval_") + "latency_seconds", dir=d, quantile=qn, **lab)
            if q["n"] == 0:
                if v == v:
                    fail("interval %d: %s%s %s: %r with no completions, not NaN" % (idx, prefix, d, key, v))
                continue
            same(prefix + d + " lat " + key, idx, round(v * 1e9), q[key], None)

def check_hist(s, idx):
    """the total's histogram: cumulative, +Inf = _count = the ops counter"""
    for d in ("read", "write"):
        b = sorted((float(dict(k[1:])["le"]), v) for k, v in s.items()
                   if k[0] == "dixload_latency_seconds_bucket" and dict(k[1:])["dir"] == d)
        if len(b) < 50 or b[-1][0] != float("inf"):
            fail("interval %d: %s histogram has %d buckets, last le %r" % (idx, d, len(b), b[-1][0] if b else None))
        if any(b[i][1] > b[i + 1][1] for i in range(len(b) - 1)):
            fail("interval %d: %s buckets are not cumulative" % (idx, d))
        n = g(s, "dixload_latency_seconds_count", dir=d)
        if b[-1][1] != n or n != g(s, "dixload_ops_total", dir=d):
            fail("interval %d: %s +Inf %d, _count %d, ops_total %d" % (idx, d, b[-1][1], n, g(s, "dixload_ops_total", dir=d)))

seen, rows = [], 0
for ts in sorted(scrapes):
    s = scrapes[ts]
    if ("dixload_interval_index",) not in s:
        continue        # scraped before the first interval
    idx = int(s[("dixload_interval_index",)])
    if idx not in ivs:
        fail("a scrape names interval %d, the JSON has %d intervals" % (idx, len(ivs)))
    iv = ivs[idx]
    same("t", idx, g(s, "dixload_interval_end_seconds"), iv["t"], 3)
    check_row(s, idx, iv, "", {})
    check_hist(s, idx)
    for row in iv.get("devices", []):
        check_row(s, idx, row, "device_", {"dev": row["dev"]})
        rows += 1
    for row in iv.get("ranks", []):
        check_row(s, idx, row, "rank_", {"rank": str(row["rank"]), "host": row["host"]})
        rows += 1
    seen.append(idx)
if len(seen) < 4:
    fail("only %d scrapes saw an interval (want >= 4): %s" % (len(seen), seen))
last = seen[-1]
if last < len(ivs) - 2:
    fail("the last scrape saw interval %d of %d" % (last, len(ivs)))

# the events of the last scrape: the JSON's first ones, in order
s = scrapes[max(scrapes)]
series = {dict(k[1:])["seq"]: (dict(k[1:]), v) for k, v in s.items()
          if k[0] == "dixload_event_seconds"}
if sorted(int(q) for q in series) != list(range(1, len(series) + 1)):
    fail("event series are not seq 1..n: %s" % sorted(series))
if len(series) > len(evs):
    fail("%d event series, %d JSON events" % (len(series), len(evs)))
for q, (lab, v) in series.items():
    e = evs[int(q) - 1]
    want = {"seq": q, "kind": e["kind"], "what": e["what"]}
    if "ok" in e:
        want["ok"] = "true" if e["ok"] else "false"
    if "host" in e:
        want["host"] = e["host"]
    if lab != want:
        fail("event %s: labels %s, JSON %s" % (q, lab, want))
    same("event %s t" % q, 0, v, e["t"], 3)
for kind in ("action", "change", "note"):
    n = g(s, "dixload_events_total", kind=kind)
    if n != sum(1 for lab, v in series.values() if lab["kind"] == kind):
        fail("dixload_events_total{kind=%s} %s, not its series' count" % (kind, n))
# --metrics-linger: the last scrape read the end: the last interval, the
# exit status and every transition of the summary (the total's, then each
# device's), in the order they were found
if end:
    if last != len(ivs):
        fail("--metrics-linger: the last scrape saw interval %d, the JSON has %d" % (last, len(ivs)))
    want = [(t, None) for t in summ[0]["transitions"]]
    for d in summ[0].get("devices", []):
        want += [(t, d["dev"]) for t in d["transitions"]]
    if not want:
        fail("the summary has no transition to look for")
    same("exit status", last, g(s, "dixload_exit_status"), summ[0]["exit"], None)
    for i, (t, dev) in enumerate(want):
        lab = {"seq": str(i + 1), "event": t["event"],
               "significant": "true" if t["significant"] else "false"}
        if dev:
            lab["dev"] = dev
        same("transition %d ratio" % (i + 1), last,
             g(s, "dixload_transition_ratio", **lab), t["ratio"], 3)
        same("transition %d change_at" % (i + 1), last,
             g(s, "dixload_transition_change_seconds", seq=str(i + 1)), t["change_at"], 3)
    print("the last scrape read the end: exit status %d, %d transitions equal to the summary's" % (summ[0]["exit"], len(want)))
print("%d scrapes, intervals %s of %d, %d device or rank rows: every gauge and counter equals the JSON record of its index; the last scrape (interval %d: ops %d, err %d) has %d event series equal to the JSON's"
      % (len(seen), seen, len(ivs), rows, last, ivs[last]["ops"], ivs[last]["err"], len(series)))
EOF

# two files (one named with the quote and backslash a label value escapes),
# 12 s, intervals of 0.5 s against scrapes of 1 s, an action at 2 s
"$DIXLOAD" --dev "$WORK/a.img,$WORK/b \"q\" \\.img" --size 8m --bs 4k --runtime 12 \
	--interval 500 --output-format json --metrics "$dport" --exec 'true@2' \
	--metrics-linger 10 >"$WORK/run.json" 2>"$WORK/run.err" &
dpid=$!
served $dpid "$dport"
grep -q '^text/plain; version=0.0.4' "$WORK/text.hdr" ||
	fail "no Accept header, yet not the 0.0.4 text format: $(cat "$WORK/text.hdr")"
sleep 2.5	# past the action
get "http://127.0.0.1:$dport/metrics" 'application/openmetrics-text; version=1.0.0' \
	>"$WORK/om.txt" 2>"$WORK/om.hdr" || fail "OpenMetrics scrape failed: $(cat "$WORK/om.hdr")"
grep -q '^application/openmetrics-text' "$WORK/om.hdr" ||
	fail "OpenMetrics asked, not served: $(cat "$WORK/om.hdr")"
get "http://127.0.0.1:$dport/metrics" >"$WORK/text.txt" 2>/dev/null || fail "scrape failed"
lint "$WORK/text.txt"
t0=$(date +%s)
wait $dpid || fail "run: exit $? $(cat "$WORK/run.err")"
# --metrics-linger 10: it waited for one scrape of its end, not 10 s
[ $(($(date +%s) - t0)) -lt 18 ] || fail "the run lingered past a scrape of its end"
scraped files "$WORK/api.json"
"$PY" "$WORK/check.py" --end "$WORK/run.json" "$WORK/api.json" "$WORK/text.txt" "$WORK/om.txt" || exit 1

# under MPI rank 0 serves the job, with a row per rank
if have_mpi; then
	mpi_dix 2 --dev "$WORK/m%r.img" --size 8m --bs 4k --runtime 8 \
		--interval 500 --output-format json --metrics "$mport" --metrics-linger 10 \
		>"$WORK/mpi.json" 2>"$WORK/run.err" &
	dpid=$!
	served $dpid "$mport"
	grep -q '^dixload_rank_ops_total{rank="1"' "$WORK/text.txt" ||
		fail "no rank 1 series: $(grep rank_ops "$WORK/text.txt")"
	wait $dpid || fail "mpirun: exit $? $(cat "$WORK/run.err")"
	sleep 1.5
	scraped mpi "$WORK/api-mpi.json"
	"$PY" "$WORK/check.py" "$WORK/mpi.json" "$WORK/api-mpi.json" || exit 1
	# Prometheus' own histogram_quantile() over the job's last scrape (the
	# end: --metrics-linger) against the JSON summary's p99, per direction
	for d in read write; do
		# at the last scrape: the series went stale when the run ended
		q=$("$PY" -c 'import json, sys, urllib.parse
ts = max(v[0] for m in json.load(open(sys.argv[2]))["data"]["result"] for v in m["values"])
print(urllib.parse.urlencode({"query": sys.argv[1], "time": ts}))' \
			"histogram_quantile(0.99, sum by (le) (dixload_latency_seconds_bucket{job=\"mpi\",dir=\"$d\"}))" \
			"$WORK/api-mpi.json")
		get "http://127.0.0.1:$pport/api/v1/query?$q" >"$WORK/hq.json" 2>"$WORK/api.hdr" ||
			fail "histogram_quantile query failed: $(cat "$WORK/api.hdr")"
		"$PY" - "$WORK/hq.json" "$WORK/mpi.json" "$d" "$WORK/text.txt" <<'EOF2' || exit 1
import json, sys
hq, run, d, text = sys.argv[1:]
res = json.load(open(hq))["data"]["result"]
if len(res) != 1:
    print("FAIL: histogram_quantile gave %d series: %s" % (len(res), res)); sys.exit(1)
prom = float(res[0]["value"][1])
summ = [json.loads(l) for l in open(run)]
summ = [r for r in summ if r["type"] == "summary"][0]
p99 = summ["lat_ns"][d]["p99"] / 1e9
# the exposed le bounds, from an exposition of the same run
les = sorted({float(l.split('le="')[1].split('"')[0]) for l in open(text)
              if l.startswith("dixload_latency_seconds_bucket")})
def idx(v):
    return next(i for i, le in enumerate(les) if v <= le)
if abs(idx(prom) - idx(p99)) > 1:
    print("FAIL: %s: histogram_quantile(0.99) %.9f s is in bucket %d (le %g), the JSON p99 %.9f s in %d (le %g)"
          % (d, prom, idx(prom), les[idx(prom)], p99, idx(p99), les[idx(p99)])); sys.exit(1)
print("%s: Prometheus histogram_quantile(0.99) %.6f ms, JSON p99 %.6f ms: exposed buckets %d and %d (le %g s)"
      % (d, prom * 1e3, p99 * 1e3, idx(prom), idx(p99), les[idx(p99)]))
EOF2
	done
else
	part_skip "this dixload has no MPI or mpirun is missing: the MPI part is not checked"
fi
echo "metrics checks passed ($lints expositions clean under promtool check metrics)"
