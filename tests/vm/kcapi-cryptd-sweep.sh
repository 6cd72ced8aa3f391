#!/bin/sh
# cryptd(xts(aes)), the kernel's own asynchronous wrapper (every request through a queue to a kernel worker, the shape of an offload engine), swept over submit sync/async x requests in flight x TFMs: every point reported as it ran, a knee per series with a result, whether sync from one TFM is the slowest series, and the cryptd instance dixload registered deleted at the end of each point (gone from /proc/crypto afterwards). Under the bed's instruction-counting clock the guest is single-threaded; pcrypt needs --smp 2 --icount off.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_alone

script="$(kcapi_prelude cryptd)
dixload sweep --json iodepth=1,4,16 tfms=1,4 submit=sync,async -- --engine kcapi --alg 'cryptd(xts(aes))' --bs 4k --rw write --iodepth-batch 16 --seed 9 --runtime 2
echo \"SWEEP-EXIT \$?\"
echo \"CRYPTD-LEFT \$(grep -c '^driver *: cryptd(xts' /proc/crypto)\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
pts = [r for r in recs if r["type"] == "sweep_point"]
if len(pts) != 12:
    fail("want 12 points, got %d" % len(pts))
for p in pts:
    k = p["point"]
    print("%-48s exit %d %s" % (k, p["exit"], "%7.2f MB/s, %5.2f in flight" % (p["mb_per_s"], p["inflight"]) if "mb_per_s" in p else "(no figures)"))
left = [l for l in lines if l.startswith("CRYPTD-LEFT ")]
if left != ["CRYPTD-LEFT 0"]:
    fail("cryptd instances left registered after the sweep: %s" % left)
kn = {(r["series"]["tfms"], r["series"]["submit"]): r for r in recs if r["type"] == "sweep_knee"}
for s, r in sorted(kn.items()):
    print("knee tfms=%s submit=%s: %.2f in flight at iodepth=%s (%.2f MB/s); best %.2f MB/s" % (s[0], s[1], r["inflight"], r["point"]["iodepth"], r["mb_per_s"], r["best_mb_per_s"]))
ok = {(p["point"]["tfms"], p["point"]["submit"]) for p in pts if p["exit"] == 0}
if set(kn) != {s for s in ok}:
    fail("want a knee for every series with a result %s: %s" % (sorted(ok), sorted(kn)))
if ("1", "sync") not in kn:
    fail("sync from one TFM has no result")
best = {s: r["best_mb_per_s"] for s, r in kn.items()}
slowest = min(best, key=best.get)
print("slowest series: tfms=%s submit=%s (%.2f MB/s); sync from one TFM %s the slowest"
      % (slowest[0], slowest[1], best[slowest], "is" if slowest == ("1", "sync") else "is not"))
bad = [p["point"] for p in pts if p["exit"] != 0]
if bad:
    fail("points that failed: %s" % bad)
PY
python3 "$WORK/judge.py" "$WORK/out"
