#!/bin/sh
# A QAT in the start line (issue 36), on a real kernel without the card: the bed has no QAT device, so the crypto engines' start note says nothing of QAT until a QAT driver is loaded (modprobe qat_c62x, which every era ships), and then that the driver is loaded, that no QAT device is on the PCI bus, and that it registers no algorithm; /proc/crypto agrees (no QAT entry). doc/crypto.md's two commands for a host with a QAT, run as written, are refused at their start naming qat_aes_xts (exit 1). A present card is tests/unit/test-qat's, over fake trees.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
vm_alone

# doc/crypto.md's commands for a host with a QAT, as written: here, with
# the driver loaded and no card, each is refused at its start, naming it
qat=$(sed -n 's/^    \(dixload .*qat_aes_xts.*\)$/\1/p' "$top_srcdir/doc/crypto.md")
[ "$(echo "$qat" | wc -l)" = 2 ] || fail "doc/crypto.md lost its two QAT host commands: $qat"
R="dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --runtime 1 --verify-every 16"
script="echo RUN none
$R
echo \"DIXLOAD-EXIT \$?\"
modprobe qat_c62x; echo \"MODPROBE \$?\"
grep -c '^module *: intel_qat' /proc/crypto | sed 's/^/QATALGS /'
echo RUN loaded
$R
echo \"DIXLOAD-EXIT \$?\"
cd /tmp
echo RUN qat-sweep
$(echo "$qat" | sed -n 1p) 2>&1
echo \"DIXLOAD-EXIT \$?\"
echo RUN qat-priority
$(echo "$qat" | sed -n 2p) 2>&1
echo \"DIXLOAD-EXIT \$?\""

kload_boot "$script" --modules-extra qat_c62x --icount-sleep off

write_judge <<'PY'
runs, lines = marked_runs(sys.argv[1])
for name in ("none", "loaded"):
    if not runs.get(name) or runs[name]["exit"] != 0:
        fail("%s: want exit 0: %s" % (name, runs.get(name) and runs[name]["text"][-4:]))
q = [l for l in runs["none"]["text"] if "QAT:" in l]
if q:
    fail("no QAT here, yet the start line says: %s" % q)
if "MODPROBE 0" not in lines or "QATALGS 0" not in lines:
    fail("modprobe qat_c62x: want status 0 and no QAT algorithm in /proc/crypto: %s"
         % [l for l in lines if l.startswith(("MODPROBE", "QATALGS"))])
q = [l for l in runs["loaded"]["text"] if "QAT:" in l]
print("start line:", q)
want = "QAT: modules intel_qat, qat_c62x loaded, no QAT device on the PCI bus: it registers no algorithm"
if not any(want in l for l in q):
    fail("with qat_c62x loaded the start line lacks '%s'" % want)
for name in ("qat-sweep", "qat-priority"):
    r = runs.get(name)
    said = [l for l in (r["text"] if r else []) if "qat_aes_xts" in l and "dixload" in l]
    print(name, r and r["exit"], said[:2])
    if not r or r["exit"] != 1 or not said:
        fail("%s: want exit 1 and a refusal naming qat_aes_xts: %s" % (name, r and r["text"][:8]))
PY
python3 "$WORK/judge.py" "$WORK/out"
