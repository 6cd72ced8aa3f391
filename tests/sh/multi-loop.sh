#!/bin/sh
# As root on two loop devices under one --dev list: per-device lines, and a block corrupted under one of them is named on that device alone.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_root "losetup"
need_tools losetup
need_python

loops=""
for i in 1 2; do
	truncate -s 32m "$WORK/backing$i" || hard "truncate"
	l=$(losetup --find --show --direct-io=on "$WORK/backing$i" 2>/dev/null) ||
		l=$(losetup --find --show "$WORK/backing$i" 2>/dev/null) ||
		skip "no loop device available (losetup failed)"
	on_exit "losetup -d $l"
	loops="$loops $l"
done
set -- $loops
L1=$1 L2=$2

run_dix "$WORK/o" "$WORK/e" --dev "$L1" --dev "$L2" --rw write --bs 64k \
	--interval 0 || fail "write: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$L1,$L2" --rw randrw --bs 16k --iodepth 4 \
	--runtime 2 --per-device || fail "mixed load: $(cat "$WORK/e")"
cat "$WORK/o"
for l in "$L1" "$L2"; do
	n=$(basename "$l")
	grep -q "^integrity: $n format=none" "$WORK/o" || fail "no integrity line for $l"
	grep -qE "^$l: \[ *[0-9.]+s\] R +[0-9.]+ MB/s" "$WORK/o" || fail "no lines for $l"
	grep -q "^--- $l: " "$WORK/o" || fail "no summary of $l"
done

# corrupt one block under the second device only
flip_byte "$WORK/backing2" $((8192 * 512 + 64))
sync
echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
run_dix "$WORK/o" "$WORK/e" --dev "$L1,$L2" --rw read --bs 64k --interval 0 \
	--jobs 2; st=$?
[ $st -eq 3 ] || fail "corruption: exit $st (want 3) $(cat "$WORK/e")"
cat "$WORK/e"
grep -q "^dixload: $L2: verify: LBA 8192: content changed at byte 64 of the block" "$WORK/e" ||
	fail "LBA 8192 of $L2 not named: $(cat "$WORK/e")"
grep -q "^dixload: $L1:" "$WORK/e" && fail "the clean $L1 was named"
# the per-device summary: verify 1 on L2, 0 on L1
awk -v l1="--- $L1: " -v l2="--- $L2: " '
	index($0, l1) == 1 { cur = 1 } index($0, l2) == 1 { cur = 2 }
	/^--- total/ { cur = 0 }
	cur && /^ops / { sub(/.*verify /, ""); sub(/,.*/, ""); v[cur] = $0 }
	END { exit !(v[1] == "0" && v[2] == "1") }' "$WORK/o" ||
	fail "per-device verify counts: $(cat "$WORK/o")"
echo "two loop devices checked"
