#!/bin/sh
# As root on a loop device: a verified mixed load runs clean and the kernel's integrity view is read.
. "$top_srcdir/tests/sh/lib.sh"

[ "$(id -u)" = 0 ] || skip "not root (needed for losetup)"
command -v losetup >/dev/null || skip "losetup not installed"
truncate -s 32m "$WORK/backing" || hard "truncate"
LOOP=$(losetup --find --show --direct-io=on "$WORK/backing" 2>/dev/null) ||
	LOOP=$(losetup --find --show "$WORK/backing" 2>/dev/null) ||
	skip "no loop device available (losetup failed)"
on_exit "losetup -d $LOOP"

run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw randrw --bs 16k --iodepth 8 --runtime 2 ||
	fail "load on $LOOP: $(cat "$WORK/e")"
cat "$WORK/o"
grep -q "^integrity: loop[0-9]* format=none" "$WORK/o" || fail "integrity line"
grep -qE '^\[ *[0-9.]+s\] R +[0-9.]+ MB/s' "$WORK/o" || fail "no meter lines"
# write the whole device once, then verify it in a second run with 4 jobs
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --bs 64k --interval 0 || fail "write"
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw randread --bs 64k --jobs 4 --iodepth 4 \
	--verify strict --interval 0 || fail "strict verify after full write: $(cat "$WORK/e")"
# corrupt one block under the loop device; the next read run finds it
flip_byte "$WORK/backing" $((8192 * 512 + 64))
sync
echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw read --bs 64k --interval 0; st=$?
[ $st -eq 3 ] || fail "corruption on loop: exit $st $(cat "$WORK/e")"
grep -q "^dixload: verify: LBA 8192: content changed at byte 64 of the block, expected 0x$flip_was, found 0x$flip_now$" "$WORK/e" ||
	fail "LBA 8192 not named: $(cat "$WORK/e")"
echo "loop device checks passed"
