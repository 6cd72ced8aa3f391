#!/bin/sh
# --metrics: a real Prometheus (Debian's) scrapes dixload every second during a two-file run; afterwards its HTTP API gives, for every scrape, gauges and counters equal to dixload's JSON interval record of the index the scrape names (total and each device), the exposition parses with prometheus_client in both formats, and a port in use or a bad address stops the run at its start (exit 1).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_feature microhttpd
need_tools prometheus
# Debian's python3-prometheus-client is the system python's
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import prometheus_client' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip "python3-prometheus-client not installed (no python3 imports prometheus_client)"

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
pport=$(free_port)
[ "$dport" != "$pport" ] || pport=$(free_port)
cat >"$WORK/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: dixload
    static_configs:
      - targets: ['127.0.0.1:$dport']
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

# the run: 12 s, intervals of 0.5 s against scrapes of 1 s, two files
"$DIXLOAD" --dev "$WORK/a.img,$WORK/b.img" --size 8m --bs 4k --runtime 12 \
	--interval 500 --output-format json --metrics "$dport" \
	>"$WORK/run.json" 2>"$WORK/run.err" &
dpid=$!
i=0
until get "http://127.0.0.1:$dport/metrics" >"$WORK/text.txt" 2>"$WORK/text.hdr" &&
	grep -q '^dixload_interval_index' "$WORK/text.txt"; do
	i=$((i + 1))
	kill -0 $dpid 2>/dev/null || fail "dixload ended before serving an interval: $(cat "$WORK/run.err")"
	[ $i -le 100 ] || fail "no interval served within 10 s"
	sleep 0.1
done
grep -q '^text/plain; version=0.0.4' "$WORK/text.hdr" ||
	fail "no Accept header, yet not the 0.0.4 text format: $(cat "$WORK/text.hdr")"
get "http://127.0.0.1:$dport/metrics" 'application/openmetrics-text; version=1.0.0' \
	>"$WORK/om.txt" 2>"$WORK/om.hdr" || fail "OpenMetrics scrape failed: $(cat "$WORK/om.hdr")"
grep -q '^application/openmetrics-text' "$WORK/om.hdr" ||
	fail "OpenMetrics asked, not served: $(cat "$WORK/om.hdr")"
wait $dpid || fail "run: exit $? $(cat "$WORK/run.err")"
end=$(date +%s)
# the scrapes' timestamps are Prometheus' own; let it take its last one
sleep 1.5

q=$("$PY" -c 'import sys, urllib.parse; print(urllib.parse.urlencode({"query": sys.argv[1], "time": sys.argv[2]}))' \
	'{__name__=~"dixload_.+",job="dixload"}[5m]' "$end.9")
get "http://127.0.0.1:$pport/api/v1/query?$q" >"$WORK/api.json" 2>"$WORK/api.hdr" ||
	fail "Prometheus API query failed: $(cat "$WORK/api.hdr")"

"$PY" - "$WORK/run.json" "$WORK/api.json" "$WORK/text.txt" "$WORK/om.txt" "$WORK/a.img" "$WORK/b.img" <<'EOF' || exit 1
import json, sys
from collections import defaultdict
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om_families

run, api, text, om, devs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
BS = 4096

def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)

# the expositions parse, and name the same families
fams = {f.name: f for f in text_string_to_metric_families(open(text).read())}
omf = {f.name: f for f in om_families(open(om).read())}
for need in ("dixload_interval_index", "dixload_interval_end_seconds",
             "dixload_rate_bytes_per_second", "dixload_bytes", "dixload_ops",
             "dixload_errors", "dixload_caught", "dixload_device_ops",
             "dixload_run", "dixload_events"):
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
ivs = {r["index"]: r for r in recs if r["type"] == "interval"}
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
    """@prom printed as JSON prints it equals the JSON value"""
    if decimals is None:
        ok = prom == want
    else:
        ok = "%.*f" % (decimals, prom) == "%.*f" % (decimals, want)
    if not ok:
        fail("interval %d: %s: Prometheus %r, JSON %r" % (idx, what, prom, want))

def check_row(s, idx, row, prefix, lab, total):
    """a JSON interval row (the total or a device) against one scrape"""
    same(prefix + "read_bps", idx, g(s, "dixload_%srate_bytes_per_second" % prefix, dir="read", **lab), row["read_bps"], 0)
    same(prefix + "write_bps", idx, g(s, "dixload_%srate_bytes_per_second" % prefix, dir="write", **lab), row["write_bps"], 0)
    same(prefix + "iops", idx, g(s, "dixload_%srate_iops" % prefix, **lab), row["iops"], 1)
    same(prefix + "dt", idx, g(s, "dixload_%sinterval_length_seconds" % prefix if prefix else "dixload_interval_length_seconds", **lab), row["dt"], 3)
    same(prefix + "unwritten", idx, g(s, "dixload_%sinterval_unwritten_blocks" % prefix, **lab), row["unwritten"], None)
    ops = [g(s, "dixload_%sops_total" % prefix, dir=d, **lab) for d in ("read", "write")]
    same(prefix + "ops", idx, sum(ops), row["ops"], None)
    for d, n in zip(("read", "write"), ops):
        same(prefix + d + " bytes (ops x bs)", idx, g(s, "dixload_%sbytes_total" % prefix, dir=d, **lab), n * BS, None)
    same(prefix + "rec", idx, g(s, "dixload_%srecovered_total" % prefix, **lab), row["rec"], None)
    errs = 0
    for k, v in row["errors"].items():
        pv = g(s, "dixload_%serrors_total" % prefix, kind=k, **lab)
        same(prefix + "errors." + k, idx, pv, v, None)
        errs += pv
    same(prefix + "err", idx, errs, row["err"], None)

seen = []
for ts in sorted(scrapes):
    s = scrapes[ts]
    if ("dixload_interval_index",) not in s:
        continue        # scraped before the first interval
    idx = int(s[("dixload_interval_index",)])
    if idx not in ivs:
        fail("a scrape names interval %d, the JSON has %d intervals" % (idx, len(ivs)))
    iv = ivs[idx]
    same("t", idx, g(s, "dixload_interval_end_seconds"), iv["t"], 3)
    check_row(s, idx, iv, "", {}, True)
    if len(iv["devices"]) != len(devs):
        fail("interval %d: %d device rows" % (idx, len(iv["devices"])))
    for row in iv["devices"]:
        check_row(s, idx, row, "device_", {"dev": row["dev"]}, False)
    seen.append(idx)
if len(seen) < 4:
    fail("only %d scrapes saw an interval (want >= 4 of a 12 s run): %s" % (len(seen), seen))
last = seen[-1]
if last < len(ivs) - 2:
    fail("the last scrape saw interval %d of %d" % (last, len(ivs)))
print("%d scrapes, intervals %s of %d: every gauge and counter equals the JSON record of its index; the last scrape (interval %d) has ops %d, err %d"
      % (len(seen), seen, len(ivs), last, ivs[last]["ops"], ivs[last]["err"]))
EOF
echo "metrics checks passed"
