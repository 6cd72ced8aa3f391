#!/bin/sh
# kload engine on every era (6.1.0-50 by default; CI runs it again on 6.1.0-57, 6.12 and sid): 2 TFMs x 16 in flight each, every result checked in the kernel, exit 0 and Err 0, and the module's measured inflight_max is the 32 asked with the offload model (24-32 with cryptd, whose worker may finish one before the last is in; a synchronous driver's 32 threads overlap in it as far as the scheduler preempts them: 8-32 at once): xts(aes) on the default driver (sync: 32 kernel threads; the guest boots with preempt=full, see below), cryptd(xts(aes)) (async) where the kernel has cryptd (where it has none, as sid's 7.2, the run is refused naming CONFIG_CRYPTO_CRYPTD), and the offload model's async xts-aes-dixoffload (at 200 ms a request); then with the module's allow_corrupt=1 and --test-corrupt-every 100 the wrong results are counted (exit 3, Err of kind verify, one in 100 requests) and the error names the TFM and the request.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs

# A synchronous driver runs a request to its end inside the call.  Under
# Debian's default voluntary preemption (6.1, 6.12) a kernel thread is not
# preempted inside it, so on the guest's one CPU 32 waiting threads hold
# 1 request in the driver at a time (measured: inflight_max 1), which is
# what the module reports there.  With preempt=full (Debian's kernels are
# PREEMPT_DYNAMIC) the scheduler's tick preempts a thread mid-request and
# the next one starts its own: the requests are in the driver together,
# as on an SMP host with a CPU per thread.  7.x's lazy preemption does so
# too, a tick later.
#
# The offload model at 200 ms a request: a device slow enough that 32
# requests wait in it, not in the guest's one CPU (at its default 1 ms the
# fallback's and the check's CPU, 2.4 ms a request, is the bottleneck and
# the slots wait for the CPU: measured max 28, mean 0.77).
#
# cryptd: Debian's sid kernel is built without it (CONFIG_CRYPTO_CRYPTD is
# not set; no cryptd.ko, not in modules.builtin); the guest says which.
script="echo KVER \$(uname -r)
if modinfo -n cryptd > /dev/null 2>&1 || grep -qs '/cryptd.ko' /lib/modules/\$(uname -r)/modules.builtin; then echo CRYPTD yes; else echo CRYPTD no; fi
for a in 'xts(aes):sync' 'cryptd(xts(aes)):async'; do
echo \"ALG \${a%:*}\"
dixload --engine kload --alg \"\${a%:*}\" --bs 4k --rw write --submit \${a##*:} --tfms 2 --iodepth 16 --runtime 6 --seed 3 --output-format json 2>&1
echo \"DIXLOAD-EXIT \$?\"
done
modprobe dixoffload latency_us=200000 || echo 'NO-DIXOFFLOAD'
echo ALG dixoffload
dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 2 --iodepth 16 --runtime 6 --seed 3 --output-format json 2>&1
echo \"DIXLOAD-EXIT \$?\"
rmmod dixoffload
echo ALG corrupt
dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 2 --iodepth 16 --runtime 4 --seed 3 --test-corrupt-every 100 --output-format json 2>&1
echo \"DIXLOAD-EXIT \$?\""

# allow_corrupt=1 permits the test switch only: the other runs ask none
kload_boot "$script" --kmod-load 'dixkload,allow_corrupt=1' --append preempt=full

write_judge <<'PY'
runs, lines = marked_runs(sys.argv[1], "ALG ")
kver = ([l[5:] for l in lines if l.startswith("KVER ")] or ["?"])[0]
cryptd = ([l[7:] == "yes" for l in lines if l.startswith("CRYPTD ")] or [None])[0]
if "NO-DIXOFFLOAD" in lines:
    fail("modprobe dixoffload failed in the guest (the bed installs it)")
if cryptd is None:
    fail("the guest did not say whether its kernel has cryptd")
