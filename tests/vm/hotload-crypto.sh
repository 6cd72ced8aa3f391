#!/bin/sh
# Crypto watch: qat_c62x loaded without QAT hardware registers nothing (and says so); aesni_intel registers AES drivers that replace the generic ones in the crypto selection, shown as change events.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_alone
need_dixload
need_python

script="$(guest_need_module qat_c62x)
$(guest_need_module aesni_intel)
dixload --dev /dev/sda --runtime 7 --hotload qat_c62x@2 --hotload aesni_intel@4 --output-format json
echo \"DIXLOAD-EXIT \$?\""

boot_guest "" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])

if "DIXLOAD-EXIT 0" not in lines:
    fail("dixload exit: %s" % [l for l in lines if l.startswith("DIXLOAD-EXIT")])
events = [r for r in recs if r["type"] == "event"]
def action(name):
    a = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe " + name]
    if len(a) != 1 or not a[0]["ok"]:
        fail("%s: %s" % (name, a))
    return a[0]
qat = action("qat_c62x")
if qat["crypto_added"] or not qat.get("detail", "").startswith("registered nothing"):
    fail("qat_c62x without hardware: %s / %s" % (qat.get("detail"), qat["crypto_added"]))
if "intel_qat" not in qat["modules_loaded"]:
    fail("qat_c62x: intel_qat not listed as loaded: %s" % qat["modules_loaded"])
print("qat_c62x: %s" % qat["detail"])
# nothing may change in the selection between the QAT load and aesni's
aes = action("aesni_intel")
between = [e for e in events if e["kind"] == "change" and qat["t"] <= e["t"] < aes["t"]]
if between:
    fail("changes after the QAT load: %s" % [e["what"] for e in between])
added = {a["driver"]: a for a in aes["crypto_added"]}
for d in ("aes-aesni", "xts-aes-aesni", "cbc-aes-aesni"):
    if d not in added:
        fail("aesni_intel: %s not in crypto_added %s" % (d, sorted(added)))
ch = {e["algorithm"]: e for e in events if e["kind"] == "change" and e.get("change") == "driver"}
if "aes" not in ch or ch["aes"]["from"]["driver"] != "aes-generic" or ch["aes"]["to"]["driver"] != "aes-aesni":
    fail("no aes: aes-generic -> aes-aesni change: %s" % [e["what"] for e in events])
for alg, drv in (("xts(aes)", "xts-aes-aesni"), ("cbc(aes)", "cbc-aes-aesni")):
    if alg not in ch or ch[alg]["to"]["driver"] != drv:
        fail("no %s -> %s change" % (alg, drv))
for e in events:
    if e["kind"] == "change":
        print("change at %.1f s: %s" % (e["t"], e["what"]))
PY
python3 "$WORK/judge.py" "$WORK/out"
