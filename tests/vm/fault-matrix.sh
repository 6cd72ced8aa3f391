#!/bin/sh
# scsi_debug fault matrix, one boot: for every fault kind the module injects through every_nth/opts, dixload's count by kind equals the injections computed from its own command count ("submitted"), the run goes on, Rec vs Err and the exit status are right; kinds the kernel absorbs (retry/requeue) reach user space as nothing, and the kernel's own counters show they happened; where a later kernel handles a kind differently (abort: 6.12 on; short read through the block layer: after 6.12), that era's behaviour is asserted.  One table in the log.
. "$top_srcdir/tests/vm/lib.sh"
need_feature sg
need_vm
need_dixload
need_python

# What 6.1's scsi_debug (version 0191, 20210520) does, read from its source
# and measured here:
# - every_nth=N counts every command the LLD is handed (statistics=1, which
#   writing every_nth switches on); writing every_nth rounds the count down
#   to a multiple of N, so the Nth, 2Nth ... command from then on arms an
#   injection.  An armed injection is "pending" (one global flag) until a
#   command of the kind the option applies to takes it: recovered, DIF and
#   DIX errors on READ/WRITE, short transfer on READ only, transport error
#   and command abort on any command but only on the deferred path (delay
#   or ndelay non-zero; dixvm loads delay=0), timeout on any command.  A
#   flag no command takes stays set and hits the next test: each case ends
#   with a drain (opts=0x8, one read) that reports it.
# - Kinds with nothing to inject on this setup, so not in the matrix:
#   0x400/0x800 TASK SET FULL (only when the queue is full: never at QD1),
#   0x20000 unaligned write (newer than 6.1: measured, the flag stays
#   pending), 0x1/0x200/0x2000/0x4000 log noise, 0x1000 clears WCE.
# - /sys/class/scsi_device/*/device/iorequest_cnt counts commands the
#   midlayer dispatched (a HOST BUSY requeue is taken back out);
#   ioerr_cnt and iotmo_cnt count failed and timed-out ones.
# The cases use bs 16k at QD1 (256 commands over 4 MiB) so that one dixload
# I/O is one SCSI command (no merges), except one randrw --runtime case at
# QD4 where the count must hold as well.
# Later kernels, measured on 6.12.95 and 7.2.13 (the rest of the matrix is
# the same there):
# - abort (6.12 on): blk_abort_request() times the command out at once and
#   error handling aborts it: SG_IO returns the failure (dixload's retry
#   passes: Rec), the block layer retries it (one more command each).
# - short read through the block layer (7.2; 6.12 still as 6.1, the
#   kernels between were not measured: from 6.13 on the test takes 7.2's
#   behaviour): sd re-issues the rest and the kernel's PI check fails,
#   "sda: ref tag error at location L (rcvd L+16)", EILSEQ to user space.
#   The kernel logs a PI error for it, so the boot allows those lines and
#   the test counts them per case instead: only there, one per injection.
vm --allow-dmesg '(guard|ref) tag error' -- sh -c '
	P=/sys/bus/pseudo/drivers/scsi_debug
	D=/sys/block/sda/device
	# sd retries a timed-out block command after the timeout: 1 s keeps
	# each injected timeout short (the default is 30 s)
	echo 1 > $D/timeout
	up() { cut -d" " -f1 /proc/uptime; }
	# drain: take a pending injection, if any, with one read; prints rec
	drain() {
		echo 0 > $P/every_nth; echo 0x8 > $P/opts
		dixload --dev /dev/sda --engine sg --pi off --rw read --size 16k \
			--bs 16k --verify off --interval 0 --output-format json |
			sed -n "s/.*\"rec\":\([0-9]*\).*/\1/p"
		echo 0 > $P/opts
	}
	# fc NAME KIND N OPTS NDELAY DELAY ENGINE DIXLOAD-ARGS...
	fc() {
		n=$1 k=$2 N=$3 o=$4 nd=$5 dl=$6 e=$7; shift 7
		echo 0 > $P/opts; echo $N > $P/every_nth
		echo $dl > $P/delay; echo $nd > $P/ndelay; echo $o > $P/opts
		r0=$(cat $D/iorequest_cnt); t0=$(cat $D/iotmo_cnt); x0=$(cat $D/ioerr_cnt)
		a0=$(dmesg | grep -c "abort request")
		p0=$(dmesg | grep -cE "(guard|ref) tag error")
		u0=$(up)
		dixload --dev /dev/sda --engine $e --bs 16k --interval 1000 \
			--output-format json "$@" > /tmp/o 2> /tmp/e
		st=$?
		u1=$(up)
		echo 0 > $P/opts; echo 0 > $P/every_nth; echo 0 > $P/ndelay; echo 0 > $P/delay
		r1=$(cat $D/iorequest_cnt); t1=$(cat $D/iotmo_cnt); x1=$(cat $D/ioerr_cnt)
		a1=$(dmesg | grep -c "abort request")
		p1=$(dmesg | grep -cE "(guard|ref) tag error")
		left=$(drain)
		s=$(grep "\"type\":\"summary\"" /tmp/o)
		printf "{\"type\":\"case\",\"name\":\"%s\",\"kind\":\"%s\",\"engine\":\"%s\",\"n\":%d,\"opts\":\"%s\",\"status\":%d,\"wall\":%s,\"cmds\":%d,\"tmo\":%d,\"ioerr\":%d,\"aborts\":%d,\"pierr\":%d,\"left_pending\":%s,\"intervals\":%d,\"summary\":%s}\n" \
			"$n" "$k" "$e" "$N" "$o" $st "$(awk -v a=$u0 -v b=$u1 "BEGIN{print b-a}")" \
			$((r1 - r0)) $((t1 - t0)) $((x1 - x0)) $((a1 - a0)) $((p1 - p0)) "${left:-null}" \
			"$(grep -c "\"type\":\"interval\"" /tmp/o)" "${s:-null}"
		sed "s/^/[$n] /" /tmp/e >&2
	}
	echo "initial pending: $(drain)" >&2
	A="--pi off --offset 0 --size 4m --iodepth 1"
	B="--offset 8m --size 4m --iodepth 1"
	# baselines: commands outside the load (probe) per engine, and the
	# regions written (B through the block layer, so its reads verify)
	fc base-sg none 0 0 0 0 sg $A --rw write
	fc base-aio none 0 0 0 0 libaio $B --rw write
	fc base-uring none 0 0 0 0 io_uring $B --rw write
	fc base-sg-mixed none 0 0 0 0 sg --pi off --offset 0 --size 4m --iodepth 4 --rw randrw --runtime 1 --verify off
	fc rec-r-sg recovered 50 0x8 0 0 sg $A --rw read --verify off
	fc rec-w-sg recovered 50 0x8 0 0 sg $A --rw write
	fc rec-r-aio recovered 50 0x8 0 0 libaio $B --rw read
	fc rec-w-uring recovered 50 0x8 0 0 io_uring $B --rw write
	fc dif-r-sg dif 50 0x20 0 0 sg $A --rw read --verify off
	fc dif-w-sg dif 50 0x20 0 0 sg $A --rw write
	fc dif-r-aio dif 50 0x20 0 0 libaio $B --rw read
	fc dif-w-aio dif 50 0x20 0 0 libaio $B --rw write
	fc dif-r-sync dif 50 0x20 0 0 sync $B --rw read
	fc dif-randrw-sg dif 97 0x20 0 0 sg --pi off --offset 0 --size 4m --iodepth 4 --rw randrw --runtime 3 --verify off
	fc dix-r-sg dix 50 0x40 0 0 sg $A --rw read --verify off
	fc dix-w-sg dix 50 0x40 0 0 sg $A --rw write
	fc dix-r-aio dix 50 0x40 0 0 libaio $B --rw read
	fc dix-w-uring dix 50 0x40 0 0 io_uring $B --rw write
	fc short-r-sg short 50 0x100 0 0 sg $A --rw read --verify off
	fc short-r-aio short 50 0x100 0 0 libaio $B --rw read
	fc transport-r-sg transport 50 0x10 100000 0 sg $A --rw read --verify off
	fc transport-w-sg transport 50 0x10 100000 0 sg $A --rw write
	fc transport-r-aio transport 50 0x10 100000 0 libaio $B --rw read
	fc busy-r-sg busy 50 0x8000 100000 0 sg $A --rw read --verify off
	fc busy-r-aio busy 50 0x8000 100000 0 libaio $B --rw read
	fc abort-r-sg abort 100 0x10000 0 -1 sg $A --rw read --verify off
	fc abort-r-aio abort 100 0x10000 0 -1 libaio $B --rw read
	fc timeout-r-aio timeout 100 0x4 0 0 libaio $B --rw read
	fc mactimeout-w-aio timeout 100 0x80 0 0 libaio $B --rw write
	# scsi_debug fails reads over LBA 0x1234-0x123d (medium_error_start,
	# medium_error_count); 2m-2.5m holds them, written through the
	# block layer first so the kernel path reads verify
	fc base-aio-m none 0 0 0 0 libaio --offset 2m --size 512k --iodepth 1 --rw write
	fc medium-r-aio medium 0 0x2 0 0 libaio --offset 2m --size 512k --iodepth 1 --rw read
	fc medium-r-sg medium 0 0x2 0 0 sg $A --rw read --verify off
	# one injection, which costs the command timeout: --timeout 3 instead
	# of the engine default of 60 s (the wall time shows which was used)
	fc timeout-r-sg timeout 200 0x4 0 0 sg $A --rw read --verify off --timeout 3
	echo "{\"type\":\"pi_lines\",\"n\":$(dmesg | grep -cE "(guard|ref) tag error")}"
	true' > "$WORK/out" 2> "$WORK/err"
