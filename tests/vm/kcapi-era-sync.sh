#!/bin/sh
# kcapi --submit async against what the kernel does with io_submit, on any 6.1-7.1 kernel: where the guest's algif_skcipher has no AIO path (no af_alg_async_cb in its module: Debian 12's 6.1.0-57) the start note says async submission completes synchronously, with the kernel's release, and the measured inflight_max is at most 1 per submitting thread; where it has one (6.1.0-50) the note says AIO works and cryptd(xts(aes)) at --iodepth 16 reaches more than 1 in flight (measured); a synchronous driver completes inside io_submit on either, and its note says it is the driver's doing. The oracle is the module's own symbols, not the kernel's version, and not dixload's output.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_era '<= 7.1' "7.2 removed AIO on AF_ALG sockets and bind refuses cryptd(...) (tests/vm/kcapi-era-sid.sh)"

script="$(kcapi_prelude)
m=\$(find /lib/modules/\$(uname -r) -name 'algif_skcipher.ko*' | head -n 1)
case \$m in *.xz) c=\$(xzcat \"\$m\" | grep -c af_alg_async_cb) ;; *) c=\$(grep -c af_alg_async_cb \"\$m\") ;; esac
echo \"AIO-PATH \$c \$m\"
dixload --engine kcapi --alg 'cryptd(xts(aes))' --submit async --iodepth 16 --bs 4k --rw write --seed 7 --runtime 3 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg 'xts(aes)' --submit async --tfms 2 --iodepth 16 --iodepth-batch 16 --bs 4k --rw write --seed 8 --runtime 3 --output-format json
echo \"DIXLOAD-EXIT \$?\""

kcapi_boot "$script"

write_judge <<'PY'
import re
lines, recs = load(sys.argv[1])
aio = [l for l in lines if l.startswith("AIO-PATH ")]
if len(aio) != 1 or not aio[0].split()[1].isdigit():
    fail("cannot tell whether algif_skcipher has its AIO path: %s" % aio)
has_aio = int(aio[0].split()[1]) > 0
print("algif_skcipher: %s (%s)" % ("AIO path (af_alg_async_cb)" if has_aio else "no AIO path", aio[0].split()[2] if len(aio[0].split()) > 2 else "?"))
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
if ex != ["DIXLOAD-EXIT 0"] * 2:
    fail("dixload exits: %s" % ex)
# the records of each run: its events up to its summary
runs, cur = [], []
for r in recs:
    cur.append(r)
    if r["type"] == "summary":
        runs.append(cur)
        cur = []
if len(runs) != 2:
    fail("want 2 runs, got %d" % len(runs))
for name, run, threads, async_drv in (("cryptd(xts(aes))", runs[0], 16, True), ("xts(aes) --tfms 2", runs[1], 2, False)):
    s = run[-1]
    notes = [e["what"] for e in run if e["type"] == "event" and e["kind"] == "note" and e["what"].startswith("kcapi: --submit async on Linux ")]
    if len(notes) != 1:
        fail("%s: want one note on io_submit: %s" % (name, notes))
    n = notes[0]
    print("%s: %s" % (name, n))
    if "inflight_max" not in s or "inflight_mean" not in s:
        fail("%s: the summary has no measured in flight: %s" % (name, sorted(s)))
    mx, mean = s["inflight_max"], s["inflight_mean"]
    print("%s: inflight_max %d, inflight_mean %.2f, %d ops, err %d" % (name, mx, mean, s["ops"], s["err"]))
    if s["err"] != 0 or s["ops"] == 0:
        fail("%s: want Err 0 over some requests" % name)
    if mean > mx or mean <= 0:
        fail("%s: mean %.2f outside (0, max %d]" % (name, mean, mx))
    sync = async_drv and not has_aio or not async_drv
    if sync:
        if "completes synchronously" not in n or not re.search(r"Linux \S+ \(\S+\)|Linux \S+ completes", n):
            fail("%s: the note does not say async completes synchronously, with the kernel: %s" % (name, n))
        if mx > threads:
            fail("%s: inflight_max %d, but %d threads each hold 1 when io_submit completes inside the call" % (name, mx, threads))
        want = "the driver is asynchronous" if async_drv else "the driver is synchronous"
        if want not in n:
            fail("%s: the note does not say '%s': %s" % (name, want, n))
    else:
        if "AIO works" not in n:
            fail("%s: algif_skcipher has its AIO path, the note says otherwise: %s" % (name, n))
        if mx <= 1:
            fail("%s: --iodepth 16 with AIO reached only %d in flight (measured)" % (name, mx))
PY
python3 "$WORK/judge.py" "$WORK/out"
