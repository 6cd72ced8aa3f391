#!/bin/sh
# The offload model's full ring (issue 36): dixoffload with ring_size=2 (two requests on an instance's ring; each of 2 TFMs on an instance of its own device), 16 in flight per TFM. The in-kernel load's async requests carry MAY_BACKLOG: the rest are backlogged (-EBUSY, then -EINPROGRESS as a slot frees) and the rate is the rings' bound, 2 devices x 2 / S, within 5 %, Err 0 with 1 result in 16 checked; its sync threads carry none: a full ring refuses (-ENOSPC, as QAT does), the threads retry, Err 0. Through AF_ALG (6.1.0-50, whose algif_skcipher has AIO and asks no backlog) a refused request fails its AIO call: the run counts I/O errors and ends at its runtime (exit 2). It hung before: libkcapi 1.4's AIO call never returns on a handle whose earlier call failed (CVE-2026-71227), and the kcapi engine now gives such a TFM a new op socket.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
vm_alone
afalg=0
case $(vm_kver) in 6.1.0-50-*) afalg=1 ;; esac

P="--bs 4k --rw write --runtime 3 --seed 7 --output-format json"
script="c() { for p in backlogged refused completed; do printf '%s=%s ' \$p \$(cat /sys/module/dixoffload/parameters/\$p); done; echo; }
echo \"PARAM \$(cat /sys/module/dixoffload/parameters/ring_size) \$(cat /sys/module/dixoffload/parameters/latency_us) \$(cat /sys/module/dixoffload/parameters/mbps)\"
echo \"COUNT0 \$(c)\"
echo RUN backlog
dixload --engine kload --alg xts-aes-dixoffload --submit async --tfms 2 --iodepth 16 --verify-every 16 $P
echo \"DIXLOAD-EXIT \$?\"
echo \"COUNT1 \$(c)\"
echo RUN enospc
dixload --engine kload --alg xts-aes-dixoffload --submit sync --tfms 1 --iodepth 8 --verify-every 16 $P
echo \"DIXLOAD-EXIT \$?\"
echo \"COUNT2 \$(c)\"
if [ $afalg = 1 ]; then
	echo RUN afalg
	timeout -k 5 60 dixload --engine kcapi --alg xts-aes-dixoffload --submit async --tfms 2 --iodepth 16 --max-report 0 $P 2>&1
	echo \"DIXLOAD-EXIT \$?\"
fi"

kload_boot "$script" --kmod-load dixoffload,ring_size=2 --icount-sleep off

write_judge <<'PY'
runs, lines = marked_runs(sys.argv[1])
par = [l.split()[1:] for l in lines if l.startswith("PARAM ")]
if not par or par[0][0] != "2":
    fail("dixoffload was not loaded with ring_size=2: %s" % par)
S = (int(par[0][1]) + 4096 / int(par[0][2])) * 1e-6
cnt = {}
for l in lines:
    if l.startswith("COUNT"):
        cnt[l.split()[0]] = {k: int(v) for k, v in (x.split("=") for x in l.split()[1:])}
def summary(name, want_exit=0):
    r = runs.get(name)
    if not r or r["exit"] != want_exit:
        fail("%s: want exit %d, got %s: %s" % (name, want_exit, r and r["exit"], r and r["text"][-4:]))
    return [x for x in r["recs"] if x.get("type") == "summary"][0]
b = summary("backlog")
x = b["ops"] / b["elapsed"]
pred = 2 * 2 / S
back = cnt["COUNT1"]["backlogged"] - cnt["COUNT0"]["backlogged"]
print("backlog: %.0f IOPS, the rings' bound 2 x 2 / S = %.0f (%+.1f %%); %d of %d requests backlogged, Err %d"
      % (x, pred, 100 * (x / pred - 1), back, b["ops"], b["err"]))
if b["err"] != 0 or back == 0 or abs(x / pred - 1) > 0.05:
    fail("backlog: want Err 0, backlogged requests and the rings' bound within 5 %")
e = summary("enospc")
ref = cnt["COUNT2"]["refused"] - cnt["COUNT1"]["refused"]
x = e["ops"] / e["elapsed"]
print("enospc: %.0f IOPS (the ring's bound 2 / S = %.0f), %d refusals (-ENOSPC) retried, Err %d" % (x, 2 / S, ref, e["err"]))
if e["err"] != 0 or ref == 0 or x > 1.02 * 2 / S:
    fail("enospc: want Err 0, refusals, and no more than the ring's bound")
if "afalg" in runs:
    a = summary("afalg", 2)
    print("afalg: exit 2 at its runtime (%.2f s), ops %d, I/O errors %d" % (a["elapsed"], a["ops"], a["errors"]["io"]))
    if a["elapsed"] > 6 or a["errors"]["io"] == 0:
        fail("afalg: want the refusals counted as I/O errors and the run ended at its runtime")
else:
    print("afalg: not run (AF_ALG has no AIO on this kernel)")
PY
python3 "$WORK/judge.py" "$WORK/out"
