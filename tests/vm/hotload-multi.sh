#!/bin/sh
# crct10dif_pclmul hot-loaded at 10 s of a dif1 load on two scsi_debug disks at once: the profile's format holds for each, each preconditions, one action event, and a transition row for the load in the total and in each disk's own throughput, each faster after.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'
vm_alone
need_dixload
need_python

# two hosts with a store each (per_host_store): two disks whose data is
# their own, so two loads at once never see each other's blocks
script="$(guest_need_module crct10dif_pclmul)
dixload --dev /dev/sda,/dev/sdb --profile dif1 --size 48m --runtime 20 --hotload crct10dif_pclmul@10 --output-format json
echo \"DIXLOAD-EXIT \$?\""

attempt()
{
	boot_guest "CRC-T10DIF built in since 6.14" \
		--scsi-debug 'dif=1 dix=1 guard=0 dev_size_mb=48 delay=0 add_host=2 per_host_store=1' \
		-- sh -c "$script"
	python3 "$WORK/judge.py" "$WORK/out"
}

write_judge <<'EOF'
lines, recs = load(sys.argv[1])
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
if ex != ["DIXLOAD-EXIT 0"]:
    fail("dixload exit: %s" % ex)
start = recs[0]
devs = [d["dev"] for d in start.get("devices", [])]
if devs != ["/dev/sda", "/dev/sdb"]:
    fail("devices in the start record: %s" % devs)
for d in start["devices"]:
    if d["integrity"]["format"] != "T10-DIF-TYPE1-CRC" or d["precondition"]["decided"] != "on":
        fail("%s: %s, %s" % (d["dev"], d["integrity"]["format"], d["precondition"]))
pre = [r for r in recs if r["type"] == "precondition"]
if sorted(p["dev"] for p in pre) != devs or not all(p["complete"] for p in pre):
    fail("preconditioning: %s" % pre)
events = [r for r in recs if r["type"] == "event"]
act = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe crct10dif_pclmul"]
if len(act) != 1 or not act[0]["ok"]:
    fail("one hot-load event wanted: %s" % act)
summ = [r for r in recs if r["type"] == "summary"][0]
if summ["err"]:
    fail("errors: %s" % summ["errors"])
rows = [("total", summ["transitions"])] + [(d["dev"], d["transitions"]) for d in summ["devices"]]
for name, tr in rows:
    if len(tr) != 1 or tr[0]["event"] != "modprobe crct10dif_pclmul":
        fail("%s: want one transition row for the module load, got %s" % (name, tr))
    t = tr[0]
    if not t["n_before"] or not t["n_after"]:
        fail("%s: before/after not measured: %s" % (name, t))
    print("%s: %.1f -> %.1f MB/s, ratio %.2f, significant %s, steady %s"
          % (name, t["before"] / 1e6, t["after"] / 1e6, t["ratio"], t["significant"], t["steady"]))
for name, tr in rows:
    if tr[0]["ratio"] <= 1.0:
        measure_fail(tr[0], "%s: not faster after the load (ratio %.3f)" % (name, tr[0]["ratio"]))
EOF
with_attempts attempt
