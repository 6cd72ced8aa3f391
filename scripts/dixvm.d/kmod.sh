# SPDX-License-Identifier: GPL-2.0-or-later
#
# dixvm module builder (--kmod): fetches the guest kernel's headers the way
# kernel.sh fetches the kernel (the suite's private apt state, dpkg -x, no
# system apt state touched), builds the out-of-tree modules of a Kbuild
# directory (the source tree's kmod/: whatever its Kbuild's obj-m names)
# against them with the compiler the headers name, and caches the .ko per
# kernel release and per hash of the sources.  modtree_build (initramfs.sh)
# puts them in the guest's lib/modules/KVER/extra/ before depmod, so that
# modprobe, and dixload's own loading through libkmod, find them by name.
# Sourced by scripts/dixvm after kernel.sh; uses its die/say/note helpers.
#
# Cache layout (under the release, so a superseded kernel takes it along):
#   $SUITE_DIR/KVER/headers/root   linux-headers-KVER, its -common and
#                                  linux-kbuild-X (dpkg -x), made relocatable
#   $SUITE_DIR/KVER/headers/info   the compiler and the kbuild tools' Depends
#   $SUITE_DIR/KVER/kmod-HASH/     NAME.ko per module, modules, build.log
#   $DIXVM_CACHE/roots/SUITE-gcc-N a debootstrap root of SUITE with gcc-N,
#                                  for headers this host cannot build with
#
# Where the build runs is measured, not assumed from the suite: on this
# host when it runs the headers' own tools (modpost: their libc) and has the
# compiler they name; otherwise in a root of the kernel's suite.  Debian 12
# builds 6.1 and 6.12 here (gcc-12); sid's 7.2.13 headers name gcc-16 and
# their modpost wants GLIBC_2.38 (Debian 12 has 2.36), so sid builds in a
# sid root (doc/vm.md has the measured costs).

# Bump when a build's layout or flags change, so cached builds are redone.
DIXVM_KMOD_FORMAT=1
# Builds kept per kernel release (several branches share one cache).
DIXVM_KMOD_KEEP=6

# kmod_default_src - the module sources --kmod builds without --kmod-dir:
# the source tree's kmod/, or for the installed dixload-vm the newest
# /usr/src/dixload-VERSION the dixload-dkms package installed.
kmod_default_src()
{
	if [ -z "$DIXVM_DATADIR" ]; then
		printf '%s\n' "$DIXVM_SRC/../kmod"
		return
	fi
	local d
	d=$(ls -d /usr/src/dixload-*/ 2>/dev/null | sort -V | tail -n 1)
	printf '%s\n' "${d%/}"
}

# kmod_files SRC - the files of SRC that make a build (relative, sorted):
# Kbuild, Makefile and the C/assembler sources; dkms.conf and editor
# leftovers do not change a .ko.
kmod_files()
{
	(cd "$1" && find . -type f \( -name Kbuild -o -name Makefile -o -name '*.[chS]' \) \
		! -name '*.mod.c' -print | sed 's|^\./||' | LC_ALL=C sort)
}

# kmod_hash SRC - 12 hex digits over the build's inputs besides the
# headers (the cache directory is per release already): the sources' names
# and contents, the compiler and the format.
kmod_hash()
{
	local f
	{
		printf 'format %s cc %s\n' "$DIXVM_KMOD_FORMAT" "$KCC"
		while read -r f; do
			printf '%s %s\n' "$f" "$(sha1sum < "$1/$f" | cut -c1-40)"
		done < <(kmod_files "$1")
	} | sha1sum | cut -c1-12
}

# kmod_headers SUITE - make sure the headers of $KVER are unpacked in the
# cache; sets KHDRS (the linux-headers-KVER directory), KCC (the compiler
# command the headers name) and KBUILD_DEPS (the kbuild tools' Depends).
kmod_headers()
{
	local suite=$1 d=$SUITE_DIR/$KVER/headers lockfd
	exec {lockfd}>"$SUITE_DIR/.lock"
	flock "$lockfd"
	[ -s "$d/info" ] || kmod_headers_download "$suite" "$d"
	flock -u "$lockfd"
	# shellcheck disable=SC1091
	. "$d/info" || die 125 "kmod: cannot read $d/info"
	KHDRS=$d/root/usr/src/linux-headers-$KVER
	[ -f "$KHDRS/Makefile" ] || die 125 "kmod: $KHDRS/Makefile missing (remove $d to fetch again)"
}

