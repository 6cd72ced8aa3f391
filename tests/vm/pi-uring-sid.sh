#!/bin/sh
# io_uring --pi app on the newest kernel (sid), scsi_debug dif=1 dix=1: clean write and randrw with dixload's PI attached to every SQE; injected guard@50 and ref@50 all rejected (EILSEQ: caught as "unknown", the block layer does not name the tag); again on dif=3 guard=1 (Type 3, IP checksum).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature io_uring
# this test is about the newest kernel, whatever the other tests boot
DIXVM_KERNEL=sid
need_vm
need_dixload
need_python

# nomerges=2: the block layer would merge neighbouring writes into one
# request, and one bad tuple then fails the innocent neighbours too (they
# pass on the retry and count as recovered); the test wants exact counts.
vm -- sh -c "$PI_GUEST_RUN
	uname -r | sed 's/^/KVER /'
	common='--dev /dev/sda --engine io_uring --pi app --size 16m --bs 16k --iodepth 4 --interval 0'
	echo 2 > /sys/block/sda/queue/nomerges
	run write \$common --rw write
	run randrw \$common --rw randrw --runtime 3
	run inject-guard \$common --rw write --inject guard@50
	run inject-ref \$common --rw write --inject ref@50
	rmmod scsi_debug || exit 90
	modprobe scsi_debug dif=3 dix=1 guard=1 dev_size_mb=64 delay=0 || exit 91
	i=0
	while [ ! -b /dev/sda ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
	echo 2 > /sys/block/sda/queue/nomerges
	cat /sys/block/sda/integrity/format | sed 's/^/FORMAT3 /'
	run t3-write \$common --rw write
	run t3-randrw \$common --rw randrw --runtime 2
	run t3-inject-guard \$common --rw write --inject guard@50
	true" > "$WORK/out" 2> "$WORK/err"
pi_vm_status $?
grep -q '^FORMAT3 T10-DIF-TYPE3-IP' "$WORK/out" ||
	fail "scsi_debug dif=3 guard=1 did not come up as T10-DIF-TYPE3-IP: $(grep FORMAT3 "$WORK/out")"

pi_check '
clean("write", reads=False)
clean("randrw")
caught_exactly("inject-guard", "guard", "unknown")
caught_exactly("inject-ref", "ref", "unknown")
clean("t3-write", reads=False)
clean("t3-randrw")
caught_exactly("t3-inject-guard", "guard", "unknown")
' || fail "checks failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
exit 0
