#!/bin/sh
# Two targets with different integrity formats in one run (a scsi_debug DIF1 disk and a brd RAM disk without integrity): each checked against its own format, each with its own preconditioning decision and meter rows; an expected format refuses the target that lacks it, by name.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_dixload
need_python

# the guest's /tmp takes no O_DIRECT: the second target is a RAM disk
vm --scsi-debug 'dif=1 dix=1 guard=0 dev_size_mb=32 delay=0' --modules-extra brd -- sh -c '
	modprobe brd rd_nr=1 rd_size=32768 || echo "brd_failed"
	dixload --dev /dev/sda --dev /dev/ram0 --size 16m --rw randrw --bs 64k \
		--runtime 4 --interval 1000 --output-format json
	echo "run_rc $?"
	dixload --dev /dev/sda,/dev/ram0 --size 16m --rw read --interval 0 \
		--pi-format T10-DIF-TYPE1-CRC 2>&1 | sed "s/^/pf: /"
' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"
cat "$WORK/out"

grep -q "^run_rc 0$" "$WORK/out" || fail "the mixed run failed: $(cat "$WORK/out")"
python3 - "$WORK/out" <<'PY' || fail "JSON of the mixed run"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
start = recs[0]
devs = {d["dev"]: d for d in start["devices"]}
if not (devs["/dev/sda"]["integrity"]["format"] == "T10-DIF-TYPE1-CRC"):
    raise AssertionError(devs)
if not (devs["/dev/ram0"]["integrity"]["format"] == "none"):
    raise AssertionError(devs)
# auto preconditions the PI disk (reads and writes) and leaves the file
if not (devs["/dev/sda"]["precondition"]["decided"] == "on"):
    raise AssertionError(devs)
if not (devs["/dev/ram0"]["precondition"]["decided"] == "off"):
    raise AssertionError(devs)
pre = [r for r in recs if r["type"] == "precondition"]
if not (len(pre) == 1 and pre[0]["dev"] == "/dev/sda" and pre[0]["complete"]):
    raise AssertionError(pre)
iv = [r for r in recs if r["type"] == "interval"]
if not (len(iv) >= 3):
    raise AssertionError(len(iv))
for r in iv:
    if not ([d["dev"] for d in r["devices"]] == ["/dev/sda", "/dev/ram0"]):
        raise AssertionError(r)
    if not (sum(d["ops"] for d in r["devices"]) == r["ops"]):
        raise AssertionError(r)
summ = recs[-1]
for d in summ["devices"]:
    if not (d["ops"] > 0 and d["err"] == 0):
        raise AssertionError(d)
print("mixed formats: %d intervals, both targets loaded, no errors" % len(iv))
PY
grep -q "^pf: dixload: /dev/ram0: integrity format is 'none' but --pi-format expects 'T10-DIF-TYPE1-CRC'" "$WORK/out" ||
	fail "the file lacking the expected format was not named: $(grep '^pf:' "$WORK/out")"
grep -q "^pf: dixload: /dev/sda:" "$WORK/out" && fail "the DIF1 disk was refused"
exit 0
