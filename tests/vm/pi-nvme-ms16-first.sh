#!/bin/sh
# nvme engine, QEMU NVMe pi=1,ms=16,pil=1 (PI in the first 8 of 16 metadata bytes): --pi app clean write and randrw, injected ref@20 and guard@20 caught exactly by kind.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature nvme

pi_nvme_scenario pi=1,ms=16,pil=1 1
exit 0
