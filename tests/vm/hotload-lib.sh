# Helpers shared by the tests/vm/hotload-*.sh tests (sourced after
# tests/vm/lib.sh).

# scripts/dixvm copies profiles/*.profile into the guest and sets
# DIXLOAD_PROFILE_PATH there, so "--profile dif1" works in guest commands.

# guest_need_module NAME - print guest text that ends the guest command with
# status 77 when the kernel has no module NAME.
guest_need_module()
{
	printf 'modinfo -n %s > /dev/null 2>&1 || { echo "NOMODULE %s"; exit 77; }\n' "$1" "$1"
}

# vm_status_check STATUS - turn a dixvm status into a test verdict for the
# statuses that are not the command's own.
vm_status_check()
{
	case $1 in
	122) fail "the guest died while the command ran: $(tail -c 600 "$WORK/err")" ;;
	123) fail "kernel log shows BUG/WARNING/Oops/PI errors: $(grep -i 'bug\|warn\|oops' "$WORK/err" | head -n 5)" ;;
	124) fail "timeout: $(tail -c 600 "$WORK/err")" ;;
	125) hard "dixvm failed: $(tail -c 600 "$WORK/err")" ;;
	esac
	return 0
}

# host_busy FILE - "BUSY CHILDREN TIME" into FILE: CPU seconds the host has
# been busy (all CPUs), those of this shell's reaped children (the VM's
# QEMU is one; times(1) runs in this shell, a subshell's children start at
# zero) and the time.
host_busy()
{
	times > "$1.times"
	printf '%s %s %s\n' \
		"$(awk -v hz="$(getconf CLK_TCK)" '/^cpu / { print ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat)" \
		"$(awk 'function s(v, a) { sub(/s$/, "", v); split(v, a, "m"); return a[1] * 60 + a[2] }
			NR == 2 { print s($1) + s($2) }' "$1.times")" \
		"$(date +%s.%N)" > "$1"
}

# boot_guest NOTE VM-ARGS... - boot with "vm VM-ARGS...", the guest's
# stdout in $WORK/out and stderr in $WORK/err.  Guest status 77 (from
# guest_need_module) skips, naming the missing module and NOTE (may be
# empty); the harness's statuses and any other non-zero status fail.
# $WORK/out.host gets the CPUs other processes kept busy meanwhile, on
# average (a TCG guest's speed follows the CPU the host leaves it).
boot_guest()
{
	_note=$1
	shift
	host_busy "$WORK/busy0"
	vm "$@" > "$WORK/out" 2> "$WORK/err"
	_st=$?
	host_busy "$WORK/busy1"
	cat "$WORK/busy0" "$WORK/busy1" | awk 'NR == 1 { b = $1; c = $2; t = $3 }
		NR == 2 { o = (($1 - b) - ($2 - c)) / ($3 - t); printf "%.2f\n", o < 0 ? 0 : o }' > "$WORK/out.host"
	echo "other processes kept $(cat "$WORK/out.host") CPUs busy on average during the boot"
	[ "$_st" = 77 ] &&
		skip "kernel '$DIXVM_KERNEL' lacks $(sed -n 's/^NOMODULE //p' "$WORK/out")${_note:+ ($_note)}"
	vm_status_check "$_st"
	[ "$_st" = 0 ] || fail "guest command status $_st: $(tail -c 800 "$WORK/err")"
}

# write_judge - $WORK/judge.py: PY_JUDGE followed by the verdict read from
# stdin; run it as 'python3 "$WORK/judge.py" "$WORK/out"'.
write_judge()
{
	{ printf '%s\n' "$PY_JUDGE"; cat; } > "$WORK/judge.py"
}

# with_attempts FUNCTION - run FUNCTION (one boot and its verdict) again
# while it returns 3, "inconclusive": the host was too busy for steady
# throughput (TCG speed follows the host's free CPU), up to
# $DIXLOAD_VM_ATTEMPTS times (default 2); then skip, saying so.  Any other
# status is the verdict.
with_attempts()
{
	_n=${DIXLOAD_VM_ATTEMPTS:-2}
	_i=1
	while :; do
		"$1"
		_st=$?
		[ "$_st" = 3 ] || return "$_st"
		[ "$_i" -ge "$_n" ] &&
			skip "host too busy for a steady measurement in $_n attempts (throughput spread > 15 % of the mean on a side, or other processes using half a CPU or more)"
		_i=$((_i + 1))
		echo "inconclusive (host busy): attempt $_i"
	done
}

# A dixload built with --enable-sanitizers (its --version says so) is run
# to find reports, not to measure: it needs 1.7x the CPU per byte of the
# plain build (host, tmpfs file, randrw 256k: 1217 against 2035 MB/s), and
# in the one-CPU guest dixload's own CPU is a good part of the rate after a
# hot-load.  Its runs are judged on everything but the throughput figures
# (measured with it: ratio 1.14-1.58, where dd in the same boot moved
# 1.06-2.2x with the host's load); the plain build's runs judge those.
DIXLOAD_SANITIZED=0
"$DIXLOAD" --version 2> /dev/null | grep -q '^sanitizers:' && DIXLOAD_SANITIZED=1
export DIXLOAD_SANITIZED

