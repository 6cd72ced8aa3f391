#!/bin/sh
# dixvm --timeout: a guest command that never ends gets status 124 on time, and no QEMU process is left behind.
. "$top_srcdir/tests/vm/lib.sh"
need_vm

start=$(date +%s)
TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"
TMPDIR=$TMPDIR "$DIXVM" --kernel "$DIXVM_KERNEL" --timeout 20 -- sleep 100000 \
	> "$WORK/out" 2> "$WORK/err"
st=$?
took=$(( $(date +%s) - start ))
[ "$st" = 124 ] || fail "exit status $st, want 124 (stderr: $(tail -c 600 "$WORK/err"))"
grep -q '^dixvm: timeout' "$WORK/err" || fail "no timeout message on stderr: $(cat "$WORK/err")"
# Boot, setup and the kill all fit in the 20 s plus a margin for the kill.
[ "$took" -le 35 ] || fail "dixvm returned after ${took}s for a 20 s timeout"

# QEMU ran with its work files under $TMPDIR; none of it may still run.
sleep 1
if pgrep -f -- "$TMPDIR/dixvm" > "$WORK/left"; then
	fail "processes left running: $(ps -o pid=,stat=,args= -p "$(paste -sd, "$WORK/left")")"
fi
exit 0
