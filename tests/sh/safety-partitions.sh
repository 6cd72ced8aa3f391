#!/bin/sh
# Safety: a loop device with a partition table and partitions is refused (naming the partitions and the table type); --force writes.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup
need_tools losetup sfdisk partx blkid
need_dixload
make_image 32m
make_loop_parts 8M
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
