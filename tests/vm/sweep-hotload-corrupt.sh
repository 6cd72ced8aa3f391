#!/bin/sh
# dixload sweep with a hot-load and an injected corruption exits 3: the first point loads crct10dif_pclmul and meets DIF errors scsi_debug injects (3), the second finds the module already loaded (4) on a clean disk; the sweep's status is the one that wins by the documented precedence (3), not the largest number (4).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'
need_dixload
need_python

# scsi_debug fails every 50th command with a DIF error while opts has 0x20
# (kernel-facts: EILSEQ in user space, an integrity error); the first
# point's --exec switches it on at 0.5 s, every point's second --exec off
# at 1.5 s, so the second point runs on a clean disk
P=/sys/bus/pseudo/drivers/scsi_debug
script="$(guest_need_module crct10dif_pclmul)
dixload sweep --json exec='echo 50 > $P/every_nth; echo 0x20 > $P/opts@0.5','true@0.5' -- \
	--dev /dev/sda --size 16m --rw randrw --bs 4k --runtime 3 --interval 1000 --max-report 3 \
	--hotload crct10dif_pclmul@1 --exec 'echo 0 > $P/opts; echo 0 > $P/every_nth@1.5'
echo \"SWEEP-EXIT \$?\""

boot_guest "CRC-T10DIF built in since 6.14" --allow-dmesg '(guard|ref) tag error' -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
pts = [r for r in recs if r["type"] == "sweep_point"]
for p in pts:
    print("point %s: exit %d" % (p["point"], p["exit"]))
if [p["point"]["exec"].split()[0] for p in pts] != ["echo", "true@0.5"]:
    fail("want the two points in order: %s" % pts)
if [p["exit"] for p in pts] != [3, 4]:
    fail("point statuses %s, want [3, 4] (3: the injected DIF errors; 4: the module already loaded)" % [p["exit"] for p in pts])
ex = [l for l in lines if l.startswith("SWEEP-EXIT ")]
if ex != ["SWEEP-EXIT 3"]:
    fail("sweep exit: %s, want 3 (integrity errors win over a failed action)" % ex)
print("sweep with a hot-load and an injected corruption: exit 3")
PY
python3 "$WORK/judge.py" "$WORK/out"
