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

# DM_LAYOUT - guest text: dmi_layout NAME reads the dm-integrity superblock
# of mapping NAME on the device beneath it (at the table's start sector,
# read from the disk with the page cache dropped) and sets DMI_START,
# DMI_INITIAL (superblock and journal sectors), DMI_IL (log2 interleave
# sectors), DMI_DEV (the device beneath), DMI_RUN (metadata sectors per
# interleave area), DMI_TAG, DMI_PROVIDED and DMI_FLAGS, and prints one
# "DMI-LAYOUT ..." line;
# dmi_sector L prints the sector of the device beneath that holds logical
# sector L of the mapping.  The arithmetic is drivers/md/dm-integrity.c's
# (calculate_journal_section_size, calculate_device_limits,
# get_data_sector): each interleave area of 2^IL data sectors follows its
# run of tags, the first area after the superblock (8 sectors) and the
# journal sections.  A separate metadata device is not handled (the bed
# makes none).
DM_LAYOUT='
dmi_layout()
{
	local t
	t=$(dmsetup table "$1" | awk "{ print \$3, \$4, \$5; exit }")
	set -- $t
	[ "$1" = integrity ] || { echo "DMI-LAYOUT-ERROR table type $1"; return 1; }
	DMI_START=$3
	DMI_DEV=/dev/$(basename "$(readlink /sys/dev/block/$2)")
	echo 3 > /proc/sys/vm/drop_caches
	t=$(dd if=$DMI_DEV bs=512 skip=$DMI_START count=1 2>/dev/null | od -An -vtu1 | awk "
		{ for (i = 1; i <= NF; i++) b[n++] = \$i }
		function le(o, w,   v, i) { v = 0; for (i = w - 1; i >= 0; i--) v = v * 256 + b[o + i]; return v }
		function up(x, m) { return int((x + m - 1) / m) * m }
		function p2(e,   v) { v = 1; while (e-- > 0) v *= 2; return v }
		END {
			magic = sprintf(\"%c%c%c%c%c%c%c\", b[0], b[1], b[2], b[3], b[4], b[5], b[6])
			if (magic != \"integrt\") { print \"bad-magic\"; exit }
			il = b[9]; tag = le(10, 2); js = le(12, 4); pds = le(16, 8)
			flags = le(24, 4); spb = p2(b[28])
			# journal: entries of (sector, last bytes per sector, tag),
			# 8-byte aligned, in sectors of 504 bytes (496 with a MAC)
			space = 504 - (flags % 2 ? 8 : 0)
			sect_entries = int(space / up(8 + 8 * spb + tag, 8)) * 8
			initial = 8 + js * (sect_entries * spb + 8)
			# tags per area padded to 4 KiB (fix_padding) or 128 KiB
			pad = int(flags / 8) % 2 ? 4096 : 131072
			run = up(tag * p2(il) / spb, pad) / 512
			printf \"%d %d %d %d %d %d %d %d\", b[8], il, tag, js, pds, flags, initial, run
		}")
	set -- $t
	[ $# = 8 ] || { echo "DMI-LAYOUT-ERROR superblock: $t"; return 1; }
	DMI_IL=$2 DMI_TAG=$3 DMI_PROVIDED=$5 DMI_FLAGS=$6 DMI_INITIAL=$7 DMI_RUN=$8
	echo "DMI-LAYOUT version $1 start $DMI_START log2_interleave $DMI_IL tag $DMI_TAG journal_sections $4 provided $DMI_PROVIDED flags $DMI_FLAGS initial $DMI_INITIAL metadata_run $DMI_RUN"
}
dmi_sector()
{
	local area=$(($1 >> DMI_IL))
	echo $((DMI_START + DMI_INITIAL + (area + 1) * DMI_RUN + (area << DMI_IL) + ($1 & ((1 << DMI_IL) - 1))))
}
'
