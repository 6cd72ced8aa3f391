#!/bin/sh
# The README's "run your fio job" line runs as written (fio's basic-verify.fio on a test file): its write and its read-back verify, no error.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
[ -f /usr/share/doc/fio/examples/basic-verify.fio ] ||
	skip "Debian's fio-examples is not installed (scripts/deps installs it; tests/sh/fio-corpus.sh too)"

line=$(grep '^dixload .*basic-verify\.fio$' "$top_srcdir/README.md")
[ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && [ -n "$line" ] ||
	fail "README.md has no single 'dixload ... basic-verify.fio' line: '$line'"
img=$(printf '%s\n' "$line" | sed -n 's/.*--dev \([^ ]*\).*/\1/p')
[ -n "$img" ] || fail "the README line names no --dev: $line"
[ -e "$img" ] && hard "$img exists already: the README line would write it"
on_exit "rm -f '$img'"
# as written: the binary under test first on PATH
PATH=$(dirname "$DIXLOAD"):$PATH
export PATH
(cd "$WORK" && eval "$line") >"$WORK/out" 2>"$WORK/err"; st=$?
cat "$WORK/err"
[ $st = 0 ] || fail "the README line exited $st: $(tail -n 5 "$WORK/err")"
grep -q '^\[write-and-verify\] write: .* MB in' "$WORK/out" || fail "no write row: $(cat "$WORK/out")"
grep -q '^\[write-and-verify (verify)\] ops [1-9][0-9]*, recovered 0, errors 0 ' "$WORK/out" ||
	fail "no clean read-back: $(grep 'ops' "$WORK/out")"
echo PASS