st=$?
case $st in
0) ;;
123) fail "kernel log shows BUG/WARNING/Oops/PI errors: $(grep 'dixvm:' "$WORK/err" | tail -n 5)" ;;
124) fail "timeout: $(tail -c 800 "$WORK/err")" ;;
*) fail "dixvm status $st: $(tail -c 1500 "$WORK/err")" ;;
esac

KVER=$(vm_kver) python3 - "$WORK/out" <<'PY' || fail "fault matrix check failed (guest stderr: $(grep -v '^\[' "$WORK/err" | tail -c 1200))"
import json, os, sys

cases = {}
order = []
pi_lines = None
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if line.startswith('{"type":"case"'):
        o = json.loads(line)
        cases[o["name"]] = o
        order.append(o["name"])
    elif line.startswith('{"type":"pi_lines"'):
        pi_lines = json.loads(line)["n"]
bad = []
# the era (see the comment at the top): "6.12.95+deb12-amd64" -> (6, 12)
kver = tuple(int(x) for x in os.environ["KVER"].split("-")[0].split("+")[0].split(".")[:2])
abort_eh = kver >= (6, 12)
short_fails = kver >= (6, 13)
print("kernel %s: abort through error handling: %s; short block-layer read fails its PI check: %s"
      % (os.environ["KVER"], abort_eh, short_fails))

