#!/bin/sh
# Safety: a mounted loop device is refused for writing even with --force (exit 1, naming the mount point); reading it is allowed.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup and mount
need_tools losetup mkfs.ext4 mount umount blkid
need_dixload
make_image 32m
mkfs.ext4 -q -F "$WORK/img" >/dev/null 2>&1 || hard "mkfs.ext4 failed"
make_loop
mount_scratch "$LOOP"
echo "precious" > "$WORK/mnt/data" && sync

for force in "" --force; do
	run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 $force; st=$?
	[ "$st" = 1 ] || fail "mounted device written ($force): exit $st ($(cat "$WORK/e"))"
	grep -q "$LOOP is mounted on $WORK/mnt (ext4)" "$WORK/e" ||
		fail "refusal ($force) does not name the mount: $(cat "$WORK/e")"
	grep -q "not even with --force" "$WORK/e" ||
		fail "refusal ($force) does not say --force cannot help: $(cat "$WORK/e")"
done
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw read --size 1m --interval 0 ||
	fail "read-only run on a mounted device refused: $(cat "$WORK/e")"
[ "$(cat "$WORK/mnt/data")" = precious ] || fail "the mounted filesystem's file changed"
umount "$WORK/mnt" || hard "umount"
[ "$(blkid -p -o value -s TYPE "$LOOP")" = ext4 ] || fail "the filesystem was touched"
echo "mounted device refused with and without --force"