# kmod_headers_download SUITE DEST - linux-headers-KVER and the same-release
# packages it depends on (linux-headers-*-common, linux-kbuild-*), from the
# suite's private apt state; the compiler is the gcc-N its Depends name
# (6.1: linux-compiler-gcc-12-x86; 6.12: gcc-12; 7.x: gcc-16-for-host).
kmod_headers_download()
{
	local suite=$1 dest=$2 a=$SUITE_DIR/apt meta=linux-headers-$KVER
	local deps cc pkgs p deb kbdeb f
	deps=$(apt_private apt-cache depends "$meta" 2>/dev/null)
	if [ -z "$deps" ]; then
		# No lists yet, or older than the kernel: one update.
		say "kmod: fetching the package index of suite '$suite' for $meta"
		apt_private apt-get update > "$a/update.log" 2>&1 ||
			die 125 "kmod: apt-get update of suite '$suite' failed (log: $a/update.log)"
		deps=$(apt_private apt-cache depends "$meta" 2>/dev/null)
	fi
	[ -n "$deps" ] ||
		die 125 "kmod: package $meta is not in suite '$suite' (the archive has moved on from $KVER?): run dixvm --refresh to take the suite's newest kernel"
	pkgs=("$meta")
	while read -r p; do
		pkgs+=("$p")
	done < <(printf '%s\n' "$deps" |
		 sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers\|kbuild\)-[^ <>]*\)$/\1/p' | sort -u)
	cc=$(printf '%s\n' "$deps" | sed -n 's/^ *|\{0,1\}Depends: <\{0,1\}\(linux-compiler-\)\{0,1\}\(gcc-[0-9][0-9]*\).*$/\2/p' | head -n 1)

	say "kmod: downloading ${pkgs[*]}"
	mkdir -p "$a/hdebs" || die 125 "cannot create $a/hdebs"
	rm -f "$a/hdebs"/*.deb
	if ! (cd "$a/hdebs" && apt_private apt-get download "${pkgs[@]}") > "$a/hdownload.log" 2>&1; then
		sed 's/^/dixvm:   /' "$a/hdownload.log" >&2
		die 125 "kmod: apt-get download ${pkgs[*]} failed"
	fi
	rm -rf "$dest.new"
	mkdir -p "$dest.new/root" || die 125 "cannot create $dest.new"
	for deb in "$a/hdebs"/*.deb; do
		dpkg -x "$deb" "$dest.new/root" || die 125 "kmod: dpkg -x $deb failed"
		case ${deb##*/} in linux-kbuild-*) kbdeb=$deb ;; esac
	done
	local h=$dest.new/root/usr/src/$meta
	[ -f "$h/Makefile" ] || die 125 "kmod: ${pkgs[*]} hold no usr/src/$meta/Makefile"
	[ -n "$cc" ] || cc=$(sed -n 's/^CC = .*\(gcc-[0-9][0-9]*\)$/\1/p' "$h/.kernelvariables" 2>/dev/null)
	[ -n "$cc" ] || die 125 "kmod: neither $meta's Depends nor its .kernelvariables name a gcc-N"
	# The kbuild tools' own dependencies (libc, libelf, pahole): a root
	# made for a build that cannot run here installs them.
	local kdeps=
	[ -n "${kbdeb:-}" ] &&
		kdeps=$(dpkg-deb -f "$kbdeb" Depends | tr ',' '\n' |
			sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u | tr '\n' ' ')
	rm -f "$a/hdebs"/*.deb

	# Made relocatable: the per-flavour Makefile includes the -common one
	# by its absolute /usr/src path (7.x also sets KBUILD_OUTPUT to its own
	# /usr/src path), which does not exist outside an installed system.
	# Both become paths relative to the Makefile itself, so the tree
	# builds from the cache and, copied, inside a root.  The kbuild
	# symlinks (scripts, tools -> ../../lib/linux-kbuild-X) are relative
	# already; lib/modules/KVER/{build,source} point at /usr/src and are
	# dropped (nothing here uses them).
	f=$h/Makefile
	{
		echo '# dixvm: the /usr/src paths made relative to this Makefile (scripts/dixvm.d/kmod.sh)'
		# shellcheck disable=SC2016 # make's $(...), not the shell's
		echo 'DIXVM_HDRS := $(patsubst %/,%,$(dir $(realpath $(lastword $(MAKEFILE_LIST)))))'
		sed 's|/usr/src/|$(DIXVM_HDRS)/../|g' "$f"
	} > "$f.new" && mv "$f.new" "$f" || die 125 "kmod: cannot rewrite $f"
	rm -rf "$dest.new/root/lib/modules"
	local abs
	abs=$(find "$dest.new/root" -type l -lname '/*' -printf '%P -> %l\n' | head -n 3)
	[ -z "$abs" ] || die 125 "kmod: absolute symlinks left in the headers of $KVER: $abs"
	grep -rlsq --include=Makefile '^[^#]*/usr/src/' "$h" &&
		die 125 "kmod: $h still names /usr/src after the rewrite"

	{
		echo "KCC=$(sq "$cc")"
		echo "KBUILD_DEPS=$(sq "$kdeps")"
		echo "KHDRS_PKGS=$(sq "${pkgs[*]}")"
	} > "$dest.new/info"
	rm -rf "$dest"
	mv "$dest.new" "$dest" || die 125 "cannot rename $dest.new"
	say "kmod: headers of $KVER cached in $dest (compiler $cc)"
}

