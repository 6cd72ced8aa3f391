#!/bin/sh
# dixload sweep exits with the documented precedence of its points' statuses (exit_worst()), not the largest number: integrity errors at one point (3) win over a failed action at another (4), the host-side case of a --hotload sweep whose module is loaded from the second point on.
. "$top_srcdir/tests/sh/lib.sh"

# point 1: every 50th read comes back with a bit flipped (3); point 2: a
# clean load whose --exec fails (4).  The null engine's store is the
# process's, so the reads of each point find what it wrote.
run_dix "$WORK/o" "$WORK/e" sweep --json flip-every=50,0 exec='true@0.1',"false@0.1" -- \
	--engine null --dev "$WORK/n.img" --size 4m --rw randrw --bs 4k --runtime 0.4 \
	--interval 0 --max-report 0
st=$?
cat "$WORK/o"
for p in '"flip-every":"50","exec":"true@0.1"},.*"exit":3}' \
	'"flip-every":"50","exec":"false@0.1"},.*"exit":3}' \
	'"flip-every":"0","exec":"true@0.1"},.*"exit":0}' \
	'"flip-every":"0","exec":"false@0.1"},.*"exit":4}'; do
	grep -q "$p" "$WORK/o" || fail "no point row matching $p: $(cat "$WORK/o")"
done
[ $st -eq 3 ] || fail "a sweep with points of status 3 and 4: exit $st, want 3"

# the order of the points does not matter: the failed action first
run_dix "$WORK/o" "$WORK/e" sweep flip-every=0,50 -- \
	--engine null --dev "$WORK/m.img" --size 4m --rw randrw --bs 4k --runtime 0.4 \
	--interval 0 --max-report 0 --exec 'false@0.1'
st=$?
[ $st -eq 3 ] || fail "points of status 4 then 3: exit $st, want 3 ($(cat "$WORK/o"))"

# 4 and 0 alone give 4 (the precedence keeps the failure)
run_dix "$WORK/o" "$WORK/e" sweep exec='true@0.1',"false@0.1" -- \
	--engine null --dev "$WORK/k.img" --size 4m --rw randrw --bs 4k --runtime 0.4 \
	--interval 0
st=$?
[ $st -eq 4 ] || fail "points of status 0 and 4: exit $st, want 4 ($(cat "$WORK/o"))"
echo "a sweep exits by the precedence of its points' statuses"
