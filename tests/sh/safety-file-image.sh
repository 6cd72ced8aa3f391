#!/bin/sh
# Safety: a regular file holding an ext4 image is refused (exit 1, naming ext4) and accepted with --force; blank and new files need no --force.
. "$top_srcdir/tests/sh/lib.sh"

need_tools mkfs.ext4
need_dixload
img=$WORK/fs.img
truncate -s 8m "$img" || hard "truncate"
mkfs.ext4 -q -F -L dixtest "$img" >/dev/null 2>&1 || hard "mkfs.ext4 failed"
cp "$img" "$WORK/fs.copy" || hard "cp"

run_dix "$WORK/o" "$WORK/e" --dev "$img" --rw write --size 1m --interval 0; st=$?
[ "$st" = 1 ] || fail "ext4 image file written without --force: exit $st ($(cat "$WORK/e"))"
grep -q "$img carries an ext4 filesystem (UUID .*LABEL dixtest)" "$WORK/e" ||
	fail "refusal does not name ext4: $(cat "$WORK/e")"
cmp -s "$img" "$WORK/fs.copy" || fail "the image changed although refused"

run_dix "$WORK/o" "$WORK/e" --dev "$img" --rw write --size 1m --interval 0 --force ||
	fail "--force did not write the image: $(cat "$WORK/e")"
cmp -s "$img" "$WORK/fs.copy" && fail "--force ran but the image is unchanged"

truncate -s 4m "$WORK/blank.img" || hard "truncate"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/blank.img" --rw write --size 1m --interval 0 ||
	fail "blank file refused: $(cat "$WORK/e")"
run_dix "$WORK/o" "$WORK/e" --dev "$WORK/new.img" --rw write --size 1m --interval 0 ||
	fail "new file refused: $(cat "$WORK/e")"
[ -f "$WORK/new.img" ] || fail "new file not created"
echo "ext4 image refused, --force wrote, blank and new files allowed"
