#!/bin/sh
# kload engine on 6.1: xts(aes) (sync: 16 kernel threads per TFM) and cryptd(xts(aes)) (async), 2 TFMs x 16 in flight each, every result checked in the kernel: exit 0, Err 0, the module's own inflight_max reported: the 32 asked with cryptd, no more than that (1 measured: a synchronous driver on one CPU) with xts(aes); then with the module's allow_corrupt=1 and --test-corrupt-every 100 the wrong results are counted (exit 3, Err of kind verify, about one in 100 requests) and the error names the TFM and the request.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs

# xts(aes) is synchronous on 6.1 without aesni (xts(ecb(aes-generic))): an
# async submission completes inside the call (measured: inflight_max 1), so
# its 16 per TFM are 16 kernel threads each waiting (--submit sync);
# cryptd(xts(aes)) defers to its worker, so async holds them
script="for a in 'xts(aes):sync' 'cryptd(xts(aes)):async'; do
echo \"ALG \${a%:*}\"
dixload --engine kload --alg \"\${a%:*}\" --bs 4k --rw write --submit \${a##*:} --tfms 2 --iodepth 16 --runtime 6 --seed 3 --output-format json
echo \"DIXLOAD-EXIT \$?\"
done
echo ALG corrupt
dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 2 --iodepth 16 --runtime 4 --seed 3 --test-corrupt-every 100 --output-format json 2>&1
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

# allow_corrupt=1 permits the test switch only: the first two runs ask none
kload_boot "$script" --kmod-load 'dixkload,allow_corrupt=1'

write_judge <<'PY'
import json
runs, cur = {}, None
for l in open(sys.argv[1], errors="replace"):
    l = l.rstrip("\n")
    if l.startswith("ALG "):
        cur = l[4:]; runs[cur] = {"recs": [], "text": [], "exit": None}
    elif cur and l.startswith("DIXLOAD-EXIT "):
        runs[cur]["exit"] = int(l.split()[1])
    elif cur:
        runs[cur]["text"].append(l)
        try:
            runs[cur]["recs"].append(json.loads(l))
        except ValueError:
            pass
for a in ("xts(aes)", "cryptd(xts(aes))"):
    r = runs.get(a)
    if not r or r["exit"] != 0:
        fail("%s: want exit 0: %s" % (a, r and r["text"][-5:]))
    summ = [x for x in r["recs"] if x.get("type") == "summary"][0]
    notes = [x["what"] for x in r["recs"] if x.get("type") == "event" and x["kind"] == "note"]
    print(a, "ops", summ["ops"], "err", summ["err"], "inflight_max", summ.get("inflight_max"), notes)
    if summ["err"] != 0 or summ["ops"] == 0:
        fail("%s: want Err 0 over some requests" % a)
    if not any("kload: 2 TFMs x 16 in flight, " in n for n in notes):
        fail("%s: no start note naming the load and its driver" % a)
    # a synchronous driver on the guest's one CPU runs each request to its
    # end inside the call (measured on 6.1: 1 at once, however many threads
    # wait); a deferring one (cryptd) holds every slot: the depth asked
    want = (1, 32) if a == "xts(aes)" else (32, 32)
    im = summ.get("inflight_max")
    if im is None or not want[0] <= im <= want[1]:
        fail("%s: inflight_max %s, want %s (2 TFMs x 16 asked)" % (a, im, want))
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
