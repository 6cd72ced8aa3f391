#!/bin/sh
# dixvm --nvme pi=1,ms=8: the guest has /dev/nvme0n1 (serial dixvm-scratch) with T10-DIF-TYPE1-CRC, the CRC state untouched, and dixload runs on it error-free.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_dixload
need_python

vm --scsi-debug none --nvme pi=1,ms=8 -- sh -c '
	q=/sys/block/nvme0n1
	printf "{\"type\":\"guest\",\"serial\":\"%s\",\"format\":\"%s\",\"interval\":%s,\"pclmul\":%d,\"sda\":%d}\n" \
		"$(cat /sys/class/nvme/nvme0/serial)" "$(cat $q/integrity/format)" \
		"$(cat $q/integrity/protection_interval_bytes)" \
		"$(grep -c "^crct10dif_pclmul " /proc/modules)" "$(ls /sys/block | grep -c "^sd")"
	dixload --dev /dev/nvme0n1 --size 64m --rw randrw --bs 64k --runtime 2 --verify on \
		--pi-format T10-DIF-TYPE1-CRC --output-format json
	echo "{\"type\":\"dixload_exit\",\"status\":$?}"
' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" <<'PY' || fail "NVMe check failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
g = next(o for o in objs if o["type"] == "guest")
if not (g["serial"].strip() == "dixvm-scratch"):
    raise AssertionError(g)
if not (g["format"] == "T10-DIF-TYPE1-CRC" and g["interval"] == 512):
    raise AssertionError(g)
if not (g["pclmul"] == 0):
    raise AssertionError("nvme setup loaded crct10dif_pclmul")
if not (g["sda"] == 0):
    raise AssertionError("--scsi-debug none still made a SCSI disk")
start = next(o for o in objs if o["type"] == "start")
if not (start["integrity"]["format"] == "T10-DIF-TYPE1-CRC"):
    raise AssertionError(start["integrity"])
summ = next(o for o in objs if o["type"] == "summary")
if not (all(v == 0 for v in summ["errors"].values())):
    raise AssertionError(summ["errors"])
if not (summ["read_iops"] > 0 and summ["write_iops"] > 0):
    raise AssertionError(summ)
ex = next(o for o in objs if o["type"] == "dixload_exit")
if not (ex["status"] == 0):
    raise AssertionError(ex)
PY
exit 0
