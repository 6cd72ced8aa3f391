# shellcheck shell=sh
# Helpers shared by the tests/vm/dm-*.sh tests (sourced after tests/vm/lib.sh
# and tests/vm/hotload-lib.sh): a mapping made by scripts/dixvm --dm, every
# output of the runs searched for the mapping's keys.

# dm_needs - skip unless a VM, dixload, python3 and the host's dmsetup (and
# integritysetup) are there.
dm_needs()
{
	need_vm
	need_dixload
	need_python
	command -v dmsetup > /dev/null || skip "dmsetup not installed (apt-get install dmsetup)"
	command -v integritysetup > /dev/null ||
		skip "integritysetup not installed (apt-get install cryptsetup-bin)"
}

# DM_KEYSCAN - guest text: search each file under /tmp/dmout for every key
# of $DIXVM_DM_KEYS, as hex text (either case) and as raw bytes (the file's
# own bytes in hex), and for the first half of each key alone; print
# "KEYSCAN files N keys K hits H" and one "KEYHIT FILE ROLE" per hit (never
# the key).  A test puts every output of its runs under /tmp/dmout.
DM_KEYSCAN='
n=0 k=0 h=0
while read -r role key; do
	k=$((k + 1))
	half=$(printf %s "$key" | cut -c1-$(( ${#key} / 2 )))
	for f in /tmp/dmout/*; do
		[ -f "$f" ] || continue
		od -An -vtx1 "$f" | tr -d " \n" > /tmp/dmscan.hex
		for pat in "$key" "$half"; do
			if grep -qi -- "$pat" "$f" || grep -qi -- "$pat" /tmp/dmscan.hex; then
				h=$((h + 1))
				echo "KEYHIT ${f##*/} $role"
			fi
		done
	done
done < "$DIXVM_DM_KEYS"
n=$(ls /tmp/dmout | wc -l)
rm -f /tmp/dmscan.hex
echo "KEYSCAN files $n keys $k hits $h"
'

# PY_JUDGE additions: keyscan(lines, nfiles) fails on a key hit or a scan
# that saw fewer files or no key.
PY_JUDGE="$PY_JUDGE
def keyscan(lines, nfiles):
    hits = [l for l in lines if l.startswith(\"KEYHIT \")]
    scan = [l.split() for l in lines if l.startswith(\"KEYSCAN \")]
    if hits:
        fail(\"keys found in the outputs: %s\" % hits)
    if len(scan) != 1 or int(scan[0][2]) < nfiles or int(scan[0][4]) < 1:
        fail(\"the key scan did not run over %d files and the keys: %s\" % (nfiles, scan))
    print(\"keys searched (hex and raw bytes, whole and half): %s files, %s keys, no hit\" % (scan[0][2], scan[0][4]))
def dm_start(recs):
    st = [r for r in recs if r[\"type\"] == \"start\"]
    if not st or \"dm\" not in st[0]:
        fail(\"the start record names no dm table\")
    return st[0][\"dm\"]
"
