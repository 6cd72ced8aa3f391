#!/bin/sh
# --journal: dixload killed with SIGKILL at a random point of a random-write load, 20 times; each time a read pass with the journal finds zero bad blocks; a block changed behind dixload's back, and an intact block put back from an older version, are both still reported.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python

F=$WORK/f.img
J=$WORK/j.jr
common="--dev $F --size 8m --bs 16k --seed 11 --interval 0"

# shellcheck disable=SC2086
run_dix "$WORK/pre.out" "$WORK/pre.err" $common --rw write ||
	fail "first write pass: $(cat "$WORK/pre.err")"
i=1
while [ $i -le 20 ]; do
	# a write load that would run 60 s, killed after 0.2-1.9 s: the kill
	# lands anywhere in the depth loop, in a journal append or a sync
	# shellcheck disable=SC2086
	"$DIXLOAD" $common --rw randwrite --iodepth 8 --iodepth-batch 4 \
		--runtime 60 --journal "$J" > "$WORK/w.out" 2> "$WORK/w.err" &
	pid=$!
	ms=$(awk -v s="$((i * 7919 + $$))" 'BEGIN { srand(s); printf "%d", 200 + rand() * 1700 }')
	sleep "$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	kill -9 "$pid" 2> /dev/null || fail "run $i: dixload ended before the kill: $(cat "$WORK/w.err")"
	wait "$pid" 2> /dev/null
	recs=$(grep -c '^[IA] ' "$J")
	# shellcheck disable=SC2086
	run_dix "$WORK/r.out" "$WORK/r.err" $common --rw read --journal "$J" --output-format json
	st=$?
	echo "run $i: killed after $ms ms, $recs journal records, check exit $st"
	[ "$st" = 0 ] || fail "run $i: false corruption report after a SIGKILL at $ms ms (exit $st): $(head -c 1500 "$WORK/r.err")"
	cp "$J" "$WORK/j.last"
	[ $i = 10 ] && cp "$F" "$WORK/f.old" && cp "$J" "$WORK/j.10"
	i=$((i + 1))
done

# the journal's view after run 20: a block whose last write was
# acknowledged, and the newest intact older version of it in f.old
python3 - "$WORK/j.last" "$F" "$WORK/f.old" "$WORK/j.10" > "$WORK/pick" <<'PY' || hard "no acknowledged block to damage"
import struct, sys

def acks(path):
    acked = {}
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == "A":
            off, ln, seq = int(f[1]), int(f[2]), int(f[3])
            for b in range(off, off + ln, 512):
                acked[b] = seq
    return acked
# only a block acknowledged again after run 10: one whose bytes changed
# after run 10 by a write that was never acknowledged still has its run-10
# version as the last acknowledged one, which the journal rightly accepts
# (seen when a busy host let the later runs die before their acks)
acked = acks(sys.argv[1])
acked10 = acks(sys.argv[4])
acked = {b: s for b, s in acked.items() if acked10.get(b) != s}
new = open(sys.argv[2], "rb").read()
old = open(sys.argv[3], "rb").read()
# a block acknowledged in run 20 whose bytes differ in the copy after run 10
for b, seq in sorted(acked.items()):
    if old[b:b + 512] != new[b:b + 512] and old[b:b + 7] == b"DIXLOAD":
        print(b, seq)
        break
else:
    sys.exit(1)
PY
read -r blk seq < "$WORK/pick"
echo "block at byte $blk: acknowledged seq $seq"
cp "$F" "$WORK/f.good"

# 1: one byte of that block's pattern inverted
python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); b = f.read(1)
f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 0xff]))' "$F" $((blk + 100))
# shellcheck disable=SC2086
run_dix "$WORK/c.out" "$WORK/c.err" $common --rw read --journal "$J" --output-format json
st=$?
[ "$st" = 3 ] || fail "a changed block: exit $st, want 3: $(head -c 800 "$WORK/c.err")"
grep -q "LBA $((blk / 512))[:( ].*content changed" "$WORK/c.err" ||
	fail "the changed block at LBA $((blk / 512)) not reported: $(head -c 800 "$WORK/c.err")"

# 2: the block put back as it was after run 10: intact, but older than
# the version the journal says was acknowledged
cp "$WORK/f.good" "$F"
dd if="$WORK/f.old" of="$F" bs=512 skip=$((blk / 512)) seek=$((blk / 512)) count=1 conv=notrunc 2> /dev/null
# shellcheck disable=SC2086
run_dix "$WORK/s.out" "$WORK/s.err" $common --rw read --journal "$J" --output-format json
st=$?
[ "$st" = 3 ] || fail "a stale block: exit $st, want 3: $(head -c 800 "$WORK/s.err")"
grep -q "LBA $((blk / 512))[:( ].*a version the journal does not allow.*the journal has acknowledged seq $seq" "$WORK/s.err" ||
	fail "the stale block at LBA $((blk / 512)) not reported as such: $(head -c 800 "$WORK/s.err")"
