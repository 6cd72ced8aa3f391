#!/bin/sh
# dm-crypt aes-xts-plain64 on 6.1 (issue 23, test e): one ciphertext byte changed on the disk beneath the mapping reads back as garbage through it, and dixload's verification names exactly that block, "content changed", exit 3; a clean read before finds nothing; no output holds the key, in hex or raw bytes.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs

# sector 293 (block 2 of 64 KiB, its 38th sector), byte 300 of it: XTS
# garbles the 16-byte cipher block holding it, inside the block's data
script="mkdir -p /tmp/dmout
dixload --dev \"\$DIXVM_DM\" --size 8m --rw write --bs 64k --seed 42 --interval 0 > /tmp/dmout/w.out 2> /tmp/dmout/w.err
echo \"DIXLOAD-EXIT \$?\"
dixload --dev \"\$DIXVM_DM\" --size 8m --rw read --bs 64k --interval 0 --output-format json > /tmp/dmout/clean.json 2> /tmp/dmout/clean.err
echo \"DIXLOAD-EXIT \$?\"
cat /tmp/dmout/clean.json
off=\$((293 * 512 + 300))
old=\$(dd if=/dev/sda bs=1 skip=\$off count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
new=\$(( (old + 1) % 256 ))
printf \"\$(printf '\\\\%03o' \$new)\" | dd of=/dev/sda bs=1 seek=\$off conv=notrunc,fsync 2>/dev/null
echo \"CHANGED \$old \$new\"
dixload --dev \"\$DIXVM_DM\" --size 8m --rw read --bs 64k --interval 500 --output-format json \
	--error-log /tmp/dmout/bad.jsonl --log /tmp/dmout/r.csv --plot /tmp/dmout/r.svg > /tmp/dmout/bad.json 2> /tmp/dmout/bad.err
echo \"READ-EXIT \$?\"
cat /tmp/dmout/bad.json
sed 's/^/ERRLOG /' /tmp/dmout/bad.jsonl
sed 's/^/STDERR /' /tmp/dmout/bad.err
$DM_KEYSCAN"

boot_guest "" --dm crypt:aes-xts-plain64 --scsi-debug "dev_size_mb=16 delay=0" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
summ = [r for r in recs if r["type"] == "summary"]
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
print("exits %s, %d summaries, read %s" % (ex, len(summ), [l for l in lines if l.startswith("READ-EXIT")]))
if ex != ["DIXLOAD-EXIT 0", "DIXLOAD-EXIT 0"] or len(summ) != 2:
    print("\n".join(l[:300] for l in lines if not l.startswith("{\"type\":\"interval")))
    fail("the write and the clean read: %s" % ex)
if summ[0]["bad_extents_total"] != 0:
    fail("the clean read found extents: %s" % summ[0]["bad_extents"])
keyscan(lines, 9)
rd = [l for l in lines if l.startswith("READ-EXIT ")]
if rd != ["READ-EXIT 3"]:
    fail("the read after the change: %s, want exit 3" % rd)
s = summ[1]
ext = s["bad_extents"]
if len(ext) != 1 or ext[0]["lba"] != 293 or ext[0]["count"] != 1 or ext[0]["cause"] != "content changed":
    fail("want one extent, LBA 293, content changed: %s" % ext)
err = [json.loads(l[7:]) for l in lines if l.startswith("ERRLOG ")]
if len(err) != 1 or err[0]["lba"] != 293 or err[0]["cause"] != "content changed":
    fail("the error log: %s" % err)
live = [l for l in lines if l.startswith("STDERR dixload: verify: LBA 293: content changed")]
if len(live) != 1:
    fail("the live line does not name the block: %s" % [l for l in lines if l.startswith("STDERR")])
print("named: %s" % live[0][7:])
PY
python3 "$WORK/judge.py" "$WORK/out"
