#!/bin/sh
# Three files under one --dev list: per-device meter lines and JSON rows add up to the total, and a corrupted block is named on its own file alone.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python

A=$WORK/a B=$WORK/b C=$WORK/c
# the list two ways at once: commas, and a repeated --dev
run_dix "$WORK/o" "$WORK/e" --dev "$A,$B" --dev "$C" --size 8m --rw write \
	--bs 64k --interval 0 || fail "write run: $(cat "$WORK/e")"
for f in "$A" "$B" "$C"; do
	[ "$(stat -c %s "$f")" = 8388608 ] || fail "$f was not written to 8 MiB"
done
grep -q "^--- total of 3 devices:" "$WORK/o" || fail "no total: $(cat "$WORK/o")"

# a clean read-back: per-device lines, one per device per interval
run_dix "$WORK/o" "$WORK/e" --dev "$A,$B,$C" --rw randread --bs 4k \
	--runtime 2.5 --interval 500 --per-device --verify strict ||
	fail "clean verify: $(cat "$WORK/e")"
cat "$WORK/o"
total=$(grep -c '^\[ *[0-9.]*s\] R ' "$WORK/o")
[ "$total" -ge 4 ] || fail "only $total total meter lines"
for f in "$A" "$B" "$C"; do
	n=$(grep -c "^$f: \[ *[0-9.]*s\] R " "$WORK/o")
	[ "$n" = "$total" ] || fail "$f: $n per-device lines for $total intervals"
done

# the same as JSON: each interval's devices[] sums to its total
run_dix "$WORK/j" "$WORK/e" --dev "$A,$B,$C" --rw randrw --bs 4k \
	--runtime 2 --interval 500 --output-format json ||
	fail "json run: $(cat "$WORK/e")"
python3 - "$WORK/j" "$A" "$B" "$C" <<'PY' || fail "JSON check failed"
import json, sys
path, devs = sys.argv[1], sys.argv[2:]
recs = [json.loads(l) for l in open(path)]
start = recs[0]
if not ([d["dev"] for d in start["devices"]] == devs):
    raise AssertionError(start["devices"])
iv = [r for r in recs if r["type"] == "interval"]
if not (len(iv) >= 3):
    raise AssertionError(len(iv))
for r in iv:
    rows = r["devices"]
    if not ([d["dev"] for d in rows] == devs):
        raise AssertionError(rows)
    if not (sum(d["ops"] for d in rows) == r["ops"]):
        raise AssertionError(r)
    for k in ("read_bps", "write_bps", "iops"):
        s = sum(d[k] for d in rows)
        # each row is rounded on its own: allow one unit per row
        if not (abs(s - r[k]) <= len(rows)):
            raise AssertionError((k, s, r[k]))
summ = recs[-1]
if not (summ["type"] == "summary"):
    raise AssertionError(summ)
rows = summ["devices"]
if not ([d["dev"] for d in rows] == devs):
    raise AssertionError('check failed: [d["dev"] for d in rows] == devs')
for k in ("read_ops", "write_ops", "read_bytes", "write_bytes", "ops"):
    if not (sum(d[k] for d in rows) == summ[k]):
        raise AssertionError((k, summ[k]))
print("json: %d intervals, devices sum to the total" % len(iv))
PY

# corrupt one block of b; the read run names b, and b alone
flip_byte "$B" $((4096 * 512 + 64))
run_dix "$WORK/o" "$WORK/e" --dev "$A,$B,$C" --rw read --bs 64k --interval 0 \
	--output-format json; st=$?
[ $st -eq 3 ] || fail "corruption: exit $st (want 3) $(cat "$WORK/e")"
cat "$WORK/e"
grep -q "^dixload: $B: verify: LBA 4096: content changed at byte 64 of the block" "$WORK/e" ||
	fail "LBA 4096 of $B not named: $(cat "$WORK/e")"
grep -q "^dixload: \($A\|$C\):" "$WORK/e" && fail "a clean file was named: $(cat "$WORK/e")"
python3 - "$WORK/o" "$A" "$B" "$C" <<'PY' || fail "JSON summary of the corruption"
import json, sys
path, a, b, c = sys.argv[1:]
summ = [json.loads(l) for l in open(path)][-1]
err = {d["dev"]: d["errors"]["verify"] for d in summ["devices"]}
if not (err == {a: 0, b: 1, c: 0}):
    raise AssertionError(err)
if not (summ["errors"]["verify"] == 1):
    raise AssertionError(summ["errors"])
ext = summ["bad_extents"]
if not (len(ext) == 1 and ext[0]["dev"] == b and ext[0]["lba"] == 4096):
    raise AssertionError(ext)
print("corruption on", b, "alone:", ext[0])
PY
# an expected integrity format is checked against each device's own
run_dix "$WORK/o" "$WORK/e" --dev "$A,$B" --rw read --pi-format T10-DIF-TYPE1-CRC \
	--interval 0; st=$?
[ $st -eq 1 ] || fail "--pi-format against files: exit $st (want 1)"
grep -q "^dixload: $A: integrity format is 'none' but --pi-format expects 'T10-DIF-TYPE1-CRC'" "$WORK/e" ||
	fail "format mismatch not named: $(cat "$WORK/e")"
# a list naming one file twice, or an empty element, is refused
run_dix "$WORK/o" "$WORK/e" --dev "$A,$A" --interval 0 && fail "a repeated path ran"
grep -q "^dixload: --dev: $A is given twice" "$WORK/e" || fail "repeat: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$A,,$B" --interval 0 && fail "an empty element ran"
grep -q "an empty path" "$WORK/e" || fail "empty element: $(cat "$WORK/e")"
ln -s "$A" "$WORK/alias"
run_dix "$WORK/o" "$WORK/e" --dev "$A,$WORK/alias" --interval 0 --rw read &&
	fail "two paths of one file ran"
grep -q "are the same target" "$WORK/e" || fail "alias: $(cat "$WORK/e")"
echo "multi-device checks passed"
