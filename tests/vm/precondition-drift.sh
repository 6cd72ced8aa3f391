#!/bin/sh
# A fresh scsi_debug DIF disk: with --precondition off the "before" level drifts (reads of never-written blocks fall 100 % -> 50 %) and the verdict says "before not steady" instead of a ratio; auto preconditions a randrw load on the DIF device, saying why, and leaves no never-written reads.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_alone
need_dixload
need_python

# The drift run first, while every block is still unwritten; an --exec
# action that changes nothing gives the transition row to judge.  Then a
# short run with the defaults (auto) on the region it may write.
# dixload visits every block once per pass, so the share of never-written
# reads is a staircase: 100 % in the first pass, 50 % in the second.  The
# guest clock counts instructions, so the pace is the guest's own: 75-80
# IOPS at 256 KiB (18-20 MB/s) on a quiet host and a busy one alike.
# 96 MiB is 384 blocks, a first pass of about 5 s, which puts the step
# near the middle of the 2-10 s window: 3 intervals at 100 %, 5 at 50 %.
# At 128 MiB the step came at 7 s, leaving 2-3 intervals after it, and
# one CI run of many found no drift there.
script="dixload --dev /dev/sda --size 96m --rw randrw --bs 256k --runtime 14 --precondition off --exec true@10 --output-format json
echo \"DRIFT-EXIT \$?\"
dixload --dev /dev/sda --size 32m --rw randrw --bs 256k --runtime 2
echo \"AUTO-EXIT \$?\""

boot_guest "" -- sh -c "$script"

write_judge <<'EOF'
lines, recs = load(sys.argv[1])
for tag in ("DRIFT-EXIT", "AUTO-EXIT"):
    if tag + " 0" not in lines:
        fail("%s: %s" % (tag, [l for l in lines if l.startswith(tag)]))
start = [r for r in recs if r["type"] == "start"]
if len(start) != 1 or start[0]["integrity"]["format"] != "T10-DIF-TYPE1-CRC":
    fail("not a T10-DIF-TYPE1-CRC disk: %s" % start)
if start[0]["precondition"]["decided"] != "off" or [r for r in recs if r["type"] == "precondition"]:
    fail("--precondition off preconditioned: %s" % start[0]["precondition"])
show_intervals(recs)
iv = [r for r in recs if r["type"] == "interval"]
print("never-written blocks read per interval: %s" % [r["unwritten"] for r in iv])
if not all(r["unwritten"] > 0 for r in iv[:10]):
    fail("a fresh disk must show never-written reads in every early interval")
summ = [r for r in recs if r["type"] == "summary"][0]
tr = summ["transitions"]
if len(tr) != 1:
    fail("want one transition row for the exec action, got %s" % tr)
tr = tr[0]
print("before_trend %s, before_unwritten %s, steady %s, significant %s"
      % (tr["before_trend"], tr["before_unwritten"], tr["steady"], tr["significant"]))
if tr["steady"] or tr["significant"] or tr["change_at"] is not None:
    fail("a drifting before must give no verdict: %s" % tr)
uw = tr["before_unwritten"]
# measured: 100 -> 50 % on a busy host, 61 -> 6 % and 49 -> 20 % on
# quieter ones (more passes in the window); the verdict needs 10 points
if not uw or uw["from"] - uw["to"] < 0.15:
    fail("the share of never-written reads should fall by 15 points or more: %s" % uw)

# the auto run, human output
if "precondition: on (auto: reads on a T10-DIF-TYPE1-CRC device)" not in lines:
    fail("auto decision line: %s" % [l for l in lines if l.startswith("precondition")])
import re
# the write size follows the disk's max_sectors_kb (512 on 6.1's scsi_debug)
if not any(re.fullmatch(r"precondition: 32 MiB written in [0-9.]+ s, [0-9.]+ MB/s "
                        r"\(\d+ [KM]iB writes, QD4\); not counted in the load", l) for l in lines):
    fail("auto result line: %s" % [l for l in lines if l.startswith("precondition")])
if any("never written" in l for l in lines):
    fail("never-written reads after preconditioning: %s" % [l for l in lines if "never written" in l])
print([l for l in lines if l.startswith("precondition")])
EOF
python3 "$WORK/judge.py" "$WORK/out"
