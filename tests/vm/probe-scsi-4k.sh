#!/bin/sh
# dixload probe on scsi_debug dif=2 dix=1 sector_size=4096: 4096-byte logical blocks and a 4096-byte protection interval.
. "$top_srcdir/tests/vm/lib.sh"
need_feature sgutils
need_vm
need_dixload
need_python

vm --scsi-debug 'dif=2 dix=1 guard=0 sector_size=4096 dev_size_mb=64 delay=0' -- \
	dixload probe /dev/sda --json > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "probe JSON check failed: $(cat "$WORK/out")"
import json, sys
p = json.loads(next(l for l in open(sys.argv[1]) if l.startswith("{")))
i, s, q = p["integrity"], p["scsi"], p["queue"]
if not (i["format"] == "T10-DIF-TYPE1-CRC"):
    raise AssertionError(i)
if not (i["protection_interval_bytes"] == 4096):
    raise AssertionError(i)
if not (s["logical_block_size"] == 4096 and q["logical_block_size"] == 4096):
    raise AssertionError((s, q))
if not (s["prot_en"] is True and s["protection_type"] == 2):
    raise AssertionError(s)
if not ((s["last_lba"] + 1) * 4096 == p["size_bytes"] == 64 << 20):
    raise AssertionError((s, p["size_bytes"]))
PY
exit 0
