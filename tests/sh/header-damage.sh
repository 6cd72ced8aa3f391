#!/bin/sh
# A damaged header is never "never written": one bit flipped in each byte of a written block's header exits 3 naming the block and the field (the issue's LBA 5000 / 6000 case among them), and where the run itself wrote (a --runtime randrw load, a preconditioned region) or a --journal records it, a block without a header is a lost write (issue 33).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

# flip_bit FILE OFFSET BIT - xor bit BIT into the byte at OFFSET of FILE
flip_bit() {
	b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	[ -n "$b" ] || hard "flip_bit: cannot read byte $2 of $1"
	printf "$(printf '\\%03o' $((b ^ (1 << $3))))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none || hard "flip_bit: write $1"
}

# the header's fields by byte (src/verify/blockhdr.h)
field() {
	if [ "$1" -lt 8 ]; then echo magic
	elif [ "$1" -lt 16 ]; then echo offset
	elif [ "$1" -lt 24 ]; then echo seed
	elif [ "$1" -lt 28 ]; then echo sequence
	elif [ "$1" -lt 32 ]; then echo "block size"
	else echo "check word"; fi
}

F=$WORK/c.img
# the issue's case, as a user types it
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw write --bs 4k --seed 42 ||
	fail "write run: $(cat "$WORK/e")"
cp "$F" "$WORK/clean.img"
flip_bit "$F" $((5000 * 512)) 0
flip_bit "$F" $((6000 * 512 + 3)) 0
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 4k; st=$?
[ $st -eq 3 ] || fail "one bit flipped in byte 0 of LBA 5000 and byte 3 of LBA 6000: exit $st, want 3 (it was 0: \"never written\"): $(cat "$WORK/o")"
for l in 5000 6000; do
	grep -q "^dixload: verify: LBA $l: header damaged: magic (magic 0x[0-9a-f]*, DIXLOAD3 is 0x3344414f4c584944)$" "$WORK/e" ||
		fail "LBA $l not named as a damaged magic: $(cat "$WORK/e")"
done
grep -q "never written" "$WORK/o" && fail "damaged blocks counted as never written: $(grep "never written" "$WORK/o")"
echo "the issue's case: exit 3, LBA 5000 and 6000 named, magic damaged"

# a sample: one bit in each of the 40 header bytes (bit = byte % 8), each
# in its own block, 16 blocks apart so no two join into one extent
cp "$WORK/clean.img" "$F"
p=0
while [ $p -lt 40 ]; do
	flip_bit "$F" $(((1000 + 16 * p) * 512 + p)) $((p % 8))
	p=$((p + 1))
done
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 4k --interval 0; st=$?
[ $st -eq 3 ] || fail "40 flipped header bits: exit $st, want 3"
p=0
while [ $p -lt 40 ]; do
	l=$((1000 + 16 * p)); want=$(field $p)
	grep -q "^dixload: verify: LBA $l: header damaged: $want\( (.*)\)\?$" "$WORK/e" ||
		fail "byte $p bit $((p % 8)) (LBA $l): not named as header damaged: $want: $(grep "LBA $l:" "$WORK/e")"
	p=$((p + 1))
done
grep -qx "bad extents: 40 (40 blocks)" "$WORK/o" || fail "want 40 bad blocks: $(grep "bad extents" "$WORK/o")"
echo "40 header bits, one per byte: exit 3, each block named with its field"

# a written block zeroed whole: the read run cannot tell it from a never
# written one; the writing run's --journal can
J=$WORK/j
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --rw write --bs 4k --journal "$J" --interval 0 ||
	fail "journal write run: $(cat "$WORK/e")"
dd if=/dev/zero of="$F" bs=512 seek=100 count=1 conv=notrunc status=none
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --rw read --bs 4k --interval 0; st=$?
[ $st -eq 0 ] || fail "a zeroed block without the journal: exit $st, want 0 (never written)"
grep -q "never written): 1 of 2048 read (0.049 %); not errors: --verify strict makes them errors, and --journal FILE (kept by the run that wrote) those it wrote$" "$WORK/o" ||
	fail "the never-written line: $(grep "never written" "$WORK/o")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --rw read --bs 4k --interval 0 --journal "$J"; st=$?
[ $st -eq 3 ] || fail "a zeroed block with the journal: exit $st, want 3"
grep -q "^dixload: verify: LBA 100: a version the journal does not allow (no header; the journal has acknowledged seq" "$WORK/e" ||
	fail "with the journal: LBA 100 not named: $(cat "$WORK/e")"
echo "a zeroed block: never written without the journal, an error with it"

# the run wrote it itself: a --runtime randrw load that writes every
# block within its first second, the region zeroed behind its back at 1.5 s
G=$WORK/g.img
zero="dd if=/dev/zero of=$G bs=4k count=256 conv=notrunc oflag=direct status=none"
run_dix "$WORK/o" "$WORK/e" --dev "$G" --size 1m --rw randrw --bs 4k --runtime 2 --interval 0 \
	--precondition off || fail "fresh randrw control run: exit $? $(cat "$WORK/e")"
rm -f "$G"
run_dix "$WORK/o" "$WORK/e" --dev "$G" --size 1m --rw randrw --bs 4k --runtime 3 --interval 0 \
	--precondition off --exec "$zero@1.5"; st=$?
[ $st -eq 3 ] || fail "blocks the load wrote, zeroed: exit $st, want 3: $(tail -n 3 "$WORK/o")"
grep -q "^dixload: verify: LBA [0-9-]*\( ([0-9]* blocks, [0-9]* KiB)\)\?: no dixload header where this run wrote (a lost or misdirected write) (this run wrote the block earlier in the load)$" "$WORK/e" ||
	fail "lost writes not named: $(head -n 3 "$WORK/e")"
echo "randrw: blocks the load wrote and then found without a header are lost writes"

# preconditioned: every block of the region was written by the run
rm -f "$G"
run_dix "$WORK/o" "$WORK/e" --dev "$G" --size 1m --rw randread --bs 4k --runtime 2 --interval 0 \
	--precondition on --exec "$zero@1"; st=$?
[ $st -eq 3 ] || fail "a preconditioned region zeroed: exit $st, want 3: $(tail -n 3 "$WORK/o")"
grep -q "no dixload header where this run wrote (a lost or misdirected write) (the region was preconditioned by this run)$" "$WORK/e" ||
	fail "preconditioned: lost writes not named: $(head -n 3 "$WORK/e")"
grep -q "never written" "$WORK/o" && fail "preconditioned blocks counted as never written"
echo "preconditioned: a block without a header is a lost write"
