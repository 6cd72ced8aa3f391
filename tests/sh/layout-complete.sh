#!/bin/sh
# doc/layout.md's "Every file" names every file under src/ tests/ scripts/ bench/ doc/ profiles/ kmod/ (git ls-files in a clone, the tarball's own list in a dist tree), and no file that is gone; the check catches a file left out, a stale name and a new file.
. "$top_srcdir/tests/sh/lib.sh"

DIRS="src tests scripts bench doc profiles kmod"
# written by `make dist` (tests/Makemodule.am, dist-hook): the files the
# tarball holds, for a tree with no git beside it (make distcheck)
DISTLIST=tests/sh/layout-complete.files

# listed LAYOUT: the paths doc/layout.md's "Every file" section names, one a
# line: each "- `DIR/`: `a`, `b.[ch]`" line gives DIR/a, DIR/b.c, DIR/b.h
listed() {
	awk '
	/^## / { on = ($0 == "## Every file"); next }
	on && /^- `[^`]*\/`/ {
		n = split($0, f, "`")
		dir = f[2]
		for (i = 4; i <= n; i += 2) {
			t = f[i]
			if (t ~ /\.\[ch\]$/) {
				sub(/\.\[ch\]$/, "", t)
				print dir t ".c"
				print dir t ".h"
			} else {
				print dir t
			}
		}
	}' "$1" | LC_ALL=C sort -u
}

# check LAYOUT FILES STRICT: every path of FILES is named in LAYOUT; with
# STRICT (FILES is the whole tree), every name of LAYOUT is in FILES too.
# Prints what is wrong; returns 1 when anything is.
check() {
	listed "$1" > "$WORK/listed"
	[ -s "$WORK/listed" ] || { echo "$1: no '## Every file' section with '- \`DIR/\`: ...' lines"; return 1; }
	LC_ALL=C sort -u "$2" > "$WORK/files"
	bad=0
	LC_ALL=C comm -23 "$WORK/files" "$WORK/listed" > "$WORK/missing"
	if [ -s "$WORK/missing" ]; then
		sed 's|^|not in doc/layout.md: |' "$WORK/missing"
		bad=1
	fi
	if [ "$3" = strict ]; then
		LC_ALL=C comm -13 "$WORK/files" "$WORK/listed" > "$WORK/stale"
		if [ -s "$WORK/stale" ]; then
			sed 's|^|named in doc/layout.md, no such file: |' "$WORK/stale"
			bad=1
		fi
	fi
	return $bad
}

# The tree's files: git's, or the tarball's list
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null &&
   git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# shellcheck disable=SC2086 # DIRS is a list of words
	git -C "$top_srcdir" ls-files -- $DIRS > "$WORK/tree" || hard "git ls-files failed"
	mode=strict
	from="git ls-files"
elif [ -f "$top_srcdir/$DISTLIST" ]; then
	# a tarball need not carry every tracked file (kmod/ is not shipped):
	# what it holds must be listed, not the other way round
	grep -v "^$DISTLIST\$" "$top_srcdir/$DISTLIST" > "$WORK/tree"
	mode=dist
	from="the tarball's list ($DISTLIST)"
else
	skip "neither a git tree nor a tarball's $DISTLIST in $top_srcdir: no list of the files to check"
fi
[ -s "$WORK/tree" ] || hard "no files from $from"

LAYOUT=$top_srcdir/doc/layout.md
check "$LAYOUT" "$WORK/tree" $mode > "$WORK/out"
rc=$?
cat "$WORK/out"
[ $rc = 0 ] || fail "doc/layout.md's 'Every file' does not match $from (above)"
echo "$(wc -l < "$WORK/tree") files from $from, each named in doc/layout.md"

# The check catches each kind of drift, on copies:
# a new file nobody listed
{ cat "$WORK/tree"; echo "src/lib/newthing.c"; } > "$WORK/tree2"
check "$LAYOUT" "$WORK/tree2" $mode > "$WORK/out" &&
	{ cat "$WORK/out"; fail "a new file src/lib/newthing.c was not caught"; }
grep -qx "not in doc/layout.md: src/lib/newthing.c" "$WORK/out" ||
	{ cat "$WORK/out"; fail "the new file is not named"; }
echo "caught a new file: src/lib/newthing.c"

# a name taken out of a line (the .c of a .[ch] pair: the .h alone stays)
sed '/^- `src\/lib\/`:/s/`util\.\[ch\]`/`util.h`/' "$LAYOUT" > "$WORK/layout-cut.md"
cmp -s "$LAYOUT" "$WORK/layout-cut.md" && hard "fixture: no \`util.[ch]\` on the src/lib/ line to cut"
check "$WORK/layout-cut.md" "$WORK/tree" $mode > "$WORK/out" &&
	{ cat "$WORK/out"; fail "src/lib/util.c left out was not caught"; }
grep -qx "not in doc/layout.md: src/lib/util.c" "$WORK/out" ||
	{ cat "$WORK/out"; fail "src/lib/util.c left out is not named"; }
echo "caught a file left out: src/lib/util.c"

# a stale name (a file removed, its line kept): only against the whole tree
if [ $mode = strict ]; then
	sed '/^- `src\/lib\/`:/s/$/, `gone.c`/' "$LAYOUT" > "$WORK/layout-stale.md"
	check "$WORK/layout-stale.md" "$WORK/tree" strict > "$WORK/out" &&
		{ cat "$WORK/out"; fail "the stale name src/lib/gone.c was not caught"; }
	grep -qx "named in doc/layout.md, no such file: src/lib/gone.c" "$WORK/out" ||
		{ cat "$WORK/out"; fail "the stale name is not named"; }
	echo "caught a stale name: src/lib/gone.c"
fi
exit 0
