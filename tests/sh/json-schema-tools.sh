#!/bin/sh
# doc/json.md documents every key of dixload probe --json (a regular file; as root also a loop device) and of dixload crcbench --json, with its type: no undocumented key, no missing "always" key.
. "$top_srcdir/tests/sh/lib.sh"
need_python
need_dixload

make_image 1m
run_dix "$WORK/probe-file.json" "$WORK/e" probe "$WORK/img" --json ||
	fail "probe file: $(cat "$WORK/e")"
set -- probe="$WORK/probe-file.json"
# A loop device is the host's only block device kind "other"; losetup needs
# root, and without it the file and crcbench checks still stand.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	make_loop
	run_dix "$WORK/probe-loop.json" "$WORK/e" probe "$LOOP" --json ||
		fail "probe $LOOP: $(cat "$WORK/e")"
	grep -q '"kind":"other"' "$WORK/probe-loop.json" ||
		fail "$LOOP not probed as kind other: $(cat "$WORK/probe-loop.json")"
	set -- "$@" probe="$WORK/probe-loop.json"
else
	part_skip "not root or no losetup: the loop device part is left out"
fi
# the smallest --seconds: the keys, not the figures, are under test
run_dix "$WORK/crcbench.json" "$WORK/e" crcbench --seconds 0.001 --json ||
	fail "crcbench: $(cat "$WORK/e")"

# crc lines with a figure and an af_alg line (measured or skipped: this
# host's kernel decides) must be there; skipped crc lines depend on the CPU
python3 "$top_srcdir/tests/sh/json-doc.py" "$top_srcdir/doc/json.md" \
	--need crcbench.crc:gbps --need crcbench.pi:gbps --need crcbench.af_alg:type \
	"$@" crcbench="$WORK/crcbench.json" || fail "output and doc/json.md disagree (above)"
echo "json-schema-tools: probe and crcbench keys documented, 'always' keys present"
