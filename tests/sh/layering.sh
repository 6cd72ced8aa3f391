#!/bin/sh
# src/ keeps doc/layout.md's include rules (folders named, order kept, no circle of modules) but for tests/sh/layering.allow, and the check catches each kind of break put into a copy of src/.
. "$top_srcdir/tests/sh/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed (the include checker is a script)"

check() { python3 "$top_srcdir/tests/sh/layering.py" "$1" "$top_srcdir/doc/layout.md" "$2"; }
ALLOW=$top_srcdir/tests/sh/layering.allow

# the tree as it is
check "$top_srcdir/src" "$ALLOW" > "$WORK/out"
rc=$?
cat "$WORK/out"
[ $rc = 2 ] && hard "the checker refused its input"
[ $rc = 0 ] || fail "src/ breaks the include rules (above)"

# broken - NAME FILE LINE WANT: a copy of src/ with LINE appended to FILE
# must fail, and the report must hold WANT (the file, line and include)
broken() {
	rm -rf "$WORK/src"
	cp -R "$top_srcdir/src" "$WORK/src" || hard "cp src"
	[ -f "$WORK/src/$2" ] || hard "fixture $1: no src/$2 to break"
	n=$(($(wc -l < "$WORK/src/$2") + 1))
	echo "$3" >> "$WORK/src/$2"
	check "$WORK/src" "$ALLOW" > "$WORK/out"
	rc=$?
	[ $rc = 1 ] || { cat "$WORK/out"; fail "$1: exit $rc, want 1"; }
	w=$(echo "$4" | sed "s/@N@/$n/")
	grep -qF -- "$w" "$WORK/out" || { cat "$WORK/out"; fail "$1: no '$w' in the report"; }
	echo "caught $1: $w"
}

broken "the verify/vhash circle put back" verify/vhash-impl.h '#include "verify/verify.h"' \
	'src/verify/vhash-impl.h:@N@: #include "verify/verify.h"'
broken "a circle through the allowed one" core/run.h '#include "core/sweep.h"' \
	'src/core/run.h:@N@: #include "core/sweep.h"'
broken "an include against the order" device/blkview.h '#include "engines/engine.h"' \
	'src/device/blkview.h:@N@: #include "engines/engine.h": device/ may not include engines/'
broken "an include without its folder" lib/json.c '#include "util.h"' \
	'src/lib/json.c:@N@: #include "util.h": names no folder'
broken "an include of no header" lib/json.c '#include "lib/nosuch.h"' \
	'src/lib/json.c:@N@: #include "lib/nosuch.h": no such header'

# an allow-list entry that no longer occurs fails too: the list only shrinks
{ cat "$ALLOW"; echo "upward src/lib/util.c core/run.h  # fixture"; } > "$WORK/allow"
check "$top_srcdir/src" "$WORK/allow" > "$WORK/out"
rc=$?
[ $rc = 1 ] || { cat "$WORK/out"; fail "stale entry: exit $rc, want 1"; }
grep -qF "stale entry 'upward src/lib/util.c core/run.h'" "$WORK/out" ||
	{ cat "$WORK/out"; fail "stale entry not named"; }
echo "caught a stale allow-list entry"
