#!/bin/sh
# The figures README.md and doc/ quote from the VM tests are doc/figures' lines (scripts/check-figures), the bench baseline's dixload rows are doc/benchmarks.md's, and each damage is caught: a figure edited in a doc, a marker dropped, a commit or test the paragraph no longer names, a baseline row moved; the hold a VM test makes fails a fivefold regression and a 2.5 % move, and says the kernel moved on another release; the VM judges' hold_figure() fails, passes or leaves the figure alone as it must.
. "$top_srcdir/tests/sh/lib.sh"
need_python

CF=$top_srcdir/scripts/check-figures

"$CF" > "$WORK/real.out" 2>&1 || { cat "$WORK/real.out"; fail "the tree's own figures disagree (above)"; }
cat "$WORK/real.out"
grep -q "figures of the table" "$WORK/real.out" || fail "no summary line: $(cat "$WORK/real.out")"

# a copy of the docs to damage, one change at a time
fresh()
{
	rm -rf "$WORK/top"
	mkdir -p "$WORK/top/doc" || hard "mkdir $WORK/top/doc"
	cp "$top_srcdir/README.md" "$WORK/top/" && cp "$top_srcdir"/doc/*.md "$top_srcdir/doc/figures" \
		"$top_srcdir/doc/bench-baseline" "$WORK/top/doc/" || hard "copy the docs"
}
# damaged WHAT WANT - check-figures on the copy must exit 1 and print WANT
damaged()
{
	_st=0
	"$CF" --top "$WORK/top" > "$WORK/dmg.out" 2>&1 || _st=$?
	[ "$_st" = 1 ] || fail "$1: check-figures exited $_st, want 1: $(cat "$WORK/dmg.out")"
	grep -qF "$2" "$WORK/dmg.out" || fail "$1: want '$2' in: $(cat "$WORK/dmg.out")"
	echo "caught: $1: $(grep -F "$2" "$WORK/dmg.out" | head -n 1)"
}

fresh
"$CF" --top "$WORK/top" > /dev/null || fail "the undamaged copy fails: $("$CF" --top "$WORK/top" 2>&1)"

# the README's ratio edited, the table left
fresh
M='×, ±\([0-9.]*\) %)<!-- figure seed-2018 6\.1\.0-50-amd64 -->'
grep -q "$M" "$WORK/top/README.md" || hard "the README no longer quotes seed-2018 on 6.1.0-50-amd64: update this test"
sed -i "s/[0-9.]*$M/9.99×, ±\1 %)<!-- figure seed-2018 6.1.0-50-amd64 -->/" "$WORK/top/README.md"
grep -q '(9\.99×' "$WORK/top/README.md" || hard "could not edit the README's ratio"
damaged "README ratio edited" "README.md:"

# the table moved (its after figure 1 % up), the docs left: every quote fails
fresh
awk '$1 == "seed-2018" && $2 == "6.1.0-50-amd64" { $5 = sprintf("%.2f", $5 * 1.01) } { print }' \
	"$top_srcdir/doc/figures" > "$WORK/top/doc/figures"
cmp -s "$top_srcdir/doc/figures" "$WORK/top/doc/figures" && hard "could not move the table's after figure"
damaged "table moved" "the table (line"
damaged "table moved, doc/hotload.md" "doc/hotload.md:"

# a marker dropped: its line is quoted nowhere
fresh
sed -i 's/<!-- figure seed-2018 6\.12\.95+deb12-amd64 -->//' "$WORK/top/doc/kernels.md"
damaged "marker dropped" "is quoted nowhere"

# a marker naming a line the table lacks
fresh
printf '\nSome 1.00 → 2.00 MB/s (2.00×, ±2 %%)<!-- figure no-such 6.1.0-50-amd64 --> here.\n' >> "$WORK/top/doc/vm.md"
damaged "unknown figure" "is not in the table"

# the paragraph no longer names the commit the table gives
fresh
sed -i 's/^\(seed-2018 .*\) 17ee8e6 /\1 0000000 /' "$WORK/top/doc/figures"
damaged "commit not named" "does not name its commit 0000000"

# a baseline row 1 % off its table row
fresh
awk '$1 == "mb1.io_uring.randread.qd32.j1.on" && $2 == "dixload" { $3 = int($3 * 1.01) } { print }' \
	"$top_srcdir/doc/bench-baseline" > "$WORK/top/doc/bench-baseline"
damaged "baseline row moved" "mb1.io_uring.randread.qd32.j1.on dixload"

# a malformed table is a usage error (2), not a pass
fresh
echo "seed-2018 6.1.0-51-amd64 only four fields" >> "$WORK/top/doc/figures"
_st=0
"$CF" --top "$WORK/top" > "$WORK/bad.out" 2>&1 || _st=$?
[ "$_st" = 2 ] || fail "malformed table: status $_st, want 2: $(cat "$WORK/bad.out")"

# hold: what a VM test asks with what it measured
hold()
{
	_want=$1
	shift
	_st=0
	"$CF" hold "$@" > "$WORK/hold.out" 2>&1 || _st=$?
	[ "$_st" = "$_want" ] || fail "hold $*: status $_st, want $_want: $(cat "$WORK/hold.out")"
	echo "hold $*: $_st: $(head -c 200 "$WORK/hold.out")"
}
K=6.1.0-50-amd64
# the table's own line for seed-2018 on $K: before, after, ratio
set -- $(awk -v k=$K '$1 == "seed-2018" && $2 == k { print $4, $5, $6 }' "$top_srcdir/doc/figures")
[ $# = 3 ] || hard "no seed-2018 line for $K in doc/figures"
B=$1 A=$2 R=$3
sc() { awk -v x="$1" -v f="$2" 'BEGIN { printf "%.4f", x * f }'; }
hold 0 seed-2018 $K "$(sc $B 1.003)" "$(sc $A 0.997)" "$(sc $R 0.994)"  # within a run's scatter
hold 1 seed-2018 $K $B "$(sc $A 0.2)" "$(sc $R 0.2)"                    # a fivefold regression
grep -q "FIGURE MOVED" "$WORK/hold.out" || fail "no FIGURE MOVED line: $(cat "$WORK/hold.out")"
hold 1 seed-2018 $K $B $A "$(sc $R 1.025)"                               # the ratio 2.5 % up
hold 1 seed-2018 $K "$(sc $B 0.972)" "$(sc $A 0.972)" $R                 # both rates 2.8 % down
hold 3 seed-2018 6.1.0-51-amd64 $B $A $R
grep -q "KERNEL MOVED" "$WORK/hold.out" || fail "no KERNEL MOVED line: $(cat "$WORK/hold.out")"
hold 2 no-such-figure $K 1 2 2
hold 2 seed-2018 $K 1 two 2

# --measured: the logs' mean held, and the line to paste printed
printf 'FIGURE-MEASURED seed-2018 %s %s %s %s\nFIGURE-MEASURED seed-2018 %s %s %s %s\n' \
	$K "$(sc $B 1.002)" "$(sc $A 1.002)" $R $K "$(sc $B 0.998)" "$(sc $A 0.998)" $R > "$WORK/a.log"
"$CF" --measured "$WORK/a.log" > "$WORK/m.out" 2>&1 || fail "--measured of two good runs: $(cat "$WORK/m.out")"
grep -q "table line: seed-2018 $K tests/vm/hotload-seed.sh $B $A $R 2 COMMIT DATE 2" "$WORK/m.out" ||
	fail "--measured prints no table line: $(cat "$WORK/m.out")"
echo "FIGURE-MEASURED seed-2018 $K $B $(sc $A 0.5) $(sc $R 0.5)" > "$WORK/b.log"
_st=0
"$CF" --measured "$WORK/b.log" > "$WORK/m.out" 2>&1 || _st=$?
[ "$_st" = 1 ] || fail "--measured of a moved figure: status $_st, want 1: $(cat "$WORK/m.out")"

# hold_figure(), as the VM judges call it, on canned lines: held, moved
# (exit 1), kernel moved (passes, says so), another clock (not held)
. "$top_srcdir/tests/vm/hotload-lib.sh"
# canned lines, no dixload run: the judge is tested as an unsanitized
# build's run is judged, whatever build runs this test (CI's sanitized
# tree too); the sanitized case is asked for by name below
DIXLOAD_SANITIZED=0
judge()
{
	_st=0
	{ printf '%s\n' "$PY_JUDGE"; cat <<'PY'; } > "$WORK/j.py"
tr = {"before": float(sys.argv[2]) * 1e6, "after": float(sys.argv[3]) * 1e6}
tr["ratio"] = tr["after"] / tr["before"]
hold_figure("seed-2018", tr, ["DIXLOAD-EXIT 0", "GUEST-KERNEL " + sys.argv[4]])
print("JUDGE-END")
PY
	python3 "$WORK/j.py" "$WORK/none" "$@" > "$WORK/j.out" 2>&1 || _st=$?
	echo "$_st"
}
[ "$(judge $B $A $K)" = 0 ] && grep -q "figure held" "$WORK/j.out" || fail "hold_figure, a good run: $(cat "$WORK/j.out")"
[ "$(judge $B "$(sc $A 0.3)" $K)" = 1 ] && grep -q "FAIL: figure seed-2018 moved" "$WORK/j.out" ||
	fail "hold_figure, a regression: $(cat "$WORK/j.out")"
[ "$(judge $B "$(sc $A 0.3)" 6.1.0-99-amd64)" = 0 ] && grep -q "KERNEL MOVED" "$WORK/j.out" && grep -q JUDGE-END "$WORK/j.out" ||
	fail "hold_figure, another release: $(cat "$WORK/j.out")"
[ "$(DIXVM_ICOUNT=off judge $B "$(sc $A 0.3)" $K)" = 0 ] && grep -q "NOT HELD" "$WORK/j.out" ||
	fail "hold_figure, the host clock: $(cat "$WORK/j.out")"
[ "$(DIXLOAD_SANITIZED=1 judge $B "$(sc $A 0.3)" $K)" = 0 ] && grep -q "NOT JUDGED: figure seed-2018" "$WORK/j.out" ||
	fail "hold_figure, a sanitized build: $(cat "$WORK/j.out")"
printf 'tr = {"before": 1e6, "after": 2e6, "ratio": 2.0}\nhold_figure("seed-2018", tr, ["DIXLOAD-EXIT 0"])\n' > "$WORK/k.py"
_st=0
{ printf '%s\n' "$PY_JUDGE"; cat "$WORK/k.py"; } | python3 - "$WORK/none" > "$WORK/k.out" 2>&1 || _st=$?
[ "$_st" = 1 ] && grep -q "GUEST-KERNEL" "$WORK/k.out" || fail "hold_figure without the guest's release: $_st $(cat "$WORK/k.out")"
echo "hold_figure: held, moved, kernel moved, host clock, sanitized build and no release as they must"
exit 0
