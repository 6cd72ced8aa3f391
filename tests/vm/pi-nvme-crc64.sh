#!/bin/sh
# nvme engine, QEMU NVMe pi=1,ms=16,pif=2 (64-bit CRC64-NVMe guard, 16-byte tuples, 48-bit ref tags): --pi app clean load, injected ref@20/guard@20 caught exactly by kind, and PI the controller generated (--pi off, PRACT) verifies in dixload.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature nvme

pi_nvme_scenario pi=1,ms=16,pif=2 1 "$PI_NVME_OFF_GUEST" "$PI_NVME_OFF_CHECKS"'
fmt = (runs.get("write", {}).get("summary") or {}).get("integrity", {}).get("format")
check(fmt == "EXT-DIF-TYPE1-CRC64", "kernel format %s, want EXT-DIF-TYPE1-CRC64 (is pif=2 honoured?)" % fmt)
'
exit 0
