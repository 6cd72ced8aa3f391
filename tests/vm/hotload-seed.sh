#!/bin/sh
# Seed scenario: crct10dif_pclmul hot-loaded at 10 s of a dif1 load on a fresh disk: dixload's own preconditioning (JSON object, no never-written reads in any interval), transform event, steady before, no never-written share in either window, ratio >= 1.3, change within 2 s, a well-formed --plot naming the module, and on a release doc/figures names (6.1.0-50, 6.12.95+deb12) before, after and ratio within the band of the figure README.md and doc/ quote (elsewhere: the kernel moved, only ratio >= 1.3 holds).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'
vm_alone
need_dixload
need_python

# The README's command on the disk as scsi_debug hands it over: nothing
# written before dixload, whose profile preconditions the disk itself (a
# fresh disk's never-written blocks read cheaper and make "before" drift).
# No dd before it either: a dd write would be the prefill this test must
# not have, and a dd read of a never-written disk measures unchecked reads.
script="$(guest_need_module crct10dif_pclmul)
dixload --dev /dev/sda --profile dif1 --runtime 24 --hotload crct10dif_pclmul@10 --output-format json --plot /tmp/seed.svg
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\"
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

# preconditioning: the whole disk, before the load, out of its counts
start = [r for r in recs if r["type"] == "start"][0]
if start["precondition"]["decided"] != "on" or start["precondition"]["reason"] != "profile dif1: precondition=on":
    fail("dif1 must precondition: %s" % start["precondition"])
pre = [r for r in recs if r["type"] == "precondition"]
if len(pre) != 1:
    fail("want one precondition object, got %s" % pre)
pre = pre[0]
if not pre["complete"] or pre["bytes"] != 256 << 20 or pre["region"] != 256 << 20 or pre["errors"]:
    fail("precondition incomplete: %s" % pre)
if pre["io_size"] < 256 << 10 or pre["iodepth"] < 4:
    fail("precondition writes too small or too shallow: %s" % pre)
if recs.index(pre) > min(recs.index(r) for r in recs if r["type"] == "interval"):
    fail("precondition object after the first interval")
print("precondition: %d MiB in %.2f s, %.1f MB/s, %d KiB writes, QD%d"
      % (pre["bytes"] >> 20, pre["seconds"], pre["mb_per_s"], pre["io_size"] >> 10, pre["iodepth"]))
iv = [r for r in recs if r["type"] == "interval"]
if not iv or any(r["unwritten"] != 0 for r in iv):
    fail("reads of never-written blocks after preconditioning: %s" % [r["unwritten"] for r in iv])
if summ["unwritten_blocks"] != 0:
    fail("summary unwritten_blocks %d" % summ["unwritten_blocks"])
# counted in the meter, the 256 MiB would land in the first interval; in
# the summary, they would be 256 MiB beyond what the intervals saw
if iv[0]["write_bps"] * iv[0]["dt"] > 64 << 20:
    fail("the first interval counts the preconditioning writes: %s" % iv[0])
if summ["write_bytes"] - sum(r["write_bps"] * r["dt"] for r in iv) > 32 << 20:
    fail("the summary counts the preconditioning writes: %d bytes written" % summ["write_bytes"])

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
print("before: trend %s, steady %s; never-written reads %s before, %s after"
      % (tr["before_trend"], tr["steady"], tr["before_unwritten"], tr["after_unwritten"]))
# preconditioned: both windows' reads are checked ones, so the verdict
# rests on no never-written share (issue 28's rule leaves it alone)
for side in ("before_unwritten", "after_unwritten"):
    if not tr[side] or tr[side]["share"] != 0:
        fail("%s after preconditioning: %s" % (side, tr[side]))

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

seed_verdict(tr)
# the README's figure (doc/figures seed-2018, on this release)
hold_figure("seed-2018", tr, lines)
EOF
with_attempts attempt
