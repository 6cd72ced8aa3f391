#!/bin/sh
# A run never changes its target's size: --size past the end of an existing file, an --offset past it, and every setup error after the open leave the file's size and bytes as they were; --grow extends it, a missing file is created with --size, and a refused run leaves no file it would have created.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

# snap FILE - its size and the hash of its bytes, one line
snap() { printf '%s %s\n' "$(stat -c %s "$1")" "$(md5sum < "$1" | cut -d' ' -f1)"; }

# same FILE BEFORE WHAT - fail unless FILE is still BEFORE after WHAT
same() {
	now=$(snap "$1")
	[ "$now" = "$2" ] || fail "$3 changed $1: before '$2', after '$now'"
}

# A 256 MiB file with data in it (sparse elsewhere: the test is cheap)
truncate -s 256m "$WORK/disk.img" || hard "truncate"
head -c 1048576 /dev/urandom | dd of="$WORK/disk.img" bs=1M seek=100 conv=notrunc status=none ||
	hard "dd"
before=$(snap "$WORK/disk.img")

# the issue's case: --size 1t grew it to 1 TiB with no word
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/disk.img" --size 1t --rw write --bs 1m \
	--runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "--size 1t on a 256 MiB file: exit $st (want 1): $(cat "$WORK/e")"
grep -q "^dixload: $WORK/disk.img: its size is 268435456 bytes (256m), less than --offset + --size (1099511627776 bytes, 1t); a run never changes the size of an existing file: give --grow" "$WORK/e" ||
	fail "the refusal names neither size or --grow: $(cat "$WORK/e")"
same "$WORK/disk.img" "$before" "--size 1t"

# --size past the end from an offset inside the file
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/disk.img" --offset 200m --size 100m \
	--rw write --interval 0; st=$?
[ $st = 1 ] || fail "--offset 200m --size 100m: exit $st (want 1)"
grep -q "less than --offset + --size (314572800 bytes, 300m)" "$WORK/e" ||
	fail "offset + size not named: $(cat "$WORK/e")"
same "$WORK/disk.img" "$before" "--offset 200m --size 100m"

# a read run never extends, --grow or not
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/disk.img" --size 512m --rw read --grow \
	--interval 0; st=$?
[ $st = 1 ] || fail "a read run past the end: exit $st (want 1)"
grep -q "a read run never extends a file" "$WORK/e" || fail "read: $(cat "$WORK/e")"
same "$WORK/disk.img" "$before" "a read run with --size 512m"

# the issue's second case: --offset 100m on a 64 MiB file grew it to 100
# MiB, then reported the size it had made
truncate -s 64m "$WORK/grow.img" || hard "truncate"
head -c 65536 /dev/urandom | dd of="$WORK/grow.img" conv=notrunc status=none || hard "dd"
gbefore=$(snap "$WORK/grow.img")
head0=$(md5sum < "$WORK/grow.img")
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --offset 100m --rw write \
	--runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "--offset 100m on 64 MiB: exit $st (want 1)"
grep -q "^dixload: --offset 104857600 is at or past the end of $WORK/grow.img: its size is 67108864 bytes$" "$WORK/e" ||
	fail "the offset refusal does not give the file's own size: $(cat "$WORK/e")"
same "$WORK/grow.img" "$gbefore" "--offset 100m"

# setup errors found after the open (the integrity format, the journal)
# come before the file is extended, even with --grow
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --size 128m --grow --rw write \
	--pi-format T10-DIF-TYPE1-CRC --interval 0; st=$?
[ $st = 1 ] || fail "--pi-format mismatch: exit $st (want 1)"
grep -q "integrity format is 'none'" "$WORK/e" || fail "pi-format: $(cat "$WORK/e")"
same "$WORK/grow.img" "$gbefore" "a --pi-format refusal with --grow"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --size 128m --grow --rw write \
	--journal "$WORK/no/such/dir/j" --interval 0; st=$?
[ $st = 1 ] || fail "--journal in a missing directory: exit $st (want 1)"
grep -q "^dixload: --journal $WORK/no/such/dir/j: " "$WORK/e" || fail "journal: $(cat "$WORK/e")"
same "$WORK/grow.img" "$gbefore" "a --journal refusal with --grow"

# --grow: extended to --offset + --size, said on stderr, and the blocks
# written there read back
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --offset 64m --size 64m --grow \
	--rw write --bs 64k --interval 0 || fail "--grow: $(cat "$WORK/e")"
[ "$(stat -c %s "$WORK/grow.img")" = 134217728 ] ||
	fail "--grow left $(stat -c %s "$WORK/grow.img") bytes (want 134217728)"
grep -q "^dixload: warning: $WORK/grow.img: extended from 67108864 bytes (64m) to 134217728 bytes (128m), as --grow asked$" "$WORK/e" ||
	fail "--grow said nothing: $(cat "$WORK/e")"
[ "$(head -c 67108864 "$WORK/grow.img" | md5sum)" = "$head0" ] ||
	fail "--grow from --offset 64m changed the 64 MiB before it"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --offset 64m --rw read --bs 64k \
	--verify strict --interval 0 || fail "reading the grown region: $(cat "$WORK/e")"
# a file already big enough: --grow changes nothing
gbefore=$(snap "$WORK/grow.img")
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/grow.img" --size 1m --grow --rw read \
	--interval 0 || fail "--grow on a big enough file: $(cat "$WORK/e")"
same "$WORK/grow.img" "$gbefore" "--grow on a file already big enough"
grep -q "extended" "$WORK/e" && fail "--grow extended a big enough file: $(cat "$WORK/e")"

# a missing file: created with --size, and not left behind by a refusal
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/new.img" --size 8m --rw write --interval 0 ||
	fail "creating a file: $(cat "$WORK/e")"
[ "$(stat -c %s "$WORK/new.img")" = 8388608 ] || fail "created $(stat -c %s "$WORK/new.img") bytes"
grep -q "extended" "$WORK/e" && fail "a created file is reported extended"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/never.img" --size 8m --rw write \
	--pi-format T10-DIF-TYPE1-CRC --interval 0 && fail "a --pi-format mismatch ran"
[ -e "$WORK/never.img" ] && fail "a refused run left the file it created"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/never.img" --size 8m --rw write \
	--journal "$WORK/no/such/dir/j" --interval 0 && fail "a --journal error ran"
[ -e "$WORK/never.img" ] && fail "a run refused by --journal left the file it created"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/never.img" --rw write --interval 0 &&
	fail "a missing file without --size ran"
grep -q "give --size to create a file" "$WORK/e" || fail "no --size: $(cat "$WORK/e")"
echo "target size checks passed"
