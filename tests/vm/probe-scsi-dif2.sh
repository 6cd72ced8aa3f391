#!/bin/sh
# dixload probe on scsi_debug dif=2 dix=1: prot_en true, protection type 2, kernel format T10-DIF-TYPE1-CRC (Type 2 shown as TYPE1), interval 512; its JSON and the guest kernel's crcbench AF_ALG lines match doc/json.md.
. "$top_srcdir/tests/vm/lib.sh"
need_feature sgutils
need_vm
need_dixload
need_python

# crcbench --impl kernel runs only the AF_ALG part: the SCSI keys and the
# kernel crct10dif keys exist only in a guest, so they are checked here.
vm --scsi-debug 'dif=2 dix=1 guard=0 dev_size_mb=64 delay=0' -- sh -c '
	dixload probe /dev/sda --json &&
	dixload crcbench --seconds 0.001 --json --impl kernel' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "probe JSON check failed: $(cat "$WORK/out")"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('{"device"')]
if not (len(lines) == 1):
    raise AssertionError("expected one JSON object, got %d" % len(lines))
p = json.loads(lines[0])
i, s = p["integrity"], p["scsi"]
if not (p["kind"] == "scsi"):
    raise AssertionError(p["kind"])
if not (i["format"] == "T10-DIF-TYPE1-CRC"):
    raise AssertionError(i)
if not (i["protection_interval_bytes"] == 512):
    raise AssertionError(i)
if not (i["device_is_integrity_capable"] is True):
    raise AssertionError(i)
if not (s["prot_en"] is True and s["protection_type"] == 2):
    raise AssertionError(s)
if not (s["p_i_exponent"] == 0 and s["logical_block_size"] == 512):
    raise AssertionError(s)
if not (s["protect"] is True and s["product"] == "scsi_debug"):
    raise AssertionError(s)
if not (s["extended_inquiry"] is not None and s["block_limits"] is not None):
    raise AssertionError(s)
if not (s["scsi_debug"]["dif"] == "2" and s["scsi_debug"]["dix"] == "1"):
    raise AssertionError(s)
d = p["diagnosis"]
if not (any("Type 2 shown by the kernel as T10-DIF-TYPE1-CRC (expected" in l for l in d)):
    raise AssertionError(d)
if not ("sg" in p["pi_modes"]["app"] and "libaio" in p["pi_modes"]["kernel"]):
    raise AssertionError(p["pi_modes"])
PY
grep '^{"device"' "$WORK/out" > "$WORK/probe.json"
grep '^{"type"' "$WORK/out" > "$WORK/crcbench.json"
cat "$WORK/crcbench.json"
# every SCSI object this scsi_debug disk answers with must be written
python3 "$top_srcdir/tests/sh/json-doc.py" "$top_srcdir/doc/json.md" \
	--need probe:scsi.extended_inquiry.spt_types --need probe:scsi.block_limits.max_transfer_length \
	--need probe:scsi.host.prot_capabilities --need probe:scsi.scsi_debug.dif \
	--need probe:scsi.last_lba --need crcbench.af_alg:type \
	probe="$WORK/probe.json" crcbench="$WORK/crcbench.json" ||
	fail "guest output and doc/json.md disagree (above)"
exit 0
