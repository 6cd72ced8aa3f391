#!/bin/sh
# LIO through tcm_loop, one boot: Types 1 and 3 x 512/4096-byte sectors on rd_mcp, plus Type 1 on fileio: the kernel format sysfs shows is what dixload and its probe report (the probe names LIO and says sg --pi app has no independent checker there), and --pi kernel runs clean with every block engine (sync, libaio, io_uring); where LIO differs from scsi_debug the test says so: Type 2 is refused (ENOSYS on pi_prot_type; scsi_debug dif=2 shows as TYPE1), and sg --pi app writes fail LIO's guard check with ASC 10/01 (scsi_debug stores the tuples as data, so dixload refuses it there).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature sg
need_vm
need_dixload
need_python

configs='1,512,rd 3,512,rd 1,4096,rd 3,4096,rd 1,512,fileio'

# In the guest: for each configuration remake the LIO disk (dixvm-lio up),
# record sysfs's view and the probe's, run each block engine with the
# kernel generating and checking the PI.  Then Type 2, and sg --pi app on
# Type 1.  The failed guard checks of the sg writes are LIO's own log lines
# (sbc_dif_verify's "DIFv1 checksum failed"), the expected outcome here.
vm --scsi-debug none --lio 1 --allow-dmesg 'checksum failed|Logical block guard check failed' -- sh -c "$PI_GUEST_RUN"'
	for c in $1; do
		out=$(dixvm-lio up $(echo "$c" | tr , " ")) || { echo "UP-FAILED $c"; continue; }
		eval "$out"
		q=/sys/block/${DIXVM_LIO#/dev/}
		printf "{\"type\":\"config\",\"spec\":\"%s\",\"vendor\":\"%s\",\"model\":\"%s\",\"format\":\"%s\",\"interval\":%s,\"lbs\":%s}\n" \
			"$c" "$(cat $q/device/vendor | tr -d " ")" "$(cat $q/device/model | tr -d " ")" \
			"$(cat $q/integrity/format)" "$(cat $q/integrity/protection_interval_bytes)" \
			"$(cat $q/queue/logical_block_size)"
		dixload probe "$DIXVM_LIO" --json | sed "s/^{\"device\"/{\"type\":\"probe\",\"spec\":\"$c\",\"device\"/"
		for e in sync libaio io_uring; do
			run "$c/$e" --dev "$DIXVM_LIO" --engine $e --pi kernel --rw randrw --bs 64k \
				--size 16m --runtime 2 --verify on --interval 0
		done
	done
	dixvm-lio up 2 512 rd > /dev/null 2> /tmp/t2.err
	echo "TYPE2-STATUS $?"
	echo "TYPE2-ERR $(cat /tmp/t2.err)"
	eval "$(dixvm-lio up 1 512 rd)"
	run sg-app --dev "$DIXVM_LIO" --engine sg --pi app --rw write --bs 64k --size 1m --interval 0
	true' sh "$configs" > "$WORK/out" 2> "$WORK/err"
pi_vm_status $?
cat "$WORK/out" | grep -v '^{"type":"probe"' | grep -v '^{"type":"run"'

# LIO checks the guard of a protected WRITE through SG_IO against a
# protection list that tcm_loop never filled (SG_IO carries no integrity
# payload): every write fails with ABORTED COMMAND, ASC 10/01.
grep -q '^\[sg-app\] dixload: guard: LBA [0-9]*.*: write failed: guard check failed (ASC 10/01)' "$WORK/err" ||
	fail "sg --pi app on LIO: no guard check failure with ASC 10/01: $(grep '^\[sg-app\]' "$WORK/err" | head -n 3)"

pi_check '
import re
cfg, probe = {}, {}
type2 = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("{\"type\":\"config\""):
        o = json.loads(line); cfg[o["spec"]] = o
    elif line.startswith("{\"type\":\"probe\""):
        o = json.loads(line); probe[o["spec"]] = o
    elif line.startswith("UP-FAILED "):
        problems.append("dixvm-lio up %s failed" % line[10:])
    elif line.startswith("TYPE2-"):
        k, _, v = line.partition(" ")
        type2[k] = v
specs = ["1,512,rd", "3,512,rd", "1,4096,rd", "3,4096,rd", "1,512,fileio"]
check(sorted(cfg) == sorted(specs), "configurations seen: %s" % sorted(cfg))
for spec in specs:
    c, p = cfg.get(spec), probe.get(spec)
    if not c or not p:
        check(False, "%s: no config or probe line" % spec)
        continue
    t, lbs, store = spec.split(",")
    fmt = "T10-DIF-TYPE%s-CRC" % t
    check(c["vendor"] == "LIO-ORG", "%s: vendor %s" % (spec, c["vendor"]))
    check(c["model"] == ("RAMDISK-MCP" if store == "rd" else "FILEIO"), "%s: model %s" % (spec, c["model"]))
    check(c["format"] == fmt, "%s: sysfs format %s, want %s" % (spec, c["format"], fmt))
    check(c["interval"] == int(lbs) and c["lbs"] == int(lbs),
          "%s: interval %s, logical block %s" % (spec, c["interval"], c["lbs"]))
    s, i = p.get("scsi", {}), p.get("integrity", {})
    check(i.get("format") == fmt and i.get("protection_interval_bytes") == int(lbs),
          "%s: probe integrity %s" % (spec, i))
    check(s.get("prot_en") is True and s.get("protection_type") == int(t) and s.get("p_i_exponent") == 0
          and s.get("logical_block_size") == int(lbs) and s.get("vendor") == "LIO-ORG",
          "%s: probe scsi %s" % (spec, {k: s.get(k) for k in ("vendor", "prot_en", "protection_type", "p_i_exponent", "logical_block_size")}))
    d = p.get("diagnosis", [])
    check(any(l.startswith("LIO target disk (INQUIRY LIO-ORG %s)" % c["model"]) and
              "sg --pi app has no independent checker here" in l for l in d),
          "%s: probe diagnosis does not name LIO and its sg limit: %s" % (spec, d))
    for e in ("sync", "libaio", "io_uring"):
        n = spec + "/" + e
        clean(n)
        r = runs.get(n)
        if r and r["summary"]:
            print("# %-22s %s R %d W %d ops" % (n, c["format"], r["summary"]["read_ops"], r["summary"]["write_ops"]))
# LIO has no Type 2 (scsi_debug dif=2 is shown by the kernel as TYPE1)
check(type2.get("TYPE2-STATUS") == "1", "Type 2: dixvm-lio status %s, want 1" % type2.get("TYPE2-STATUS"))
check("Function not implemented" in type2.get("TYPE2-ERR", "") and
      "DIF TYPE2 protection currently not supported" in type2.get("TYPE2-ERR", ""),
      "Type 2 refusal not in words: %r" % type2.get("TYPE2-ERR"))
print("# Type 2: %s" % type2.get("TYPE2-ERR"))
r, s = summary("sg-app")
if s:
    check(r["status"] != 0 and s["errors"]["guard"] > 0 and s["write_ops"] == 0,
          "sg --pi app on LIO: exit %d, errors %s, writes %d (want guard failures, none written)"
          % (r["status"], s["errors"], s["write_ops"]))
' || fail "checks failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
exit 0
