#!/bin/sh
# Fault row on LIO's fileio backstore (dixvm --lio 1,512,fileio): after a clean verified write of 16 MiB, the guard bytes of 3 chosen sectors are inverted in the backstore's .protection file (8 bytes a sector in LBA order, read back first: app tag 0, ref tag = LBA, as the block layer wrote them); a read of the region reports exactly 3 integrity errors through the kernel path (EILSEQ, kind unknown), each named as the extent of the 4 KiB read that holds a corrupted sector, the same in --error-log, and LIO's log names the same 3 sectors; the write and a read before the corruption are clean.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_vm
need_dixload
need_python

# Sectors in three different 4 KiB reads, one of them the first sector of
# its read, one the last: the extent named must be the read's, whatever
# the sector's place in it.
sectors='1000 8199 30007'

# The guard tag is the first 2 bytes of a tuple, not the app tag (bytes 2-3):
# an app tag of 0xffff is the escape that makes LIO and the kernel skip the
# checks, so a corrupted app tag could go unseen.
vm --scsi-debug none --lio 1,512,fileio --allow-dmesg 'checksum failed|Logical block guard check failed' -- sh -c "$PI_GUEST_RUN"'
	common="--dev $DIXVM_LIO --bs 4k --size 16m --verify on --pi kernel --interval 0"
	run write $common --rw write
	run read-clean $common --rw read
	# the tuple beyond the written region: never written, all 0xff
	echo "TUPLE-UNWRITTEN $(od -An -vtx1 -j $((40000 * 8)) -N 8 "$DIXVM_LIO_PROT" | tr -d " \n")"
	n=$(dmesg | wc -l)
	for s in $1; do
		t=$(od -An -vtx1 -j $((s * 8)) -N 8 "$DIXVM_LIO_PROT" | tr -d " \n")
		g0=$(printf %d 0x${t%??????????????}); g1=$(printf %d 0x$(echo $t | cut -c3-4))
		printf "$(printf "\\\\%03o\\\\%03o" $((g0 ^ 255)) $((g1 ^ 255)))" |
			dd of="$DIXVM_LIO_PROT" bs=1 seek=$((s * 8)) conv=notrunc 2>/dev/null
		echo "TUPLE $s $t $(od -An -vtx1 -j $((s * 8)) -N 8 "$DIXVM_LIO_PROT" | tr -d " \n")"
	done
	dixload $common --rw read --output-format json --error-log /tmp/errlog.json > /tmp/read.out 2> /tmp/read.err
	echo "READ-EXIT $?"
	grep "\"type\":\"summary\"" /tmp/read.out | sed "s/^/READ-SUMMARY /"
	sed "s/^/ERRLOG /" /tmp/errlog.json
	sed "s/^/READ-ERR /" /tmp/read.err
	dmesg | tail -n +$((n + 1)) | sed "s/^/KMSG /"
	true' sh "$sectors" > "$WORK/out" 2> "$WORK/err"
pi_vm_status $?
grep '^TUPLE\|^READ-EXIT\|^READ-ERR' "$WORK/out"

python3 - "$WORK/out" "$sectors" <<'PY' || fail "fault row check failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
import json, re, sys

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
sectors = [int(s) for s in sys.argv[2].split()]
bad = []
def check(c, m):
    if not c:
        bad.append(m)
def tagged(p):
    return [l[len(p) + 1:] for l in lines if l.startswith(p + " ")]
runs = {}
for l in lines:
    if l.startswith('{"type":"run"'):
        o = json.loads(l); runs[o["name"]] = o
for n in ("write", "read-clean"):
    r = runs.get(n)
    check(r and r["status"] == 0 and r["summary"] and not any(r["summary"]["errors"].values()),
          "%s: not clean: %s" % (n, r and (r["status"], r["summary"] and r["summary"]["errors"])))

# the layout: 8 bytes a sector in LBA order, as the kernel generated them
check(tagged("TUPLE-UNWRITTEN") == ["ff" * 8], "tuple of never-written sector 40000: %s" % tagged("TUPLE-UNWRITTEN"))
tuples = {}
for t in tagged("TUPLE"):
    s, before, after = t.split()
    tuples[int(s)] = (before, after)
check(sorted(tuples) == sectors, "tuples changed: %s" % sorted(tuples))
for s, (before, after) in tuples.items():
    check(len(before) == 16 and before[4:8] == "0000" and int(before[8:], 16) == s,
          "sector %d: tuple %s is not guard, app 0, ref %08x" % (s, before, s))
    check(before[:4] != "ffff", "sector %d: guard %s (never written?)" % (s, before[:4]))
    check(after[:4] == "%04x" % (int(before[:4], 16) ^ 0xffff) and after[4:] == before[4:],
          "sector %d: %s -> %s, want only the guard inverted" % (s, before, after))

ex = tagged("READ-EXIT")
check(ex == ["3"], "read after corruption: exit %s, want 3 (integrity errors)" % ex)
summ = [json.loads(x) for x in tagged("READ-SUMMARY")]
if len(summ) != 1:
    bad.append("read: %d summaries" % len(summ))
else:
    e = summ[0]["errors"]
    check(e["unknown"] == len(sectors) and sum(e.values()) == len(sectors),
          "read: errors %s, want exactly %d of kind unknown (EILSEQ)" % (e, len(sectors)))
want = sorted((s - s % 8, s - s % 8 + 7) for s in sectors)
msgs = [l for l in tagged("READ-ERR") if ": read failed: " in l]
got = []
for m in msgs:
    x = re.match(r"dixload: unknown: LBA (\d+)-(\d+) \(8 blocks, 4 KiB\): read failed: integrity check failed \(EILSEQ\)", m)
    check(x, "error line not an EILSEQ extent of 8 blocks: %r" % m)
    if x:
        got.append((int(x.group(1)), int(x.group(2))))
check(sorted(got) == want, "extents named %s, want %s" % (sorted(got), want))
logged = []
for l in tagged("ERRLOG"):
    o = json.loads(l)
    logged.append((o["lba"], o["lba"] + o["count"] - 1, o["kind"]))
check(sorted(logged) == [(a, b, "unknown") for a, b in want], "--error-log %s, want %s" % (sorted(logged), want))
# LIO's sbc_dif_verify names each sector whose guard it found wrong
kseen = sorted(set(int(x) for l in tagged("KMSG") for x in re.findall(r"checksum failed on sector (\d+)", l)))
check(kseen == sectors, "LIO's log names sectors %s, want %s" % (kseen, sectors))
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("exactly %d integrity errors, extents %s, LIO log sectors %s" % (len(sectors), want, kseen))
sys.exit(1 if bad else 0)
PY
exit 0
