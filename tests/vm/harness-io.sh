#!/bin/sh
# dixvm: COMMAND's exit status comes back, its stdout/stderr arrive separately and byte-exact (binary, CR/LF, 1 MiB, unterminated tails), --env/cwd/PATH as documented.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_dixload

# Every byte value, CR/LF pairs in both orders, as printf escapes: the guest's
# printf and the host's must produce the same bytes.
all=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "\\%03o", i }')
fmt="$all\\r\\n\\n\\r$all"

# Guest: a line about its environment, the pattern on both streams, then
# 1 MiB of random bytes on stdout with their checksum on stderr, then tails
# without a newline.
envval="a b'c\"d \$HOME *"
vm --env "DIXVM_TEST_VAR=$envval" -- sh -c '
	printf "env=%s|pwd=%s|dixload=%s\n" "$DIXVM_TEST_VAR" "$(pwd)" "$(command -v dixload)"
	printf "$1"
	printf "$1" >&2
	head -c 1048576 /dev/urandom > /tmp/r
	md5sum < /tmp/r | cut -d" " -f1 >&2
	cat /tmp/r
	printf "stdout-tail"
	printf "stderr-tail" >&2
	exit 7' sh "$fmt" > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 7 ] || fail "exit status $st, want 7 (stderr: $(tail -c 600 "$WORK/err"))"

printf "$fmt" > "$WORK/pat"
n=$(wc -c < "$WORK/pat")
[ "$n" = 516 ] || hard "host printf made $n bytes of the pattern, want 516"

# The environment line: --env passed verbatim, cwd /tmp, dixload on PATH.
first=$(head -n 1 "$WORK/out")
want="env=$envval|pwd=/tmp|dixload=/usr/local/bin/dixload"
[ "$first" = "$want" ] || fail "guest environment line is '$first', want '$want'"
skip=$(( ${#first} + 1 ))
tail -c +$((skip + 1)) "$WORK/out" > "$WORK/rest"

# stdout: pattern, 1 MiB, "stdout-tail" - nothing else, nothing changed.
size=$(wc -c < "$WORK/rest")
[ "$size" = $((516 + 1048576 + 11)) ] || fail "stdout has $size bytes after the first line, want $((516 + 1048576 + 11))"
head -c 516 "$WORK/rest" | cmp -s - "$WORK/pat" || fail "stdout pattern differs: $(head -c 516 "$WORK/rest" | cmp - "$WORK/pat")"
sum=$(tail -c +517 "$WORK/rest" | head -c 1048576 | md5sum | cut -d' ' -f1)
[ "$(tail -c 11 "$WORK/rest")" = stdout-tail ] || fail "stdout tail lost: '$(tail -c 20 "$WORK/out")'"

# stderr: pattern, the checksum line, "stderr-tail" - and no dixvm lines.
head -c 516 "$WORK/err" | cmp -s - "$WORK/pat" || fail "stderr pattern differs"
want=$(printf '%s\nstderr-tail' "$sum")
got=$(tail -c +517 "$WORK/err")
[ "$got" = "$want" ] || fail "stderr after the pattern is '$got', want '$want' (1 MiB checksum or tail mismatch)"
exit 0
