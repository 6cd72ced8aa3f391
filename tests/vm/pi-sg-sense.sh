#!/bin/sh
# sg engine --pi off on scsi_debug (default kernel): --pi app refused (scsi_debug stores interleaved PI as data), clean load; with opts=0x20 (DIF error) switched on mid-run every command fails with sense 0x10/1, counted as guard errors ("guard check failed (ASC 10/01)") while the run goes on, exit 3; the same fault through the block layer (libaio) is EILSEQ, named "integrity check failed (EILSEQ)" and one extent over the whole region; with opts=0x8 every 50th command ends in RECOVERED ERROR, counted as Rec with zero errors, exit 0; with opts=0x2 the read over LBA 0x1234 fails with MEDIUM ERROR and so does its retry: one io error, exit 2, both failures printed with the decoded sense.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/pi-lib.sh"
need_feature sg
need_vm
need_dixload
need_python

# every_nth=-1: after the first command, every command gets the fault, so
# dixload's one retry fails too and the error is counted by its kind (a
# positive every_nth would let the retry pass: Rec, not an error).
vm -- sh -c "$PI_GUEST_RUN
	P=/sys/bus/pseudo/drivers/scsi_debug
	common='--dev /dev/sda --engine sg --pi off --size 16m --bs 16k --iodepth 4'
	run app-refused --dev /dev/sda --engine sg --pi app --size 16m --rw write --interval 0
	run write \$common --rw write --interval 0
	run randrw \$common --rw randrw --runtime 2 --interval 0
	# the write run above wrote the region: no precondition here, or its
	# writes can meet the fault window and the load never starts (on 7.2
	# the precondition wrote for 1.56 s, past the window's start at 1 s)
	( sleep 1; echo -1 > \$P/every_nth; echo 0x20 > \$P/opts
	  sleep 1; echo 0 > \$P/opts; echo 0 > \$P/every_nth ) &
	run dif-error \$common --rw randrw --runtime 4 --interval 1000 --precondition off
	wait
	echo -1 > \$P/every_nth; echo 0x20 > \$P/opts
	run kernel-dif --dev /dev/sda --engine libaio --size 1m --bs 16k --rw read --verify off --interval 0
	echo 0 > \$P/opts; echo 0 > \$P/every_nth
	echo 50 > \$P/every_nth; echo 0x8 > \$P/opts
	run recovered \$common --rw randrw --runtime 2 --interval 0
	echo 0 > \$P/opts; echo 0 > \$P/every_nth
	echo 0x2 > \$P/opts
	run medium \$common --rw read --verify off --interval 0
	echo 0 > \$P/opts
	true" > "$WORK/out" 2> "$WORK/err"
pi_vm_status $?
grep -q '^\[dif-error\] dixload: guard: LBA [0-9]*.*: \(read\|write\) failed: guard check failed (ASC 10/01) (.*SCSI status .*Logical block guard check failed (ASC 0x10 ASCQ 0x01)' "$WORK/err" ||
	fail "no guard extent with the check in words and the decoded sense: $(grep '^\[dif-error\]' "$WORK/err" | head -n 3)"
# the block layer's EILSEQ in words, one extent over the 1 MiB read
grep -qx '\[kernel-dif\] dixload: unknown: LBA 0-2047 (2048 blocks, 1 MiB): read failed: integrity check failed (EILSEQ) (the block layer does not say which tag)' "$WORK/err" ||
	fail "kernel-path PI failure not named in words as one extent: $(grep '^\[kernel-dif\]' "$WORK/err" | head -n 3)"
! grep -qi 'multibyte' "$WORK/err" ||
	fail "glibc's text for EILSEQ in a message: $(grep -i multibyte "$WORK/err" | head -n 2)"
grep -q '^\[app-refused\] .*engine sg: setup failed: .*scsi_debug does not take PI interleaved' "$WORK/err" ||
	fail "sg --pi app on scsi_debug not refused with the reason: $(grep '^\[app-refused\]' "$WORK/err")"
# opts=0x2: reads of LBAs 0x1234-0x123d fail with MEDIUM ERROR; the 16k read
# at LBA 4640 covers them, its retry fails too: both say what the disk said
medium='^\[medium\] dixload: io: LBA 4640-4671 (32 blocks, 16 KiB): read failed: Input/output error (SCSI status .*Medium Error: .*Unrecovered read error (ASC 0x11 ASCQ 0x00)'
grep -q "$medium.*); retrying\$" "$WORK/err" ||
	fail "no retry note with the sense for the medium error: $(grep '^\[medium\]' "$WORK/err" | head -n 3)"
grep -q "$medium.*)\$" "$WORK/err" ||
	fail "no error message with the sense for the medium error: $(grep '^\[medium\]' "$WORK/err" | head -n 3)"
# a RECOVERED ERROR taken for a failure would pass on the retry and also
# count as Rec: the job prints a failure with sense even when its retry
# succeeds, so any error message tells the two apart
! grep -q '^\[recovered\] dixload: [a-z]*: LBA ' "$WORK/err" ||
	fail "recovered errors were reported as failures: $(grep '^\[recovered\]' "$WORK/err" | head -n 3)"

pi_check '
check(runs.get("app-refused", {}).get("status") == 1, "sg --pi app on scsi_debug: want exit 1")
clean("write", reads=False)
clean("randrw")
r, s = summary("dif-error")
if s:
    e = s["errors"]
    check(r["status"] == 3, "dif-error: exit %d, want 3" % r["status"])
    check(e["guard"] > 0, "dif-error: no guard errors: %s" % e)
    check(all(v == 0 for k, v in e.items() if k not in ("guard", "recovered")),
          "dif-error: errors of other kinds: %s" % e)
    iv = r["intervals"]
    check(len(iv) >= 3 and iv[-1][1] - iv[-2][1] > 100,
          "dif-error: the run did not go on after the fault window: %s" % iv)
r, s = summary("kernel-dif")
if s:
    e = s["errors"]
    check(r["status"] == 3, "kernel-dif: exit %d, want 3" % r["status"])
    check(e["unknown"] == 64 and all(v == 0 for k, v in e.items() if k not in ("unknown", "recovered")),
          "kernel-dif: want 64 unknown (EILSEQ) errors: %s" % e)
    x = s["bad_extents"]
    check(len(x) == 1 and x[0]["lba"] == 0 and x[0]["count"] == 2048 and
          x[0]["cause"] == "read failed: integrity check failed (EILSEQ)",
          "kernel-dif: want one extent over the region: %s" % x)
r, s = summary("recovered")
if s:
    check(r["status"] == 0, "recovered: exit %d" % r["status"])
    check(s["rec"] > 0, "recovered: Rec is 0")
    check(all(v == 0 for k, v in s["errors"].items() if k != "recovered"),
          "recovered: errors %s" % s["errors"])
    check(s["read_ops"] > 0 and s["write_ops"] > 0, "recovered: no load")
r, s = summary("medium")
if s:
    check(r["status"] == 2, "medium: exit %d, want 2 (I/O errors)" % r["status"])
    check(s["errors"].get("io") == 1 and
          all(v == 0 for k, v in s["errors"].items() if k not in ("io", "recovered")),
          "medium: want exactly one io error: %s" % s["errors"])
' || fail "checks failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
exit 0
