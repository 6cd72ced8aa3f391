#!/bin/sh
# Bash completion generated from the option table: option names, enum values, engines, profiles, devices, modules, /sys paths; the subcommands' own options.
. "$top_srcdir/tests/sh/lib.sh"
need_tools bash
need_dixload
comp=${top_builddir:-.}/completion/dixload
[ -f "$comp" ] || hard "$comp not generated (make builds it)"

# A private profile directory: names from $DIXLOAD_PROFILE_PATH must show.
mkdir -p "$WORK/prof" "$WORK/mod/kernel/drivers/scsi" "$WORK/mod/arch/x86/crypto"
printf '# mine\nbs=4k\n' > "$WORK/prof/zz-mine.profile"
: > "$WORK/mod/kernel/drivers/scsi/scsi_debug.ko.xz"
: > "$WORK/mod/arch/x86/crypto/crct10dif-pclmul.ko"
engines=$("$DIXLOAD" --version | sed -n 's/^engines: *//p')
# the parts below that need this host's devices and /sys (checked again there)
[ -d /sys/module ] || part_skip "no /sys/module here: --sysfs completion not checked"
for b in /sys/class/block/*; do [ -e "$b" ] && [ -b "/dev/${b##*/}" ] && break; b=; done
[ -n "$b" ] || part_skip "no block devices here: --dev completion not checked"

bash -c '
comp=$1 dix=$2 engines=$3
. "$comp" || { echo "cannot source $comp"; exit 1; }
complete -p dixload | grep -q "_dixload" || { echo "no complete -F _dixload"; exit 1; }
fails=0
# c WORD... : complete the last WORD; the reply, sorted, one line
c() {
	COMP_WORDS=("$dix" "$@")
	COMP_CWORD=$#
	COMP_LINE="$dix $*"
	COMPREPLY=()
	_dixload
	printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"
}
# want DESC GOT WANT : exact match
want() {
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got \"$2\", want \"$3\""; fails=$((fails + 1)); fi
}
# has DESC GOT WORD... : every WORD is in GOT
has() {
	d=$1 g=" $2 "; shift 2
	for w in "$@"; do
		case $g in *" $w "*) ;; *) echo "FAIL: $d: \"$w\" not in \"$g\""; fails=$((fails + 1)); return ;; esac
	done
	echo "ok: $d"
}

want "option names --ra" "$(c --ra)" "--rate --rate-iops"
want "option names --r (table order kept out: sorted)" "$(c --r)" "--rate --rate-iops --rebind --runtime --rw --rwmixread"
want "--rw rand" "$(c --rw rand)" "randread randrw randwrite"
want "--pi values" "$(c --pi "")" "app kernel off"
want "--verify values" "$(c --verify "")" "off on strict"
want "--precondition values" "$(c --precondition "")" "auto off on"
want "--output-format=j (split at =)" "$(c --output-format = j)" "json"
want "--engine: this build'"'"'s engine table" "$(c --engine "")" "$(printf "%s\n" $engines | sort | tr "\n" " " | sed "s/ $//")"
has "--profile: shipped profiles" "$(c --profile d)" dif1 dif2 dif3 dix-ip
want "--profile: \$DIXLOAD_PROFILE_PATH" "$(DIXLOAD_PROFILE_PATH=$4 c --profile zz)" "zz-mine"
_DIXLOAD_MODDIR=$5
want "--hotload: module names" "$(c --hotload scsi_d)" "scsi_debug@"
want "--unload crct" "$(c --dev x --unload crct)" "crct10dif-pclmul@"
want "--hotload after @: nothing" "$(c --hotload scsi_debug@)" ""
want "subcommand com" "$(c com)" "compare"
want "subcommand sw" "$(c sw)" "sweep"
want "compare --th" "$(c compare --th)" "--threshold"
# every option in the synopsis of a subcommand ([--opt ...] in its --help) is
# offered: the subcommands parse their own options, outside the table
for sub in probe crcbench compare sweep; do
	# shellcheck disable=SC2046
	has "$sub: the options of its --help" "$(c "$sub" --)" \
		$("$dix" "$sub" --help 2>&1 | grep -o "\[--[a-z][a-z-]*" | tr -d "[" | sort -u)
done
want "crcbench --guard values" "$(c crcbench --guard "")" "crc16 crc32c crc64 ip"
want "sweep: KEY= from the option table" "$(c sweep iodepth)" "iodepth-batch= iodepth="
want "sweep: flags are no KEY" "$(c sweep sq)" ""
want "sweep: its own options before --" "$(c sweep bs=4k,8k --j)" "--json"
want "sweep: after =, no KEY" "$(c sweep bs = "")" ""
want "sweep: the run options after --" "$(c sweep bs=4k,8k -- --ru)" "--runtime"
[ -d /sys/module ] && want "--sysfs /sys/modu" "$(c --sysfs /sys/modu)" "/sys/module"
# --dev: every block device the kernel lists, as /dev paths
devs=
for b in /sys/class/block/*; do
	[ -e "$b" ] && [ -b "/dev/${b##*/}" ] && devs="$devs /dev/${b##*/}"
done
if [ -n "$devs" ]; then
	# shellcheck disable=SC2086
	has "--dev /dev/: the block devices" "$(c --dev /dev/)" $devs
else
	echo "note: no block devices here; --dev not checked"
fi
want "flags take no value: --force then options" "$(c --force --qu)" "--quiet"
want "hidden --dump-options is not offered" "$(c --dump)" ""
exit $fails
' sh "$comp" "$DIXLOAD" "$engines" "$WORK/prof" "$WORK/mod" || fail "completion replies differ (above)"
exit 0
