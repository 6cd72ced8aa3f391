#!/bin/sh
# The dmesg scan and out-of-tree modules: a module of the test's own built by --kmod-dir and loaded taints the kernel O and E (its two log lines) and passes; a taint of another kind (U, set from user space) turns exit 0 into 123 and is named; --allow-dmesg excuses it.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
for t in make gcc-12; do
	command -v "$t" > /dev/null || skip "$t not installed (scripts/deps installs it: the headers of Debian 12's kernels name gcc-12)"
done

# A module of our own (not kmod/'s): the bed builds whatever a Kbuild names.
mkdir -p "$WORK/mod"
cat > "$WORK/mod/taintme.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int __init taintme_init(void) { return 0; }
static void __exit taintme_exit(void) { }
module_init(taintme_init);
module_exit(taintme_exit);
MODULE_LICENSE("GPL");
C
echo 'obj-m := taintme.o' > "$WORK/mod/Kbuild"

vm --scsi-debug none --kmod-dir "$WORK/mod" --kmod-load taintme -- \
	sh -c 'cat /proc/sys/kernel/tainted; dmesg | grep -c -e "out-of-tree module taints" -e "module verification failed"' \
	> "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "an out-of-tree module: status $st, want 0 (stderr: $(tail -n 15 "$WORK/err"))"
[ "$(sed -n 1p "$WORK/out")" = 12288 ] || fail "taint $(sed -n 1p "$WORK/out"), want 12288 (O|E)"
[ "$(sed -n 2p "$WORK/out")" = 2 ] || fail "want the two taint lines in the log, got $(sed -n 2p "$WORK/out")"

# Any other taint is a finding: U (bit 6), the flag user space may set.
vm --scsi-debug none --kmod-dir "$WORK/mod" --kmod-load taintme -- \
	sh -c 'echo 64 > /proc/sys/kernel/tainted' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 123 ] || fail "taint U: status $st, want 123 (stderr: $(tail -n 15 "$WORK/err"))"
grep -q '^dixvm: .*kernel: dixvm-taint: the kernel is tainted 12352, .*: U (bit 6)$' "$WORK/err" ||
	fail "the taint is not named: $(cat "$WORK/err")"

vm --scsi-debug none --allow-dmesg 'dixvm-taint: .* U \(bit 6\)' -- \
	sh -c 'echo 64 > /proc/sys/kernel/tainted' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "with --allow-dmesg: status $st, want 0 (stderr: $(cat "$WORK/err"))"
exit 0
