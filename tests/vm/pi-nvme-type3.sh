#!/bin/sh
# nvme engine, QEMU NVMe pi=3,ms=8: --pi app clean write and randrw, injected guard@20 caught exactly (Type 3: no ref check).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature nvme

pi_nvme_scenario pi=3,ms=8 3
exit 0
