#!/bin/sh
# Safety: a disk whose partition is mounted is refused for writing even with --force (exit 1, naming the partition and its mount point).
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup and mount
need_tools losetup sfdisk partx mkfs.ext4 mount umount
need_dixload
make_image 32m
make_loop_parts 16M
mkfs.ext4 -q -F "${LOOP}p2" >/dev/null 2>&1 || hard "mkfs.ext4 on ${LOOP}p2"
mount_scratch "${LOOP}p2"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force; st=$?
[ "$st" = 1 ] || fail "disk with a mounted partition written with --force: exit $st ($(cat "$WORK/e"))"
grep -q "${LOOP#/dev/}p2 is mounted on $WORK/mnt (ext4)" "$WORK/e" ||
	fail "refusal does not name the mounted partition: $(cat "$WORK/e")"
# The other, unmounted and blank, partition may be written.
run_dix "$WORK/o" "$WORK/e" --dev "${LOOP}p1" --rw write --size 1m --interval 0 ||
	fail "blank partition ${LOOP}p1 refused: $(cat "$WORK/e")"
echo "disk with a mounted partition refused even with --force"
