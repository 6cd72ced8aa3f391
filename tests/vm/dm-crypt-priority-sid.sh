#!/bin/sh
# dm-crypt aes-xts-plain64 on the newest kernel, sid (issue 23, test c): aesni_intel hot-loaded, --dm-reload takes its driver, the 2023 patch's experiment with --priority (the generic instance raised to 1000) moves the selection, a second --dm-reload takes the generic instance, and at the end the priority is restored and the mapping reloaded once more, so it holds the aesni driver again and the instance dixload registered is deleted; the drivers are judged, the rates reported (the windows are 3-4 s); crc32c_intel, gone since 6.14, is refused saying so; no output holds the key.
DIXVM_KERNEL=sid
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs
need_feature mnl

# The competitor is xts over ecb over the kernel's own C AES cipher, by its
# driver name from /proc/crypto (aes-lib on 7.x), as in kcapi-priority.sh.
script="$(guest_need_module aesni_intel)
$(guest_need_module crypto_user)
modprobe crypto_user || exit 99
uname -r | sed 's/^/KVER /'
gen=\$(awk '/^name/ { n = \$3 } /^driver/ { d = \$3 } /^module/ { if (n == \"aes\" && \$3 == \"kernel\") print d }' /proc/crypto | head -n 1)
[ -n \"\$gen\" ] || { echo 'no built-in aes cipher in /proc/crypto'; exit 99; }
c=\"xts(ecb(\$gen))\"
echo \"COMPETITOR \$c\"
mkdir -p /tmp/dmout
dixload --dev \"\$DIXVM_DM\" --rw randrw --bs 64k --iodepth 4 --runtime 20 --precondition on \
	--hotload aesni_intel@3 --dm-reload \"\$DIXVM_DM\"@6 --priority \"\$c=1000@10\" --dm-reload \"\$DIXVM_DM\"@13 \
	--output-format json --log /tmp/dmout/run.csv --plot /tmp/dmout/run.svg --error-log /tmp/dmout/errors.log \
	--journal /tmp/dmout/journal > /tmp/dmout/run.json 2> /tmp/dmout/run.err
echo \"DIXLOAD-EXIT \$?\"
grep -q \"^driver *: \$c\\\$\" /proc/crypto && echo \"INSTANCE-LEFT \$c\"
dixload --dev \"\$DIXVM_DM\" --rw read --bs 64k --runtime 3 --hotload crc32c_intel@1 --output-format json > /tmp/dmout/crc.json 2> /tmp/dmout/crc.err
echo \"CRC-EXIT \$?\"
cat /tmp/dmout/run.json
echo CRC-RUN
cat /tmp/dmout/crc.json
sed 's/^/STDERR /' /tmp/dmout/run.err
$DM_KEYSCAN"

boot_guest "" --dm crypt:aes-xts-plain64 --scsi-debug "dev_size_mb=32 delay=0" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
def grab(prefix):
    return [l[len(prefix):] for l in lines if l.startswith(prefix)]
print("kernel", grab("KVER "))
ex = grab("DIXLOAD-EXIT ")
if ex != ["0"]:
    print("\n".join(l[:300] for l in lines if l.startswith("STDERR ")))
    fail("the run: exit %s, want 0" % ex)
keyscan(lines, 8)
i = lines.index("CRC-RUN")
run = [json.loads(l) for l in lines[:i] if l.startswith('{"type"')]
crc = [json.loads(l) for l in lines[i:] if l.startswith('{"type"')]
comp = grab("COMPETITOR ")[0]
events = [r for r in run if r["type"] == "event"]
for e in events:
    if e["kind"] == "action":
        print("action %.1f s %s ok=%s: %s" % (e["t"], e["what"], e.get("ok"), e.get("detail")))
dm = dm_start(run)
d = [x for x in dm["drivers"] if x["algorithm"] == "xts(aes)"]
if len(d) != 1 or "aesni" in d[0]["held"]:
    fail("want xts(aes) held (inferred) on a generic driver at start: %s" % d)
start = d[0]["held"]
rl = [e for e in events if e["what"].startswith("dm-reload ")]
if len(rl) != 3 or not all(e["ok"] for e in rl):
    fail("want three successful dm-reloads (at 6 s, 13 s, and the end): %s" % rl)
def drv(e):
    x = [y for y in e.get("drivers", []) if y["algorithm"] == "xts(aes)"]
    return (x[0]["before"], x[0]["after"]) if len(x) == 1 else fail("reload drivers: %s" % e)
first, second, last = [drv(e) for e in rl]
aesni = first[1]
if first[0] != start or "aesni" not in aesni:
    fail("the first reload: %s -> %s, want %s -> an aesni driver" % (first + (start,)))
if second != (aesni, comp):
    fail("the reload after the priority change: %s, want %s -> %s" % (second, aesni, comp))
if last != (comp, aesni) or not rl[2]["what"].endswith("(end of run)") or \
   "the mapping holds what the restored selection gives" not in rl[2]["detail"]:
    fail("the end-of-run reload: %s" % rl[2])
order = [e["what"].split()[0] for e in events if e["kind"] == "action"]
tail = order[order.index("restore"):] if "restore" in order else []
if tail[:3] != ["restore", "dm-reload", "delete"]:
    fail("want restore, the end-of-run reload, then the delete: %s" % order)
dl = [e for e in events if e["what"] == "delete instance %s" % comp]
if len(dl) != 1 or not dl[0]["ok"] or grab("INSTANCE-LEFT "):
    fail("the instance dixload registered is not deleted: %s %s" % (dl, grab("INSTANCE-LEFT ")))
print("reloads: %s -> %s; %s -> %s; end of run %s -> %s" % (first + second + last))
summ = [r for r in run if r["type"] == "summary"]
for t in summ[0]["transitions"]:
    if t["before"] is None or t["after"] is None:
        print("%s: not measured: %s" % (t["event"], {k: v for k, v in t.items() if v is not None}))
    else:
        show_tr(t["event"], t)
# crc32c: no module to hot-load since 6.14, and the run says why
if grab("CRC-EXIT ") != ["4"]:
    fail("hot-loading crc32c_intel on sid: exit %s, want 4" % grab("CRC-EXIT "))
a = [e for e in crc if e["type"] == "event" and e["kind"] == "action"]
if len(a) != 1 or a[0]["ok"] or "since Linux 6.14" not in a[0].get("detail", "") or "CRC32C" not in a[0]["detail"]:
    fail("the crc32c_intel hot-load does not explain the kernel era: %s" % a)
print("crc32c_intel: %s" % a[0]["detail"])
PY
python3 "$WORK/judge.py" "$WORK/out"
