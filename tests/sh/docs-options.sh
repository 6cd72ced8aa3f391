#!/bin/sh
# Every option (the option table's, every one --help lists, and each subcommand's own) and every subcommand is in dixload(1) and in the guides of doc/: the binary is the one list, the docs must keep up with it.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

# the man page's \- is a plain -
sed 's/\\-/-/g' "$top_srcdir/man/dixload.1" > "$WORK/man"
# the guides as one text: an option must be explained in one of them
set -- "$top_srcdir"/doc/*.md
[ -f "$1" ] || hard "no guides in $top_srcdir/doc"
cat "$@" > "$WORK/doc"
missing=0

# has_option NAME CONTEXT - --NAME is in the man page and in doc/
has_option()
{
	for doc in "$WORK/man" "$WORK/doc"; do
		# --name, not the start of a longer one (--rate in --rate-iops)
		if ! grep -q -- "--$1\([^a-z-]\|$\)" "$doc"; then
			echo "FAIL: --$1 ($2) is not in ${doc##*/}"
			missing=$((missing + 1))
		fi
	done
}

opts=$("$DIXLOAD" --dump-options | cut -f1)
[ -n "$opts" ] || hard "--dump-options printed no option"
# --help's options too: an option printed there and not in the table
# (an engine's own, say) is as much the user's as the table's
help=$("$DIXLOAD" --help | sed -n 's/^  --\([a-z][a-z0-9-]*\).*/\1/p')
[ -n "$help" ] || hard "no option lines in dixload --help"
for name in $(printf '%s\n' $opts $help | sort -u); do
	has_option "$name" "dixload"
done

# the subcommands main() dispatches, from its own list of them
cmds=$("$DIXLOAD" frobnicate 2>&1 | sed -n 's/.*(commands: \([^;]*\);.*/\1/p' | tr -d ,)
[ -n "$cmds" ] || hard "no command list in dixload's error for an unknown command"
for c in $cmds; do
	for doc in "$WORK/man" "$WORK/doc"; do
		grep -q "dixload $c" "$doc" ||
			{ echo "FAIL: dixload $c is not in ${doc##*/}"; missing=$((missing + 1)); }
	done
	# and each option its --help names
	sub=$("$DIXLOAD" "$c" --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u)
	[ -n "$sub" ] || hard "dixload $c --help names no option"
	for name in $sub; do
		[ "$name" = help ] && continue
		has_option "$name" "dixload $c"
	done
done
[ $missing = 0 ] || fail "$missing options or commands undocumented (above)"
echo "every option and command is in dixload.1 and doc/"
