#!/bin/sh
# Every corruption located: a 64 KiB block copied over another and one changed byte are each one extent in the live lines, the summary and the JSON; --error-log holds all 129 bad blocks (flushed on SIGINT too); --max-report bounds what is printed; an extent across I/O and worker boundaries is one extent in the summary.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 64m --rw write --bs 64k --seed 42 --interval 0 ||
	fail "write run: $(cat "$WORK/e")"
# copy the 64 KiB at LBA 1280 over LBA 2560; change the byte at 32 MiB + 1000
dd if="$F" of="$F" bs=512 skip=1280 seek=2560 count=128 conv=notrunc status=none
OFF=$((32 * 1048576 + 1000))
OLD=$(od -An -tu1 -j "$OFF" -N1 "$F" | tr -d ' ')
NEW=$(( (OLD + 1) % 256 ))
printf "$(printf '\\%03o' "$NEW")" | dd of="$F" bs=1 seek="$OFF" conv=notrunc status=none
OLDX=$(printf '0x%02x' "$OLD"); NEWX=$(printf '0x%02x' "$NEW")

MISPLACED='verify: LBA 2560-2687 (128 blocks, 64 KiB): misplaced, holds data written for LBA 1280-1407'
CHANGED="verify: LBA 65537: content changed at byte 488 of the block, expected $OLDX, found $NEWX"

# human output: live lines on stderr, the summary on stdout
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 --iodepth 4 \
	--error-log "$WORK/bad.jsonl"
st=$?
cat "$WORK/e" "$WORK/o"
[ "$st" = 3 ] || fail "read run exited $st, want 3"
grep -qxF "dixload: $MISPLACED" "$WORK/e" || fail "live: the misplaced extent is not one line"
grep -qxF "dixload: $CHANGED" "$WORK/e" || fail "live: the changed byte is not named"
[ "$(grep -c '^dixload: verify: ' "$WORK/e")" = 2 ] || fail "live: want exactly 2 extent lines"
grep -qx "bad extents: 2 (129 blocks)" "$WORK/o" || fail "summary: count line"
grep -qxF "  $MISPLACED" "$WORK/o" || fail "summary: misplaced extent"
grep -qxF "  $CHANGED" "$WORK/o" || fail "summary: changed byte"
grep -q "errors 129 (io 0, verify 129," "$WORK/o" || fail "summary: 129 verify errors"

python3 - "$WORK/bad.jsonl" "$OLD" "$NEW" <<'PY' || fail "--error-log check failed"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
if not (len(lines) == 129):
    raise AssertionError(len(lines))
mis = [l for l in lines if l["cause"] == "misplaced"]
chg = [l for l in lines if l["cause"] == "content changed"]
if not (sorted(l["lba"] for l in mis) == list(range(2560, 2688))):
    raise AssertionError(mis[:3])
if not (all(l["written_for_lba"] == l["lba"] - 1280 and l["count"] == 1 and
           l["kind"] == "verify" and l["offset"] == l["lba"] * 512 for l in mis)):
    raise AssertionError(mis[:3])
if not (len(chg) == 1):
    raise AssertionError(chg)
c = chg[0]
if not ((c["lba"], c["byte"], c["expected"], c["found"]) == (65537, 488, int(sys.argv[2]), int(sys.argv[3]))):
    raise AssertionError(c)
if not (all("t" in l and "job" in l for l in lines)):
    raise AssertionError('check failed: all("t" in l and "job" in l for l in lines)')
print("error log: 128 misplaced + 1 changed")
PY

# JSON summary: both extents, with their particulars
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 --output-format json
python3 - "$WORK/o" "$MISPLACED" "$CHANGED" <<'PY' || fail "JSON summary check failed"
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
if not (s["type"] == "summary" and s["exit"] == 3):
    raise AssertionError(s["type"])
