# shellcheck shell=sh
# Shared helpers for the VM tests (sourced after tests/sh/lib.sh's conventions):
# skip when QEMU, busybox-static or the kernel package cannot be had, and a
# dixvm wrapper.  Exit statuses: 0 pass, 77 skip, 99 hard error, else fail.
# DIXVM_KERNEL picks the kernel for every VM test (default bookworm; a
# bzImage's PATH takes its modules from DIXVM_MODULES, dixvm's --modules);
# DIXVM_TEST_TIMEOUT bounds each boot (default 600 s: with the guest clock
# counting instructions a run's work is fixed, so a host loaded 5x over
# stretches its wall time; a sid boot took over 300 s at load average 10).

. "$top_srcdir/tests/sh/lib.sh"

DIXVM=$top_srcdir/scripts/dixvm
: "${DIXVM_KERNEL:=bookworm}"
: "${DIXVM_TEST_TIMEOUT:=600}"

# need_vm - skip unless a VM can be booted here: QEMU, a static busybox, the
# initramfs tools, and the kernel package (fetched into the cache once).
need_vm()
{
	command -v qemu-system-x86_64 > /dev/null ||
		skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
	[ -x "${DIXVM_BUSYBOX:-/bin/busybox}" ] && ! ldd "${DIXVM_BUSYBOX:-/bin/busybox}" > /dev/null 2>&1 ||
		skip "static busybox not installed (apt-get install busybox-static)"
	for t in cpio depmod modinfo kmod setsid flock; do
		command -v "$t" > /dev/null || skip "$t not installed (needed by scripts/dixvm)"
	done
	"$DIXVM" --kernel "$DIXVM_KERNEL" ${DIXVM_MODULES:+--modules "$DIXVM_MODULES"} --fetch-only > "$WORK/fetch.log" 2>&1 ||
		skip "kernel package '$DIXVM_KERNEL' cannot be had: $(grep 'error:' "$WORK/fetch.log" | tail -n 1)"
}

