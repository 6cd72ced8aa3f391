#!/bin/sh
# Safety: a loop device in use as swap is refused for writing even with --force (exit 1, naming active swap).
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup and swapon
need_tools losetup mkswap swapon swapoff
need_dixload
make_image 16m
make_loop
mkswap "$LOOP" >/dev/null 2>&1 || hard "mkswap"
# Lowest priority: the kernel uses it only when every other swap is full.
swapon -p -100 "$LOOP" 2>/dev/null || skip "swapon on a loop device not possible here"
on_exit "swapoff $LOOP"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --size 1m --interval 0 --force; st=$?
[ "$st" = 1 ] || fail "active swap written with --force: exit $st ($(cat "$WORK/e"))"
grep -q "$LOOP is active swap" "$WORK/e" || fail "refusal does not name swap: $(cat "$WORK/e")"
grep -q "not even with --force" "$WORK/e" || fail "refusal does not say --force cannot help"
echo "active swap refused even with --force"
