#!/bin/sh
# Safety: a blank loop device (no signature, no partitions, not mounted) is written without --force; the file backing a loop device is refused.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup
need_tools losetup
need_dixload
make_image 16m
make_loop

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 ||
	fail "blank loop device refused: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/img" --rw write --size 1m --interval 0; st=$?
[ "$st" = 1 ] || fail "backing file of $LOOP written without --force: exit $st"
grep -q "is the backing file of loop device $LOOP" "$WORK/e" ||
	fail "refusal does not name the loop device: $(cat "$WORK/e")"
echo "blank loop device written; its backing file refused"