def check(cond, msg):
    if not cond:
        bad.append(msg)

def s(c):
    return c["summary"] or {}

# commands outside the load (probe, setup) per engine, from the baselines:
# passthrough gets no kernel retries, so cmds - submitted is that overhead
# (measured: sg 1 for read or write, 10 for randrw; libaio and sync 0;
# io_uring 1 since the perf merge: one command dixload does not submit)
extra = {}
for name, eng in (("base-sg", "sg"), ("base-aio", "libaio"), ("base-uring", "io_uring"),
                  ("base-sg-mixed", "sg-mixed")):
    c = cases.get(name)
    if not c or not c["summary"]:
        sys.exit("%s: no summary" % name)
    extra[eng] = c["cmds"] - s(c)["submitted"]
    check(c["status"] == 0 and s(c)["err"] == 0, "%s: not clean: exit %d" % (name, c["status"]))
extra["sync"] = extra["libaio"]
print("commands outside the load: %s" % extra)

rows = []

def row(c, injected, counted, reaches, want_exit, kernel=None):
    """counted: what dixload counted of the kind; kernel: for kinds the
    kernel absorbs, what its own counters show (then counted must be 0)"""
    rows.append((c["name"], c["kind"], c["engine"], c["n"], c["cmds"],
                 s(c).get("submitted", -1), injected, counted,
                 "-" if kernel is None else str(kernel), reaches,
                 "%d/%d" % (c["status"], want_exit), "%.1f" % c["wall"]))
    if kernel is None:
        check(counted == injected, "%s: dixload counted %s, injected %s" % (c["name"], counted, injected))
    else:
        check(counted == 0, "%s: dixload counted %s of a kind the kernel absorbs" % (c["name"], counted))
        if kernel != "?":
            check(kernel == injected, "%s: the kernel shows %s, injected %s" % (c["name"], kernel, injected))
    check(c["status"] == want_exit, "%s: exit %d, want %d" % (c["name"], c["status"], want_exit))

