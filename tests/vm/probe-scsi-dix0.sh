#!/bin/sh
# dixload probe on scsi_debug dif=0 dix=1: the drive has no PI (prot_en false) and the diagnosis reports DIX0, host-side only.
. "$top_srcdir/tests/vm/lib.sh"
need_feature sgutils
need_vm
need_dixload
need_python

vm --scsi-debug 'dif=0 dix=1 guard=0 dev_size_mb=64 delay=0' -- \
	dixload probe /dev/sda --json > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "probe JSON check failed: $(cat "$WORK/out")"
import json, sys
p = json.loads(next(l for l in open(sys.argv[1]) if l.startswith("{")))
i, s = p["integrity"], p["scsi"]
if not (i["format"] == "T10-DIF-TYPE1-CRC"):
    raise AssertionError(i)
if not (i["device_is_integrity_capable"] is False):
    raise AssertionError(i)
if not (s["prot_en"] is False and s["protection_type"] == 0):
    raise AssertionError(s)
if not (s["protect"] is False):
    raise AssertionError(s)
if not (s["host"]["prot_capabilities"] & 0x8):
    raise AssertionError(s["host"])
d = p["diagnosis"]
if not (any("DIX0" in l and "host-side only" in l for l in d)):
    raise AssertionError(d)
if not (p["pi_modes"]["app"] == [] or "io_uring" in p["pi_modes"]["app"]):
    raise AssertionError(p["pi_modes"])
if not ("sg" not in p["pi_modes"]["app"]):
    raise AssertionError(p["pi_modes"])
PY
exit 0
