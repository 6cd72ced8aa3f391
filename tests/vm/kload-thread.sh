#!/bin/sh
# doc/crypto.md's two commands of the 2023 thread, as written there (one boot for both): the thread's table, `dixload --profile kload-thread --runtime 40 --hotload aesni_intel@8` (112 sync kernel threads on one TFM, 1 result in 16 checked), exit 0, Err 0, a significant rise at the hot-load with the TFM reopened from xts(ecb(aes-generic)) on xts-aes-aesni; and Giovanni's answer, the async sweep over depth and TFMs on the offload model (dixoffload loaded): a point per combination, exit 0, each point's measured in-flight mean at least what Little's law gives for the model (IOPS x its 1041 us a request) and at most TFMs x depth, and 8 TFMs x 16 deep at least 4x the throughput of 1 x 1.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
vm_alone

# the commands as doc/crypto.md gives them (its dixvm prefix is this boot)
thread=$(sed -n 's/^    scripts\/dixvm --kmod -- \(dixload --profile kload-thread .*\)$/\1/p' "$top_srcdir/doc/crypto.md")
sweep=$(sed -n 's/^    scripts\/dixvm --kmod --kmod-load dixoffload -- \(dixload sweep .*\)$/\1/p' "$top_srcdir/doc/crypto.md")
[ -n "$thread" ] && [ -n "$sweep" ] ||
	fail "doc/crypto.md lost its kload-thread or its dixoffload sweep command"
echo "thread: $thread"
echo "sweep: $sweep"

script="$(guest_need_module aesni_intel)
echo RUN thread
$thread --output-format json
echo \"DIXLOAD-EXIT \$?\"
modprobe dixoffload || echo NO-DIXOFFLOAD
echo RUN sweep
$(echo "$sweep" | sed 's/^dixload sweep /dixload sweep --json /')
echo \"DIXLOAD-EXIT \$?\""

kload_boot "$script"

write_judge <<'PY'
runs, lines = marked_runs(sys.argv[1])
if "NO-DIXOFFLOAD" in lines:
    fail("modprobe dixoffload failed in the guest")
t = runs.get("thread")
if not t or t["exit"] != 0:
    fail("the thread's command: want exit 0: %s" % (t and t["text"][-4:]))
summ = [x for x in t["recs"] if x.get("type") == "summary"][0]
notes = [x["what"] for x in t["recs"] if x.get("type") == "event" and x["kind"] == "note"]
for n in notes:
    print("thread note:", n[:300])
if summ["err"] != 0 or summ["ops"] == 0:
    fail("the thread's command: want Err 0 over some requests")
if not any("kload: 1 TFMs x 112 in flight, sync, on xts(ecb(aes-generic)), 1 result in 16 checked" in n for n in notes):
    fail("the thread's command: no start note of 1 TFM x 112 sync on the generic driver, 1 in 16 checked")
if not any(n.startswith("kload: TFMs 0-0 reopened (--rebind auto): xts(ecb(aes-generic)) -> xts-aes-aesni") for n in notes):
    fail("the thread's command: the TFM was not reopened from xts(ecb(aes-generic)) on xts-aes-aesni")
tr = [x for x in summ["transitions"] if x["event"] == "modprobe aesni_intel"]
if len(tr) != 1:
    fail("want one transition row for the hot-load: %s" % summ["transitions"])
show_tr("thread: aesni_intel", tr[0])
if not tr[0]["significant"] or tr[0]["ratio"] <= 1:
    fail("the thread's hot-load is not a significant rise")
print("thread: in flight max", summ.get("inflight_max"), "mean", summ.get("inflight_mean"),
      "checks", summ.get("checks"))
s = runs.get("sweep")
if not s or s["exit"] != 0:
    fail("the sweep: want exit 0: %s" % (s and s["text"][-4:]))
pts = [x for x in s["recs"] if x.get("type") == "sweep_point"]
if not pts:
    fail("the sweep: no points")
X = {}
for p in pts:
    v = p["point"]
    q = int(v["tfms"]) * int(v["iodepth"])
    print("sweep point", json.dumps(p)[:300])
    X[(int(v["tfms"]), int(v["iodepth"]))] = p
    if p.get("exit", 0) != 0:
        fail("sweep point %s: exit %s" % (v, p.get("exit")))
    # Little's law on the model: in flight = IOPS x the time a request
    # spends in it, which is at least S = latency_us + 4096 / mbps = 1041 us
    # at its defaults (more when it waits for an engine on its ring):
    # measured 1.05-1.4 S.  So the measured mean is at least 0.9 IOPS x S,
    # and at most TFMs x depth
    im = p.get("inflight") if p.get("inflight_measured") else None
    little = p["iops"] * 1041e-6
    if im is None or im > q + 0.01 or im < 0.9 * little:
        fail("sweep point tfms %s iodepth %s: measured in flight %s, want IOPS x S = %.2f or more (0.9x), at most %d"
             % (v["tfms"], v["iodepth"], im, little, q))
lo, hi = X.get((1, 1)), X.get((8, 16))
if not lo or not hi:
    fail("the sweep lacks 1 x 1 or 8 x 16: %s" % sorted(X))
if hi["iops"] < 4 * lo["iops"]:
    fail("8 TFMs x 16 (%.0f IOPS) is not 4x 1 x 1 (%.0f): the offload does not pay with requests in flight" % (hi["iops"], lo["iops"]))
print("sweep: 1 x 1 %.0f IOPS, 8 x 16 %.0f IOPS: %.2fx" % (lo["iops"], hi["iops"], hi["iops"] / lo["iops"]))
PY
python3 "$WORK/judge.py" "$WORK/out"
