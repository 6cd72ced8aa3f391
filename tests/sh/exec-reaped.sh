#!/bin/sh
# --exec every second for 16 s: finished commands' threads are joined as the run goes, so dixload's virtual size (8 MiB of stack per unjoined thread) and RSS stay flat instead of growing with every command.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

ex=
t=1
while [ $t -le 15 ]; do
	ex="$ex --exec true@$t"
	t=$((t + 1))
done
# shellcheck disable=SC2086
"$DIXLOAD" --dev "$WORK/f.img" --size 16m --bs 64k --rw randrw --runtime 16 \
	--interval 0 $ex > "$WORK/out" 2> "$WORK/err" &
pid=$!
vm() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status"; }
sleep 3.5
v0=$(vm VmSize) r0=$(vm VmRSS)
sleep 10
v1=$(vm VmSize) r1=$(vm VmRSS)
wait $pid || fail "dixload exit $?: $(tail -c 800 "$WORK/err")"
[ -n "$v0" ] && [ -n "$v1" ] || hard "could not read /proc/$pid/status"
echo "after 3.5 s: VmSize $v0 kB, VmRSS $r0 kB; after 13.5 s (10 more --exec): VmSize $v1 kB, VmRSS $r1 kB"
# unjoined, the 10 commands in between would keep 10 stacks: +80 MiB
[ $((v1 - v0)) -lt 8192 ] || fail "VmSize grew by $((v1 - v0)) kB over 10 --exec commands: their threads are not joined"
# A sanitized build's RSS is ASan's as much as dixload's: its quarantine
# of freed memory, per-thread allocator caches and thread records grow with
# every thread (measured: +696 kB over 10 --exec, with or without the
# start gate; +184 kB with the quarantine and fake stacks off);
# LeakSanitizer checks dixload's own leaks at its exit instead.
if "$DIXLOAD" --version | grep -q '^sanitizers:'; then
	echo "VmRSS not judged: sanitized build (ASan's own per-thread memory)"
else
	[ $((r1 - r0)) -lt 100 ] || fail "VmRSS grew by $((r1 - r0)) kB over 10 --exec commands"
fi
exit 0