def errs(c, but=()):
    return {k: v for k, v in s(c).get("errors", {}).items()
            if v and k not in but and k != "recovered"}

for name in order:
    c = cases[name]
    if c["summary"] is None:
        bad.append("%s: no summary (exit %d)" % (name, c["status"]))
        continue
    k, e, N, S = c["kind"], c["engine"], c["n"], s(c)["submitted"]
    sg = e == "sg"
    if s(c)["settings"].get("rw") in ("rw", "randrw"):
        e = e + "-mixed"
    # every case: the load ran over the whole region or runtime
    check(s(c)["ops"] > 0, "%s: no load" % name)
    # kernel PI error lines: only the short read of 7.2's era logs them
    pi_want = c["cmds"] // N if (k == "short" and not sg and short_fails) else 0
    check(c["pierr"] == pi_want, "%s: %d kernel PI error lines, want %d" % (name, c["pierr"], pi_want))
    # a faked timeout drops the command before anything takes the pending
    # flag its injection set: the drain finds it (measured, every time)
    check(c["left_pending"] == (1 if k == "timeout" else 0),
          "%s: drained %s pending injections afterwards" % (name, c["left_pending"]))
    if k == "none":
        continue
    # the injections dixload's own commands armed: the count is aligned
    # to N at the every_nth write, the probe's commands come first
    own = (S + extra[e]) // N if N else 0
    if k == "recovered":
        if sg:
            # RECOVERED ERROR sense through passthrough: Rec, never Err
            row(c, own, s(c)["rec"], "Rec", 0)
            check(not errs(c), "%s: errors %s" % (name, errs(c)))
            check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d" % (name, c["cmds"], S))
        else:
            # sd takes RECOVERED ERROR as success: nothing reaches user
            # space; the midlayer's ioerr_cnt shows each one
            row(c, c["cmds"] // N, s(c)["rec"] + s(c)["err"], "nothing (ioerr_cnt)", 0, c["ioerr"])
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it: rec %d %s" % (name, s(c)["rec"], errs(c)))
            check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d" % (name, c["cmds"], S))
    elif k in ("dif", "dix"):
        want = "guard" if sg else "unknown"
        got = s(c)["errors"][want]
        row(c, own, got, want + " Err", 3)
        check(not errs(c, (want,)), "%s: other errors %s" % (name, errs(c, (want,))))
        check(s(c)["rec"] == 0, "%s: rec %d" % (name, s(c)["rec"]))
        check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d + %d setup: a retry?" % (name, c["cmds"], S, extra[e]))
        if "randrw" in name:
            check(c["intervals"] >= 3, "%s: %d intervals: the run did not go on" % (name, c["intervals"]))
            check(c["wall"] < 3 + 10, "%s: %.1f s for --runtime 3" % (name, c["wall"]))
    elif k == "short":
        if sg:
            # half the data and a residual: an I/O error, retried, Rec
            row(c, own, s(c)["rec"], "Rec (retried)", 0)
            check(not errs(c), "%s: errors %s" % (name, errs(c)))
        elif short_fails:
            # sd re-issues the rest and the kernel's ref tag check of
            # the I/O fails: EILSEQ, unknown, one per injection
            inj = c["cmds"] // N
            row(c, inj, s(c)["errors"]["unknown"], "unknown Err (kernel ref check)", 3)
            check(c["cmds"] - S == inj, "%s: %d commands for %d: want one re-issue per injection" % (name, c["cmds"], S))
            check(s(c)["rec"] == 0 and not errs(c, ("unknown",)), "%s: other errors: rec %d %s" % (name, s(c)["rec"], errs(c, ("unknown",))))
        else:
            # sd completes the rest with another command: invisible
            inj = c["cmds"] // N
            row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (sd re-issues the rest)", 0, c["cmds"] - S)
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it" % name)
    elif k == "transport":
        if sg:
            # ABORTED COMMAND 4b/03 through passthrough: EIO, retried, Rec
            row(c, own, s(c)["rec"], "Rec (retried)", 0)
            check(not errs(c), "%s: errors %s" % (name, errs(c)))
        else:
            # the midlayer retries ABORTED COMMAND: one more command each
            inj = c["cmds"] // N
            row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (midlayer retry)", 0, c["cmds"] - S)
            check(c["ioerr"] == inj, "%s: ioerr_cnt %d, want %d" % (name, c["ioerr"], inj))
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it" % name)
    elif k == "busy":
        # SCSI_MLQUEUE_HOST_BUSY: requeued by the block layer (the count
        # is taken back out of iorequest_cnt), no status anywhere
        # scsi_debug counts each requeued dispatch again: I = (S + D + I) // N
        inj = 0
        while (S + extra[e] + inj) // N != inj:
            inj = (S + extra[e] + inj) // N
        row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (requeue; flag taken)", 0, "?")
        check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d" % (name, c["cmds"], S))
    elif k == "abort":
        # scsi_debug logs "abort request" and calls blk_abort_request();
        # measured on 6.1: the command still completes normally (no retry:
        # cmds == submitted + setup), nothing reaches user space
        # 6.12 on: timed out at once (iotmo_cnt), aborted by error
        # handling; the block layer retries it, SG_IO fails it
        inj = c["cmds"] // N
        if not abort_eh:
            row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (abort logged, completes)", 0, c["aborts"])
            check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d" % (name, c["cmds"], S))
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it" % name)
        elif sg:
            # dixload's retry is its own command: cmds == submitted + setup
            row(c, inj, s(c)["rec"], "Rec (EH abort, retried)", 0)
            check(c["aborts"] == inj and c["tmo"] == inj,
                  "%s: %d abort messages, %d timeouts, want %d" % (name, c["aborts"], c["tmo"], inj))
            check(c["cmds"] == S + extra[e], "%s: %d commands, dixload sent %d" % (name, c["cmds"], S))
            check(not errs(c), "%s: errors %s" % (name, errs(c)))
        else:
            row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (EH abort, midlayer retry)", 0, c["aborts"])
            check(c["tmo"] == inj, "%s: %d timeouts, want %d" % (name, c["tmo"], inj))
            check(c["cmds"] == S + inj, "%s: %d commands, want %d + %d retries" % (name, c["cmds"], S, inj))
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it" % name)
    elif k == "timeout":
        if sg:
            # SG_IO has no retries: DID_TIME_OUT after --timeout 3,
            # ETIMEDOUT, dixload's retry succeeds: Rec
            row(c, own, s(c)["rec"], "Rec (after --timeout 3 s)", 0)
            check(own >= 1, "%s: no injection armed" % name)
            check(not errs(c), "%s: errors %s" % (name, errs(c)))
            check(s(c)["settings"].get("timeout") == 3, "%s: settings %s" % (name, s(c)["settings"]))
            check(own * 3 <= c["wall"] < own * 3 + 15,
                  "%s: %.1f s for %d command timeouts of 3 s (the default would be 60 s each)" % (name, c["wall"], own))
        else:
            # sd times out after 1 s, EH aborts, the midlayer retries
            inj = c["cmds"] // N
            row(c, inj, s(c)["rec"] + s(c)["err"], "nothing (EH + retry, 1 s each)", 0, c["tmo"])
            check(c["cmds"] == S + inj, "%s: %d commands, want %d + %d retries" % (name, c["cmds"], S, inj))
            check(s(c)["rec"] == 0 and not errs(c), "%s: user space saw it" % name)
            check(c["wall"] < inj * 3 + 10, "%s: %.1f s for %d timeouts of 1 s" % (name, c["wall"], inj))
    elif k == "medium":
        # every read over LBA 0x1234-0x123d fails, dixload's retry too: one
        # I/O error per I/O that overlaps (bs 16k: 32 blocks)
        st = s(c)["settings"]
        lo = st.get("offset", 0) // 512
        hi = lo + st.get("size", 0) // 512
        ios = sum(1 for b in range(lo, hi, 32) if b <= 0x123d and b + 32 > 0x1234)
        row(c, ios, s(c)["errors"]["io"], "io Err (retry failed)", 2)
        check(S == s(c)["ops"] + 2 * ios, "%s: submitted %d, ops %d: want one retry per failed I/O" % (name, S, s(c)["ops"]))
        check(not errs(c, ("io",)), "%s: other errors %s" % (name, errs(c, ("io",))))

# the boot allows the kernel's PI error lines; none may fall outside a case
check(pi_lines is not None and pi_lines == sum(cases[n]["pierr"] for n in order),
      "kernel PI error lines: %s in the log, %d within the cases" % (pi_lines, sum(cases[n]["pierr"] for n in order)))

print("%-17s %-9s %-8s %4s %5s %5s %8s %7s %6s  %-32s %5s %6s" %
      ("case", "kind", "engine", "N", "cmds", "subm", "injected", "counted", "kernel",
       "reaches user space as", "exit", "secs"))
for r in rows:
    print("%-17s %-9s %-8s %4d %5d %5d %8d %7d %6s  %-32s %5s %6s" % r)
print("cmds: commands the midlayer dispatched (iorequest_cnt); subm: dixload's own count;"
      " counted: dixload's count of the kind (Rec or Err);"
      " kernel: for absorbed kinds the kernel's own count (ioerr_cnt, iotmo_cnt,"
      " extra commands, abort messages; ? none exposed)")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
grep -q '^\[medium-r-aio\] dixload: io: LBA 4640-4671 (32 blocks, 16 KiB): read failed: medium error (ENODATA)$' "$WORK/err" ||
	fail "medium error through the block layer not named: $(grep '^\[medium-r-aio\]' "$WORK/err" | head -n 3)"
grep -q '^\[timeout-r-sg\] dixload: io: .*read failed: command timed out (ETIMEDOUT) (host status 0x3.*); retrying$' "$WORK/err" ||
	fail "sg timeout not reported with its retry: $(grep '^\[timeout-r-sg\]' "$WORK/err" | head -n 3)"
exit 0
