#!/bin/sh
# scripts/bench-vm --short --fail-over, CI's bench step, on canned guest lines (--from-raw, no boot): every row measured within the baseline passes; a row n/a (no sg node, an sdpi row's exit 1) or with no result at all fails, naming the row and why; a row over the baseline fails as before; without --fail-over an n/a row is only a line of the table.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_python
# the --short rows this dixload can run: one needs the sg engine
need_feature libaio io_uring sg
BV=$top_srcdir/scripts/bench-vm

"$BV" --short --list > "$WORK/list" 2>&1 || fail "bench-vm --short --list: $(cat "$WORK/list")"
rows=$(grep -v '^ ' "$WORK/list")
[ "$(echo "$rows" | wc -l)" = 6 ] || fail "want CI's 6 --short rows, got: $rows"
echo "$rows" | grep -qx 'sd.sg.randread.qd1.j1.off' || fail "no sg row in --short: $rows"

# A baseline of 10000 instructions per I/O a row (-icount shift=2: 2.5e8
# a guest second, so 25000 IOPS), and the guest's lines: per round and row
# "R round row dixload t:ops:busy..." (four meter lines, 25000 IOPS).
{
	printf '# canned baseline\n# runtime 1\n# rounds 3\n# shift 2\n'
	for r in $rows; do echo "$r dixload 10000 25000.0"; done
} > "$WORK/base"
# raw [EXCEPT [IOPS-ROW IOPS]] - the lines of three rounds, without row EXCEPT
raw() {
	echo "K 6.1.0-canned-amd64"
	for n in 1 2 3; do
		for r in $rows; do
			[ "$r" = "${1:-}" ] && continue
			i=25000
			[ "$r" = "${2:-}" ] && i=$3
			echo "R $n $r dixload $(awk -v i="$i" 'BEGIN { for (t = 1; t <= 4; t++)
				printf "%s%.2f:%d:100", (t > 1 ? " " : ""), t / 4, i * t / 4 }')"
		done
	done
	echo "U 40.0"
}
# bench CASE WANT-STATUS ARGS... - the comparison on $WORK/raw; WANT-STATUS
# its exit; the table in $WORK/out
bench() {
	_c=$1 _w=$2
	shift 2
	"$BV" --from-raw "$WORK/raw" "$@" > "$WORK/out" 2>&1
	_st=$?
	[ "$_st" = "$_w" ] || { cat "$WORK/out"; fail "$_c: exit $_st, want $_w"; }
}
ci() { bench "$1" "$2" --short --baseline "$WORK/base" --fail-over 3; }

# every row measured, at its baseline: passes
raw > "$WORK/raw"
ci "all six measured" 0
grep -q '^FAIL' "$WORK/out" && { cat "$WORK/out"; fail "all measured: a FAIL line"; }
[ "$(grep -c ' dixload .* +0.00%' "$WORK/out")" = 6 ] ||
	{ cat "$WORK/out"; fail "all measured: want 6 rows at +0.00 % of the baseline"; }
echo "ok: six rows measured, at the baseline: exit 0"

# the guest had no sg node: the sd phase's rows are n/a (bench-vm's phase())
{ raw sd.sg.randread.qd1.j1.off; echo "N sd no sg node for /dev/sda (sg module)"; } > "$WORK/raw"
ci "the sg row n/a" 1
want="FAIL: dixload rows not measured (n/a), so not compared with the baseline: sd.sg.randread.qd1.j1.off (no sg node for /dev/sda (sg module))"
grep -qxF "$want" "$WORK/out" || { cat "$WORK/out"; fail "the sg row n/a: no line '$want'"; }
grep -q '^sd.sg.randread.qd1.j1.off  *dixload  *-  n/a (no sg node' "$WORK/out" ||
	{ cat "$WORK/out"; fail "the sg row n/a: not in the table as n/a"; }
echo "ok: the sg row n/a (no sg node): exit 1, named with its reason"

# its setup write failed: the same, with that reason
{ raw sd.sg.randread.qd1.j1.off; echo "N sd the write of its 64 MiB failed: dixload: /dev/sda: EIO"; } > "$WORK/raw"
ci "the sg row's setup write failed" 1
grep -qF "sd.sg.randread.qd1.j1.off (the write of its 64 MiB failed: dixload: /dev/sda: EIO)" "$WORK/out" ||
	{ cat "$WORK/out"; fail "the failed setup write not named"; }
echo "ok: the sg row's setup write failed: exit 1, named"

# a row the guest gave no line for at all (neither R nor N)
raw mb1.libaio.randread.qd1.j1.on > "$WORK/raw"
ci "a row without a result" 1
grep -qF "mb1.libaio.randread.qd1.j1.on (no result from the guest)" "$WORK/out" ||
	{ cat "$WORK/out"; fail "a row without a result not named"; }
echo "ok: a row with no result from the guest: exit 1, named"

# an sdpi row whose dixload exited 1 (bench-vm turns that E line into N)
{ raw; echo "N sdpi.io_uring.randread.qd1.j1.off dixload exit 1: dixload: --pi app: refused by the kernel"; } > "$WORK/raw"
{ cat "$WORK/base"; echo "sdpi.io_uring.randread.qd1.j1.off dixload 10000 25000.0"; } > "$WORK/base2"
bench "an sdpi row's exit 1" 1 --rows 'sdpi.io_uring.randread.qd1.j1.off' --tools dixload \
	--baseline "$WORK/base2" --fail-over 3
grep -qF "sdpi.io_uring.randread.qd1.j1.off (dixload exit 1: dixload: --pi app: refused by the kernel)" "$WORK/out" ||
	{ cat "$WORK/out"; fail "the sdpi row's exit 1 not named"; }
echo "ok: an sdpi row's exit 1, n/a: exit 1, named"

# the control: a row 5 % over its baseline still fails, and says by how much
raw "" mb0.io_uring.randread.qd32.j1.off 23810 > "$WORK/raw"
ci "a row 5 % over the baseline" 1
grep -q '^FAIL: dixload rows over 3 % above the baseline (or without one): mb0.io_uring.randread.qd32.j1.off +5.00 %$' "$WORK/out" ||
	{ cat "$WORK/out"; fail "the row over the baseline not named"; }
echo "ok: a row 5 % over the baseline: exit 1"

# a table without --fail-over judges nothing: the n/a row is a line of it
{ raw sd.sg.randread.qd1.j1.off; echo "N sd no sg node for /dev/sda (sg module)"; } > "$WORK/raw"
bench "n/a without --fail-over" 0 --short --baseline "$WORK/base"
grep -q '^sd.sg.randread.qd1.j1.off  *dixload  *-  n/a' "$WORK/out" ||
	{ cat "$WORK/out"; fail "n/a without --fail-over: not in the table"; }
echo "ok: without --fail-over the n/a row is in the table, exit 0"
echo "bench-unmeasured: a row CI compares is measured or the step fails"
