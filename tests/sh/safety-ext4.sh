#!/bin/sh
# Safety: writing a loop device that carries ext4 is refused (exit 1, naming ext4 and its UUID) and nothing is written; reading needs no --force; --force writes.
. "$top_srcdir/tests/sh/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needed for losetup)"
for t in losetup mkfs.ext4 blkid; do
	command -v $t >/dev/null || skip "$t not installed"
done
[ -x "$DIXLOAD" ] || hard "dixload binary $DIXLOAD not built"
truncate -s 32m "$WORK/img" || hard "truncate"
mkfs.ext4 -q -F -U 6d1c6f0e-2f4a-4b7c-9a51-0c0ffee0e4f4 "$WORK/img" >/dev/null 2>&1 ||
	hard "mkfs.ext4 failed"
LOOP=$(losetup --find --show "$WORK/img" 2>/dev/null) || skip "no loop device available"
on_exit "losetup -d $LOOP"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0; st=$?
[ "$st" = 1 ] || fail "ext4 loop device written without --force: exit $st ($(cat "$WORK/e"))"
grep -q "$LOOP carries an ext4 filesystem (UUID 6d1c6f0e-2f4a-4b7c-9a51-0c0ffee0e4f4" "$WORK/e" ||
	fail "refusal does not name ext4 and its UUID: $(cat "$WORK/e")"
grep -q -- "--force" "$WORK/e" || fail "refusal does not say --force: $(cat "$WORK/e")"
[ "$(blkid -p -o value -s TYPE "$LOOP")" = ext4 ] || fail "the filesystem was touched"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw read --size 1m --interval 0 ||
	fail "read-only run refused: $(cat "$WORK/e")"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force ||
	fail "--force did not write: $(cat "$WORK/e")"
[ -z "$(blkid -p -o value -s TYPE "$LOOP")" ] ||
	fail "--force ran but the ext4 superblock is still there"
echo "ext4 refused, read allowed, --force wrote"