# kmod_place - where the build runs: KBUILD_AT=host, or root with KROOT
# set (kmod_root makes it).  Dies when this host could build but lacks a
# package it can install (the compiler, pahole): a root costs a minute and
# 500 MB, a missing package is an apt-get away.
kmod_place()
{
	local suite=$1 why='' miss
	miss=$(kmod_tools_unrunnable)
	if [ -n "$miss" ]; then
		why="their tools need $miss (this host: glibc $(ldd --version 2>/dev/null | sed -n '1s/.* //p'))"
	elif ! command -v "$KCC" > /dev/null; then
		apt-cache show "$KCC" > /dev/null 2>&1 &&
			die 125 "kmod: the headers of $KVER name the compiler $KCC, not installed here (apt-get install $KCC; scripts/deps installs gcc-12)"
		why="they name $KCC, which this host's archive does not have"
	fi
	if [ -n "$why" ]; then
		KBUILD_AT=root
		kmod_root "$suite" "$why"
		return
	fi
	if [ -f "$KHDRS/vmlinux" ] && ! command -v pahole > /dev/null; then
		die 125 "kmod: the headers of $KVER have a vmlinux, so modules get BTF, which needs pahole (apt-get install dwarves; scripts/deps installs it)"
	fi
	KBUILD_AT=host
}

# kmod_tools_unrunnable - what the first of the headers' ELF tools (modpost,
# objtool, genksyms...; 7.x wraps modpost in a script) that cannot run on
# this host lacks, as ldd says it ("GLIBC_2.38", "libelf.so.1"); nothing
# when every one runs.
kmod_tools_unrunnable()
{
	local f line
	while read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		line=$(ldd "$f" 2>&1 | grep -m 1 'not found') || continue
		printf '%s\n' "$line" | sed -n "s/.*version \`\([^']*\)' not found.*/\1/p; t; s/^[[:space:]]*\([^ ]*\) => not found.*/\1/p"
		return
	done < <(find -L "$KHDRS/scripts" "$KHDRS/tools" -type f -perm -u+x 2>/dev/null | LC_ALL=C sort)
}

