#!/bin/sh
# bench/floor (scripts/bench-vm's floor): every engine keeps I/O in flight, writes land inside its region, failures are exit 2.
. "$top_srcdir/tests/sh/lib.sh"
need_python
FLOOR=${top_builddir:-.}/bench/floor
[ -x "$FLOOR" ] || hard "$FLOOR not built"
img=$WORK/f.img
truncate -s 4m "$img" || hard "truncate"
# O_DIRECT is what the floor measures; a filesystem without it cannot host this
if ! dd if="$img" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
	skip "the filesystem of $WORK refuses O_DIRECT"
fi
engines="sync libaio"
"$DIXLOAD" --version | grep -q '^engines:.* io_uring' && engines="$engines io_uring"

for e in $engines; do
	for q in 1 8; do
		[ $e = sync ] && [ $q = 8 ] && continue
		out=$("$FLOOR" -e $e -q $q -j 2 -t 0.3 -W 0.1 "$img" 2>"$WORK/e") ||
			fail "$e QD$q read: exit $?: $(cat "$WORK/e")"
		echo "$out" | awk 'NF == 2 && $1 > 0 && $2 >= 0 { ok = 1 } END { exit !ok }' ||
			fail "$e QD$q read: '$out' is not 'IOPS CPU%'"
	done
	# writes go to [1M, 2M) only: the rest of the file stays zero
	rm -f "$img" && truncate -s 4m "$img" || hard "truncate"
	"$FLOOR" -e $e -q $([ $e = sync ] && echo 1 || echo 4) -w -o 1m -s 1m -t 0.3 -W 0.1 \
		"$img" > /dev/null 2>"$WORK/e" || fail "$e write: $(cat "$WORK/e")"
	python3 - "$img" "$e" <<'PY' || fail "$e: writes outside [1M, 2M) or none inside"
import sys
d = open(sys.argv[1], "rb").read()
M = 1 << 20
if not (d[:M] == bytes(M) and d[2 * M:] == bytes(2 * M)):
    raise AssertionError("outside")
if not (d[M:2 * M].count(0xa5) >= 4096):
    raise AssertionError("inside")
print("%s: writes inside the region only" % sys.argv[2])
PY
done
# a region past the end of a file: the first read is short, exit 2
"$FLOOR" -e sync -q 1 -o 8m -s 1m -t 0.3 -W 0.1 "$img" > /dev/null 2>"$WORK/e"
[ $? = 2 ] || fail "a short read did not exit 2"
grep -q 'floor: pread' "$WORK/e" || fail "no message for the short read: $(cat "$WORK/e")"
"$FLOOR" -e sync -q 4 "$img" > /dev/null 2>&1
[ $? = 1 ] || fail "sync at depth 4 was not refused"
"$FLOOR" -e nosuch "$img" > /dev/null 2>&1
[ $? = 1 ] || fail "an unknown engine was not refused"
echo "floor ok: $engines"
