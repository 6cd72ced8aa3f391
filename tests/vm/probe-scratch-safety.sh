#!/bin/sh
# Safety in the guest: scsi_debug and the dixvm NVMe namespace are scratch devices written without --force even when they carry ext2, but never while mounted; a loop device with ext2 is refused.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_dixload

vm --scsi-debug 'dif=1 dix=1 guard=0 dev_size_mb=64 delay=0' --nvme pi=1,ms=8 \
	--modules-extra loop,ext4,crc32c_generic -- sh -c '
	w() { dixload --dev "$1" --rw write --size 1m --interval 0 $2 > /tmp/o 2> /tmp/e; echo "$1${2:+ $2} exit=$?: $(cat /tmp/e)"; }
	mkfs() { mke2fs -F "$1" > /dev/null 2>&1 || echo "mke2fs $1 failed"; }
	mkfs /dev/sda && w /dev/sda
	mkfs /dev/nvme0n1 && w /dev/nvme0n1
	# ext4 mounts ext2 and needs a crc32c driver; neither touches crct10dif.
	modprobe crc32c_generic; modprobe ext4; modprobe loop
	mkdir -p /mnt/s
	mkfs /dev/sda && mount -t ext2 /dev/sda /mnt/s && { w /dev/sda --force; umount /mnt/s; }
	dd if=/dev/zero of=/tmp/img bs=1M count=8 2>/dev/null && mkfs /tmp/img &&
		L=$(losetup -f) && losetup "$L" /tmp/img && { w "$L"; losetup -d "$L"; }
' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"
cat "$WORK/out"
grep -q "^/dev/sda exit=0: $" "$WORK/out" || fail "scsi_debug with ext2 not written without --force"
grep -q "^/dev/nvme0n1 exit=0: $" "$WORK/out" || fail "dixvm NVMe with ext2 not written without --force"
grep -q "^/dev/sda --force exit=1: .*/dev/sda is mounted on /mnt/s" "$WORK/out" ||
	fail "mounted scsi_debug not refused with --force"
grep -q "^/dev/loop[0-9]* exit=1: .*carries an ext2 filesystem" "$WORK/out" ||
	fail "loop device with ext2 not refused"
exit 0
