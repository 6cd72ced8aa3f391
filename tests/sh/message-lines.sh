#!/bin/sh
# Each dixload: message line goes out in one write(2): the prefix, text and newline written apart were spliced with other processes' lines on a shared stderr (mpirun's ranks: one rank's prefix before another rank's path).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
need_tools strace
strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not permitted)"
# LeakSanitizer cannot run under ptrace (it stops the world with ptrace
# itself): no leak check for the traced run; ASan and UBSan stay
if "$DIXLOAD" --version | grep -q '^sanitizers:'; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi

M=$WORK/missing.img
strace -f -e trace=write -s 4096 -o "$WORK/st" "$DIXLOAD" --dev "$M" --rw read \
	>"$WORK/o" 2>"$WORK/e" && fail "a missing file for a read run was accepted"
grep -q "^dixload: $M: No such file or directory\$" "$WORK/e" ||
	fail "no error naming the file: $(cat "$WORK/e")"
grep -q "write(2, \"dixload: $M: No such file or directory\\\\n\", [0-9]*) = [0-9]*\$" "$WORK/st" ||
	fail "the message was not one write: $(grep 'write(2' "$WORK/st")"
# every write to stderr is whole lines
grep 'write(2, ' "$WORK/st" | grep -v '\\n", [0-9]*) = [0-9]*$' | grep . &&
	fail "a write to stderr that does not end a line (above)"
echo "every message line is one write"