# vm_kver - the release of the kernel $DIXVM_KERNEL boots ("6.12.48+deb13-
# amd64"): the one dixvm unpacked last for a suite, or a path's vmlinuz-KVER.
vm_kver()
{
	case $DIXVM_KERNEL in
	*/*) basename "$DIXVM_KERNEL" | sed -n 's/^vmlinuz-//p' ;;
	*) cat "${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/dixload/kernels/$DIXVM_KERNEL/current" 2>/dev/null ;;
	esac
}

# vm_era RANGE REASON - the kernel eras this test speaks about: RANGE is
# "<= X.Y", ">= X.Y" or "X.Y-X.Z" (major.minor, inclusive).  On a kernel
# outside it the test ends here with "NOT FOR THIS ERA: ..." and REASON
# (what the kernel changed), status 77 even under DIXLOAD_TEST_NO_SKIP=1:
# 6.14 has no crct10dif-pclmul module to hot-load, and that is a fact of the
# kernel, not a missing package a skip would be.  Called after need_vm, so a
# kernel that cannot be fetched is still a skip (a failure in CI), never
# taken for an era.
vm_era()
{
	_kver=$(vm_kver)
	[ -n "$_kver" ] || hard "cannot tell the release of kernel '$DIXVM_KERNEL' (vm_era $1)"
	_kv=$(echo "$_kver" | awk -F'[.+-]' '{ print $1 * 1000 + $2 }')
	_in=$(echo "$1" | awk -v k="$_kv" '
		function v(s, a) { split(s, a, "."); return a[1] * 1000 + a[2] }
		$1 == "<=" && NF == 2 { print (k <= v($2)); exit }
		$1 == ">=" && NF == 2 { print (k >= v($2)); exit }
		NF == 1 && split($1, r, "-") == 2 { print (k >= v(r[1]) && k <= v(r[2])); exit }
		{ print "bad" }')
	[ "$_in" = bad ] && hard "vm_era: bad range '$1' (<= X.Y, >= X.Y or X.Y-X.Z)"
	[ "$_in" = 1 ] && { echo "era: kernel $_kver is within $1"; return 0; }
	echo "NOT FOR THIS ERA: kernel $_kver ($DIXVM_KERNEL) is outside $1: $2"
	exit 77
}

# vm_at_least X.Y - true when the test kernel is X.Y or newer: for a test
# whose expectation differs by era rather than ending NOT FOR THIS ERA.
# Called after need_vm, like vm_era.
vm_at_least()
{
	_kver=$(vm_kver)
	[ -n "$_kver" ] || hard "cannot tell the release of kernel '$DIXVM_KERNEL' (vm_at_least $1)"
	echo "$_kver $1" | awk -F'[ .+-]' '{ k = $1 * 1000 + $2 }
		{ n = split($0, w, " "); split(w[n], v, "."); exit !(k >= v[1] * 1000 + v[2]) }'
}

# Throughput measurements need the host to themselves: a TCG guest runs as
# fast as the CPU the host leaves it, and beside another QEMU the seed
# ratio fell from 1.45-1.60 to 0.72-1.21 here (make -j2 check runs two VM
# tests at once).  Every boot holds a shared lock in the build directory;
# a test that measures calls vm_alone once and then holds it exclusively
# until it exits.  A turnstile lock keeps new boots from overtaking a
# measurement that waits.  fds 7 (turnstile) and 8 (the lock).
VM_LOCKDIR=${top_builddir:-.}
VM_ALONE=0

# The guest's clock (scripts/dixvm --icount, default 2): with instruction
# counting a rate measured in the guest does not depend on the host's load,
# so a measurement needs neither the VM lock to itself nor a quiet host.
: "${DIXVM_ICOUNT:=2}"
export DIXVM_ICOUNT

# vm_alone - wait until no other VM test boots, and keep it so until exit
# (only with the host's clock, DIXVM_ICOUNT=off).
vm_alone()
{
	if [ "$DIXVM_ICOUNT" != off ]; then
		echo "guest clock counts instructions (icount shift $DIXVM_ICOUNT): the host's load does not enter the rates"
		return 0
	fi
	exec 7> "$VM_LOCKDIR/.vm-turnstile" 8> "$VM_LOCKDIR/.vm-lock" ||
		hard "cannot open the VM locks in $VM_LOCKDIR"
	flock 7 && flock 8 || hard "cannot lock $VM_LOCKDIR/.vm-lock"
	flock -u 7
	VM_ALONE=1
	echo "measuring alone: no other VM test boots until this one ends"
	wait_quiet
}

# wait_quiet - wait (up to $DIXLOAD_QUIET_WAIT s, default 180) until the
# rest of the host keeps less than 0.3 CPU busy over 2 s.  The lock keeps
# other VMs out, but under `make -j2 check` the second slot still runs unit
# and shell tests beside a measurement; TCG's speed follows the host's free
# CPU, so measuring then is what made the throughput verdicts inconclusive
# (and a failure where skips are failures, as in CI).  Waiting costs
# seconds: no shell or unit test runs longer than a minute.
wait_quiet()
{
	_waited=0
	_limit=${DIXLOAD_QUIET_WAIT:-180}
	while :; do
		_b0=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat)
		sleep 2
		_b1=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat)
		_busy=$(awk -v a="$_b0" -v b="$_b1" -v hz="$(getconf CLK_TCK)" \
			'BEGIN { printf "%.2f", (b - a) / hz / 2 }')
		_waited=$((_waited + 2))
		awk -v x="$_busy" 'BEGIN { exit !(x < 0.3) }' && break
		if [ "$_waited" -ge "$_limit" ]; then
			echo "host still busy after ${_waited} s (${_busy} CPUs): measuring anyway"
			return 0
		fi
	done
	echo "host quiet (${_busy} CPUs busy) after ${_waited} s"
}

# vm OPTIONS... -- COMMAND... - run dixvm with the test kernel and timeout;
# its work directory goes under $WORK/tmp so a test can look for leftovers.
vm()
{
	_vst=0
	mkdir -p "$WORK/tmp"
	if [ "$VM_ALONE" = 1 ]; then
		TMPDIR=$WORK/tmp "$DIXVM" --kernel "$DIXVM_KERNEL" ${DIXVM_MODULES:+--modules "$DIXVM_MODULES"} --timeout "$DIXVM_TEST_TIMEOUT" "$@"
		return
	fi
	exec 7> "$VM_LOCKDIR/.vm-turnstile" 8> "$VM_LOCKDIR/.vm-lock" ||
		hard "cannot open the VM locks in $VM_LOCKDIR"
	flock 7 && flock -s 8 && flock -u 7 || hard "cannot lock $VM_LOCKDIR/.vm-lock"
	TMPDIR=$WORK/tmp "$DIXVM" --kernel "$DIXVM_KERNEL" ${DIXVM_MODULES:+--modules "$DIXVM_MODULES"} --timeout "$DIXVM_TEST_TIMEOUT" "$@" || _vst=$?
	exec 7>&- 8>&-
	return $_vst
}

# harness_lines FILE - print FILE without dixvm's own "dixvm: " lines.
harness_lines()
{
	grep -v '^dixvm: ' "$1"
}
