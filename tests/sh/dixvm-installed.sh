#!/bin/sh
# Every part of scripts/dixvm.d/ is installed with dixload-vm (Makefile.am's dist_dixvm_SCRIPTS/DATA): dm.sh was not, so an installed dixload-vm --dm failed to set up its mapping.
. "$top_srcdir/tests/sh/lib.sh"

lists=$(sed -n '/^dist_dixvm_\(SCRIPTS\|DATA\) *=/,/[^\\]$/p' "$top_srcdir/Makefile.am")
[ -n "$lists" ] || hard "no dist_dixvm_ lists in Makefile.am"
n=0
for f in "$top_srcdir"/scripts/dixvm.d/*; do
	part=scripts/dixvm.d/${f##*/}
	n=$((n + 1))
	printf '%s\n' "$lists" | grep -qF "$part" ||
		fail "$part is not in Makefile.am's dist_dixvm_SCRIPTS or dist_dixvm_DATA: dixload-vm installed without it"
done
[ "$n" -gt 0 ] || hard "scripts/dixvm.d is empty"
echo "all $n parts of scripts/dixvm.d are installed"