# PY_JUDGE - Python helpers for the verdicts: fail() exits 1; inconclusive()
# exits 3 when a throughput check fails on a run too noisy to judge: a
# spread over 15 % of the mean, or other processes keeping half a CPU or
# more busy (measured on this 2-CPU host: with another QEMU or compilers
# beside it, the seed ratio fell from 1.45-1.60 to 1.06-1.21 when the
# other load changed between the before and after windows, and such a
# shift of level widens no spread; with the guest clock counting
# instructions, DIXVM_ICOUNT other than off, the host's load does not
# count); measure_fail() only reports for a sanitized dixload.
PY_JUDGE='
import json, os, subprocess, sys
NOISY = 0.15
BUSY = 0.5
SANITIZED = os.environ.get("DIXLOAD_SANITIZED") == "1"
def host_others():
    try:
        return float(open(sys.argv[1] + ".host").read())
    except (OSError, ValueError, IndexError):
        return 0.0
def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)
def load(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    return lines, [json.loads(l) for l in lines if l.startswith("{\"type\"")]
def cv(tr):
    b = tr["before_sd"] / tr["before"] if tr["before"] > 0 else 1
    a = tr["after_sd"] / tr["after"] if tr["after"] > 0 else 1
    return max(a, b)
def measure_fail(tr, msg):
    if SANITIZED:
        print("NOT JUDGED: %s (a sanitized dixload: run for its reports, not its rate)" % msg)
        return
    if cv(tr) > NOISY:
        print("INCONCLUSIVE: %s, but the spread is %.0f %% of the mean" % (msg, 100 * cv(tr)))
        sys.exit(3)
    if os.environ.get("DIXVM_ICOUNT", "2") == "off" and host_others() >= BUSY:
        print("INCONCLUSIVE: %s, but other processes kept %.2f CPUs busy" % (msg, host_others()))
        sys.exit(3)
    fail(msg)
def runs_ok(lines, recs, n):
    # n guest runs, each followed by "DIXLOAD-EXIT $?": all exit 0; their summaries
    ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
    if ex != ["DIXLOAD-EXIT 0"] * n:
        fail("dixload exits: %s (want %d times 0)" % (ex, n))
    summ = [r for r in recs if r["type"] == "summary"]
    if len(summ) != n:
        fail("want %d summaries, got %d" % (n, len(summ)))
    return summ
def show_intervals(recs):
    iv = [r for r in recs if r["type"] == "interval"]
    print("intervals, total MB/s: " + " ".join("%.1f" % ((r["read_bps"] + r["write_bps"]) / 1e6) for r in iv))
def seed_verdict(tr):
    # the 2018 seed step, on any target: a steady level before (the disk
    # preconditioned), ratio >= 1.3, significant, found within 2 s of 10 s
    if not tr["steady"]:
        measure_fail(tr, "before not steady (trend %s) after preconditioning" % tr["before_trend"])
    if tr["ratio"] < 1.3:
        measure_fail(tr, "ratio %.3f < 1.3" % tr["ratio"])
    if not tr["significant"]:
        measure_fail(tr, "transition not significant")
    if tr["change_at"] is None or abs(tr["change_at"] - 10) > 2:
        measure_fail(tr, "change_at %s not within 2 s of 10" % tr["change_at"])
def guest_kernel(lines):
    # uname -r of the guest, which the guest command prints after its runs
    k = [l.split()[1] for l in lines if l.startswith("GUEST-KERNEL ") and len(l.split()) == 2]
    if len(k) != 1:
        fail("want one GUEST-KERNEL line (uname -r of the guest), got %s" % k)
    return k[0]
def hold_figure(name, tr, lines):
    # the figure doc/figures gives for NAME on the release of the guest kernel,
    # which README.md and doc/ quote: before, after and ratio each within
    # the band the table states (scripts/check-figures hold).  Not held on
    # another release (Debian moves the ABI with security updates: there
    # the test holds only its own looser bound), another clock, or a
    # sanitized build.  $DIXLOAD_FIGURES names another table (the tests of
    # the check itself).  FIGURE-MEASURED is what check-figures --measured
    # reads back from the logs to regenerate a line.
    kernel = guest_kernel(lines)
    b, a, r = tr["before"] / 1e6, tr["after"] / 1e6, tr["ratio"]
    print("FIGURE-MEASURED %s %s %.3f %.3f %.4f" % (name, kernel, b, a, r))
    if SANITIZED:
        print("NOT JUDGED: figure %s (a sanitized dixload: run for its reports, not its rate)" % name)
        return
    clock = os.environ.get("DIXVM_ICOUNT", "2")
    if clock != "2":
        print("NOT HELD: figure %s is of the guest clock counting instructions (icount shift 2); this run: --icount %s" % (name, clock))
        return
    cmd = [sys.executable, os.path.join(os.environ.get("top_srcdir", "."), "scripts", "check-figures")]
    if os.environ.get("DIXLOAD_FIGURES"):
        cmd += ["--table", os.environ["DIXLOAD_FIGURES"]]
    sys.stdout.flush()
    rc = subprocess.call(cmd + ["hold", name, kernel, "%.3f" % b, "%.3f" % a, "%.4f" % r])
    if rc == 1:
        fail("figure %s moved on %s (above)" % (name, kernel))
    if rc not in (0, 3):
        fail("scripts/check-figures hold %s: status %d" % (name, rc))
def show_tr(name, tr):
    print("%s: before %.2f MB/s (sd %.2f, n %d), after %.2f MB/s (sd %.2f, n %d), ratio %.3f, change_at %s, significant %s"
          % (name, tr["before"] / 1e6, tr["before_sd"] / 1e6, tr["n_before"],
             tr["after"] / 1e6, tr["after_sd"] / 1e6, tr["n_after"],
             tr["ratio"], tr["change_at"], tr["significant"]))
'
