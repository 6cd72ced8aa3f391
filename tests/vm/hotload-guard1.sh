#!/bin/sh
# Guard=1 (IP checksum): hot-loading crct10dif_pclmul changes nothing measurable and the analysis reports no significant change instead of inventing a transition.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'
vm_alone
need_dixload
need_python

# the dix-ip profile preconditions the disk itself (--precondition)
script="$(guest_need_module crct10dif_pclmul)
dixload --dev /dev/sda --profile dix-ip --runtime 20 --hotload crct10dif_pclmul@8 --output-format json
echo \"DIXLOAD-EXIT \$?\""

attempt()
{
	boot_guest "CRC-T10DIF built in since 6.14" --scsi-debug 'dif=1 dix=1 guard=1 dev_size_mb=256 delay=0' -- sh -c "$script"
	python3 "$WORK/judge.py" "$WORK/out"
}

write_judge <<'EOF'
lines, recs = load(sys.argv[1])
if "DIXLOAD-EXIT 0" not in lines:
    fail("dixload exit: %s" % [l for l in lines if l.startswith("DIXLOAD-EXIT")])
start = [r for r in recs if r["type"] == "start"][0]
if start["integrity"].get("format") != "T10-DIF-TYPE1-IP":
    fail("device format %s, not T10-DIF-TYPE1-IP" % start["integrity"])
show_intervals(recs)
events = [r for r in recs if r["type"] == "event"]
act = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe crct10dif_pclmul"]
if len(act) != 1 or not act[0]["ok"]:
    fail("hot-load event missing or failed: %s" % act)
# the kernel did switch its CRC: the watch must still say so
if not any(e["kind"] == "change" and e["what"].startswith("crc_t10dif transform:") for e in events):
    fail("no transform change event")
summ = [r for r in recs if r["type"] == "summary"][0]
tr = summ["transitions"]
if len(tr) != 1:
    fail("want one transition row (the transform change folded into the load), got %s" % tr)
tr = tr[0]
show_tr("guard=1", tr)
if tr["n_before"] < 4 or tr["n_after"] < 4:
    fail("too few steady intervals measured")
if tr["significant"] or tr["change_at"] is not None:
    measure_fail(tr, "a transition was reported where the CRC is not used")
EOF
with_attempts attempt
