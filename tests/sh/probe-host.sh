#!/bin/sh
# dixload probe on this host: a regular file and (as root) a loop device give one JSON object with the fixed keys; a missing device is exit 1.
. "$top_srcdir/tests/sh/lib.sh"
need_python
need_dixload

run_dix "$WORK/o" "$WORK/e" probe "$WORK/nonexistent" --json; st=$?
[ "$st" = 1 ] || fail "missing device: exit $st, want 1"
grep -q "$WORK/nonexistent: No such file or directory" "$WORK/e" ||
	fail "missing device not named: $(cat "$WORK/e")"
[ -s "$WORK/o" ] && fail "missing device: something on stdout"
run_dix "$WORK/o" "$WORK/e" probe; st=$?
[ "$st" = 1 ] || fail "probe without DEV: exit $st, want 1"

make_image 1m
run_dix "$WORK/o" "$WORK/e" probe "$WORK/img" --json || fail "probe file: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "file JSON: $(cat "$WORK/o")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
if not (len(lines) == 1):
    raise AssertionError(lines)
p = json.loads(lines[0])
if not (p["kind"] == "file" and p["size_bytes"] == 1 << 20):
    raise AssertionError(p)
i = p["integrity"]
if not (set(i) >= {"format", "protection_interval_bytes", "tag_size", "read_verify",
                  "write_generate", "device_is_integrity_capable"}):
    raise AssertionError(i)
if not (i["format"] == "none"):
    raise AssertionError(i)
if not ("scsi" not in p and "nvme" not in p):
    raise AssertionError(p)
if not (p["pi_modes"]["kernel"] == [] and "libaio" in p["pi_modes"]["off"]):
    raise AssertionError(p["pi_modes"])
if not (any(l.startswith("regular file") for l in p["diagnosis"])):
    raise AssertionError(p["diagnosis"])
PY

echo "file part passed"
need_root "the loop device part"
need_tools losetup
make_loop
run_dix "$WORK/o" "$WORK/e" probe "$LOOP" --json || fail "probe $LOOP: $(cat "$WORK/e")"
python3 - "$WORK/o" "$LOOP" <<'PY' || fail "loop JSON: $(cat "$WORK/o")"
import json, os, sys
p = json.loads(open(sys.argv[1]).read())
name = os.path.basename(sys.argv[2])
if not (p["kind"] == "other" and p["name"] == name and p["disk"] == name):
    raise AssertionError(p)
q = open("/sys/block/%s/queue/logical_block_size" % name).read().strip()
if not (p["queue"]["logical_block_size"] == int(q)):
    raise AssertionError((p["queue"], q))
has = os.path.isdir("/sys/block/%s/integrity" % name)
if not (p["integrity"]["sysfs"] == has):
    raise AssertionError(p["integrity"])
if not has:
    if not (any("CONFIG_BLK_DEV_INTEGRITY" in l for l in p["diagnosis"])):
        raise AssertionError(p["diagnosis"])
if not (any("neither a SCSI disk nor an NVMe namespace" in l for l in p["diagnosis"])):
    raise AssertionError('check failed: any("neither a SCSI disk nor an NVMe namespace" in l for l i')
PY
run_dix "$WORK/o" "$WORK/e" probe "$LOOP" || fail "human probe $LOOP: $(cat "$WORK/e")"
grep -q "^diagnosis:" "$WORK/o" || fail "no diagnosis in the report: $(cat "$WORK/o")"
echo "probe on file and loop device ok"
