#!/bin/sh
# dm-integrity hmac(sha256), direct mode, on 6.1 (issue 23, test d, and item 6): one byte changed beneath the mapping in each of N dixload blocks, the sectors found from the superblock's layout (checked against the table, the status line and the data read through the mapping); one sequential read pass gives exactly N integrity errors (EILSEQ, never retried), each block named, exit 3, and dm-integrity's mismatch counter moves by N over that pass, as dixload's end-of-run note says; the write and the clean read before find nothing and move it by 0; the disk beneath the mapping is refused (held), the mapping is written without --force; no output holds the key, in hex or raw bytes.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs

# Blocks of 64 KiB: 37 and 190 in the first interleave area, one each in
# the second and third (16 MiB areas; 40 MiB of disk gives three).  In
# each, one sector ((b * 7 + 3) % 128) and one byte of it ((b * 13) % 512).
# Direct mode: no journal, the data are on the disk when the write returns.
script="mkdir -p /tmp/dmout
D=\$DIXVM_DM
mm() { dmsetup status dixdm | awk '{ print \$4 }'; }
dixload --dev /dev/sda --rw write --size 1m --interval 0 > /tmp/dmout/sda.out 2> /tmp/dmout/sda.err
echo \"SDA-EXIT \$?\"
sed 's/^/SDA-ERR /' /tmp/dmout/sda.err
m0=\$(mm)
dixload --dev \"\$D\" --rw write --bs 64k --seed 42 --interval 0 --journal /tmp/dmout/journal > /tmp/dmout/w.out 2> /tmp/dmout/w.err
echo \"DIXLOAD-EXIT \$?\"
sed 's/^/W-ERR /' /tmp/dmout/w.err
dixload --dev \"\$D\" --rw read --bs 64k --interval 0 --output-format json > /tmp/dmout/clean.json 2> /tmp/dmout/clean.err
echo \"DIXLOAD-EXIT \$?\"
cat /tmp/dmout/clean.json
m1=\$(mm)
echo \"MISMATCH-CLEAN \$m0 \$m1\"
$DM_LAYOUT
dmi_layout dixdm || exit 1
dmsetup table dixdm | awk '{ for (i = 6; i <= NF; i++) if (\$i ~ /^(journal_sectors|interleave_sectors):/) printf \"%s \", \$i; print \"\" }' | sed 's/^/DMI-TABLE /'
dmsetup status dixdm | awk '{ print \"DMI-STATUS provided \" \$5 }'
ab=\$(( (1 << DMI_IL) / 128 ))
nb=\$(( DMI_PROVIDED / 128 ))
for b in 37 \$((ab + 11)) \$((2 * ab + 5)) 190; do
	[ \$b -lt \$nb ] || { echo \"NO-BLOCK \$b of \$nb\"; continue; }
	s=\$(( b * 128 + (b * 7 + 3) % 128 ))
	p=\$(dmi_sector \$s)
	dd if=\"\$D\" bs=512 skip=\$s count=1 of=/tmp/through 2>/dev/null
	dd if=\$DMI_DEV bs=512 skip=\$p count=1 of=/tmp/beneath 2>/dev/null
	cmp -s /tmp/through /tmp/beneath && same=same || same=differ
	off=\$(( p * 512 + (b * 13) % 512 ))
	old=\$(dd if=\$DMI_DEV bs=1 skip=\$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
	new=\$(( old ^ 255 ))
	printf \"\$(printf '\\\\%03o' \$new)\" | dd of=\$DMI_DEV bs=1 seek=\$off conv=notrunc,fsync 2>/dev/null
	echo \"CHANGED block \$b sector \$s at \$p (\$same through the mapping) byte \$off: \$old -> \$new\"
done
echo 3 > /proc/sys/vm/drop_caches
m2=\$(mm)
dixload --dev \"\$D\" --rw read --bs 64k --interval 500 --output-format json \
	--error-log /tmp/dmout/bad.jsonl --log /tmp/dmout/r.csv --plot /tmp/dmout/r.svg > /tmp/dmout/bad.json 2> /tmp/dmout/bad.err
echo \"READ-EXIT \$?\"
m3=\$(mm)
echo \"MISMATCH-BAD \$m2 \$m3\"
cat /tmp/dmout/bad.json
sed 's/^/ERRLOG /' /tmp/dmout/bad.jsonl
sed 's/^/STDERR /' /tmp/dmout/bad.err
dmesg | grep 'Checksum failed' | sed 's/^/KLOG /'
$DM_KEYSCAN"

boot_guest "" --dm 'integrity:hmac(sha256):direct' --scsi-debug "dev_size_mb=40 delay=0" -- sh -c "$script"

write_judge <<'PY'
import re
lines, recs = load(sys.argv[1])
def grab(prefix):
    return [l[len(prefix):] for l in lines if l.startswith(prefix)]
summ = [r for r in recs if r["type"] == "summary"]
ex = grab("DIXLOAD-EXIT ")
print("exits %s, %d JSON summaries, read %s" % (ex, len(summ), grab("READ-EXIT ")))
if ex != ["0", "0"] or len(summ) != 2:
    print("\n".join(l[:300] for l in lines if not l.startswith("{\"type\":\"interval")))
    fail("the write and the clean read: %s" % ex)
# item 6: the disk beneath is held; the mapping itself was written above
sda = grab("SDA-ERR ")
if grab("SDA-EXIT ") != ["1"] or not any("/dev/sda is held by dm-0" in l and "--force" in l for l in sda):
    fail("writing /dev/sda beneath the mapping was not refused as held: %s %s" % (grab("SDA-EXIT "), sda))
print("beneath: %s" % [l for l in sda if "held" in l][0])
if summ[0]["bad_extents_total"] != 0:
    fail("the clean read found extents: %s" % summ[0]["bad_extents"])
m = grab("MISMATCH-CLEAN ")[0].split()
if m[0] != m[1]:
    fail("the mismatch counter moved over the write and the clean read: %s" % m)
keyscan(lines, 10)
# the layout: from the superblock, checked against the table and status
lay = dict(zip(*[iter(grab("DMI-LAYOUT ")[0].split())] * 2))
tab = dict(x.split(":") for x in grab("DMI-TABLE ")[0].split())
print("layout (superblock): %s; the table says %s" % (lay, tab or "neither journal_sectors nor interleave_sectors"))
# what the table line prints of the layout depends on the kernel (7.2 in
# direct mode prints no journal_sectors): checked where it is there
if "journal_sectors" in tab and int(tab["journal_sectors"]) != int(lay["initial"]) - 8:
    fail("the superblock's journal and the table's journal_sectors disagree: %s, table %s" % (lay, tab))
if "interleave_sectors" in tab and int(tab["interleave_sectors"]) != 1 << int(lay["log2_interleave"]):
    fail("the superblock's interleave and the table's disagree: %s, table %s" % (lay, tab))
if grab("DMI-STATUS provided ")[0] != lay["provided"]:
    fail("provided data sectors: status %s, superblock %s" % (grab("DMI-STATUS provided "), lay["provided"]))
ch = [l.split() for l in grab("CHANGED ")]
if len(ch) != 4 or grab("NO-BLOCK "):
    fail("want 4 blocks changed: %s, %s" % (ch, grab("NO-BLOCK ")))
for c in ch:
    print("changed: %s" % " ".join(c))
    if c[6] != "(same":
        fail("sector %s read through the mapping differs from sector %s beneath: the layout is wrong" % (c[3], c[5]))
blocks = sorted(int(c[1]) for c in ch)
areas = sorted(set(int(c[3]) >> int(lay["log2_interleave"]) for c in ch))
if areas != [0, 1, 2]:
    fail("the blocks do not span three interleave areas: %s" % areas)
N = len(blocks)
# the pass over the changed disk
if grab("READ-EXIT ") != ["3"]:
    fail("the read after the change: %s, want exit 3" % grab("READ-EXIT "))
s = summ[1]
ext = sorted(s["bad_extents"], key=lambda e: e["lba"])
got = [(e["lba"], e["count"]) for e in ext]
want = [(b * 128, 128) for b in blocks]
if got != want or s["bad_extents_total"] != N:
    fail("want the %d changed blocks as extents %s, got %s (total %s)" % (N, want, got, s["bad_extents_total"]))
if any(e["kind"] != "unknown" or "EILSEQ" not in e["cause"] for e in ext):
    fail("the extents are not integrity errors (EILSEQ): %s" % ext)
print("extents: %s, cause %s; %d I/Os submitted: %d done, %d failed, none again" % (got, ext[0]["cause"], s["submitted"], s["ops"], s["err"]))
if s["rec"] or s["err"] != N or s["errors"]["unknown"] != N or s["submitted"] != s["ops"] + N:
    fail("want %d errors of unknown kind, none recovered and no retry (EILSEQ is never retried): err %s, rec %s, errors %s, submitted %s for %s I/Os done"
         % (N, s["err"], s["rec"], s["errors"], s["submitted"], s["ops"]))
err = [json.loads(l) for l in grab("ERRLOG ")]
if sorted(e["lba"] for e in err) != [b * 128 for b in blocks]:
    fail("the error log: %s" % err)
live = grab("STDERR ")
for b in blocks:
    if not any(("LBA %d" % (b * 128)) in l for l in live):
        fail("no live line names block %d (LBA %d): %s" % (b, b * 128, live))
m = grab("MISMATCH-BAD ")[0].split()
delta = int(m[1]) - int(m[0])
print("mismatch counter: %s -> %s, delta %d over the pass (want %d)" % (m[0], m[1], delta, N))
if delta != N:
    fail("dm-integrity's mismatch counter moved by %d over the read pass, want %d" % (delta, N))
# dixload reports the counter's move itself, at the end of each run
def counted(run):
    n = [re.search(r"dm-integrity counted (\d+) checksum mismatch", r["what"]) for r in run
         if r["type"] == "event" and r["kind"] == "note" and r["what"].startswith("dm dixdm: dm-integrity counted")]
    return [int(x.group(1)) for x in n if x]
i = lines.index("READ-EXIT 3")
clean_run = [r for r in (json.loads(l) for l in lines[:i] if l.startswith('{"type"'))]
bad_run = [r for r in (json.loads(l) for l in lines[i:] if l.startswith('{"type"'))]
if counted(clean_run) != [0] or counted(bad_run) != [N]:
    fail("dixload's own count of the kernel's mismatches: clean run %s, changed run %s (want [0], [%d])"
         % (counted(clean_run), counted(bad_run), N))
print("dixload's note: %s" % [r["what"] for r in bad_run if r["type"] == "event" and "dm-integrity counted" in r["what"]][0])
# the kernel names the logical sector it failed on: each in a changed block
ks = [int(x, 16) for x in re.findall(r"Checksum failed at sector (0x[0-9a-f]+)", " ".join(grab("KLOG ")))]
print("kernel log: checksum failed at sectors %s" % ks)
# (since the recheck of a failed tag, c88f5e553fe3, in 6.1.y and 6.12)
sectors = sorted(int(c[3]) for c in ch)
if sorted(ks) != sectors:
    fail("the kernel's checksum failures %s are not the changed sectors %s" % (ks, sectors))
PY
python3 "$WORK/judge.py" "$WORK/out"
