#!/bin/sh
# dixvm: a guest kernel panic while COMMAND runs gives status 122 with the panic shown, and output written before it still arrives.
. "$top_srcdir/tests/vm/lib.sh"
need_vm

# A real panic: sysrq "c" crashes the kernel; panic=-1 and -no-reboot end QEMU.
vm -- sh -c 'echo before-crash; echo c > /proc/sysrq-trigger; echo after-crash' \
	> "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 122 ] || fail "status $st, want 122 (stderr: $(tail -c 800 "$WORK/err"))"
[ "$(cat "$WORK/out")" = before-crash ] || fail "stdout is '$(cat "$WORK/out")', want 'before-crash'"
grep -q '^dixvm: error: the guest died while COMMAND ran' "$WORK/err" ||
	fail "no 'guest died' message: $(head -c 800 "$WORK/err")"
grep -q '^dixvm: .*Kernel panic' "$WORK/err" || fail "the panic is not shown: $(head -c 800 "$WORK/err")"
exit 0
