#!/bin/sh
# Guard=1 (IP checksum): hot-loading crct10dif_pclmul changes nothing measurable and the analysis reports no significant change instead of inventing a transition.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
need_dixload
need_python

script="$(guest_profiles dix-ip)
$(guest_need_module crct10dif_pclmul)
dd if=/dev/zero of=/dev/sda bs=1M count=64 oflag=direct 2> /dev/null
dixload --dev /dev/sda --profile dix-ip --runtime 20 --hotload crct10dif_pclmul@8 --output-format json
echo \"DIXLOAD-EXIT \$?\""

vm --scsi-debug 'dif=1 dix=1 guard=1 dev_size_mb=256 delay=0' -- sh -c "$script" > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 77 ] && skip "kernel '$DIXVM_KERNEL' has no crct10dif_pclmul module (CRC-T10DIF built in since 6.14)"
vm_status_check "$st"
[ "$st" = 0 ] || fail "guest command status $st: $(tail -c 800 "$WORK/err")"

python3 - "$WORK/out" <<'PY'
import json, sys

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
recs = [json.loads(l) for l in lines if l.startswith('{"type"')]
def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

if "DIXLOAD-EXIT 0" not in lines:
    fail("dixload exit: %s" % [l for l in lines if l.startswith("DIXLOAD-EXIT")])
start = [r for r in recs if r["type"] == "start"][0]
if start["integrity"].get("format") != "T10-DIF-TYPE1-IP":
    fail("device format %s, not T10-DIF-TYPE1-IP" % start["integrity"])
events = [r for r in recs if r["type"] == "event"]
act = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe crct10dif_pclmul"]
if len(act) != 1 or not act[0]["ok"]:
    fail("hot-load event missing or failed: %s" % act)
# the kernel did switch its CRC: the watch must still say so
if not any(e["kind"] == "change" and e["what"].startswith("crc_t10dif transform:") for e in events):
    fail("no transform change event")
summ = [r for r in recs if r["type"] == "summary"][0]
tr = summ["transitions"]
if len(tr) != 1:
    fail("want one transition row (the transform change folded into the load), got %s" % tr)
tr = tr[0]
print("guard=1: before %.2f MB/s (sd %.2f, n %d), after %.2f MB/s (sd %.2f, n %d), ratio %.3f, change_at %s, significant %s"
      % (tr["before"] / 1e6, tr["before_sd"] / 1e6, tr["n_before"],
         tr["after"] / 1e6, tr["after_sd"] / 1e6, tr["n_after"],
         tr["ratio"], tr["change_at"], tr["significant"]))
if tr["n_before"] < 4 or tr["n_after"] < 4:
    fail("too few steady intervals measured")
if tr["significant"] or tr["change_at"] is not None:
    fail("a transition was reported where the CRC is not used")
PY
