#!/bin/sh
# dixload sweep over the kcapi engine (iodepth x tfms x submit, xts(aes)): one JSON point per combination, each a fresh run with exit 0, the requests in flight per point as measured (sync: one per submitting thread, one job here whatever its TFMs; async on xts(aes)'s synchronous driver: io_submit completes each request inside the call, so at most one per TFM thread whatever --iodepth), so sync and async meet at equal concurrency; a knee line per series; --plot draws a point per point.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs

# No warm-up run: the first TFM of a boot instantiates xts(ecb(aes-generic))
# and the kernel self-tests it, which took 2.9 s on a busy host and was
# inside the first point's --runtime until the clock started after the
# engines' setup (a 2 s point did no request); the first point must have
# requests like the others.
script="$(kcapi_prelude)
dixload sweep --json iodepth=1,8,32,112 tfms=1,4 submit=sync,async -- --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --iodepth-batch 112 --seed 9 --runtime 2
echo \"SWEEP-EXIT \$?\"
dixload sweep iodepth=1,4 tfms=1,4 --plot /tmp/sweep.svg -- --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --submit async --seed 9 --runtime 1
echo \"SVG-POINTS \$(grep -c 'class=\"point\"' /tmp/sweep.svg) SERIES \$(grep -c 'class=\"series\"' /tmp/sweep.svg)\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
if "SWEEP-EXIT 0" not in lines:
    fail("sweep exit: %s" % [l for l in lines if l.startswith("SWEEP-EXIT")])
pts = [r for r in recs if r["type"] == "sweep_point"]
if len(pts) != 16:
    fail("want 16 points, got %d" % len(pts))
seen = set()
for p in pts:
    k = p["point"]
    seen.add((k["iodepth"], k["tfms"], k["submit"]))
    if p["exit"] != 0 or p["mb_per_s"] <= 0:
        fail("point %s: %s" % (k, p))
    # measured (the summary's inflight_mean and _max): the synchronous
    # driver completes an AIO call's requests inside io_submit, one at a
    # time, so a TFM's thread holds 1 whatever --iodepth; sync: the job's 1
    most = int(k["tfms"]) if k["submit"] == "async" else 1
    if not p.get("inflight_measured") or not 1 <= p["inflight_max"] <= most or not 0 < p["inflight"] <= p["inflight_max"]:
        fail("point %s: in flight mean %s, max %s, want measured, max 1..%d" % (k, p["inflight"], p.get("inflight_max"), most))
    print("%-40s %7.2f MB/s, %5.2f in flight (max %d), %6.3f CPU s/GB, p99 %.2f ms"
          % (k, p["mb_per_s"], p["inflight"], p["inflight_max"], p["cpu_s_per_gb"], p["p99_ms"]))
if len(seen) != 16:
    fail("points repeat: %s" % sorted(seen))
# The first point opened the boot's first TFM (the template's self-test):
# its rate over its --runtime is that of the same load later (sync: one
# request in flight whatever --iodepth).  Measured, icount: 4.23 MB/s
# against 4.30 at iodepth 8; 3.86 while the setup was inside the runtime.
rate = {(p["point"]["iodepth"], p["point"]["tfms"], p["point"]["submit"]): p["mb_per_s"] for p in pts}
first, later = rate[("1", "1", "sync")], rate[("8", "1", "sync")]
if first < 0.95 * later:
    fail("the first point ran at %.2f MB/s, the same load later at %.2f: its TFM's setup is inside its runtime" % (first, later))
# equal concurrency: sync (one job thread, 1 or 4 TFMs) and async QD1 on
# one TFM, 1 each
eq = [p for p in pts if p["inflight_max"] == 1]
if not {p["point"]["submit"] for p in eq} >= {"sync", "async"}:
    fail("no sync and async points at 1 in flight")
# a knee per series (tfms x submit), in the JSON after the points
kn = [r for r in recs if r["type"] == "sweep_knee"]
if sorted((r["series"]["tfms"], r["series"]["submit"]) for r in kn) != sorted((t, s) for t in ("1", "4") for s in ("sync", "async")):
    fail("want a sweep_knee per series: %s" % [r["series"] for r in kn])
for r in kn:
    print("knee %s: %.2f in flight at %s, %.2f MB/s; best %.2f MB/s" % (r["series"], r["inflight"], r["point"], r["mb_per_s"], r["best_mb_per_s"]))
# --plot: a point per point of the 2x2 sweep, a series per tfms value
svg = [l for l in lines if l.startswith("SVG-POINTS ")]
if svg != ["SVG-POINTS 4 SERIES 2"]:
    fail("sweep --plot: want 4 points in 2 series: %s" % svg)
table = [l for l in lines if l.split()[:1] == ["iodepth"]]
if not table or "in flight" not in table[0] or "CPU s/GB" not in table[0]:
    fail("no human table header: %s" % table)
PY
python3 "$WORK/judge.py" "$WORK/out"
