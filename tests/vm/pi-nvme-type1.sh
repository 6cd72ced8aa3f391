#!/bin/sh
# nvme engine, QEMU NVMe pi=1,ms=8: --pi app clean write and randrw through io_uring passthrough, injected ref@20/guard@20 caught exactly by kind; PI the controller generated (--pi off, PRACT) verifies in dixload; without /dev/ng0n1 the thread-per-slot fallback runs clean and says so.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature nvme io_uring

pi_nvme_scenario pi=1,ms=8 1 "$PI_NVME_OFF_GUEST
		rm /dev/ng0n1
		run threads $PI_NVME_COMMON --rw randrw --runtime 2
		run threads-inject $PI_NVME_COMMON --rw write --inject guard@20" "$PI_NVME_OFF_CHECKS"'
clean("threads")
check(runs.get("threads", {}).get("threads_warning") == 1, "no thread fallback notice without /dev/ng0n1")
caught_exactly("threads-inject", "guard")
'
exit 0
