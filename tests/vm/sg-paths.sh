#!/bin/sh
# sg engine on each of its paths in one boot (scsi_debug dif=1, sg loaded by dixvm), 4 KiB I/Os: --iodepth 1 is "inline", --iodepth 4 "async" on /dev/sg0, with /dev/sg0 removed the engine recreates it (21:N from sysfs), still runs async, and leaves no node behind (one that was there before stays), 16 KiB I/Os at --iodepth 4 take "threads" without a warning, with /dev/sg0 replaced by another device's node it falls back to "threads" with one warning; on every path a clean verified randrw, 64 guard errors from a 256 KiB read under opts=0x20 every_nth=-1 (exit 3), the same number of recovered errors under every_nth=50 opts=0x8 (exit 0), and exactly two io errors for the MEDIUM ERROR at LBAs 0x1234-0x123d (two 4 KiB reads; exit 2).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature sg
need_vm
need_dixload
need_python

# scenarios PATH DEPTH: the same four runs, named PATH-*.  every_nth is
# written before each fault run: scsi_debug then rounds its command counter
# down to a multiple of it, so every path starts from the same count.
vm -- sh -c "$PI_GUEST_RUN
	P=/sys/bus/pseudo/drivers/scsi_debug
	scenarios() {
		c=\"--dev /dev/sda --engine sg --pi off --iodepth \$2 --interval 0\"
		run \$1-clean \$c --size 16m --bs 4k --rw randrw --runtime 2
		echo -1 > \$P/every_nth; echo 0x20 > \$P/opts
		run \$1-dif \$c --size 256k --bs 4k --rw read --verify off
		echo 0 > \$P/opts; echo 0 > \$P/every_nth
		echo 50 > \$P/every_nth; echo 0x8 > \$P/opts
		run \$1-recovered \$c --size 1m --bs 4k --rw read --verify off
		echo 0 > \$P/opts; echo 0 > \$P/every_nth
		echo 0x2 > \$P/opts
		run \$1-medium \$c --size 4m --bs 4k --rw read --verify off
		echo 0 > \$P/opts
	}
	sg=\$(ls /sys/block/sda/device/scsi_generic)
	echo \"sysfs \$sg \$(cat /sys/block/sda/device/scsi_generic/\$sg/dev)\"
	scenarios inline 1
	scenarios async 4
	echo \"node-kept \$(stat -c '%F %t:%T' /dev/\$sg)\"
	rm /dev/\$sg
	run mknod --dev /dev/sda --engine sg --pi off --iodepth 4 --interval 0 --size 16m --bs 4k --rw randrw --runtime 1
	echo \"node-made \$(stat -c '%F %t:%T' /dev/\$sg 2>/dev/null || echo gone)\"
	run large --dev /dev/sda --engine sg --pi off --iodepth 4 --interval 0 --size 16m --bs 16k --rw randrw --runtime 1
	rm -f /dev/\$sg; mknod /dev/\$sg c 1 3
	scenarios threads 4
	echo \"node-other \$(stat -c '%F %t:%T' /dev/\$sg)\"
	true" > "$WORK/out" 2> "$WORK/err"
pi_vm_status $?
grep -q '^sysfs sg0 21:0$' "$WORK/out" ||
	fail "sysfs does not name sg0 21:0 for sda (is sg loaded?): $(grep '^sysfs' "$WORK/out")"
# stat %t:%T is hex: 21:0 is 15:0
grep -q '^node-kept character special file 15:0$' "$WORK/out" ||
	fail "the /dev/sg0 that was there before the runs did not stay: $(grep '^node' "$WORK/out")"
grep -q '^node-made gone$' "$WORK/out" ||
	fail "the /dev/sg0 dixload made (mknod 21:0) is still there after its run: $(grep '^node' "$WORK/out")"
grep -q '^node-other character special file 1:3$' "$WORK/out" ||
	fail "another device's node at /dev/sg0 did not stay: $(grep '^node' "$WORK/out")"
grep -q '^\[threads-clean\] dixload: warning: sg: /dev/sda: no sg node (/dev/sg0 is not the character device 21:0 .*--iodepth 4 runs one thread per queue slot' "$WORK/err" ||
	fail "no thread fallback warning naming the reason: $(grep '^\[threads-clean\]' "$WORK/err" | head -n 3)"

pi_check '
paths = ("inline", "async", "threads")
for p in paths:
    for k in ("clean", "dif", "recovered", "medium"):
        n = p + "-" + k
        check(runs.get(n, {}).get("sg_path") == p,
              "%s: ran on path %r, want %r" % (n, runs.get(n, {}).get("sg_path"), p))
        check(runs.get(n, {}).get("threads_warning") == (p == "threads"),
              "%s: thread fallback warnings %s" % (n, runs.get(n, {}).get("threads_warning")))
    clean(p + "-clean")
    r, s = summary(p + "-dif")
    if s:
        check(r["status"] == 3, "%s-dif: exit %d, want 3" % (p, r["status"]))
        check(s["errors"]["guard"] == 64 and
              all(v == 0 for k, v in s["errors"].items() if k not in ("guard", "recovered")),
              "%s-dif: want 64 guard errors (every 4k read of 256 KiB): %s" % (p, s["errors"]))
    r, s = summary(p + "-recovered")
    if s:
        check(r["status"] == 0, "%s-recovered: exit %d" % (p, r["status"]))
        check(s["rec"] > 0 and all(v == 0 for k, v in s["errors"].items() if k != "recovered"),
              "%s-recovered: rec %d, errors %s" % (p, s["rec"], s["errors"]))
    r, s = summary(p + "-medium")
    if s:
        check(r["status"] == 2, "%s-medium: exit %d, want 2" % (p, r["status"]))
        check(s["errors"]["io"] == 2 and
              all(v == 0 for k, v in s["errors"].items() if k not in ("io", "recovered")),
              "%s-medium: want exactly two io errors: %s" % (p, s["errors"]))
# the same counts whatever the path
for k, f in (("dif", lambda s: s["errors"]), ("recovered", lambda s: s["rec"]),
             ("medium", lambda s: s["errors"])):
    got = {p: f(runs[p + "-" + k]["summary"]) for p in paths
           if runs.get(p + "-" + k, {}).get("summary")}
    check(len(got) == 3 and len(set(map(str, got.values()))) == 1,
          "%s: counts differ between paths: %s" % (k, got))
check(runs.get("mknod", {}).get("sg_path") == "async",
      "mknod: with /dev/sg0 removed, path %r, want async (node recreated)" % runs.get("mknod", {}).get("sg_path"))
clean("mknod")
check(runs.get("large", {}).get("sg_path") == "threads" and runs.get("large", {}).get("threads_warning") == 0,
      "large: 16k I/Os want threads without the no-node warning: %s" % {k: runs.get("large", {}).get(k) for k in ("sg_path", "threads_warning")})
clean("large")
' || fail "checks failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
exit 0
