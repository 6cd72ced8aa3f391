#!/bin/sh
# dixvm scans the guest's kernel log after COMMAND: a WARNING line turns exit 0 into 123 and is shown; --allow-dmesg excuses it.
. "$top_srcdir/tests/vm/lib.sh"
need_vm

# A line in the kernel log, written through /dev/kmsg as any driver message
# would land there; the scanner reads the log, not the writer.
line='dixvm-test: WARNING: CPU: 0 PID: 1 at injected-by-dmesg-scan.sh'
vm -- sh -c 'echo "$1" > /dev/kmsg' sh "$line" > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 123 ] || fail "status $st, want 123 (stderr: $(cat "$WORK/err"))"
grep -q "^dixvm: .*kernel: .*injected-by-dmesg-scan" "$WORK/err" ||
	fail "the offending kernel line is not reported: $(cat "$WORK/err")"

vm --allow-dmesg 'injected-by-dmesg-scan' -- sh -c 'echo "$1" > /dev/kmsg' sh "$line" \
	> "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "with --allow-dmesg: status $st, want 0 (stderr: $(cat "$WORK/err"))"
exit 0
