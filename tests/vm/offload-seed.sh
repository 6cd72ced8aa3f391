#!/bin/sh
# Issue 36 (a)-(c), the 2023 thread's two sides in one bed, in-kernel engine, dixsoft loaded first, the offload model hot-loaded mid-run at 4001 and lowered to 201 (the patch) later: (a) sync 1 TFM falls at the hot-load (significant fall: the seed's measurement, reported as plainly as a rise) and rises back at 201; (b) 8 async TFMs x 16 rise at the hot-load and fall back at 201; the TFMs reopened on the model and back on xts-aes-dixsoft each time; (a)'s rate on the model within 10 % of the formula 1 / (c + S) with S = 1041 us and c the guest CPU per request that (b)'s CPU-bound plateau measures (X = 1 / c).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
need_feature mnl
vm_alone

# --icount-sleep off: the model's completions are guest timers, and with
# sleep on an idle guest's clock runs with the host's (doc/offload.md)
run="dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --runtime 24 --verify-every 16 --seed 5 --hotload dixoffload@8 --priority xts-aes-dixoffload=201@16 --output-format json"
script="echo RUN a
$run --submit sync --tfms 1 --iodepth 1
echo \"DIXLOAD-EXIT \$?\"
rmmod dixoffload
echo RUN b
$run --submit async --tfms 8 --iodepth 16
echo \"DIXLOAD-EXIT \$?\""

kload_boot "$script" --kmod-load dixsoft --icount-sleep off

write_judge <<'PY'
runs = marked_runs(sys.argv[1])[0]
want = {"a": ("fall", "rise"), "b": ("rise", "fall")}
tr = {}
for name in ("a", "b"):
    r = runs.get(name)
    if not r or r["exit"] != 0:
        fail("(%s): want exit 0, got %s" % (name, r and r["exit"]))
    summ = [x for x in r["recs"] if x.get("type") == "summary"][0]
    notes = [x["what"] for x in r["recs"] if x.get("type") == "event" and x["kind"] == "note"]
    if summ["err"] != 0 or summ["ops"] == 0:
        fail("(%s): want Err 0 over some requests" % name)
    if not any(" in flight, " in n and "on xts-aes-dixsoft" in n for n in notes):
        fail("(%s): the load did not start on xts-aes-dixsoft: %s" % (name, notes[:2]))
    for a, b in (("xts-aes-dixsoft", "xts-aes-dixoffload"), ("xts-aes-dixoffload", "xts-aes-dixsoft")):
        if not any("reopened (--rebind auto): %s -> %s" % (a, b) in n for n in notes):
            fail("(%s): the TFMs were not reopened from %s on %s" % (name, a, b))
    rows = {t["event"]: t for t in summ["transitions"]}
    for ev, d in zip(("modprobe dixoffload", "priority xts-aes-dixoffload=201"), want[name]):
        t = rows.get(ev)
        if not t:
            fail("(%s): no transition row for %s: %s" % (name, ev, list(rows)))
        show_tr("(%s) %s" % (name, ev), t)
        if not t["significant"] or t.get("direction") != d:
            fail("(%s) %s: want a significant %s, got significant %s direction %s"
                 % (name, ev, d, t["significant"], t.get("direction")))
        tr[(name, ev)] = t
# the formula: (b)'s plateau on the model is the CPU cap, X = 1 / c
xb = tr[("b", "modprobe dixoffload")]["after"] / 4096
c = 1 / xb
S = 1041e-6
pred = 4096 / (c + S)
got = tr[("a", "modprobe dixoffload")]["after"]
print("model: c = %.0f us a request (from (b)'s plateau, %.0f IOPS); (a) on the model %.2f MB/s, formula 1/(c+S) %.2f MB/s, %+.1f %%"
      % (c * 1e6, xb, got / 1e6, pred / 1e6, 100 * (got / pred - 1)))
if abs(got / pred - 1) > 0.10:
    fail("(a) on the model: %.2f MB/s, the formula gives %.2f (10 %% allowed)" % (got / 1e6, pred / 1e6))
PY
python3 "$WORK/judge.py" "$WORK/out"
