#!/bin/sh
# Seed scenario on the second DIX target: the README's seed command (dif1, crct10dif_pclmul hot-loaded at 10 s) against an LIO rd_mcp disk through tcm_loop (dixvm --lio 1), where LIO's sbc_dif_verify checks what the block layer generated (the CRC twice per I/O, as on scsi_debug): the disk is LIO's, preconditioned whole, the transform moves, and the step is significant (ratio >= 1.3, change within 2 s); on a release doc/figures names (6.1.0-50) before, after and ratio within the band of the figure doc/vm.md quotes (elsewhere: the kernel moved, only the step's own bound holds).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'
vm_alone
need_dixload
need_python

# No scsi_debug: the LIO disk is /dev/sda, with scsi_debug's 256 MiB, so
# the two targets' figures compare.  Nothing written before dixload (its
# profile preconditions the disk).
script="$(guest_need_module crct10dif_pclmul)
d=\${DIXVM_LIO#/dev/}
echo \"LIO-DISK \$DIXVM_LIO \$(cat /sys/block/\$d/device/vendor) \$(cat /sys/block/\$d/device/model)\"
dixload --dev \"\$DIXVM_LIO\" --profile dif1 --runtime 24 --hotload crct10dif_pclmul@10 --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

attempt()
{
	boot_guest "CRC-T10DIF built in since 6.14" --scsi-debug none --lio 1 -- sh -c "$script"
	python3 "$WORK/judge.py" "$WORK/out"
}

write_judge <<'EOF'
lines, recs = load(sys.argv[1])
disk = [l.split() for l in lines if l.startswith("LIO-DISK ")]
if len(disk) != 1 or disk[0][2:4] != ["LIO-ORG", "RAMDISK-MCP"]:
    fail("not the LIO rd_mcp disk: %s" % disk)
print("disk: %s" % " ".join(disk[0][1:]))
summ = runs_ok(lines, recs, 1)[0]
start = [r for r in recs if r["type"] == "start"][0]
if start.get("integrity", {}).get("format") != "T10-DIF-TYPE1-CRC":
    fail("integrity format %s, want T10-DIF-TYPE1-CRC" % start.get("integrity"))
pre = [r for r in recs if r["type"] == "precondition"]
if len(pre) != 1 or not pre[0]["complete"] or pre[0]["bytes"] != 256 << 20 or pre[0]["errors"]:
    fail("precondition of the whole 256 MiB: %s" % pre)
print("precondition: 256 MiB in %.2f s, %.1f MB/s" % (pre[0]["seconds"], pre[0]["mb_per_s"]))
if summ["unwritten_blocks"] != 0 or any(v != 0 for v in summ["errors"].values()):
    fail("unwritten %d, errors %s" % (summ["unwritten_blocks"], summ["errors"]))
show_intervals(recs)
events = [r for r in recs if r["type"] == "event"]
act = [e for e in events if e["kind"] == "action" and e["what"] == "modprobe crct10dif_pclmul"]
if len(act) != 1 or not act[0]["ok"] or abs(act[0]["t"] - 10) > 0.5:
    fail("hot-load at 10 s: %s" % act)
tf = [e for e in events if e["kind"] == "change" and
      e["what"] == "crc_t10dif transform: crct10dif-generic -> crct10dif-pclmul"]
if len(tf) != 1 or tf[0]["t"] - act[0]["t"] > 2:
    fail("transform change within 2 s of the load: %s" % [e["what"] for e in events])
print("events: %s" % "; ".join("%.1f s %s" % (e["t"], e["what"]) for e in events))
tr = summ["transitions"]
if len(tr) != 1 or tr[0]["event"] != "modprobe crct10dif_pclmul":
    fail("want one transition row for the module load, got %s" % tr)
tr = tr[0]
show_tr("seed on LIO", tr)
seed_verdict(tr)
# doc/vm.md's figure (doc/figures lio-seed, on this release)
hold_figure("lio-seed", tr, lines)
EOF
with_attempts attempt
