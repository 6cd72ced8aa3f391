#!/bin/sh
# dixvm --kmod builds kmod/ (Kbuild's obj-m) against the guest kernel's own headers: dixkload loads at boot (--kmod-load) with /dev/dixkload, by modprobe and by dixload's --hotload (libkmod, modules.dep), its taint lines pass the dmesg scan, and a second boot takes the build from the cache.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
[ -f "$top_srcdir/kmod/Kbuild" ] || skip "kmod/ has no Kbuild yet (the dixkload module's sources)"
for t in make gcc-12; do
	command -v "$t" > /dev/null || skip "$t not installed (scripts/deps installs it: the headers of Debian 12's kernels name gcc-12)"
done
command -v pahole > /dev/null || skip "pahole not installed (scripts/deps installs dwarves: 6.12 and later build BTF)"
command -v debootstrap > /dev/null || skip "debootstrap not installed (scripts/deps installs it: sid's headers build in a sid root)"
need_dixload
kver=$(vm_kver)
echo "kernel $kver"

# One boot: loaded at boot, its device, the guest's index; then unloaded
# and loaded again by dixload's own --hotload (libkmod resolves the name
# through modules.dep, as the engine that drives it will).
script='set -e
lsmod | grep "^dixkload "
test -c /dev/dixkload && echo "DEVICE ok"
grep "^extra/dixkload.ko:" /lib/modules/$(uname -r)/modules.dep
echo "DIXVM_KMOD=$DIXVM_KMOD"
rmmod dixkload
dixload --dev /dev/sda --rw write --bs 4k --runtime 3 --hotload dixkload@1 --output-format json > /tmp/run.json
st=$?
grep "\"kind\":\"action\"" /tmp/run.json
lsmod | grep "^dixkload " && echo "HOTLOADED ok"
dmesg | grep -e "out-of-tree module taints" -e "module verification failed" | sed "s/^\[[ 0-9.]*\] //" | sort -u
echo "DIXLOAD-EXIT $st"'
t0=$(date +%s)
vm --kmod --kmod-load dixkload -- sh -c "$script" > "$WORK/out" 2> "$WORK/err"
st=$?
t1=$(date +%s)
cat "$WORK/out"
grep '^dixvm: kmod:' "$WORK/err"
[ "$st" = 0 ] || fail "status $st, want 0: $(tail -n 20 "$WORK/err")"
grep -q '^DEVICE ok' "$WORK/out" || fail "no /dev/dixkload in the guest"
grep -q '^DIXVM_KMOD=.*dixkload' "$WORK/out" || fail "DIXVM_KMOD does not name dixkload"
grep -q '"what":"modprobe dixkload".*"ok":true' "$WORK/out" || fail "dixload's --hotload dixkload@1 did not load it: $(grep action "$WORK/out")"
grep -q '^HOTLOADED ok' "$WORK/out" || fail "dixkload not in lsmod after the hot-load"
grep -q 'loading out-of-tree module taints kernel' "$WORK/out" ||
	fail "no out-of-tree taint line: the dmesg scan was not put to the test"
grep -q "^dixvm: kmod: in the guest: /lib/modules/$kver/extra/dixkload.ko" "$WORK/err" ||
	fail "dixvm does not say where the module is in the guest"
echo "first boot: $((t1 - t0)) s"

# The second boot: the same sources, the cached .ko.
t0=$(date +%s)
vm --kmod -- sh -c 'modprobe dixkload && test -c /dev/dixkload && echo LOADED' > "$WORK/out2" 2> "$WORK/err2"
st=$?
t1=$(date +%s)
grep '^dixvm: kmod:' "$WORK/err2"
[ "$st" = 0 ] || fail "second boot: status $st: $(tail -n 20 "$WORK/err2")"
grep -q '^LOADED' "$WORK/out2" || fail "second boot: modprobe dixkload did not give /dev/dixkload"
grep -q "^dixvm: kmod: .*for $kver from the cache" "$WORK/err2" || fail "second boot did not take the cached build"
grep -q '^dixvm: kmod: built' "$WORK/err2" && fail "second boot built again"
echo "cached boot: $((t1 - t0)) s"
exit 0
