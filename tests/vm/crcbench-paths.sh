#!/bin/sh
# dixload crcbench in a TCG guest (-cpu max: no AVX-512, no VPCLMULQDQ): the paths it cannot run are listed, matching the guest's /proc/cpuinfo flags, and every path it runs passed its self-test under emulation.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_python

# The guest prints its cpuinfo and both crcbench outputs between markers;
# the host judges them with the check tests/sh/crcbench.sh uses.
vm --scsi-debug none -- sh -c '
	echo "@@cpuinfo"; cat /proc/cpuinfo
	echo "@@json"; dixload crcbench --seconds 0.002 --json
	echo "@@human"; dixload crcbench --seconds 0.002
	echo "@@end"' > "$WORK/out" 2> "$WORK/err" || fail "guest run: $(tail -n 5 "$WORK/err")"
part() { sed -n "/^@@$1\$/,/^@@/p" "$WORK/out" | sed '1d;$d' | grep -v '^dixvm: '; }
part cpuinfo > "$WORK/cpuinfo"
part json > "$WORK/json"
part human > "$WORK/human"
[ -s "$WORK/json" ] || fail "no crcbench JSON from the guest: $(tail -n 5 "$WORK/out")"
grep -q "^not run on this CPU: .*/vpclmul" "$WORK/human" ||
	fail "the guest lacks AVX-512, but crcbench lists no vpclmul path as not run: $(grep '^not run' "$WORK/human")"
python3 "$top_srcdir/tests/sh/crcbench-paths.py" "$WORK/json" "$WORK/human" "$WORK/cpuinfo" ||
	fail "the guest's not-run list does not match its CPU flags"
grep '^not run\|^cpu:' "$WORK/human"
exit 0
