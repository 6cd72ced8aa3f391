#!/bin/sh
# Safety: a disk whose partition is mounted is refused for writing even with --force (exit 1, naming the partition and its mount point).
. "$top_srcdir/tests/sh/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needed for losetup and mount)"
for t in losetup sfdisk partx mkfs.ext4 mount umount; do
	command -v $t >/dev/null || skip "$t not installed"
done
[ -x "$DIXLOAD" ] || hard "dixload binary $DIXLOAD not built"
truncate -s 32m "$WORK/img" || hard "truncate"
printf ',16M,L\n,,L\n' | sfdisk -q "$WORK/img" >/dev/null 2>&1 || hard "sfdisk failed"
LOOP=$(losetup --find --show --partscan "$WORK/img" 2>/dev/null) || skip "no loop device available"
on_exit "losetup -d $LOOP"
[ -b "${LOOP}p2" ] || partx -a "$LOOP" 2>/dev/null
[ -b "${LOOP}p2" ] || skip "the kernel shows no partitions of $LOOP"
mkfs.ext4 -q -F "${LOOP}p2" >/dev/null 2>&1 || hard "mkfs.ext4 on ${LOOP}p2"
mkdir "$WORK/mnt" || hard "mkdir"
mount "${LOOP}p2" "$WORK/mnt" 2>/dev/null || skip "cannot mount ext4 here"
on_exit "umount '$WORK/mnt'"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force; st=$?
[ "$st" = 1 ] || fail "disk with a mounted partition written with --force: exit $st ($(cat "$WORK/e"))"
grep -q "${LOOP#/dev/}p2 is mounted on $WORK/mnt (ext4)" "$WORK/e" ||
	fail "refusal does not name the mounted partition: $(cat "$WORK/e")"
# The other, unmounted and blank, partition may be written.
run_dix "$WORK/o" "$WORK/e" --dev "${LOOP}p1" --rw write --size 1m --interval 0 ||
	fail "blank partition ${LOOP}p1 refused: $(cat "$WORK/e")"
echo "disk with a mounted partition refused even with --force"
