#!/bin/sh
# dixload sweep --plot on a file with a block engine: a well-formed SVG with one point per point of the table, at its MB/s, one series per value of the other key; each series' knee (the least in flight within 90 % of its best, recomputed here from the table) named after the table and ringed on the plot; an unwritable --plot is refused before any load.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
truncate -s 16m "$F" || hard "truncate"
run_dix "$WORK/o" "$WORK/e" sweep iodepth=1,4,16 jobs=1,2 --plot "$WORK/s.svg" -- \
	--dev "$F" --size 16m --rw randread --bs 4k --engine libaio --runtime 0.6 ||
	fail "sweep failed: $(cat "$WORK/e")"
cat "$WORK/o"
[ -s "$WORK/s.svg" ] || fail "no SVG written"
python3 - "$WORK/o" "$WORK/s.svg" <<'PY' || exit 1
import sys, xml.dom.minidom
rows = {}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 8 and f[0].isdigit():
        rows[(f[0], f[1])] = f[2]
if len(rows) != 6:
    print("FAIL: want 6 table rows, got %s" % rows); sys.exit(1)
doc = xml.dom.minidom.parse(sys.argv[2])
series = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "series"]
labels = sorted(g.getAttribute("data-label") for g in series)
if labels != ["jobs=1", "jobs=2"]:
    print("FAIL: series %s, want jobs=1 and jobs=2" % labels); sys.exit(1)
n = 0
for g in series:
    jobs = g.getAttribute("data-label").split("=")[1]
    for c in g.getElementsByTagName("circle"):
        if c.getAttribute("class") != "point":
            continue
        x, mb = c.getAttribute("data-x"), c.getAttribute("data-mbps")
        if rows.get((x, jobs)) != mb:
            print("FAIL: point iodepth=%s jobs=%s at %s MB/s, the table says %s" % (x, jobs, mb, rows.get((x, jobs)))); sys.exit(1)
        n += 1
if n != 6:
    print("FAIL: want 6 points, got %d" % n); sys.exit(1)
xs = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.getAttribute("class") == "xval"]
if xs != ["1", "4", "16"]:
    print("FAIL: x values %s" % xs); sys.exit(1)
# the knee of each series: the least in flight within 90 % of its best,
# from the table's own rows, named after the table and ringed on the plot
import re
knees = {}
for l in open(sys.argv[1]):
    m = re.match(r"  jobs=(\d+): (\d+) in flight \(iodepth=(\d+), ([0-9.]+) MB/s\); best ([0-9.]+) MB/s \(iodepth=(\d+), (\d+) in flight\)$", l)
    if m:
        knees[m.group(1)] = m.groups()
if sorted(knees) != ["1", "2"]:
    print("FAIL: want a knee line per series: %s" % knees); sys.exit(1)
for jobs, (_, infl, kx, kmb, bmb, bx, binfl) in knees.items():
    mb = {x: float(rows[(x, jobs)]) for x in ("1", "4", "16")}
    best = max(mb.values())
    want = min((int(x) * int(jobs), x) for x in ("1", "4", "16") if mb[x] >= 0.9 * best)
    if (int(infl), kx) != want or float(bmb) != best or float(kmb) != mb[kx] or mb[bx] != best:
        print("FAIL: jobs=%s: knee %s in flight at iodepth=%s, best %s; want %s, best %.2f" % (jobs, infl, kx, bmb, want, best)); sys.exit(1)
    g = [g for g in series if g.getAttribute("data-label") == "jobs=" + jobs][0]
    ring = [c for c in g.getElementsByTagName("circle") if c.getAttribute("class") == "knee"]
    if len(ring) != 1 or ring[0].getAttribute("data-x") != kx or ring[0].getAttribute("data-inflight") != infl:
        print("FAIL: jobs=%s: want one knee ring at iodepth=%s: %s" % (jobs, kx, [(c.getAttribute("data-x"), c.getAttribute("data-inflight")) for c in ring])); sys.exit(1)
    print("jobs=%s: knee %s in flight (iodepth=%s), best %s MB/s" % (jobs, infl, kx, bmb))
print("6 points, 2 series, every point at the table's MB/s, each series' knee named and ringed")
PY

run_dix "$WORK/o" "$WORK/e" sweep iodepth=1 --plot "$WORK/nodir/s.svg" -- \
	--dev "$F" --size 16m --rw randread --runtime 0.2 && fail "unwritable --plot accepted"
grep -q "sweep: --plot $WORK/nodir/s.svg: cannot write" "$WORK/e" || fail "no message naming the plot file: $(cat "$WORK/e")"
[ -s "$WORK/o" ] && fail "a load ran before the refusal: $(cat "$WORK/o")"
run_dix "$WORK/o" "$WORK/e" sweep iodepth=1 --plot -- --dev "$F" --runtime 0.2 &&
	fail "--plot without a file accepted"
grep -q "sweep: --plot needs a FILE.svg" "$WORK/e" || fail "no message for --plot without a file: $(cat "$WORK/e")"
echo "sweep --plot checks passed"
