#!/bin/sh
# As root on a loop device: while dixload writes it the kernel refuses mkfs and any O_EXCL open (EBUSY), a second dixload is refused naming the other run, --force writes anyway with a warning; after the run both work; a device another program holds with O_EXCL is refused; one device named twice, a sweep and back-to-back io_uring runs each claim it once per run.
. "$top_srcdir/tests/sh/lib.sh"

need_root losetup
need_tools losetup mkfs.ext4 blkid wipefs python3
need_dixload
need_feature io_uring
make_image 64m
make_loop

# excl_open DEV - what an O_EXCL open of DEV gets: "ok" or the errno's name
excl_open() {
	python3 -c 'import errno, os, sys
try:
    os.close(os.open(sys.argv[1], os.O_RDWR | os.O_EXCL))
    print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])' "$1"
}

# wait_claimed DEV PID - until DEV is claimed (5 s at most), while PID runs
wait_claimed() {
	i=0
	while [ "$(excl_open "$1")" != EBUSY ]; do
		kill -0 "$2" 2>/dev/null || return 1
		i=$((i + 1))
		[ $i -gt 50 ] && return 1
		sleep 0.1
	done
}

[ "$(excl_open "$LOOP")" = ok ] || hard "$LOOP is held before the test: $(excl_open "$LOOP")"

# a write run holds it
"$DIXLOAD" --dev "$LOOP" --rw write --bs 64k --runtime 5 --interval 0 \
	>"$WORK/bg.o" 2>"$WORK/bg.e" &
bg=$!
on_exit "kill $bg 2>/dev/null"
wait_claimed "$LOOP" $bg || fail "the write run never claimed $LOOP: $(cat "$WORK/bg.e")"

# the kernel refuses every exclusive opener: mkfs first of all
mkfs.ext4 -q -F "$LOOP" >"$WORK/mkfs" 2>&1 && fail "mkfs.ext4 wrote $LOOP during a dixload write run"
blkid -p "$LOOP" >/dev/null 2>&1 && fail "a signature reached $LOOP during the run: $(blkid -p "$LOOP")"
# a second dixload is refused, naming the run that holds it
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "a second dixload writing $LOOP: exit $st (want 1)"
grep -q "^dixload: $LOOP is held by another dixload run, which is writing it (it holds the device open with O_EXCL); .* use --force to write it anyway$" "$WORK/e" ||
	fail "the second writer's refusal: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw read --runtime 1 --interval 0; st=$?
[ $st = 1 ] || fail "a dixload reading $LOOP while one writes it: exit $st (want 1)"
grep -q "^dixload: $LOOP: another dixload run is writing it" "$WORK/e" ||
	fail "the reader's refusal: $(cat "$WORK/e")"
# --force writes anyway, and says it has no claim
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --runtime 0.5 --interval 0 --force ||
	fail "--force during the run: $(cat "$WORK/e")"
grep -q "^dixload: warning: $LOOP is held by another dixload run, .*; writing it anyway (--force), without the claim$" "$WORK/e" ||
	fail "--force gave no warning: $(cat "$WORK/e")"
wait $bg || fail "the write run: exit $? $(cat "$WORK/bg.e")"

# after the run: the claim is gone
[ "$(excl_open "$LOOP")" = ok ] || fail "$LOOP still held after the run: $(excl_open "$LOOP")"
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --runtime 0.5 --interval 0 ||
	fail "a write after the run: $(cat "$WORK/e")"
mkfs.ext4 -q -F "$LOOP" >"$WORK/mkfs" 2>&1 || fail "mkfs.ext4 after the run: $(cat "$WORK/mkfs")"
wipefs -a -q "$LOOP" || hard "wipefs"

# another program holding it with O_EXCL: the write is refused, a read runs
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_EXCL)
print("held", flush=True)
time.sleep(30)' "$LOOP" >"$WORK/holder" 2>&1 &
holder=$!
on_exit "kill $holder 2>/dev/null"
i=0
until grep -q held "$WORK/holder"; do
	i=$((i + 1))
	[ $i -gt 50 ] && hard "the O_EXCL holder never held $LOOP: $(cat "$WORK/holder")"
	sleep 0.1
done
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw write --runtime 0.5 --interval 0; st=$?
[ $st = 1 ] || fail "writing a device another program holds: exit $st (want 1)"
grep -q "^dixload: $LOOP is held open exclusively (O_EXCL) by someone else: a mounted filesystem, a device-mapper/md/LVM mapping, mkfs or another exclusive opener" "$WORK/e" ||
	fail "the refusal does not say who may hold it: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --rw read --runtime 0.5 --interval 0 --verify off ||
	fail "a read run needs no claim: $(cat "$WORK/e")"
kill $holder
wait $holder 2>/dev/null

# one device under two names: the same target, not "another run"
ln -s "$LOOP" "$WORK/alias"
run_dix "$WORK/o" "$WORK/e" --dev "$LOOP,$WORK/alias" --rw write --interval 0 &&
	fail "two names of one device ran"
grep -q "^dixload: --dev: $LOOP and $WORK/alias are the same target" "$WORK/e" ||
	fail "alias: $(cat "$WORK/e")"

# every run ends its claim: back-to-back io_uring runs (the ring's
# registered file must be put before the run returns) and a sweep's points
for i in 1 2 3 4 5 6 7 8 9 10; do
	run_dix "$WORK/o" "$WORK/e" --dev "$LOOP" --engine io_uring --rw write \
		--runtime 0.2 --interval 0 || fail "io_uring run $i of 10: $(cat "$WORK/e")"
done
run_dix "$WORK/o" "$WORK/e" sweep iodepth=1,2,4,8 -- --dev "$LOOP" --engine io_uring \
	--rw randwrite --runtime 0.3 || fail "a sweep of 4 points on $LOOP: $(cat "$WORK/e")"
echo "the claim of a block device holds for the run and ends with it"
