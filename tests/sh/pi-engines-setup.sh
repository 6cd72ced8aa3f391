#!/bin/sh
# The PI engines refuse targets they cannot drive before any I/O, naming why: nvme/sg/io_uring --pi app on a regular file, and on a loop device (no NVMe, no SCSI, no integrity metadata); exit status 1.
. "$top_srcdir/tests/sh/lib.sh"
need_feature nvme sg io_uring

"$DIXLOAD" --help > "$WORK/help" || hard "dixload --help failed"
engines=
for e in nvme sg io_uring; do
	grep -q "^  $e " "$WORK/help" && engines="$engines $e"
done
[ -n "$engines" ] || skip "built without libnvme, libsgutils2 and liburing"

expect() # TARGET ENGINE PI PATTERN
{
	run_dix "$WORK/o" "$WORK/e" --dev "$1" --engine "$2" --pi "$3" --rw write \
		--size 1m --interval 0
	st=$?
	[ "$st" = 1 ] || fail "$2 --pi $3 on $1: exit $st, want 1: $(cat "$WORK/e")"
	grep -Eq "engine $2: setup failed: .*($4)" "$WORK/e" ||
		fail "$2 --pi $3 on $1: no reason matching '$4': $(cat "$WORK/e")"
	grep -q '"ops":0\|^ops 0,' "$WORK/o" || fail "$2 on $1: I/O was done: $(cat "$WORK/o")"
}

truncate -s 4m "$WORK/file" || hard "truncate"
for e in $engines; do
	case $e in
	nvme) expect "$WORK/file" nvme app "is not an NVMe namespace" ;;
	sg) expect "$WORK/file" sg app "SG_IO failed .*not a SCSI device" ;;
	io_uring) expect "$WORK/file" io_uring app "needs a block device" ;;
	esac
done

if [ "$(id -u)" = 0 ] && command -v losetup > /dev/null &&
   LOOP=$(losetup --find --show "$WORK/file" 2> /dev/null); then
	on_exit "losetup -d $LOOP"
	for e in $engines; do
		case $e in
		nvme) expect "$LOOP" nvme off "is not an NVMe namespace" ;;
		sg) expect "$LOOP" sg off "not a SCSI device" ;;
		# which one depends on the kernel; each names what is missing
		io_uring) expect "$LOOP" io_uring app "IORING_FEAT_RW_ATTR|FS_IOC_GETLBMD_CAP|carries no protection information" ;;
		esac
	done
else
	part_skip "no loop device (not root or losetup failed): file checks only"
fi
echo "setup refusals checked for:$engines"
exit 0
