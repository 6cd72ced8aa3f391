#!/bin/sh
# A regular file under a dixload write run carries its OFD lock: a second dixload writing or reading it is refused naming the file and the other run, --force runs anyway with a warning, readers share it; the lock ends with the run (after it, a sweep's points); two MPI ranks naming one file refuse each other, one file per rank (%r) runs.
. "$top_srcdir/tests/sh/lib.sh"

need_dixload
need_python
F=$WORK/f.img

# lock_of FILE - the OFD lock another open file holds on FILE: W, R or -
lock_of() {
	python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fl = struct.pack("hh4xqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
t = struct.unpack("hh4xqqi4x", fcntl.fcntl(fd, fcntl.F_OFD_GETLK, fl))[0]
print({fcntl.F_WRLCK: "W", fcntl.F_RDLCK: "R"}.get(t, "-"))' "$1"
}

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 16m --rw write --interval 0 ||
	fail "creating $F: $(cat "$WORK/e")"
# wait_lock KIND WORD - wait up to 5 s for the background run $bg to hold
# lock KIND (W or R) on $F; fail if it ends first or never takes it
wait_lock()
{
	_i=0
	while [ "$(lock_of "$F")" != "$1" ]; do
		kill -0 $bg 2>/dev/null || fail "the $2 run ended early: $(cat "$WORK/bg.e")"
		_i=$((_i + 1))
		[ $_i -gt 50 ] && fail "the $2 run took no $2 lock on $F"
		sleep 0.1
	done
}

[ "$(lock_of "$F")" = - ] || fail "$F locked with no run: $(lock_of "$F")"

"$DIXLOAD" --dev "$F" --rw write --bs 4k --runtime 5 --interval 0 >"$WORK/bg.o" 2>"$WORK/bg.e" &
bg=$!
on_exit "kill $bg 2>/dev/null"
wait_lock W write

# a second writer and a reader are refused, naming the file and the run
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw write --runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "a second dixload writing $F: exit $st (want 1)"
grep -q "^dixload: $F: another dixload run is writing it (it holds a write lock on it); wait for it to end, or use --force to write it anyway$" "$WORK/e" ||
	fail "the second writer's refusal: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "a dixload reading $F while one writes: exit $st (want 1)"
grep -q "^dixload: $F: another dixload run is writing it .* use --force to read it anyway$" "$WORK/e" ||
	fail "the reader's refusal: $(cat "$WORK/e")"
# --force runs, and warns
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw write --runtime 0.5 --interval 0 --force ||
	fail "--force: $(cat "$WORK/e")"
grep -q "^dixload: warning: $F: another dixload run is writing it; writing it anyway (--force)" "$WORK/e" ||
	fail "--force without a warning: $(cat "$WORK/e")"
wait $bg || fail "the write run: exit $? $(cat "$WORK/bg.e")"
[ "$(lock_of "$F")" = - ] || fail "$F still locked after the run: $(lock_of "$F")"

# readers share it: a read run under a read run is no refusal, a writer is
"$DIXLOAD" --dev "$F" --rw read --verify off --runtime 4 --interval 0 >"$WORK/bg.o" 2>"$WORK/bg.e" &
bg=$!
wait_lock R read
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw read --verify off --runtime 0.5 --interval 0 ||
	fail "a second reader: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw write --runtime 0.5 --interval 0; st=$?
[ $st = 1 ] || fail "a writer under a reader: exit $st (want 1)"
grep -q "^dixload: $F: another dixload run is reading it (it holds a read lock on it)" "$WORK/e" ||
	fail "the writer's refusal under a reader: $(cat "$WORK/e")"
wait $bg || fail "the read run: exit $? $(cat "$WORK/bg.e")"

# after the run: written again, and a sweep's points each take it anew
run_dix "$WORK/o" "$WORK/e" --dev "$F" --rw write --runtime 0.5 --interval 0 ||
	fail "a write after the runs: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" sweep iodepth=1,4,16 -- --dev "$F" --rw randrw --runtime 0.3 ||
	fail "a sweep on $F: $(cat "$WORK/e")"

# MPI: ranks do not split a target, so two naming one file overwrite each
# other: the job stops; a file per rank runs
if have_mpi; then
	mpi_dix 2 --dev "$WORK/one.img" --size 8m --rw write --runtime 1 --interval 500 \
		>"$WORK/o" 2>"$WORK/e"; st=$?
	[ $st = 1 ] || fail "two ranks writing one file: exit $st (want 1)"
	grep -q "$WORK/one.img: another dixload run is writing it" "$WORK/e" ||
		fail "the ranks' refusal: $(cat "$WORK/e")"
	mpi_dix 2 --dev "$WORK/r%r.img" --size 8m --rw write --runtime 1 --interval 500 \
		>"$WORK/o" 2>"$WORK/e" || fail "a file per rank: exit $? $(cat "$WORK/e")"
elif [ "${DIXLOAD_TEST_NO_SKIP:-0}" = 1 ]; then
	fail "would leave the MPI part out, but DIXLOAD_TEST_NO_SKIP=1: no MPI build or no mpirun"
else
	echo "MPI part left out: this dixload has no MPI or mpirun is missing"
fi
echo "the lock of a regular file holds for the run and ends with it"
