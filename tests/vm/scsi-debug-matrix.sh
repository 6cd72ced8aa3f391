#!/bin/sh
# scsi_debug dif 0-3 x dix 0/1 x guard 0/1 plus 4096-byte sectors, one boot: dixload reports the format sysfs shows and runs verified load with zero errors.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
need_dixload
need_python

# One line per configuration; the 4 KiB-sector one last.
configs=
for dif in 0 1 2 3; do
	for dix in 0 1; do
		for guard in 0 1; do
			configs="$configs dif=$dif,dix=$dix,guard=$guard"
		done
	done
done
configs="$configs dif=1,dix=1,guard=0,sector_size=4096"

# In the guest: reload scsi_debug with each parameter set, record what sysfs
# says, run dixload, record its status.  Everything goes to stdout as JSON
# lines, dixload's own lines in between.
vm --scsi-debug 'dif=1 dix=1 guard=0 dev_size_mb=32 delay=0' -- sh -c '
	for c in $1; do
		p=$(echo "$c" | tr , " ")
		rmmod scsi_debug || exit 90
		modprobe scsi_debug $p dev_size_mb=32 delay=0
		rc=$?
		i=0
		while [ ! -b /dev/sda ] || [ ! -r /sys/block/sda/integrity/format ]; do
			[ $i -ge 100 ] && break
			sleep 0.1; i=$((i + 1))
		done
		q=/sys/block/sda
		printf "{\"type\":\"config\",\"params\":\"%s\",\"modprobe\":%d,\"format\":\"%s\",\"interval\":%s,\"lbs\":%s}\n" \
			"$p" $rc "$(cat $q/integrity/format)" \
			"$(cat $q/integrity/protection_interval_bytes)" "$(cat $q/queue/logical_block_size)"
		dixload --dev /dev/sda --rw randrw --bs 64k --runtime 2 --verify on \
			--pi-format any --output-format json
		echo "{\"type\":\"dixload_exit\",\"status\":$?}"
	done' sh "$configs" > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 1500 "$WORK/err")"

python3 - "$WORK/out" "$WORK/err" <<'PY' || fail "matrix check failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
import json, sys

def expected(p):
    """What sd reports for scsi_debug parameters (6.1 .. 7.x sd_dif logic):
    no DIX, no integrity profile; DIX type 0 and 1/2 use the Type 1
    profile (ref tag checked), type 3 the Type 3 one; guard=1 the IP
    checksum, guard=0 CRC."""
    if p["dix"] == "0":
        return "none", 0
    kind = "TYPE3" if p["dif"] == "3" else "TYPE1"
    guard = "IP" if p["guard"] == "1" else "CRC"
    return "T10-DIF-%s-%s" % (kind, guard), int(p.get("sector_size", "512"))

runs, cur = [], None
for n, line in enumerate(open(sys.argv[1]), 1):
    try:
        o = json.loads(line)
    except ValueError:
        sys.exit("stdout line %d is not JSON: %r" % (n, line[:200]))
    t = o.get("type")
    if t == "config":
        cur = {"config": o, "start": None, "intervals": 0, "summary": None, "exit": None}
        runs.append(cur)
    elif cur is None:
        sys.exit("line %d before the first config: %r" % (n, line[:200]))
    elif t == "start":
        cur["start"] = o
    elif t == "interval":
        cur["intervals"] += 1
    elif t == "summary":
        cur["summary"] = o
    elif t == "dixload_exit":
        cur["exit"] = o["status"]

bad = []
if len(runs) != 17:
    bad.append("%d configurations ran, want 17" % len(runs))
for r in runs:
    c = r["config"]
    p = dict(w.split("=") for w in c["params"].split())
    name = c["params"]
    want_fmt, want_iv = expected(p)
    if c["modprobe"] != 0:
        bad.append("%s: modprobe scsi_debug failed (%d)" % (name, c["modprobe"]))
        continue
    if c["format"] != want_fmt:
        bad.append("%s: sysfs format %s, want %s" % (name, c["format"], want_fmt))
    if c["interval"] != want_iv:
        bad.append("%s: sysfs protection_interval_bytes %s, want %s" % (name, c["interval"], want_iv))
    if c["lbs"] != int(p.get("sector_size", "512")):
        bad.append("%s: logical block size %s" % (name, c["lbs"]))
    if r["exit"] != 0:
        bad.append("%s: dixload exit %s" % (name, r["exit"]))
    if r["start"] is None or r["summary"] is None:
        bad.append("%s: no start or summary line" % name)
        continue
    integ = r["start"].get("integrity", {})
    if integ.get("format") != c["format"]:
        bad.append("%s: dixload reports %r, sysfs %s" % (name, integ.get("format"), c["format"]))
    if want_fmt != "none" and integ.get("protection_interval_bytes") != want_iv:
        bad.append("%s: dixload protection_interval_bytes %r, want %d"
                   % (name, integ.get("protection_interval_bytes"), want_iv))
    errs = r["summary"].get("errors", {})
    if not errs or any(v != 0 for v in errs.values()):
        bad.append("%s: errors %r" % (name, errs))
    if r["intervals"] < 1:
        bad.append("%s: no interval lines in a 2 s run" % name)
    rd = r["summary"].get("read_iops", 0)
    wr = r["summary"].get("write_iops", 0)
    print("%-40s sysfs %-18s dixload %-18s R %5.0f W %5.0f IOPS, errors %d"
          % (name, c["format"], integ.get("format"), rd, wr, sum(errs.values())))
    if not (rd > 0 and wr > 0):
        bad.append("%s: no reads or no writes (read_iops %r, write_iops %r)" % (name, rd, wr))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit 0
