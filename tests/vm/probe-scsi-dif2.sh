#!/bin/sh
# dixload probe on scsi_debug dif=2 dix=1: prot_en true, protection type 2, kernel format T10-DIF-TYPE1-CRC (Type 2 shown as TYPE1), interval 512.
. "$top_srcdir/tests/vm/lib.sh"
need_feature sgutils
need_vm
need_dixload
need_python

vm --scsi-debug 'dif=2 dix=1 guard=0 dev_size_mb=64 delay=0' -- \
	dixload probe /dev/sda --json > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "probe JSON check failed: $(cat "$WORK/out")"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
assert len(lines) == 1, "expected one JSON object, got %d" % len(lines)
p = json.loads(lines[0])
i, s = p["integrity"], p["scsi"]
assert p["kind"] == "scsi", p["kind"]
assert i["format"] == "T10-DIF-TYPE1-CRC", i
assert i["protection_interval_bytes"] == 512, i
assert i["device_is_integrity_capable"] is True, i
assert s["prot_en"] is True and s["protection_type"] == 2, s
assert s["p_i_exponent"] == 0 and s["logical_block_size"] == 512, s
assert s["protect"] is True and s["product"] == "scsi_debug", s
assert s["extended_inquiry"] is not None and s["block_limits"] is not None, s
assert s["scsi_debug"]["dif"] == "2" and s["scsi_debug"]["dix"] == "1", s
d = p["diagnosis"]
assert any("Type 2 shown by the kernel as T10-DIF-TYPE1-CRC (expected" in l for l in d), d
assert "sg" in p["pi_modes"]["app"] and "libaio" in p["pi_modes"]["kernel"], p["pi_modes"]
PY
exit 0
