#!/bin/sh
# dixload-dkms: the package builds (dpkg-buildpackage -A, or the .deb DIXLOAD_DKMS_DEB names), installs in a fresh Debian 12 root beside the guest kernel's headers, DKMS builds its modules there for that release (dkms build -k KVER: uname -r in the root is the host's), and the dixkload.ko DKMS built loads in the 6.1 guest with insmod.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
vm_era "6.1-6.1" "the DKMS root is Debian 12's, whose kernel is 6.1"
[ -f "$top_srcdir/kmod/Kbuild" ] || skip "kmod/ has no Kbuild yet (the dixkload module's sources)"
[ "$(id -u)" = 0 ] || skip "not root: a debootstrap root and chroot need root"
for t in debootstrap chroot unshare dpkg-deb; do
	command -v "$t" > /dev/null || skip "$t not installed (scripts/deps installs debootstrap)"
done
kver=$(vm_kver)

# ---- the package ----
deb=${DIXLOAD_DKMS_DEB:-}
if [ -z "$deb" ]; then
	command -v dpkg-buildpackage > /dev/null || skip "dpkg-buildpackage not installed (apt-get install dpkg-dev; .ci/run installs it)"
	command -v dh_dkms > /dev/null || skip "dh_dkms not installed (apt-get install dh-dkms; .ci/run installs it)"
	# debian/ and kmod/ are the whole of an architecture-independent
	# build: it compiles nothing (debian/rules)
	mkdir -p "$WORK/src/dixload"
	cp -r "$top_srcdir/debian" "$top_srcdir/kmod" "$WORK/src/dixload/" || hard "cannot copy debian/ and kmod/"
	t0=$(date +%s)
	(cd "$WORK/src/dixload" && dpkg-buildpackage -us -uc -A) > "$WORK/build.log" 2>&1 ||
		fail "dpkg-buildpackage -A failed: $(tail -n 20 "$WORK/build.log")"
	echo "package built in $(($(date +%s) - t0)) s"
	deb=$(ls "$WORK"/src/dixload-dkms_*_all.deb)
fi
[ -f "$deb" ] || fail "no dixload-dkms package ($deb)"
ver=$(dpkg-deb -f "$deb" Version | sed 's/-[^-]*$//; s/^[0-9]*://')
dpkg-deb -c "$deb" > "$WORK/contents"
for f in dkms.conf Kbuild; do
	grep -q "\./usr/src/dixload-$ver/$f\$" "$WORK/contents" || fail "$deb has no /usr/src/dixload-$ver/$f"
done
dpkg-deb -f "$deb" Depends | grep -q dkms || fail "$deb does not depend on dkms"

# ---- a fresh Debian 12 root with DKMS and the headers of $kver ----
# Made once per release (cached; the package is installed and purged again
# each run): debootstrap minbase, dkms and linux-headers-$kver by their
# Depends alone (gcc-12 comes through linux-compiler-gcc-12-x86).
cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/dixload/roots
root=$cache/bookworm-dkms-$kver
mkdir -p "$cache" || hard "cannot create $cache"
exec 6> "$cache/.dkms-lock"
flock 6 || hard "cannot lock $cache/.dkms-lock"
if [ ! -x "$root/usr/sbin/dkms" ] || [ ! -d "$root/usr/src/linux-headers-$kver" ]; then
	mirror=$(bash -c '. "$1/scripts/dixvm.d/kernel.sh" && apt_mirror bookworm' sh "$top_srcdir")
	[ -n "$mirror" ] || skip "no Debian mirror in the system's apt sources for a bookworm root"
	t0=$(date +%s)
	rm -rf "$root.new"
	debootstrap --variant=minbase --include="dkms,linux-headers-$kver" bookworm "$root.new" "$mirror" \
		> "$WORK/debootstrap.log" 2>&1 ||
		skip "debootstrap of a bookworm root with linux-headers-$kver failed: $(tail -n 3 "$WORK/debootstrap.log")"
	rm -rf "$root" && mv "$root.new" "$root" || hard "cannot store $root"
	# the roots of releases the archive has left
	for old in "$cache"/bookworm-dkms-*; do
		[ "$old" = "$root" ] || rm -rf "$old"
	done
	echo "root made in $(($(date +%s) - t0)) s: $root ($(du -sm "$root" | cut -f1) MB)"
fi
# in_root CMD... - CMD in the root, /proc mounted in a mount namespace of
# its own (gone with it)
in_root() {
	unshare -m --propagation private sh -c 'r=$1; shift; mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$root" "$@"
}
in_root dpkg -s dixload-dkms > /dev/null 2>&1 && in_root dpkg --purge dixload-dkms > /dev/null 2>&1
on_exit 'in_root dpkg --purge dixload-dkms > /dev/null 2>&1'
[ "$(in_root uname -r)" = "$kver" ] && echo "note: the root's uname -r is $kver"
cp "$deb" "$root/tmp/dixload-dkms.deb" || hard "cannot copy $deb into $root"

t0=$(date +%s)
in_root dpkg -i /tmp/dixload-dkms.deb > "$WORK/install.log" 2>&1 ||
	fail "dpkg -i dixload-dkms in the root failed: $(tail -n 20 "$WORK/install.log")"
in_root dkms build -m dixload -v "$ver" -k "$kver" --force > "$WORK/dkms.log" 2>&1 ||
	fail "dkms build -k $kver failed: $(tail -n 20 "$WORK/dkms.log"; cat "$root/var/lib/dkms/dixload/$ver/build/make.log" 2>/dev/null | tail -n 20)"
echo "dkms build -k $kver: $(($(date +%s) - t0)) s (with the package's install)"
ko=$(ls "$root/var/lib/dkms/dixload/$ver/$kver"/*/module/dixkload.ko* 2>/dev/null | head -n 1)
[ -n "$ko" ] || fail "DKMS built no dixkload.ko for $kver: $(ls -R "$root/var/lib/dkms/dixload" 2>&1 | head -n 20)"
case $ko in
*.xz) xz -dc "$ko" > "$WORK/dixkload.ko" ;;
*.zst) zstd -qdc "$ko" > "$WORK/dixkload.ko" ;;
*) cp "$ko" "$WORK/dixkload.ko" ;;
esac || hard "cannot take $ko"
v=$(modinfo -F vermagic "$WORK/dixkload.ko")
[ "${v%% *}" = "$kver" ] || fail "DKMS's dixkload.ko is built for '${v%% *}', want $kver"

# ---- the .ko DKMS built, in the guest ----
vm --kmod-ko "$WORK/dixkload.ko" -- sh -c 'insmod /lib/modules/$(uname -r)/extra/dixkload.ko && lsmod | grep "^dixkload "' \
	> "$WORK/out" 2> "$WORK/err"
st=$?
cat "$WORK/out"
[ "$st" = 0 ] || fail "insmod of DKMS's dixkload.ko in the guest: status $st: $(tail -n 15 "$WORK/err")"
grep -q '^dixkload ' "$WORK/out" || fail "dixkload not in the guest's lsmod"
exit 0
