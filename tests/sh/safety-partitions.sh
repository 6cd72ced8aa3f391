#!/bin/sh
# Safety: a loop device with a partition table and partitions is refused (naming the partitions and the table type); --force writes.
. "$top_srcdir/tests/sh/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needed for losetup)"
for t in losetup sfdisk partx blkid; do
	command -v $t >/dev/null || skip "$t not installed"
done
[ -x "$DIXLOAD" ] || hard "dixload binary $DIXLOAD not built"
truncate -s 32m "$WORK/img" || hard "truncate"
printf ',8M,L\n,,L\n' | sfdisk -q "$WORK/img" >/dev/null 2>&1 || hard "sfdisk failed"
LOOP=$(losetup --find --show --partscan "$WORK/img" 2>/dev/null) || skip "no loop device available"
on_exit "losetup -d $LOOP"
# Kernels without the msdos partition parser scan nothing: add them by hand.
[ -b "${LOOP}p1" ] || partx -a "$LOOP" 2>/dev/null
[ -b "${LOOP}p2" ] || skip "the kernel shows no partitions of $LOOP"
name=${LOOP#/dev/}

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0; st=$?
[ "$st" = 1 ] || fail "partitioned device written without --force: exit $st ($(cat "$WORK/e"))"
grep -q "contains 2 partitions (${name}p1 ${name}p2)" "$WORK/e" ||
	fail "refusal does not name the partitions: $(cat "$WORK/e")"
grep -q "carries a dos partition table" "$WORK/e" ||
	fail "refusal does not name the partition table: $(cat "$WORK/e")"
[ "$(blkid -p -o value -s PTTYPE "$LOOP")" = dos ] || fail "the partition table was touched"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force ||
	fail "--force did not write: $(cat "$WORK/e")"
[ -z "$(blkid -p -o value -s PTTYPE "$LOOP")" ] ||
	fail "--force ran but the partition table is still there"
echo "partitioned device refused, --force wrote"
