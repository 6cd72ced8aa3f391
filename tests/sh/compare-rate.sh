#!/bin/sh
# compare: run B capped with --rate at half of run A's throughput is a regression (exit 5); the cap holds per interval; A against itself is none (exit 0).
. "$top_srcdir/tests/sh/lib.sh"
need_python
need_feature jsonc

# tmpfs when there is one: fast, and it leaves no disk image behind
dir=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	dir=$(mktemp -d /dev/shm/dixload-cmp.XXXXXX) && [ -d "$dir" ] ||
		hard "mktemp -d /dev/shm/dixload-cmp.XXXXXX failed"
	on_exit "rm -rf $dir"
fi
F=$dir/f.img
common="--dev $F --size 32m --rw randrw --bs 64k --iodepth 4 --seed 7 --runtime 3 --output-format json"

# shellcheck disable=SC2086
run_dix "$WORK/a.json" "$WORK/a.err" $common || fail "run A: $(cat "$WORK/a.err")"
caps=$(python3 - "$WORK/a.json" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
print("%.3f,%.3f" % (s["read_bps"] / 2e6, s["write_bps"] / 2e6))
PY
) || fail "cannot read run A's summary"
echo "run A: half of its MB/s per direction: --rate $caps"
# shellcheck disable=SC2086
run_dix "$WORK/b.json" "$WORK/b.err" $common --rate "$caps" ||
	fail "run B: $(cat "$WORK/b.err")"

"$DIXLOAD" compare "$WORK/a.json" "$WORK/b.json" > "$WORK/cmp.txt" 2>&1
st=$?
cat "$WORK/cmp.txt"
[ "$st" = 5 ] || fail "compare A B exited $st, want 5 (regression)"
grep -q '^read throughput .*REGRESSION' "$WORK/cmp.txt" || fail "read throughput not flagged"
grep -q '^write throughput .*REGRESSION' "$WORK/cmp.txt" || fail "write throughput not flagged"
grep -q '^  rate ' "$WORK/cmp.txt" || fail "the differing setting rate is not listed"

"$DIXLOAD" compare "$WORK/a.json" "$WORK/b.json" --output-format json > "$WORK/cmp.json"
st=$?
[ "$st" = 5 ] || fail "compare --output-format json exited $st, want 5"
python3 - "$WORK/a.json" "$WORK/b.json" "$WORK/cmp.json" <<'PY' || fail "JSON table or the cap is wrong"
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
c = json.loads(open(sys.argv[3]).read())
cap = b[-1]["settings"]["rate"]
# the cap held in every full interval, not only on average (1 % slack + one I/O)
for iv in (o for o in b if o["type"] == "interval" and o["dt"] > 0.9):
    if not (iv["cap"]["read_bps"] == cap[0] and iv["cap"]["write_bps"] == cap[1]):
        raise AssertionError(iv)
    for d, k in ((0, "read_bps"), (1, "write_bps")):
        if not (iv[k] <= cap[d] * 1.03 + 4 * 65536 / iv["dt"]):
            raise AssertionError((k, iv[k], cap[d]))
rows = {r["metric"]: r for r in c["rows"]}
for d in ("read", "write"):
    r = rows[d + " throughput"]
    if not (r["regression"] and r["better"] == "higher"):
        raise AssertionError(r)
    # capped at half: about -50 %; a busier host can only make B slower
    if not (r["change_pct"] <= -40):
        raise AssertionError(r)
if not (c["regressions"] >= 2 and c["exit"] == 5):
    raise AssertionError(c)
if not ([s for s in c["settings"] if s["key"] == "rate"]):
    raise AssertionError(c["settings"])
print("read %.1f -> %.1f MB/s (%+.1f %%)" % (rows["read throughput"]["a"],
      rows["read throughput"]["b"], rows["read throughput"]["change_pct"]))
PY

"$DIXLOAD" compare "$WORK/a.json" "$WORK/a.json" > "$WORK/same.txt" 2>&1 ||
	fail "compare A A exited $?: $(cat "$WORK/same.txt")"
grep -q "no regression" "$WORK/same.txt" || fail "A against A: $(cat "$WORK/same.txt")"

# a run cut short (no summary) is an input error, not a row of zeros
head -n 1 "$WORK/a.json" > "$WORK/cut.json"
"$DIXLOAD" compare "$WORK/a.json" "$WORK/cut.json" > /dev/null 2>&1
st=$?
[ "$st" = 1 ] || fail "compare with a summary-less file exited $st, want 1"
exit 0
