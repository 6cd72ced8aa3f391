#!/bin/sh
# Safety: writing a loop device that carries xfs is refused (exit 1, naming xfs) and nothing is written; --force writes.
. "$top_srcdir/tests/sh/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needed for losetup)"
for t in losetup mkfs.xfs blkid; do
	command -v $t >/dev/null || skip "$t not installed"
done
[ -x "$DIXLOAD" ] || hard "dixload binary $DIXLOAD not built"
# mkfs.xfs 6.x wants 300 MB; the file stays sparse (about 65 MB used).
truncate -s 300m "$WORK/img" || hard "truncate"
mkfs.xfs -q -f "$WORK/img" >/dev/null 2>&1 || hard "mkfs.xfs failed"
LOOP=$(losetup --find --show "$WORK/img" 2>/dev/null) || skip "no loop device available"
on_exit "losetup -d $LOOP"

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
