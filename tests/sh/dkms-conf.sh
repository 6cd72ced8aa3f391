#!/bin/sh
# kmod/dkms.conf names one BUILT_MODULE_NAME per module of the Kbuild beside it, as make reads the Kbuild's obj-m (fixtures with :=, += and several modules a line, and kmod/'s own Kbuild when it has one), with the version placeholder dh_dkms -V fills.
. "$top_srcdir/tests/sh/lib.sh"
command -v bash > /dev/null || skip "bash not installed (DKMS reads dkms.conf with bash)"
command -v make > /dev/null || skip "make not installed"
conf=$top_srcdir/kmod/dkms.conf
[ -f "$conf" ] || fail "kmod/dkms.conf missing"
grep -q '^PACKAGE_NAME="dixload"$' "$conf" || fail "PACKAGE_NAME is not dixload"
grep -q '^PACKAGE_VERSION="#MODULE_VERSION#"$' "$conf" || fail "PACKAGE_VERSION is not dh_dkms's #MODULE_VERSION#"

# names DIR - the modules dkms.conf lists when it lies in DIR (sourced as
# DKMS sources it: bash, the file by its path)
names() {
	cp "$conf" "$1/dkms.conf"
	bash -c '. "$1/dkms.conf" && echo "${BUILT_MODULE_NAME[*]}|${#DEST_MODULE_LOCATION[@]}"' sh "$1"
}
# make_names DIR - what make makes of the Kbuild's obj-m
make_names() {
	printf 'include %s/Kbuild\nall:\n\t@echo $(patsubst %%.o,%%,$(obj-m))\n' "$1" | env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s -f - all
}
check() {	# check DIR
	want=$(make_names "$1")
	[ -n "$want" ] || fail "$1: make finds no obj-m in the Kbuild"
	got=$(names "$1")
	n=$(echo "$want" | wc -w)
	[ "$got" = "$want|$n" ] || fail "$1: dkms.conf gives '$got', make's obj-m is '$want' ($n locations)"
}

mkdir -p "$WORK/a" "$WORK/b"
printf 'obj-m := dixkload.o\ndixkload-y := main.o ioctl.o\n' > "$WORK/a/Kbuild"
check "$WORK/a"
printf '# two modules\nobj-m += dixkload.o\nobj-m	+= dixoffload.o other.o\nccflags-y := -DX\n' > "$WORK/b/Kbuild"
check "$WORK/b"
if [ -f "$top_srcdir/kmod/Kbuild" ]; then
	mkdir -p "$WORK/k" && cp "$top_srcdir/kmod/Kbuild" "$WORK/k/" && check "$WORK/k"
	echo "kmod/Kbuild: $(names "$WORK/k")"
else
	echo "kmod/ has no Kbuild yet: fixtures only"
fi
exit 0
