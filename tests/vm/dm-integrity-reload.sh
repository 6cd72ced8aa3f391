#!/bin/sh
# dm-integrity crc32c (bitmap mode) on 6.1 (issue 23, test b): crc32c_intel hot-loaded at 6 s changes the kernel's selection and not the mapping (no significant change, a note that the mapping keeps its TFMs), --dm-reload at 12 s moves it to crc32c-intel (inferred); the figures of both steps are reported; on a release doc/figures names (6.1.0-50, 6.12.95+deb12) the reload's before, after and ratio are held within the band of the figure doc/dm.md and doc/kernels.md quote (elsewhere the kernel moved and the reload is only reported: the hash's share of the path may be too small to show).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs
vm_era '<= 6.13' "no crc32c_intel module to hot-load since 6.14: the accelerated CRC32C is built into the kernel's CRC library (dm-crypt-priority-sid.sh checks what dixload says there)"

script="$(guest_need_module crc32c_intel)
dixload --dev \"\$DIXVM_DM\" --profile dm-integrity-crc32c --runtime 20 \
	--hotload crc32c_intel@6 --dm-reload \"\$DIXVM_DM\"@12 --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

boot_guest "" --dm integrity:crc32c:bitmap --scsi-debug "dev_size_mb=32 delay=0" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
summ = runs_ok(lines, recs, 1)
dm = dm_start(recs)
t = dm["mappings"][0]["table"][0]
if t["target"] != "integrity" or t["mode"] != "bitmap" or t["tag_size"] != 4:
    fail("the table is not named as made: %s" % t)
d = [x for x in dm["drivers"] if x["algorithm"] == "crc32c"]
if len(d) != 1 or d[0]["use"] != "internal_hash" or d[0]["held"] != "crc32c-generic":
    fail("want crc32c held (inferred) on crc32c-generic at start: %s" % d)
events = [r for r in recs if r["type"] == "event"]
if not any(e["kind"] == "note" and e["what"].startswith("dm dixdm: crc32c:") for e in events):
    fail("no note that the mapping keeps its TFMs: %s" % [e["what"] for e in events])
rl = [e for e in events if e["what"].startswith("dm-reload ")]
if len(rl) != 1 or not rl[0]["ok"]:
    fail("want one successful dm-reload: %s" % rl)
dr = rl[0].get("drivers", [])
if [(x["algorithm"], x["before"], x["after"]) for x in dr] != [("crc32c", "crc32c-generic", "crc32c-intel")]:
    fail("the reload event's drivers: %s" % dr)
print("reload: %s" % rl[0]["detail"])
tr = summ[0]["transitions"]
hl = [x for x in tr if x["event"] == "modprobe crc32c_intel"]
rr = [x for x in tr if x["event"].startswith("dm-reload ")]
if len(hl) != 1 or len(rr) != 1:
    fail("want a transition row for the hot-load and one for the reload: %s" % [x["event"] for x in tr])
show_tr("hot-load", hl[0])
show_tr("reload", rr[0])
if hl[0]["significant"] and abs(hl[0]["ratio"] - 1) > 0.15:
    measure_fail(hl[0], "the hot-load alone moved the mapping's rate")
# doc/dm.md's figure of the reload (doc/figures dm-integrity-reload, on this
# release; elsewhere the kernel moved and the reload is only reported)
hold_figure("dm-integrity-reload", rr[0], lines)
PY
python3 "$WORK/judge.py" "$WORK/out"
