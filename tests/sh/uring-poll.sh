#!/bin/sh
# io_uring with registered file and buffers, --sqpoll and --hipri: data verifies through the fixed buffers, polling is refused where it cannot work.
. "$top_srcdir/tests/sh/lib.sh"

"$DIXLOAD" --help 2>&1 | grep -q "^  io_uring " ||
	skip "built without liburing"

# write then read back the whole file through registered buffers: every
# block checked (a fixed buffer used at the wrong index would fail this)
F=$WORK/f.img
for extra in "" "--sqpoll"; do
	run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 8m --rw write --bs 16k --iodepth 8 \
		--engine io_uring --interval 0 --seed 7 $extra; st=$?
	if [ $st -ne 0 ] && [ -n "$extra" ] && grep -q "sqpoll.*EPERM" "$WORK/e"; then
		echo "--sqpoll refused by this kernel (EPERM): $(cat "$WORK/e")"
		continue
	fi
	[ $st -eq 0 ] || fail "write run ($extra) exited $st: $(cat "$WORK/e")"
	run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 8m --rw read --bs 4k --iodepth 16 \
		--engine io_uring --interval 0 --verify strict $extra ||
		fail "read-back ($extra) failed: $(cat "$WORK/e") $(cat "$WORK/o")"
	grep -q "^ops 2048, .*errors 0 " "$WORK/o" ||
		fail "read-back ($extra): want 2048 clean reads: $(cat "$WORK/o")"
	# mixed, with the fixed buffers shared between reads and writes
	run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 8m --rw randrw --bs 4k --iodepth 16 \
		--engine io_uring --interval 0 --runtime 1 $extra ||
		fail "randrw ($extra) failed: $(cat "$WORK/e") $(cat "$WORK/o")"
	grep -q "errors 0 " "$WORK/o" || fail "randrw ($extra) errors: $(cat "$WORK/o")"
	echo "io_uring ${extra:-(registered file and buffers)}: write, strict read-back, randrw clean"
done

# polling options belong to engines that poll
run_dix "$WORK/o" "$WORK/e" --dev "$F" --engine libaio --sqpoll --runtime 1; st=$?
[ $st -eq 1 ] || fail "--sqpoll with libaio exited $st, want 1"
grep -q "^dixload: --sqpoll: --engine libaio does not poll; engines that take --sqpoll: io_uring" "$WORK/e" ||
	fail "--sqpoll with libaio: message: $(cat "$WORK/e")"

# --hipri on a file whose filesystem has no block device (tmpfs): refused
# before the load, not one EOPNOTSUPP per I/O
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm for a tmpfs file"
T=$(mktemp -p /dev/shm dixload-hipri.XXXXXX) && [ -f "$T" ] || hard "mktemp -p /dev/shm dixload-hipri.XXXXXX failed"
on_exit "rm -f '$T'"
truncate -s 1m "$T" || hard "truncate $T"
run_dix "$WORK/o" "$WORK/e" --dev "$T" --size 1m --rw randread --engine io_uring --hipri \
	--runtime 1 --interval 0; st=$?
[ $st -eq 1 ] || fail "--hipri on tmpfs exited $st, want 1: $(cat "$WORK/e")"
grep -q "hipri: $T cannot poll for completions (its filesystem has no block device" "$WORK/e" ||
	fail "--hipri on tmpfs: message: $(cat "$WORK/e")"
echo "--hipri refused on tmpfs, --sqpoll refused for libaio"
