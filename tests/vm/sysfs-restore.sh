#!/bin/sh
# --sysfs on a real kernel (6.1, scsi_debug dif=1): after `--sysfs /sys/block/sda/integrity/read_verify=0@2` the file holds what it held before the run, with one restore event (path, from 0, to 1, write(2) returned 2); the same after a run stopped by SIGINT, and after two writes to the file (the value before the first comes back); --sysfs-keep leaves 0 and a note says it held 1.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
need_dixload
need_python

RV=/sys/block/sda/integrity/read_verify
# each step prints the file before and after its run, and the run's exit
script="rv() { echo \"\$1 \$(cat $RV)\"; }
rv BEFORE
dixload --dev /dev/sda --profile dif1 --runtime 4 --sysfs $RV=0@2 --output-format json
echo \"DIXLOAD-EXIT \$?\"
rv AFTER
dixload --dev /dev/sda --profile dif1 --precondition off --runtime 30 --interval 0 --sysfs $RV=0@0 > /tmp/int.out 2>&1 &
pid=\$!
i=0
until grep -q 'sysfs $RV=0: ok' /tmp/int.out || [ \$i -ge 100 ]; do sleep 0.1; i=\$((i + 1)); done
rv INT-DURING
kill -INT \$pid
wait \$pid
echo \"INT-EXIT \$?\"
rv INT-AFTER
sed 's/^/INT-OUT /' /tmp/int.out
dixload --dev /dev/sda --profile dif1 --precondition off --runtime 2 --interval 0 --sysfs $RV=0@0 --sysfs $RV=1@0.5 --sysfs $RV=0@1 --output-format json | sed 's/^/TWICE /'
rv TWICE-AFTER
dixload --dev /dev/sda --profile dif1 --precondition off --runtime 1 --interval 0 --sysfs $RV=0@0 --sysfs-keep | sed 's/^/KEEP /'
rv KEEP-AFTER
echo 1 > $RV"

boot_guest "" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
RV = "/sys/block/sda/integrity/read_verify"
def grab(tag):
    return [l[len(tag) + 1:] for l in lines if l.startswith(tag + " ")]
if grab("BEFORE") != ["1"]:
    fail("read_verify before the runs: %s, want 1 (a dif=1 disk)" % grab("BEFORE"))
if grab("DIXLOAD-EXIT") != ["0"]:
    fail("the done-when run: exit %s" % grab("DIXLOAD-EXIT"))
ev = [r for r in recs if r["type"] == "event" and r["kind"] == "action"]
if len(ev) != 2:
    fail("want the write and its restore: %s" % ev)
w, back = ev
if w["what"] != "sysfs %s=0" % RV or not w["ok"] or w["from"] != "1" or w["to"] != "0" or w["restore"]:
    fail("the write at 2 s: %s" % w)
if back["what"] != "restore sysfs %s=1" % RV or not back["ok"] or not back["restore"] or \
   back["from"] != "0" or back["to"] != "1" or back["returned"] != 2 or back["t"] < 4:
    fail("the restore at the end: %s" % back)
if grab("AFTER") != ["1"]:
    fail("after the run read_verify holds %s, want 1 as before it" % grab("AFTER"))
print("done-when: read_verify 1 -> 0 at %.1f s -> %s after the run; %s" % (w["t"], grab("AFTER")[0], back["detail"]))

# SIGINT
if grab("INT-DURING") != ["0"]:
    fail("the write before SIGINT: read_verify %s, want 0: %s" % (grab("INT-DURING"), grab("INT-OUT")))
if grab("INT-AFTER") != ["1"]:
    fail("after SIGINT read_verify holds %s, want 1: %s" % (grab("INT-AFTER"), grab("INT-OUT")))
r = [l for l in grab("INT-OUT") if "restore sysfs %s=1: ok" % RV in l and "was 0, now 1" in l]
if len(r) != 1:
    fail("no restore event after SIGINT: %s" % grab("INT-OUT"))
print("SIGINT: %s" % r[0])

# three writes to one file: the value found before the first comes back, once
tw = [json.loads(l) for l in grab("TWICE") if l.startswith('{"type"')]
rs = [e for e in tw if e["type"] == "event" and e.get("restore")]
if len(rs) != 1 or rs[0]["from"] != "0" or rs[0]["to"] != "1" or not rs[0]["ok"]:
    fail("three writes: want one restore from 0 to 1: %s" % rs)
if grab("TWICE-AFTER") != ["1"]:
    fail("three writes: read_verify holds %s after, want 1" % grab("TWICE-AFTER"))

# --sysfs-keep
if grab("KEEP-AFTER") != ["0"]:
    fail("--sysfs-keep: read_verify holds %s, want 0" % grab("KEEP-AFTER"))
k = [l for l in grab("KEEP") if "sysfs %s kept at 0 (--sysfs-keep); before the run it held 1" % RV in l]
if len(k) != 1 or any("restore sysfs" in l for l in grab("KEEP")):
    fail("--sysfs-keep: want its note and no restore: %s" % grab("KEEP"))
print("--sysfs-keep: %s" % k[0])
PY
python3 "$WORK/judge.py" "$WORK/out"
