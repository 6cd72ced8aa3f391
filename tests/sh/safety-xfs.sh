#!/bin/sh
# Safety: writing a loop device that carries xfs is refused (exit 1, naming xfs) and nothing is written; --force writes.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup
need_tools losetup mkfs.xfs blkid
need_dixload
# mkfs.xfs 6.x wants 300 MB; the file stays sparse (about 65 MB used).
make_image 300m
mkfs.xfs -q -f "$WORK/img" >/dev/null 2>&1 || hard "mkfs.xfs failed"
make_loop

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw randwrite --size 1m --interval 0; st=$?
[ "$st" = 1 ] || fail "xfs loop device written without --force: exit $st ($(cat "$WORK/e"))"
grep -q "$LOOP carries an xfs filesystem (UUID " "$WORK/e" ||
	fail "refusal does not name xfs: $(cat "$WORK/e")"
[ "$(blkid -p -o value -s TYPE "$LOOP")" = xfs ] || fail "the filesystem was touched"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force ||
	fail "--force did not write: $(cat "$WORK/e")"
[ -z "$(blkid -p -o value -s TYPE "$LOOP")" ] ||
	fail "--force ran but the xfs superblock is still there"
echo "xfs refused, --force wrote"
