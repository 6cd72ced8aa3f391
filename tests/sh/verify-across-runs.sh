#!/bin/sh
# A write run then a read run: corrupted and misplaced blocks are named with LBA, byte, expected and found; exit 3.
. "$top_srcdir/tests/sh/lib.sh"

F=$WORK/f.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --rw write --bs 64k --seed 42 --interval 0 ||
	fail "write run: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 ||
	fail "clean read run failed: $(cat "$WORK/e") $(cat "$WORK/o")"
grep -q "errors 0 " "$WORK/o" || fail "clean read reported errors"

# corrupt: flip bytes in LBA 100 (offset 51200); copy LBA 5 over LBA 2000
printf '\377\377\377\377' | dd of="$F" bs=1 seek=$((51200 + 200)) conv=notrunc status=none
dd if="$F" of="$F" bs=512 skip=5 seek=2000 count=1 conv=notrunc status=none

run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0; st=$?
cat "$WORK/e"
[ $st -eq 3 ] || fail "read over corrupted data exited $st, want 3"
grep -q "^dixload: verify: LBA 100: content changed at byte 200 of the block, expected 0x[0-9a-f]*, found 0xff$" "$WORK/e" ||
	fail "changed block not reported with LBA/byte/expected/found"
grep -qx "dixload: verify: LBA 2000: misplaced, holds data written for LBA 5" "$WORK/e" ||
	fail "misplaced block not reported"
grep -q "verify 2," "$WORK/o" || fail "summary should count exactly 2 verify errors: $(cat "$WORK/o")"
grep -qx "bad extents: 2 (2 blocks)" "$WORK/o" || fail "summary: bad extents"
grep -A2 "^bad extents:" "$WORK/o" | sed -n 2,3p | grep -c "^  verify: LBA \(100\|2000\): " | grep -qx 2 ||
	fail "summary lists both blocks, by LBA: $(cat "$WORK/o")"

# --verify strict also catches a block wiped to zeros (its header is gone)
dd if=/dev/zero of="$F" bs=512 seek=3000 count=1 conv=notrunc status=none
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 --verify strict; st=$?
[ $st -eq 3 ] || fail "strict exited $st"
grep -qx "dixload: verify: LBA 3000: no dixload header (never written, or the header was destroyed)" "$WORK/e" ||
	fail "strict: wiped block"
# without strict the wiped block reads as never written: 2 errors, one unwritten block
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0; st=$?
[ $st -eq 3 ] || fail "read without strict exited $st, want 3 (the two damaged blocks)"
grep -q "verify 2," "$WORK/o" || fail "without strict: exactly the 2 damaged blocks count: $(cat "$WORK/o")"
grep -q "never written): 1 of 8192 read (0.012 %); not errors: --verify strict makes them errors" "$WORK/o" ||
	fail "unwritten count, share and how to make it an error: $(cat "$WORK/o")"
echo "verification across runs passed"

# --max-errors stops the run at the first error instead of reading all 64 I/Os
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 --max-errors 1; st=$?
[ $st -eq 3 ] || fail "--max-errors run exited $st"
ops=$(sed -n 's/^ops \([0-9]*\),.*/\1/p' "$WORK/o")
[ -n "$ops" ] && [ "$ops" -lt 64 ] || fail "--max-errors 1 did not stop early (ops $ops of 64)"
echo "--max-errors 1 stopped after $ops of 64 I/Os"
