#!/bin/sh
# Safety: writing a loop device that carries ext4 is refused (exit 1, naming ext4 and its UUID) and nothing is written; reading needs no --force; --force writes.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup
need_tools losetup mkfs.ext4 blkid
need_dixload
make_image 32m
mkfs.ext4 -q -F -U 6d1c6f0e-2f4a-4b7c-9a51-0c0ffee0e4f4 "$WORK/img" >/dev/null 2>&1 ||
	hard "mkfs.ext4 failed"
make_loop

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