# kmod_root SUITE WHY - a debootstrap root of SUITE with make, $KCC and the
# kbuild tools' dependencies, made once and cached; sets KROOT.
kmod_root()
{
	local suite=$1 why=$2 base=$1 r mirror lockfd incl
	case $base in *-backports|*-security|*-updates) base=${base%-*} ;; esac
	r=$DIXVM_CACHE/roots/$base-$KCC
	mkdir -p "$DIXVM_CACHE/roots" || die 125 "cannot create $DIXVM_CACHE/roots"
	exec {lockfd}>"$DIXVM_CACHE/roots/.lock"
	flock "$lockfd"
	if [ ! -x "$r/usr/bin/$KCC" ] || [ ! -x "$r/usr/bin/make" ]; then
		command -v debootstrap > /dev/null ||
			die 125 "kmod: the headers of $KVER cannot build here ($why): that needs a $base root, and debootstrap is not installed (apt-get install debootstrap; scripts/deps installs it)"
		[ "$(id -u)" = 0 ] ||
			die 125 "kmod: the headers of $KVER cannot build here ($why): a $base root (debootstrap, chroot) needs root"
		mirror=$(apt_mirror "$base")
		[ -n "$mirror" ] || die 125 "kmod: no Debian mirror found for a $base root (set DIXVM_APT_MIRROR=URI)"
		incl="make,$KCC"
		for p in $KBUILD_DEPS; do incl="$incl,$p"; done
		say "kmod: the headers of $KVER cannot build here ($why): making a $base root with $incl in $r (once, about a minute)"
		rm -rf "$r.new"
		if ! debootstrap --variant=minbase --keyring="$DIXVM_APT_KEYRING" --include="$incl" \
			"$base" "$r.new" "$mirror" > "$r.log" 2>&1; then
			tail -n 5 "$r.log" | sed 's/^/dixvm:   /' >&2
			rm -rf "$r.new"
			die 125 "kmod: debootstrap of a $base root failed (log: $r.log)"
		fi
		rm -rf "$r"
		mv "$r.new" "$r" || die 125 "cannot rename $r.new"
		say "kmod: $base root ready in $r ($(du -sm "$r" | cut -f1) MB)"
	fi
	flock -u "$lockfd"
	KROOT=$r
}

# kmod_make SRCDIR LOG - run the module build of SRCDIR (a copy of the
# sources) on the place kmod_place chose; its output goes to LOG.
kmod_make()
{
	local src=$1 log=$2
	if [ "$KBUILD_AT" = host ]; then
		KMOD_M=$src
		make -C "$KHDRS" M="$src" CC="$KCC" modules > "$log" 2>&1
		return
	fi
	# In the root: the headers hard-linked in (a copy where the cache is
	# on another file system), /proc mounted in a private mount namespace
	# (objtool reads its stack limit there; the namespace ends with the
	# build, so nothing stays mounted).  TMPDIR is the root's own /tmp: the
	# caller's (a test's work directory) is not in the root.
	local b=$KROOT/tmp/dixvm-kmod.$$ st
	rm -rf "$b" && mkdir -p "$b" || die 125 "cannot create $b"
	cp -al "${KHDRS%/usr/src/*}" "$b/h" 2>/dev/null || cp -a "${KHDRS%/usr/src/*}" "$b/h" ||
		die 125 "kmod: cannot copy the headers into $KROOT"
	cp -a "$src" "$b/src" || die 125 "kmod: cannot copy the sources into $KROOT"
	KMOD_M=/tmp/dixvm-kmod.$$/src
	unshare -m --propagation private sh -c '
		mount -t proc proc "$1/proc" || exit 125
		exec env TMPDIR=/tmp chroot "$1" make -C "$2" M="$3" CC="$4" modules' sh \
		"$KROOT" "/tmp/dixvm-kmod.$$/h/usr/src/linux-headers-$KVER" \
		"/tmp/dixvm-kmod.$$/src" "$KCC" > "$log" 2>&1
	st=$?
	[ "$st" = 0 ] && { rm -rf "$src" && mv "$b/src" "$src"; } || st=1
	rm -rf "$b"
	return $st
}

