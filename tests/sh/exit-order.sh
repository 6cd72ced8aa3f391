#!/bin/sh
# The exit statuses' precedence is said once: --help, doc/running.md and dixload(1) give the same "When several apply" order (tests/unit/test-exitstatus.c holds the page's order to exit_worst()).
. "$top_srcdir/tests/sh/lib.sh"

order() { sed -n 's/.*When several apply: \([0-9 >]*[0-9]\)\..*/\1/p' | head -n 1; }
man=$(order <"$top_srcdir/man/dixload.1")
doc=$(order <"$top_srcdir/doc/running.md")
help=$("$DIXLOAD" --help | order)
[ -n "$man" ] || fail "man/dixload.1 has no 'When several apply' line"
[ "$doc" = "$man" ] || fail "doc/running.md orders '$doc', dixload(1) '$man'"
[ "$help" = "$man" ] || fail "--help orders '$help', dixload(1) '$man'"
# every status of --help's list is in the order, once
for s in $("$DIXLOAD" --help | sed -n '/^EXIT STATUS/,/When several/s/^  \([0-9]\)  .*/\1/p'); do
	[ "$(echo "$man" | tr -d ' ' | tr '>' '\n' | grep -c "^$s$")" = 1 ] ||
		fail "status $s of --help is not once in the order '$man'"
done
echo "one order everywhere: $man"
