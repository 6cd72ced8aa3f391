#!/bin/sh
# Bad input gives exit 1 and a message naming the option, value and what is allowed.
. "$top_srcdir/tests/sh/lib.sh"

expect1() {
	want=$1; shift
	run_dix "$WORK/o" "$WORK/e" "$@"; st=$?
	[ $st -eq 1 ] || fail "dixload $* exited $st, want 1 ($(cat "$WORK/e"))"
	grep -qF -- "$want" "$WORK/e" || fail "dixload $*: stderr lacks '$want': $(cat "$WORK/e")"
	echo "ok: $* -> $(head -1 "$WORK/e")"
}

F=$WORK/f.img
expect1 "--dev PATH is required" --rw read
expect1 "unknown option '--colour'" --dev "$F" --colour blue
expect1 "--bs: 3k is not a power of two" --dev "$F" --bs 3k
expect1 "--timeout: 0.0001 is outside 0.001 to 86400 seconds" --dev "$F" --timeout 0.0001
expect1 "--timeout: 25h is outside 0.001 to 86400 seconds" --dev "$F" --timeout 25h
expect1 "--timeout 5: --engine libaio sends no commands of its own: through the block layer the command timeout is the device's (/sys/block/DEV/device/timeout, or nvme_core's io_timeout); engines that take --timeout: " --dev "$F" --timeout 5
expect1 "allowed: read, write, randread, randwrite, rw, randrw" --dev "$F" --rw sideways
expect1 "--iodepth: 0 is out of range (allowed: 1 to 4096)" --dev "$F" --iodepth 0
expect1 "--runtime: 'soon' is not a number of seconds" --dev "$F" --runtime soon
expect1 "--engine: 'warp' is not available (allowed: sync, libaio" --dev "$F" --engine warp
expect1 "--size: 'lots' is not a size" --dev "$F" --size lots
expect1 "give --size to create a file" --dev "$WORK/missing.img" --rw write
expect1 "No such file or directory" --dev "$WORK/missing.img" --rw read
expect1 "--bs needs a value" --dev "$F" --bs
expect1 "profile 'nosuch' not found" --dev "$F" --profile nosuch
expect1 "unexpected argument 'stray'" --dev "$F" stray
expect1 "unknown command 'frobnicate'" frobnicate

# numbers in messages are named: the target's size is called its size
truncate -s 17825792 "$WORK/17m.img" || hard "truncate"
expect1 "--offset 17825792 is at or past the end of $WORK/17m.img: its size is 17825792 bytes" \
	--dev "$WORK/17m.img" --rw read --offset 17825792
expect1 "$WORK/17m.img: its size is 17825792 bytes, less than --offset + --size (18874368 bytes); a read run never extends a file" \
	--dev "$WORK/17m.img" --rw read --size 18m
expect1 "the region of $WORK/17m.img (65536 bytes from --offset 17760256) is smaller than --bs x --jobs (65536 x 2 bytes)" \
	--dev "$WORK/17m.img" --rw read --offset 17760256 --jobs 2

printf 'rw=randrw\nbs = 64k\nthis is not a setting\n' >"$WORK/bad.profile"
expect1 "bad.profile:3: expected key=value, found 'this is not a setting'" \
	--dev "$F" --size 1m --profile "$WORK/bad.profile"

# a profile expecting a PI format the target lacks
"$DIXLOAD" --dev "$F" --size 1m --rw write --interval 0 >/dev/null 2>&1 || fail "setup write"
expect1 "integrity format is 'none' but the profile expects 'T10-DIF-TYPE1-CRC'" \
	--dev "$F" --profile "$top_srcdir/profiles/dif1.profile" --runtime 1
# ... and --pi-format any runs anyway
run_dix "$WORK/o" "$WORK/e" --dev "$F" --profile "$top_srcdir/profiles/dif1.profile" \
	--pi-format any --runtime 0.3 --interval 0 || fail "--pi-format any: $(cat "$WORK/e")"

"$DIXLOAD" --help | grep -q "EXIT STATUS" || fail "--help lacks EXIT STATUS"
"$DIXLOAD" --help | grep -q "^  libaio" || fail "--help lacks the engine table"
"$DIXLOAD" --version | grep -q "^dixload [0-9]" || fail "--version"
DIXLOAD_PROFILE_PATH=$top_srcdir/profiles "$DIXLOAD" --list-profiles | grep -q "^dif1 " ||
	fail "--list-profiles lacks dif1"
# --help marks "(command line only)" exactly the options a profile refuses
# as command-line only (the header says profiles take the same keys)
"$DIXLOAD" --help > "$WORK/help"
for name in $("$DIXLOAD" --dump-options | cut -f1); do
	case $name in help|version|list-profiles) continue ;; esac
	printf '%s=1\n' "$name" > "$WORK/k.profile"
	"$DIXLOAD" --dev "$WORK/none.img" --profile "$WORK/k.profile" >/dev/null 2>"$WORK/e"
	refused=no marked=no
	grep -q "only allowed on the command line\|accepted only on the command line" "$WORK/e" &&
		refused=yes
	grep -q "^  --$name .*(command line only)$" "$WORK/help" &&
		marked=yes
	[ $refused = $marked ] ||
		fail "--$name: refused in a profile: $refused, marked command line only in --help: $marked"
done
echo "ok: --help marks the command-line-only options"
echo "all usage checks passed"
