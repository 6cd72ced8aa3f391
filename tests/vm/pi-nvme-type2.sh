#!/bin/sh
# nvme engine, QEMU NVMe pi=2,ms=8,mset=1 (Type 2, extended LBAs: PI interleaved after each block in the data buffer): --pi app clean write and randrw, injected ref@20 and guard@20 caught exactly by kind, and PI the controller generated (--pi off) verifies in dixload.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature nvme

pi_nvme_scenario pi=2,ms=8,mset=1 2 "$PI_NVME_OFF_GUEST" "$PI_NVME_OFF_CHECKS"
exit 0