ext = s["bad_extents"]
if not (len(ext) == 2 and s["bad_extents_total"] == 2 and s["bad_extents_unlisted"] == 0):
    raise AssertionError(ext)
if not (s["bad_blocks"] == 129 and s["errors"]["verify"] == 129):
    raise AssertionError(s)
m, c = ext
if not ((m["kind"], m["lba"], m["count"], m["bytes"], m["cause"], m["written_for_lba"]) == \
       ("verify", 2560, 128, 65536, "misplaced", 1280)):
    raise AssertionError(m)
if not (m["text"] == sys.argv[2]):
    raise AssertionError(m)
if not ((c["kind"], c["lba"], c["count"], c["cause"], c["byte"]) == \
       ("verify", 65537, 1, "content changed", 488)):
    raise AssertionError(c)
if not (c["text"] == sys.argv[3]):
    raise AssertionError(c)
print("JSON: 2 extents")
PY

# --max-report 1: one extent printed and listed, the rest counted
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --bs 64k --interval 0 --max-report 1
[ "$(grep -c '^dixload: verify: ' "$WORK/e")" = 1 ] || fail "--max-report 1: $(cat "$WORK/e")"
grep -qx "dixload: further bad extents are counted, not printed (--max-report 1)" "$WORK/e" ||
	fail "--max-report 1: no notice: $(cat "$WORK/e")"
grep -qx "dixload: 1 more bad extent was not printed (--max-report 1)" "$WORK/e" ||
	fail "--max-report 1: no count of the rest: $(cat "$WORK/e")"
grep -qxF "  $MISPLACED" "$WORK/o" && ! grep -qF "$CHANGED" "$WORK/o" &&
	grep -qx "  verify: 1 more extent (1 block) not listed (--max-report 1)" "$WORK/o" ||
	fail "--max-report 1 summary: $(cat "$WORK/o")"

# SIGINT: the lines found so far are in the file, whole
"$DIXLOAD" --dev "$F" --rw read --bs 64k --interval 0 --runtime 30 \
	--error-log "$WORK/int.jsonl" >"$WORK/o" 2>"$WORK/e" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
st=$?
[ "$st" = 3 ] || fail "interrupted run exited $st, want 3"
grep -q "^exit status 3" "$WORK/o" || fail "interrupted run: no summary"
python3 - "$WORK/int.jsonl" <<'PY' || fail "--error-log after SIGINT"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]   # every line whole
if not (len(lines) >= 129):
    raise AssertionError(len(lines))
print("after SIGINT: %d lines, all whole" % len(lines))
PY

# across I/O and worker boundaries: 300 blocks over 3 I/Os of one worker,
# 100 blocks across the boundary of two workers' slices (LBA 8192)
G=$WORK/g.img
run_dix "$WORK/o" "$WORK/e" --dev "$G" --size 8m --rw write --bs 64k --interval 0 ||
	fail "write run: $(cat "$WORK/e")"
dd if="$G" of="$G" bs=512 skip=1000 seek=3000 count=300 conv=notrunc status=none
dd if="$G" of="$G" bs=512 skip=100 seek=8150 count=100 conv=notrunc status=none
run_dix "$WORK/o" "$WORK/e" --dev "$G" --rw read --bs 64k --interval 0 --jobs 2 --iodepth 4
st=$?
cat "$WORK/e" "$WORK/o"
[ "$st" = 3 ] || fail "boundary run exited $st"
grep -qx "dixload: verify: LBA 3000-3299 (300 blocks, 150 KiB): misplaced, holds data written for LBA 1000-1299" "$WORK/e" ||
	fail "live: the extent over three I/Os is not one line"
grep -qx "bad extents: 2 (400 blocks)" "$WORK/o" || fail "summary: want 2 extents"
grep -qx "  verify: LBA 8150-8249 (100 blocks, 50 KiB): misplaced, holds data written for LBA 100-199" "$WORK/o" ||
	fail "summary: the extent across the workers' boundary is not one"
exit 0
