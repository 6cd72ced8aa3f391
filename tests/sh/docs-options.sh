#!/bin/sh
# Every option of the option table (and every subcommand) is in dixload(1) and in the README: the table is the one list, the docs must keep up with it.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

# the man page's \- is a plain -
sed 's/\\-/-/g' "$top_srcdir/man/dixload.1" > "$WORK/man"
missing=0
for name in $("$DIXLOAD" --dump-options | cut -f1); do
	for doc in "$WORK/man" "$top_srcdir/README.md"; do
		# --name, not the start of a longer one (--rate in --rate-iops)
		if ! grep -q -- "--$name\([^a-z-]\|$\)" "$doc"; then
			echo "FAIL: --$name is not in ${doc##*/}"
			missing=$((missing + 1))
		fi
	done
done
# the subcommands main() dispatches, from its own list of them
cmds=$("$DIXLOAD" frobnicate 2>&1 | sed -n 's/.*(commands: \([^;]*\);.*/\1/p' | tr -d ,)
[ -n "$cmds" ] || hard "no command list in dixload's error for an unknown command"
for c in $cmds; do
	for doc in "$WORK/man" "$top_srcdir/README.md"; do
		grep -q "dixload $c" "$doc" ||
			{ echo "FAIL: dixload $c is not in ${doc##*/}"; missing=$((missing + 1)); }
	done
done
[ $missing = 0 ] || fail "$missing options or commands undocumented (above)"
echo "every option and command is in dixload.1 and README.md"
