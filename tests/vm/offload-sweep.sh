#!/bin/sh
# Issue 36 (d), "how many requests in flight?", on the offload model (dixoffload loaded at boot, dixsoft beside it, --icount-sleep off): doc/crypto.md's sweep `dixload sweep tfms=1,2,4,8 iodepth=1,2,4,8,16,32` through the in-kernel engine, unchecked (below), every point within 10 % of the formula of doc/offload.md, each series' knee (dixload's sweep_knee record) the formula's within one step, 1 TFM at any depth held to one device's engines (E / S); dixsoft's rate measured in the same boot, and the least requests in flight at which the model beats it the formula's. Then the model named directly, 2 TFMs x 16 in flight, every result checked: Err 0 and 32 in flight, through kload and (6.1.0-50, whose algif_skcipher still has AIO) through AF_ALG, with the model at 200 ms a request so that the 32 fit in its engine time; and with the model's corrupt_every=7 set mid-run, the wrong results dixload counts equal those the model corrupted, exit 3, both ways.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
need_feature mnl
vm_alone

# the sweep as doc/crypto.md gives it (run as written, --json added)
sweep=$(sed -n 's/^    scripts\/dixvm --kmod --kmod-load dixoffload --kmod-load dixsoft --icount-sleep off -- \(dixload sweep .*tfms=1,2,4,8 .*\)$/\1/p' "$top_srcdir/doc/crypto.md")
[ -n "$sweep" ] || fail "doc/crypto.md lost its (d) sweep command"
echo "sweep: $sweep"
# AF_ALG keeps requests in flight only where algif_skcipher has AIO
afalg=0
case $(vm_kver) in 6.1.0-50-*) afalg=1 ;; esac

# The sweep runs unchecked (--verify off): the module's reference is its
# own AES library XTS, 2.4 ms of guest CPU a 4 KiB request (measured, 6.1,
# --verify-every 16: 0.356 s of checks in 3 s), 30 times a request's own
# cost, and one checked request in 16 holds the one vCPU while the others'
# completions queue behind it: the points then measure that queue, not the
# engines (doc/offload.md).  Correctness is the runs after it.
P="--bs 4k --rw write --runtime 3 --seed 7 --output-format json"
# dixsoft, synchronous, called from the engine's runner: one request at a
# time and 8 x 16 (one vCPU: the same rate)
script="echo RUN soft-1
dixload --engine kload --alg xts-aes-dixsoft --submit async --tfms 1 --iodepth 1 --verify off $P
echo \"DIXLOAD-EXIT \$?\"
echo RUN soft-8x16
dixload --engine kload --alg xts-aes-dixsoft --submit async --tfms 8 --iodepth 16 --verify off $P
echo \"DIXLOAD-EXIT \$?\"
echo RUN sweep
$(echo "$sweep" | sed 's/^dixload sweep /dixload sweep --json /')
echo \"DIXLOAD-EXIT \$?\"
echo SVG-BEGIN; cat /tmp/offload-sweep.svg; echo SVG-END
for p in devices instances engines latency_us mbps; do echo \"PARAM \$p \$(cat /sys/module/dixoffload/parameters/\$p)\"; done
# the named runs check every result: 2.4 ms of CPU each, which at the
# default 1 ms a request would leave the engines idle; at 200 ms the 32
# fit in the engine time (as kload-xts.sh runs the model)
echo 200000 > /sys/module/dixoffload/parameters/latency_us
for e in kload kcapi; do
	[ \$e = kcapi ] && [ $afalg = 0 ] && continue
	echo RUN \$e-named
	dixload --engine \$e --alg xts-aes-dixoffload --submit async --tfms 2 --iodepth 16 $P
	echo \"DIXLOAD-EXIT \$?\"
	echo RUN \$e-corrupt
	dixload --engine \$e --alg xts-aes-dixoffload --submit async --tfms 2 --iodepth 16 --max-report 0 $P > /tmp/c.out 2>&1 & pid=\$!
	# from the load's first interval with requests on: the requests before it (the
	# probes, kcapi's calibration: 20 at 200 ms) are the setup's, and a
	# wrong one there fails the setup instead (kcapi.c)
	while ! grep -q '\"interval\".*\"ops\":[1-9]' /tmp/c.out && kill -0 \$pid 2>/dev/null; do sleep 0.1; done
	c0=\$(cat /sys/module/dixoffload/parameters/corrupted)
	echo 7 > /sys/module/dixoffload/parameters/corrupt_every
	wait \$pid; st=\$?
	echo 0 > /sys/module/dixoffload/parameters/corrupt_every
	cat /tmp/c.out
	echo \"CORRUPTED \$((\$(cat /sys/module/dixoffload/parameters/corrupted) - c0))\"
	echo \"DIXLOAD-EXIT \$st\"
