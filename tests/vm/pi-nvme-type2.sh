#!/bin/sh
# nvme engine, QEMU NVMe pi=2,ms=8,mset=1 (Type 2, extended LBAs: PI interleaved after each block in the data buffer): --pi app clean write and randrw, injected ref@20 and guard@20 caught exactly by kind, and PI the controller generated (--pi off) verifies in dixload.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"

off=$(echo "$PI_NVME_COMMON" | sed 's/--pi app/--pi off/')
pi_nvme_scenario pi=2,ms=8,mset=1 2 "
		run off-write $off --rw write
		run app-read-after-off $PI_NVME_COMMON --rw read" '
clean("off-write", reads=False)
clean("app-read-after-off", writes=False)
'
exit 0
