#!/bin/sh
# dixoffload, the QAT-shaped offload model (issue 36), through AF_ALG on 6.1: built from kmod/ against the guest kernel's headers by dixvm --kmod; software xts(aes) from 1 TFM, the model hot-loaded mid-run, then the model from 1 synchronous TFM (must lose to software) and 1, 2, 4, 8 asynchronous TFMs, each point within the band of doc/offload.md's formula; with corrupt_every=7 the run exits 3 and its wrong results equal the module's own count of corrupted ones.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_alone

# dixvm --kmod builds kmod/ (dixoffload among its modules) against the
# guest kernel's own headers and installs it in extra/ with depmod
script="$(kcapi_prelude)
R='dixload --engine kcapi --alg xts(aes) --bs 4k --rw write --runtime 3 --seed 1 --max-report 0'
echo \"SOFT sync 1 \$(\$R --tfms 1 --submit sync 2>&1 | grep '^write' | tail -1)\"
echo \"HOTLOAD sync 1 \$(dixload --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --runtime 8 --seed 1 --tfms 1 --submit sync --hotload dixoffload@4 2>&1 | grep -E -A1 '^write|^transition|exit status' | tr -s ' \n' ' ')\"
grep -q '^driver *: xts-aes-dixoffload' /proc/crypto && echo REGISTERED
for p in devices instances engines ring_size latency_us mbps; do echo \"PARAM \$p \$(cat /sys/module/dixoffload/parameters/\$p)\"; done
echo \"MODEL sync 1 \$(\$R --tfms 1 --submit sync 2>&1 | grep '^write' | tail -1)\"
for t in 1 2 4 8; do echo \"MODEL async \$t \$(\$R --tfms \$t --submit async 2>&1 | grep '^write' | tail -1)\"; done
# corrupting from 1 s in: the requests before the load (the async form's
# io_submit probe, the checks' calibration) are not the load's; a wrong
# one there fails the run's setup instead (kcapi.c), which is not what
# this counts
\$R --tfms 8 --submit async > c.out 2>&1 & pid=\$!
sleep 1
c0=\$(cat /sys/module/dixoffload/parameters/corrupted)
echo 7 > /sys/module/dixoffload/parameters/corrupt_every
wait \$pid; echo \"CORRUPT-EXIT \$?\"
echo 0 > /sys/module/dixoffload/parameters/corrupt_every
echo \"CORRUPTED \$((\$(cat /sys/module/dixoffload/parameters/corrupted) - c0))\"
echo \"CORRUPT-SUMMARY \$(grep -E '^ *ops [0-9]+, ' c.out | tail -1)\""

boot_guest "" --scsi-debug none --kmod -- sh -c "$script"

write_judge <<'PY'
import re
lines, recs = load(sys.argv[1])
def iops(tag):
    l = [x for x in lines if x.startswith(tag + " ")]
    m = re.search(r"([0-9.]+) MB/s, +([0-9]+) IOPS", l[0]) if l else None
    if not m:
        fail("no figure for %r: %s" % (tag, l))
    print("%-16s %7.2f MB/s %6d IOPS" % (tag, float(m.group(1)), int(m.group(2))))
    return float(m.group(1)), int(m.group(2))
if "REGISTERED" not in lines:
    fail("xts-aes-dixoffload not in /proc/crypto after the hot-load")
print([l for l in lines if l.startswith("HOTLOAD")][0])
par = {l.split()[1]: int(l.split()[2]) for l in lines if l.startswith("PARAM ")}
soft = iops("SOFT sync 1")
sync1 = iops("MODEL sync 1")
pts = {t: iops("MODEL async %d" % t) for t in (1, 2, 4, 8)}
# doc/offload.md: S = latency_us + n/mbps; c = the guest CPU per request
# (the cap 1/c, measured at the deepest point); X(Q) = min(Q/(c+S), 1/c,
# E*D/S) with D the devices Q TFMs reach (min(Q, devices)).
n = 4096
S = par["latency_us"] + (n / par["mbps"] if par["mbps"] else 0)
c = 1e6 / pts[8][1]
E = par["engines"]
def pred(q):
    return min(q / (c + S), 1 / c, E * min(q, par["devices"]) / S) * 1e6
BAND = 0.12
for t in (1, 2, 4):
    p = pred(t)
    d = pts[t][1] / p - 1
    print("async %d TFM(s): measured %d IOPS, formula %.0f (S %.0f us, c %.0f us): %+.1f %%" % (t, pts[t][1], p, S, c, 100 * d))
    if abs(d) > BAND:
        fail("async %d TFMs: %d IOPS is %+.1f %% from the formula's %.0f (band +-%d %%)" % (t, pts[t][1], 100 * d, p, 100 * BAND))
knee = (c + S) / c
print("formula's knee: %.2f requests in flight (%s TFMs at iodepth 1)" % (knee, min(t for t in (1, 2, 4, 8) if t >= knee)))
if not sync1[0] < soft[0]:
    fail("sync from 1 TFM: the model (%.2f MB/s) must lose to software (%.2f)" % (sync1[0], soft[0]))
if not pts[8][0] > soft[0]:
    fail("8 async TFMs: the model (%.2f MB/s) must beat software (%.2f)" % (pts[8][0], soft[0]))
ex = [l for l in lines if l.startswith("CORRUPT-EXIT ")]
if ex != ["CORRUPT-EXIT 3"]:
    fail("with corrupt_every=7 want exit 3: %s" % ex)
k = int([l for l in lines if l.startswith("CORRUPTED ")][0].split()[1])
s = [l for l in lines if l.startswith("CORRUPT-SUMMARY ")][0]
m = re.search(r"verify ([0-9]+)", s)
print("corrupted by the module %d, verify errors reported %s: %s" % (k, m.group(1) if m else "?", s))
if not m or int(m.group(1)) != k or k == 0:
    fail("want the wrong results (%s) to equal the corrupted ones (%d)" % (m.group(1) if m else "none", k))
PY
python3 "$WORK/judge.py" "$WORK/out"