done"

kload_boot "$script" --kmod-load dixoffload --kmod-load dixsoft --icount-sleep off

write_judge <<'PY'
import math
runs, lines = marked_runs(sys.argv[1])
par = {l.split()[1]: int(l.split()[2]) for l in lines if l.startswith("PARAM ")}
if sorted(par) != ["devices", "engines", "instances", "latency_us", "mbps"]:
    fail("the model's parameters were not read: %s" % par)
devs, E, bs = par["devices"], par["engines"], 4096
S = (par["latency_us"] + bs / par["mbps"]) * 1e-6     # engine time, s

def summary(name):
    r = runs.get(name)
    if not r or r["exit"] != 0:
        fail("%s: want exit 0, got %s: %s" % (name, r and r["exit"], r and r["text"][-4:]))
    s = [x for x in r["recs"] if x.get("type") == "summary"]
    if not s or s[0]["err"] != 0 or s[0]["ops"] == 0:
        fail("%s: want a summary with Err 0 over some requests" % name)
    return s[0]

soft = [summary(n)["ops"] / summary(n)["elapsed"] for n in ("soft-1", "soft-8x16")]
sw = runs.get("sweep")
if not sw or sw["exit"] != 0:
    fail("the sweep: want exit 0: %s" % (sw and sw["text"][-4:]))
pts = {(int(p["point"]["tfms"]), int(p["point"]["iodepth"])): p
       for p in sw["recs"] if p.get("type") == "sweep_point"}
T_, D_ = [1, 2, 4, 8], [1, 2, 4, 8, 16, 32]
if sorted(pts) != sorted((t, d) for t in T_ for d in D_):
    fail("the sweep's points: %s" % sorted(pts))