# without the journal the same block passes: the check is the journal's
# shellcheck disable=SC2086
run_dix "$WORK/n.out" "$WORK/n.err" $common --rw read ||
	fail "without --journal the intact old block should pass: $(head -c 800 "$WORK/n.err")"
echo "changed byte at LBA $((blk / 512)) and stale version (acknowledged seq $seq) both reported"

# preconditioning then the load under one journal: the load's sequence
# numbers go on from the preconditioning's (they started again at 1, so the
# reader ignored the load's first acks as older ones and left their intents
# in flight: a stale version of those blocks would have passed), and the
# check pass accepts what was written
P=$WORK/p.img
PJ=$WORK/p.jr
run_dix "$WORK/p.out" "$WORK/p.err" --dev "$P" --size 8m --bs 16k --seed 13 \
	--interval 0 --rw randwrite --precondition on --runtime 0.5 --journal "$PJ" ||
	fail "preconditioned write run: $(cat "$WORK/p.err")"
python3 - "$PJ" <<'PY' || fail "a block's sequence numbers went back (above)"
import sys
last = {}
pre = 0
for n, line in enumerate(open(sys.argv[1]), 1):
    f = line.split()
    if len(f) != 4 or f[0] not in "IA":
        continue
    off, ln, seq = int(f[1]), int(f[2]), int(f[3])
    if ln == 1 << 20:
        pre = max(pre, seq)
    for b in range(off, off + ln, 512):
        if seq < last.get(b, 0):
            print("FAIL: line %d: %s seq %d for byte %d after seq %d" % (n, f[0], seq, b, last[b]))
            sys.exit(1)
        last[b] = seq
print("preconditioning up to seq %d, then the load to seq %d: ascending per block" % (pre, max(last.values())))
PY
run_dix "$WORK/pc.out" "$WORK/pc.err" --dev "$P" --size 8m --bs 16k --seed 13 \
	--interval 0 --rw read --journal "$PJ" ||
	fail "check pass after a preconditioned run: $(head -c 800 "$WORK/pc.err")"

# a damaged journal is refused with its file, line and what is allowed; a
# last line cut short (the crash hit the append) is not damage
printf 'dixload-journal 1 seed=11 lbs=512\nI 0 16384 1\nX 3 4 5\n' > "$WORK/bad.jr"
# shellcheck disable=SC2086
run_dix "$WORK/b.out" "$WORK/b.err" $common --rw read --journal "$WORK/bad.jr"
st=$?
[ "$st" = 1 ] && grep -q "bad.jr: line 3: \"X 3 4 5\": want \"I|A OFFSET LEN SEQ\" with OFFSET and LEN multiples of 512" "$WORK/b.err" ||
	fail "a bad journal line: exit $st: $(cat "$WORK/b.err")"
printf 'dixload-journal 1 seed=11 lbs=512\nI 0 16384 1\nA 0 16' > "$WORK/cut.jr"
# shellcheck disable=SC2086
run_dix "$WORK/t.out" "$WORK/t.err" $common --rw read --journal "$WORK/cut.jr" ||
	fail "a journal whose last line was cut short: $(cat "$WORK/t.err")"
# records that go back in a block's sequence are not one run's journal
printf 'dixload-journal 1 seed=11 lbs=512\nI 0 16384 5\nA 0 16384 5\nI 512 512 2\n' > "$WORK/back.jr"
# shellcheck disable=SC2086
run_dix "$WORK/k.out" "$WORK/k.err" $common --rw read --journal "$WORK/back.jr"
st=$?
[ "$st" = 1 ] && grep -q "back.jr: line 4: an intent of seq 2 for block 1 (offset 512), acknowledged at seq 5 already" "$WORK/k.err" ||
	fail "a journal going back in sequence: exit $st: $(cat "$WORK/k.err")"
# a check pass that would check nothing is refused
# shellcheck disable=SC2086
run_dix "$WORK/v.out" "$WORK/v.err" $common --rw read --journal "$J" --verify off
st=$?
[ "$st" = 1 ] && grep -q 'needs --verify on or strict' "$WORK/v.err" ||
	fail "--journal with --verify off: exit $st: $(cat "$WORK/v.err")"
exit 0
