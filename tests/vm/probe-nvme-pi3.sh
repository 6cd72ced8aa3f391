#!/bin/sh
# dixload probe on a QEMU NVMe namespace pi=3,ms=16,pil=1: protection type 3, 16 bytes of metadata, PI first, kernel format T10-DIF-TYPE3-CRC; its JSON matches doc/json.md.
. "$top_srcdir/tests/vm/lib.sh"
need_feature nvme
need_vm
need_dixload
need_python

vm --scsi-debug none --nvme pi=3,ms=16,pil=1 -- \
	dixload probe /dev/nvme0n1 --json > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "probe JSON check failed: $(cat "$WORK/out")"
import json, sys
p = json.loads(next(l for l in open(sys.argv[1]) if l.startswith("{")))
n, i = p["nvme"], p["integrity"]
if not (p["kind"] == "nvme"):
    raise AssertionError(p["kind"])
if not ("error" not in n):
    raise AssertionError(n)
if not (n["protection_type"] == 3):
    raise AssertionError(n)
if not (n["metadata_size"] == 16):
    raise AssertionError(n)
if not (n["pi_first"] is True and n["extended_lba"] is False):
    raise AssertionError(n)
if not (n["guard_bits"] == 16):
    raise AssertionError(n)
if not (n["serial"].strip() == "dixvm-scratch"):
    raise AssertionError(n)
if not (i["format"] == "T10-DIF-TYPE3-CRC"):
    raise AssertionError(i)
d = p["diagnosis"]
if not (any("namespace formatted Type 3" in l and "T10-DIF-TYPE3-CRC" in l for l in d)):
    raise AssertionError(d)
if not ("nvme" in p["pi_modes"]["app"]):
    raise AssertionError(p["pi_modes"])
PY
# the NVMe keys exist only in a guest: held to the doc here, every object
# Identify Namespace answers with required (a namespace that stops
# answering cannot pass unchecked)
grep '^{"device"' "$WORK/out" > "$WORK/probe.json"
python3 "$top_srcdir/tests/sh/json-doc.py" "$top_srcdir/doc/json.md" \
	--need probe:nvme.nsid --need probe:nvme.guard_bits --need probe:nvme.nsze \
	--need probe:nvme.nvm_identify probe="$WORK/probe.json" ||
	fail "guest probe output and doc/json.md disagree (above)"
exit 0