# The formula (doc/offload.md): a TFM binds to the device with the fewest
# TFMs, so T TFMs put ceil/floor(T / devices) on each; a device's requests
# cycle through the CPU (c) and an engine (S), n of them give n / (c + S)
# up to its E engines' E / S; the CPU caps the sum at 1 / c.  c is the one
# figure measured, from the 1 x 1 point: X = 1 / (c + S).
c = 1 / pts[(1, 1)]["iops"] - S
def formula(T, D):
    per = [T // devs + (1 if k < T % devs else 0) for k in range(devs)]
    return min(sum(min(n * D / (c + S), E / S) for n in per), 1 / c)

print("model: devices %d x %d engines, S = %.0f us, c = %.1f us (from 1 x 1), CPU cap %.0f IOPS"
      % (devs, E, S * 1e6, c * 1e6, 1 / c))
print("dixsoft: 1 x 1 %.0f IOPS, 8 x 16 %.0f IOPS" % tuple(soft))
print("%-8s %10s %10s %8s %10s" % ("point", "measured", "formula", "diff", "in flight"))
worst = 0
for T in T_:
    for D in D_:
        p, f = pts[(T, D)], formula(T, D)
        d = p["iops"] / f - 1
        worst = max(worst, abs(d))
        print("%d x %-4d %10.0f %10.0f %+7.1f%% %10.2f" % (T, D, p["iops"], f, 100 * d, p["inflight"]))
        if abs(d) > 0.10:
            fail("%d x %d: %.0f IOPS, the formula gives %.0f (10 %% allowed)" % (T, D, p["iops"], f))
        if T == 1 and p["iops"] > 1.02 * E / S:
            fail("1 x %d: %.0f IOPS, above one device's engines (%.0f)" % (D, p["iops"], E / S))
print("every point within %.1f %% of the formula" % (100 * worst))

# the picture doc/crypto.md shows: the --plot the command asks for, whole
svg = lines[lines.index("SVG-BEGIN") + 1:lines.index("SVG-END")] if "SVG-END" in lines else []
try:
    import xml.etree.ElementTree as ET
    ET.fromstring("\n".join(svg))
except Exception as e:
    fail("the sweep's --plot is not an SVG: %s" % e)
if os.environ.get("OFFLOAD_SWEEP_SVG"):
    open(os.environ["OFFLOAD_SWEEP_SVG"], "w").write("\n".join(svg) + "\n")

# knees: dixload's rule (src/core/sweepknee.c) over the formula's series
knees = [k for k in sw["recs"] if k.get("type") == "sweep_knee"]
if len(knees) != len(D_):
    fail("want a knee per iodepth series, got %d" % len(knees))
for k in knees:
    D = int(k["series"]["iodepth"])
    f = [formula(T, D) for T in T_]
    fk = min(i for i, v in enumerate(f) if v >= k["fraction"] * max(f))
    mk = T_.index(int(k["point"]["tfms"]))
    print("iodepth %2d: knee at %d TFMs measured, %d by the formula" % (D, T_[mk], T_[fk]))
    if abs(mk - fk) > 1:
        fail("iodepth %d: the knee at %d TFMs, the formula's at %d" % (D, T_[mk], T_[fk]))

# where offload pays: the least requests in flight (T x D) that beat dixsoft
best_soft = max(soft)
def pays(rate):
    q = [T * D for T in T_ for D in D_ if rate(T, D) > best_soft]
    return min(q) if q else None
qm, qf = pays(lambda T, D: pts[(T, D)]["iops"]), pays(formula)
print("offload pays from %s requests in flight measured, %s by the formula (dixsoft %.0f IOPS)"
      % (qm, qf, best_soft))
if qm is None or qm != qf:
    fail("offload pays from %s in flight, the formula says %s" % (qm, qf))

for e in ("kload", "kcapi"):
    if e + "-named" not in runs:
        print("%s: not run (AF_ALG has no AIO on this kernel)" % e)
        continue
    s = summary(e + "-named")
    print("%s named: ops %d, Err 0, inflight_max %s, mean %s" % (e, s["ops"], s.get("inflight_max"), s.get("inflight_mean")))
    if s.get("inflight_max") != 32 or s.get("inflight_mean", 0) < 24:
        fail("%s named: want 32 in flight (2 TFMs x 16), 24 or more on average: max %s, mean %s"
             % (e, s.get("inflight_max"), s.get("inflight_mean")))
    r = runs.get(e + "-corrupt")
    got = [int(l.split()[1]) for l in r["text"] if l.startswith("CORRUPTED ")]
    s = [x for x in r["recs"] if x.get("type") == "summary"]
    if r["exit"] != 3 or not got or not s:
        fail("%s corrupt: want exit 3 and the module's count: exit %s, %s" % (e, r["exit"], r["text"][-4:]))
    v = s[0]["errors"]["verify"]
    print("%s corrupt: %d wrong results counted, the model corrupted %d, of %d" % (e, v, got[0], s[0]["ops"]))
    if v != got[0] or v == 0:
        fail("%s corrupt: %d counted, %d corrupted" % (e, v, got[0]))
PY
python3 "$WORK/judge.py" "$WORK/out"
