#!/bin/sh
# kload engine on a guest without the dixkload module (no --kmod): dixload asks libkmod for it itself, and the run fails at setup (exit 1, no request) with an error that says the module is not installed for the guest's kernel and how to build it in the bed (scripts/dixvm --kmod) and on a machine (dixload-dkms, make -C /lib/modules/.../build M=$PWD/kmod).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
need_dixload

script="dixload --engine kload --alg 'xts(aes)' --rw write --tfms 1 --iodepth 16 --runtime 2 2>&1
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

boot_guest "" --scsi-debug none -- sh -c "$script"
cat "$WORK/out"
kver=$(sed -n 's/^GUEST-KERNEL //p' "$WORK/out")
grep -q '^DIXLOAD-EXIT 1$' "$WORK/out" || fail "want exit 1 (a setup error)"
grep -q "the dixkload module is not installed for this kernel (module dixkload not found in /lib/modules/$kver)" "$WORK/out" ||
	fail "the error does not say the module is missing for $kver"
grep -q 'scripts/dixvm --kmod' "$WORK/out" || fail "the error does not name the bed's build (scripts/dixvm --kmod)"
grep -q 'dixload-dkms package, or make -C /lib/modules/$(uname -r)/build M=$PWD/kmod' "$WORK/out" ||
	fail "the error does not name the machine's builds (dixload-dkms, make M=\$PWD/kmod)"
exit 0
