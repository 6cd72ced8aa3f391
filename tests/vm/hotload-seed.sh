#!/bin/sh
# Seed scenario: crct10dif_pclmul hot-loaded at 10 s of a dif1 load: transform event, ratio >= 1.3, change within 2 s, plain dd before/after in the same boot, and a well-formed --plot naming the module.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
need_dixload
need_python

# The module loads once per boot, so one boot holds all of it: dd before
# (its write of the whole disk also gives every block PI, so dixload's
# "before" is steady: see GUEST_PREFILL), the dixload run, dd after, and
# the SVG printed between markers.
script="$(guest_need_module crct10dif_pclmul)
$GUEST_DDT
ddt before-write 256 if=/dev/zero of=/dev/sda oflag=direct
ddt before-read 256 if=/dev/sda of=/dev/null iflag=direct
dixload --dev /dev/sda --profile dif1 --runtime 24 --hotload crct10dif_pclmul@10 --output-format json --plot /tmp/seed.svg
echo \"DIXLOAD-EXIT \$?\"
ddt after-write 256 if=/dev/zero of=/dev/sda oflag=direct
ddt after-read 256 if=/dev/sda of=/dev/null iflag=direct
echo SVG-BEGIN
cat /tmp/seed.svg
echo SVG-END"

attempt()
{
	boot_guest "CRC-T10DIF built in since 6.14" -- sh -c "$script"
	python3 "$WORK/judge.py" "$WORK/out"
}

write_judge <<'EOF'
import xml.dom.minidom

lines, recs = load(sys.argv[1])
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
if ex != ["DIXLOAD-EXIT 0"]:
    fail("dixload exit: %s" % ex)
events = [r for r in recs if r["type"] == "event"]
summ = [r for r in recs if r["type"] == "summary"]
if len(summ) != 1:
    fail("no summary")
summ = summ[0]
show_intervals(recs)

act = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe crct10dif_pclmul"]
if len(act) != 1 or not act[0]["ok"]:
    fail("hot-load event missing or failed: %s" % act)
act = act[0]
if abs(act["t"] - 10) > 0.5:
    fail("hot-load ran at %.3f s, not 10" % act["t"])
if not any(a["driver"] == "crct10dif-pclmul" for a in act.get("crypto_added", [])):
    fail("crypto_added lacks crct10dif-pclmul: %s" % act.get("crypto_added"))
tf = [e for e in events if e["kind"] == "change" and
      e["what"] == "crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul"]
if len(tf) != 1:
    fail("transform change event: %s" % [e["what"] for e in events])
if tf[0]["t"] - act["t"] > 2:
    fail("transform changed %.1f s after the load" % (tf[0]["t"] - act["t"]))
print("events: %s" % "; ".join("%.1f s %s" % (e["t"], e["what"]) for e in events))

tr = summ["transitions"]
if len(tr) != 1 or tr[0]["event"] != "modprobe crct10dif_pclmul":
    fail("want one transition row for the module load, got %s" % tr)
tr = tr[0]
show_tr("seed", tr)
dd = {}
for l in lines:
    if l.startswith("DDFAIL"):
        fail(l)
    if l.startswith("DD "):
        _, lab, b, s = l.split()
        dd[lab] = int(b) / float(s) / 1e6 if float(s) > 0 else float("inf")
if len(dd) != 4:
    fail("dd figures missing: %s" % dd)
print("dd bs=1M O_DIRECT over the 256 MiB disk, same boot: write %.1f -> %.1f MB/s (x%.2f), read %.1f -> %.1f MB/s (x%.2f)"
      % (dd["before-write"], dd["after-write"], dd["after-write"] / dd["before-write"],
         dd["before-read"], dd["after-read"], dd["after-read"] / dd["before-read"]))

# the plot: well-formed, and the module named at the marker of the load
try:
    i, j = lines.index("SVG-BEGIN"), lines.index("SVG-END")
except ValueError:
    fail("SVG not printed")
svg = "\n".join(lines[i + 1:j])
try:
    doc = xml.dom.minidom.parseString(svg.encode("utf-8"))
except Exception as e:
    fail("SVG not well-formed: %s" % e)
named = False
for g in doc.getElementsByTagName("g"):
    if g.getAttribute("class") != "event":
        continue
    t = float(g.getAttribute("data-t"))
    txt = "".join(n.data for x in g.getElementsByTagName("text") for n in x.childNodes)
    if abs(t - act["t"]) < 0.01 and "crct10dif_pclmul" in txt:
        named = True
if not named:
    fail("no marker at %.3f s naming crct10dif_pclmul" % act["t"])
print("plot: %d bytes, well-formed, marker at %.3f s names crct10dif_pclmul" % (len(svg), act["t"]))

if tr["ratio"] < 1.3:
    measure_fail(tr, "ratio %.3f < 1.3" % tr["ratio"])
if not tr["significant"]:
    measure_fail(tr, "transition not significant")
if tr["change_at"] is None or abs(tr["change_at"] - 10) > 2:
    measure_fail(tr, "change_at %s not within 2 s of 10" % tr["change_at"])
EOF
with_attempts attempt
