#!/bin/sh
# dm-crypt aes-xts-plain64 on 6.1 (issue 23, test a): aesni_intel hot-loaded at 8 s changes the kernel's selection and not the mapping (within noise, and a note that the mapping keeps its TFMs), --dm-reload at 16 s gives the new TFMs the aesni driver the kernel now selects (xts-aes-aesni on 6.1; significant, >= 2x; on a release doc/figures names, 6.1.0-50, 6.12.95+deb12 or 7.2.13+deb14, the reload's before, after and ratio within the band of the figure doc/dm.md and doc/kernels.md quote, elsewhere the kernel moved); the start record names the table and the drivers (held: inferred); no output holds the key, in hex or raw bytes.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs

script="$(guest_need_module aesni_intel)
mkdir -p /tmp/dmout
dixload --dev \"\$DIXVM_DM\" --rw randrw --bs 64k --iodepth 4 --runtime 24 --precondition on \
	--hotload aesni_intel@8 --dm-reload \"\$DIXVM_DM\"@16 --output-format json \
	--log /tmp/dmout/run.csv --plot /tmp/dmout/run.svg --error-log /tmp/dmout/errors.log \
	--journal /tmp/dmout/journal > /tmp/dmout/run.json 2> /tmp/dmout/run.err
echo \"DIXLOAD-EXIT \$?\"
dixload --dev \"\$DIXVM_DM\" --rw read --bs 64k --runtime 1 > /tmp/dmout/human.out 2> /tmp/dmout/human.err
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\"
cat /tmp/dmout/run.json /tmp/dmout/human.out
sed 's/^/STDERR /' /tmp/dmout/run.err
$DM_KEYSCAN"

boot_guest "" --dm crypt:aes-xts-plain64 --scsi-debug "dev_size_mb=64 delay=0" -- sh -c "$script"

grep '^{"type":"start"' "$WORK/out" | head -n 1 > "$WORK/start.json"
python3 "$top_srcdir/tests/sh/json-doc.py" "$top_srcdir/doc/json.md" \
	--need start:dm.drivers[].held start="$WORK/start.json" ||
	fail "the start record and doc/json.md disagree (above)"

write_judge <<'PY'
import re
lines, recs = load(sys.argv[1])
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
summ = [r for r in recs if r["type"] == "summary"]
if ex != ["DIXLOAD-EXIT 0"] * 2 or len(summ) != 1:
    fail("dixload exits %s (want 0, 0), %d JSON summaries (want 1)" % (ex, len(summ)))
keyscan(lines, 7)
dm = dm_start(recs)
t = dm["mappings"][0]["table"][0]
if t["target"] != "crypt" or t["cipher"] != "aes-xts-plain64" or t["key_bytes"] != 64 or "<key>" not in t["params"]:
    fail("the table is not named as made: %s" % t)
d = [x for x in dm["drivers"] if x["algorithm"] == "xts(aes)"]
if len(d) != 1 or d[0]["held"] != d[0]["now"] or d[0]["held_basis"] != "inferred" or "aesni" in d[0]["held"]:
    fail("want xts(aes) held (inferred) on the generic driver at start: %s" % d)
print("start: xts(aes) now %s, held %s (%s)" % (d[0]["now"], d[0]["held"], d[0]["held_basis"]))
human = [l for l in lines if l.startswith("dm: ")]
if not any("crypt aes-xts-plain64 (skcipher xts(aes)" in l for l in human):
    fail("the human start lines do not name the table: %s" % human)
events = [r for r in recs if r["type"] == "event"]
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("dm dixdm: xts(aes)")]
if not notes or "until its table is reloaded" not in notes[0]:
    fail("no note that the mapping keeps its TFMs: %s" % [e["what"] for e in events])
# the driver the hot-load made the kernel select, as the note names it:
# xts-aes-aesni (401) on 6.1, xts-aes-aesni-avx (500) on 6.12
sel = re.search(r"would get (\S+) now", notes[0])
if not sel or "aesni" not in sel.group(1):
    fail("the note names no aesni driver the mapping would get: %s" % notes[0])
sel = sel.group(1)
rl = [e for e in events if e["what"].startswith("dm-reload ")]
if len(rl) != 1 or not rl[0]["ok"] or rl[0]["mapping"] != "dixdm":
    fail("want one successful dm-reload event: %s" % rl)
dr = [x for x in rl[0].get("drivers", []) if x["algorithm"] == "xts(aes)"]
if len(dr) != 1 or dr[0]["after"] != sel or dr[0]["before"] != d[0]["held"]:
    fail("the reload event's drivers: %s" % rl[0].get("drivers"))
print("reload: %s (suspended %.3f s)" % (rl[0]["detail"], rl[0]["suspended_s"]))
tr = summ[0]["transitions"]
hl = [x for x in tr if x["event"] == "modprobe aesni_intel"]
rr = [x for x in tr if x["event"].startswith("dm-reload ")]
if len(hl) != 1 or len(rr) != 1:
    fail("want a transition row for the hot-load and one for the reload: %s" % [x["event"] for x in tr])
show_tr("hot-load", hl[0])
show_tr("reload", rr[0])
if hl[0]["significant"] or abs(hl[0]["ratio"] - 1) > 0.15:
    measure_fail(hl[0], "the hot-load alone moved the mapping's rate")
if not rr[0]["significant"] or rr[0]["ratio"] < 2:
    measure_fail(rr[0], "the reload is not a significant >= 2x step")
# doc/dm.md's figure of the reload (doc/figures dm-crypt-reload, on this release)
hold_figure("dm-crypt-reload", rr[0], lines)
PY
python3 "$WORK/judge.py" "$WORK/out"