# kmod_build SUITE SRC - the modules of SRC for $KVER, from the cache or
# built now; sets KMOD_KOS (the .ko files, one per module).
kmod_build()
{
	local suite=$1 src=$2 hash d lockfd t0 secs names ko o
	[ -d "$src" ] || die 125 "--kmod: module source directory '$src' not found"
	[ -f "$src/Kbuild" ] ||
		die 125 "--kmod: $src has no Kbuild, so no obj-m names a module to build"
	[ -n "$SUITE_DIR" ] ||
		die 125 "--kmod builds against the headers of a Debian suite's kernel (--kernel SUITE); with --kernel PATH, build the modules yourself and pass them with --kmod-ko FILE"
	kmod_headers "$suite"
	hash=$(kmod_hash "$src")
	d=$SUITE_DIR/$KVER/kmod-$hash
	exec {lockfd}>"$SUITE_DIR/.lock"
	flock "$lockfd"
	if [ -s "$d/modules" ]; then
		touch "$d"
		say "kmod: $(tr '\n' ' ' < "$d/modules")for $KVER from the cache (sources $hash): $d"
	else
		kmod_place "$suite"
		rm -rf "$d.new"
		mkdir -p "$d.new/src" || die 125 "cannot create $d.new"
		kmod_files "$src" | (cd "$src" && tar -cf - -T -) | tar -xf - -C "$d.new/src" ||
			die 125 "kmod: cannot copy the sources of $src"
		t0=$EPOCHREALTIME
		if ! kmod_make "$d.new/src" "$d.new/build.log"; then
			tail -n 25 "$d.new/build.log" | sed 's/^/dixvm:   kbuild: /' >&2
			die 125 "kmod: building $src for $KVER with $KCC ($KBUILD_AT) failed; the log: $d.new/build.log"
		fi
		secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
		# modules.order: one line per obj-m module, .ko (6.1) or .o
		# (6.2 on), relative to the module directory or absolute.
		: > "$d.new/modules"
		while read -r o; do
			o=${o%.o}; o=${o%.ko}
			o=${o#"$KMOD_M"/}
			ko=$d.new/src/$o.ko
			[ -f "$ko" ] || die 125 "kmod: modules.order names $o, but $ko was not built"
			cp "$ko" "$d.new/" || die 125 "cannot copy $ko"
			modname "$ko" >> "$d.new/modules"
		done < "$d.new/src/modules.order"
		[ -s "$d.new/modules" ] || die 125 "kmod: $src built no module (Kbuild's obj-m is empty?)"
		printf '%s %s %s\n' "$KBUILD_AT" "$KCC" "$secs" > "$d.new/built"
		rm -rf "$d"
		mv "$d.new" "$d" || die 125 "cannot rename $d.new"
		names=$(tr '\n' ' ' < "$d/modules")
		say "kmod: built ${names}for $KVER with $KCC (${KBUILD_AT}${KROOT:+ $KROOT}) in $secs s: $d"
		kmod_prune
	fi
	flock -u "$lockfd"
	KMOD_KOS=()
	while read -r o; do
		KMOD_KOS+=("$d/$o.ko")
	done < "$d/modules"
}

# kmod_prune - keep the $DIXVM_KMOD_KEEP builds of this release used last.
kmod_prune()
{
	local old
	# shellcheck disable=SC2012 # our own names: no newlines
	ls -1td "$SUITE_DIR/$KVER"/kmod-*/ 2>/dev/null | tail -n "+$((DIXVM_KMOD_KEEP + 1))" |
	while read -r old; do
		note "removing the kmod build $old (not used lately)"
		rm -rf "${old%/}"
	done
}

# kmod_prune_trees DIR - keep the $DIXVM_KMOD_KEEP module trees with
# out-of-tree modules (modtree-KEY-ko-HASH, one per build) used last.
kmod_prune_trees()
{
	local old
	# shellcheck disable=SC2012 # our own names: no newlines
	ls -1t "$1"/modtree-*-ko-*.cpio 2>/dev/null | tail -n "+$((DIXVM_KMOD_KEEP + 1))" |
	while read -r old; do
		note "removing the module tree ${old%.cpio} (not used lately)"
		rm -rf "${old%.cpio}" "$old"
	done
}

# kmod_depends KO... - the modules the given .ko files need (modinfo's
# depends), so the guest's tree holds them too.
kmod_depends()
{
	local ko deps
	for ko in "$@"; do
		deps=$(modinfo -F depends "$ko" 2>/dev/null) || die 125 "modinfo cannot read $ko"
		[ -n "$deps" ] && printf '%s\n' ${deps//,/ }
	done
}