print("kernel", kver, "cryptd", cryptd)
want_drv = {"xts(aes)": None, "cryptd(xts(aes))": "cryptd(", "dixoffload": "xts-aes-dixoffload"}
for a in ("xts(aes)", "cryptd(xts(aes))", "dixoffload"):
    r = runs.get(a)
    if a == "cryptd(xts(aes))" and not cryptd:
        # the kernel has no cryptd: refused, and the reason says so
        if not r or r["exit"] != 1 or not any("CONFIG_CRYPTO_CRYPTD" in l for l in r["text"]):
            fail("%s on a kernel without cryptd: want exit 1 naming CONFIG_CRYPTO_CRYPTD: %s"
                 % (a, r and r["text"][-3:]))
        print(a, "refused:", [l for l in r["text"] if "CONFIG_CRYPTO_CRYPTD" in l][0])
        continue
    if not r or r["exit"] != 0:
        fail("%s: want exit 0: %s" % (a, r and r["text"][-5:]))
    summ = [x for x in r["recs"] if x.get("type") == "summary"][0]
    notes = [x["what"] for x in r["recs"] if x.get("type") == "event" and x["kind"] == "note"]
    print(a, "ops", summ["ops"], "err", summ["err"], "inflight_max", summ.get("inflight_max"),
          "inflight_mean", summ.get("inflight_mean"), notes)
    if summ["err"] != 0 or summ["ops"] == 0:
        fail("%s: want Err 0 over some requests" % a)
    start = [n for n in notes if "kload: 2 TFMs x 16 in flight, " in n]
    if not start:
        fail("%s: no start note naming the load and its driver" % a)
    if want_drv[a] and want_drv[a] not in start[0]:
        fail("%s: the start note does not name %s: %s" % (a, want_drv[a], start[0]))
    if "every request checked" not in start[0] and "every result checked" not in start[0]:
        fail("%s: the start note does not say every result is checked: %s" % (a, start[0]))
    # A synchronous driver's 32 threads each wait for a request of their
    # own, but the requests are in the driver together only as far as the
    # scheduler preempts them there: a thread checking its last result or
    # preparing its next holds none, and the check costs what the driver
    # does.  Measured with preempt=full on the guest's one CPU: max 31
    # (6.1.0-50, mean 8.6), 32 (6.1.0-57), 28 (6.12), 16 (7.2, whose
    # aes-lib is 2.4x faster: fewer preemptions land inside a request);
    # without it 1.  So a synchronous driver shows its requests overlap
    # (at least 8 at once, a mean above 4), and the model, which holds
    # every slot for its 200 ms, the 32 asked exactly.
    im, mean = summ.get("inflight_max"), summ.get("inflight_mean")
    if a == "xts(aes)":
        if im is None or not 8 <= im <= 32 or mean is None or mean <= 4:
            fail("%s: inflight_max %s, mean %s: want 8-32 at once and a mean above 4 (32 threads)"
                 % (a, im, mean))
    elif a == "dixoffload" and im != 32:
        fail("%s: inflight_max %s, want the 32 asked (2 TFMs x 16)" % (a, im))
    # cryptd's worker may take a request before the last of the 32 is in:
    # beside a busy host (1 CPU of other work) the guest's idle time, which
    # dixvm's default clock lets run with the host's, moved and 30 were at
    # once (measured); more than one TFM's 16 at once is what async proves
    elif a != "dixoffload" and (im is None or not 24 <= im <= 32):
        fail("%s: inflight_max %s, want 24-32 of the 32 asked (2 TFMs x 16)" % (a, im))
    # The mean is the CPU's split: cryptd's worker (nice 0) drains its queue
    # as fast as the slots' runners (nice 19) check and refill it, so with
    # every result checked (3x the driver's cost) the slots wait for their
    # checks, not in cryptd: measured mean 0.4.  The model at 200 ms a
    # request holds them in its rings whatever the CPU: 30
    elif a == "dixoffload" and (mean is None or mean < 24):
        fail("%s: inflight_mean %s, want 24 or more of the 32 (200 ms a request)" % (a, mean))
r = runs.get("corrupt")
if not r or r["exit"] != 3:
    fail("corrupt: want exit 3: %s" % (r and r["text"][-5:]))
summ = [x for x in r["recs"] if x.get("type") == "summary"][0]
v = summ["errors"]["verify"]
print("corrupt: ops", summ["ops"], "verify", v)
if not (summ["ops"] // 100 - 32 <= v <= summ["ops"] // 100 + 32):
    fail("corrupt: %d wrong results counted over %d requests, want one in 100" % (v, summ["ops"]))
if not any("TFM " in l and "request " in l and "differs from the software reference" in l for l in r["text"]):
    fail("corrupt: no error naming the TFM and the request")
PY
python3 "$WORK/judge.py" "$WORK/out"
