#!/bin/sh
# Newest kernel (sid): --sysfs read_verify=0 mid-run gives an event and a measured transition, and the end of the run puts read_verify back to 1 (a restore event); --hotload crct10dif_pclmul fails saying why and suggesting the sysfs A/B.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
# this test is about the newest kernel, whatever the other tests boot
DIXVM_KERNEL=sid
need_vm
need_dixload
need_python

# the dif1 profile preconditions the disk itself (--precondition)
script="uname -r | sed 's/^/KVER /'
dixload --dev /dev/sda --profile dif1 --runtime 18 --sysfs /sys/block/sda/integrity/read_verify=0@8 --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"RV-AFTER \$(cat /sys/block/sda/integrity/read_verify)\"
echo 1 > /sys/block/sda/integrity/read_verify
dixload --dev /dev/sda --profile dif1 --runtime 3 --hotload crct10dif_pclmul@1 --output-format json
echo \"HOTLOAD-EXIT \$?\""

boot_guest "" -- sh -c "$script"

write_judge <<'PY'
lines, _ = load(sys.argv[1])
kver = [l.split()[1] for l in lines if l.startswith("KVER ")]
# the two runs' JSON lines, split at the exit markers
i = lines.index("DIXLOAD-EXIT 0") if "DIXLOAD-EXIT 0" in lines else fail(
    "sysfs run exit: %s" % [l for l in lines if l.startswith("DIXLOAD-EXIT")])
run1 = [json.loads(l) for l in lines[:i] if l.startswith('{"type"')]
run2 = [json.loads(l) for l in lines[i:] if l.startswith('{"type"')]

ev = [e for e in run1 if e["type"] == "event" and e["kind"] == "action"]
back = [e for e in ev if e.get("restore")]
ev = [e for e in ev if not e.get("restore")]
if len(back) != 1 or not back[0]["ok"] or back[0]["from"] != "0" or back[0]["to"] != "1" or \
   "RV-AFTER 1" not in lines:
    fail("read_verify not put back at the end: %s %s" % (back, [l for l in lines if l.startswith("RV-AFTER")]))
if len(ev) != 1 or not ev[0]["ok"] or ev[0]["what"] != "sysfs /sys/block/sda/integrity/read_verify=0":
    fail("sysfs event: %s" % ev)
if ev[0].get("detail") != "was 1, now 0; write(2) returned 2" or ev[0].get("returned") != 2:
    fail("sysfs detail: %s" % ev[0].get("detail"))
summ = [r for r in run1 if r["type"] == "summary"][0]
tr = [t for t in summ["transitions"] if not t["event"].startswith("restore ")]
if len(tr) != 1 or tr[0]["event"] != ev[0]["what"]:
    fail("transition rows: %s" % tr)
tr = tr[0]
print("kernel %s, read_verify=0 at %.1f s: before %.2f MB/s (sd %.2f, n %d), after %.2f MB/s (sd %.2f, n %d), ratio %.3f, change_at %s, significant %s"
      % (kver[0] if kver else "?", ev[0]["t"], tr["before"] / 1e6, tr["before_sd"] / 1e6,
         tr["n_before"], tr["after"] / 1e6, tr["after_sd"] / 1e6, tr["n_after"],
         tr["ratio"], tr["change_at"], tr["significant"]))
if tr["n_before"] < 4 or tr["n_after"] < 4 or tr["before"] <= 0 or tr["after"] <= 0:
    fail("transition not measured")

if "HOTLOAD-EXIT 4" not in lines:
    fail("hot-load on sid: %s, want exit 4" % [l for l in lines if l.startswith("HOTLOAD-EXIT")])
a = [e for e in run2 if e["type"] == "event" and e["kind"] == "action"]
d = a[0].get("detail", "") if a else ""
if not a or a[0]["ok"] or "since Linux 6.14" not in d or \
   "--sysfs /sys/block/sda/integrity/write_generate=0@SEC" not in d or "read_verify=0@SEC" not in d:
    fail("hot-load error does not explain the kernel era: %r" % d)
print("hot-load on %s: %s" % (kver[0] if kver else "?", d))
PY
python3 "$WORK/judge.py" "$WORK/out"
