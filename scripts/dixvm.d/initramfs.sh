# SPDX-License-Identifier: GPL-2.0-or-later
#
# dixvm initramfs builder: a busybox-static userland, the host's kmod as
# modprobe & co, the dixload binary with its shared-library closure, and a
# small kernel module tree holding only what the tests load (plus hard
# dependencies), decompressed and indexed by depmod.
# Sourced by scripts/dixvm; uses its die/note helpers.

# Modules every guest gets.  Names are normalised (dashes to underscores);
# a name the kernel does not have (renamed, removed, or built in) is skipped.
# The crypto API's modules are all there, so a crypto load needs no module
# list (issue 22: the README's kcapi command failed with ENOENT without
# eight of them): the AF_ALG types and crypto_user (dixload loads what its
# --alg needs), the generic templates and drivers (the kernel's own lookup
# loads them through their crypto-NAME aliases), and the arch drivers,
# which modtree_build keeps out of alias resolution so they load only when
# named (a --hotload), never by the kernel's request_module("crypto-aes").
# crc32c_cryptoapi is crc32c_generic's name on 7.x (the crypto API's
# crc32c over the CRC library): without it AF_ALG crc32c was ENOENT on
# sid's 7.2.13.
DIXVM_BASE_MODULES="scsi_common scsi_mod sd_mod sg
crct10dif_common crct10dif_generic crc_t10dif crc64 crc64_rocksoft
crc64_rocksoft_generic t10_pi scsi_debug crct10dif_pclmul
nvme_core nvme null_blk loop
af_alg algif_hash algif_skcipher algif_aead crypto_user
xts ecb cbc ctr gcm ghash_generic cryptd pcrypt authenc hmac sha256_generic
crc32c_generic crc32c_cryptoapi
aesni_intel crypto_simd ghash_clmulni_intel sha256_ssse3 crc32c_intel
intel_qat qat_c62x qat_dh895xcc qat_c3xxx qat_4xxx
dm_mod dm_crypt dm_integrity essiv"

# Boot-time load order (hard dependencies are inserted before each name).
# crct10dif_generic must come before crc_t10dif, so that crc_t10dif finds a
# "crct10dif" shash registered and never asks the kernel to request one.
# sg (the /dev/sgN nodes of the sg engine's asynchronous path) needs only
# scsi_mod and has no softdep: it cannot pull in crct10dif-pclmul.
DIXVM_CRC_ORDER="crct10dif_common crct10dif_generic crc_t10dif crc64
crc64_rocksoft crc64_rocksoft_generic t10_pi"
DIXVM_SCSI_ORDER="scsi_common scsi_mod $DIXVM_CRC_ORDER sd_mod sg"
DIXVM_NVME_ORDER="$DIXVM_CRC_ORDER nvme_core nvme"
# --lio: after the SCSI order (sd_mod), the target core (which needs
# configfs and crc-t10dif: already loaded from the generic shash above, so
# its softdep never gets a say), its file backstore and the loopback
# fabric.  rd_mcp is part of target_core_mod.
DIXVM_LIO_ORDER="configfs target_core_mod target_core_file tcm_loop"

# Bump when the module tree layout changes so cached archives are rebuilt.
DIXVM_MODTREE_FORMAT=3

modname()
{
	local n=${1##*/}
	n=${n%.zst}; n=${n%.xz}; n=${n%.gz}; n=${n%.ko}
	printf '%s\n' "${n//-/_}"
}

# closure_add ROOT FILE DEST - copy an executable to ROOT/DEST plus every
# shared library ldd resolves for it (at the same paths) and the loader.
closure_add()
{
	local root=$1 file=$2 dest=$3 lib
	[ -x "$file" ] || die 125 "$file is not an executable file"
	mkdir -p "$root/${dest%/*}"
	cp -L "$file" "$root/$dest" || die 125 "cannot copy $file"
	# "libx.so.1 => /path (0x..)" and "/lib64/ld-linux-x86-64.so.2 (0x..)"
	while read -r lib; do
		[ -e "$root$lib" ] && continue
		mkdir -p "$root${lib%/*}"
		cp -L "$lib" "$root$lib" || die 125 "cannot copy $lib (needed by $file)"
	done < <(ldd "$file" 2>/dev/null |
		 sed -n -e 's/^.*=> \(\/[^ ]*\) (0x.*$/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (0x.*$/\1/p')
	if ldd "$file" 2>/dev/null | grep -q 'not found'; then
		die 125 "$file: shared libraries not found: $(ldd "$file" | grep 'not found' | tr -s '\t\n' ' ')"
	fi
}

# initramfs_userland ROOT - busybox with its applets, kmod as the module
# tools (libkmod honours our softdep/blacklist files; busybox modprobe would
# not), and a loader cache so the copied libraries are found.
initramfs_userland()
{
	local root=$1 busybox applet t
	busybox=${DIXVM_BUSYBOX:-/bin/busybox}
	[ -x "$busybox" ] || die 125 "busybox not found at $busybox (install busybox-static)"
	ldd "$busybox" > /dev/null 2>&1 &&
		die 125 "$busybox is dynamically linked (install busybox-static)"

	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,etc/modprobe.d,etc/dixvm,proc,sys,dev,tmp,root,run,mnt,lib64}
	cp "$busybox" "$root/bin/busybox" || die 125 "cannot copy $busybox"
	while read -r applet; do
		case ${applet##*/} in
		busybox|insmod|rmmod|lsmod|modprobe|modinfo|depmod) continue ;;
		esac
		t=$root/$applet
		[ -e "$t" ] || ln -s /bin/busybox "$t"
	done < <("$busybox" --list-full)

	# /bin/sh is dash when the host has it: Debian's static busybox ash
	# runs its own applets before searching PATH, so "modprobe" in a
	# guest script would be busybox's modprobe, not kmod's.
	local dash kmod
	if dash=$(command -v dash); then
		closure_add "$root" "$dash" /bin/dash
		ln -sf dash "$root/bin/sh"
	fi

	kmod=$(command -v kmod) || die 125 "kmod not found (install kmod)"
	closure_add "$root" "$kmod" /bin/kmod
	for t in insmod rmmod lsmod modprobe modinfo depmod; do
		ln -sf /bin/kmod "$root/sbin/$t"
	done

	printf '/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n/lib64\n/usr/lib\n' > "$root/etc/ld.so.conf"
	printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
	printf 'root:x:0:\n' > "$root/etc/group"
}

# initramfs_libgcc ROOT - glibc dlopen()s libgcc_s when a thread exits or is
# cancelled; without it pthread_exit aborts.  Copy it when the host has it.
initramfs_libgcc()
{
	local root=$1 l
	l=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libgcc_s.so.1 (libc6,x86-64) => //p' | head -n 1)
	[ -n "$l" ] || return 0
	mkdir -p "$root${l%/*}"
	cp -L "$l" "$root$l"
}

# initramfs_ldcache ROOT - build ROOT/etc/ld.so.cache for the copied libraries.
initramfs_ldcache()
{
	ldconfig -r "$1" 2>/dev/null || true
}

# modtree_index MODDIR - fill MOD_PATH[name]=relative path (compressed or
# not) for every module of a kernel modules directory, and MOD_BUILTIN[name].
declare -gA MOD_PATH MOD_BUILTIN
MODTREE_EXTRA=()
modtree_index()
{
	local moddir=$1 rel
	MOD_PATH=() MOD_BUILTIN=()
	while read -r rel; do
		MOD_PATH[$(modname "$rel")]=$rel
	done < <(cd "$moddir" && find kernel updates extra -name '*.ko' -o -name '*.ko.xz' \
			-o -name '*.ko.zst' -o -name '*.ko.gz' 2>/dev/null)
	if [ -r "$moddir/modules.builtin" ]; then
		while read -r rel; do
			MOD_BUILTIN[$(modname "$rel")]=1
		done < "$moddir/modules.builtin"
	fi
}

# modtree_closure MODDIR NAME... - print the relative paths of NAMEs and of
# their hard dependencies (modinfo's "depends"), each once; a name that is
# neither a module nor built in is printed as "missing NAME".
modtree_closure()
{
	local moddir=$1; shift
	local -A seen=()
	local -a todo=("$@")
	local n dep deps
	while [ ${#todo[@]} -gt 0 ]; do
		n=$(modname "${todo[0]}")
		todo=("${todo[@]:1}")
		[ -n "${seen[$n]:-}" ] && continue
		seen[$n]=1
		if [ -z "${MOD_PATH[$n]:-}" ]; then
			[ -n "${MOD_BUILTIN[$n]:-}" ] || printf 'missing %s\n' "$n"
			continue
		fi
		printf '%s\n' "${MOD_PATH[$n]}"
		deps=$(modinfo -F depends "$moddir/${MOD_PATH[$n]}" 2>/dev/null) ||
			die 125 "modinfo cannot read $moddir/${MOD_PATH[$n]}"
		for dep in ${deps//,/ }; do
			todo+=("$dep")
		done
	done
}

# modtree_build MODDIR KVER OUT NAME... - build OUT/lib/modules/KVER with
# NAMEs and their hard dependencies, the .ko files MODTREE_EXTRA lists in
# extra/, decompressed (busybox insmod and the
# finit_module path cannot take compressed files on every kernel), indexed
# by depmod, with every soft dependency dropped and arch crypto accelerators
# kept out of alias resolution.  OUT/missing lists the names not found.
modtree_build()
{
	local moddir=$1 kver=$2 out=$3; shift 3
	local dst=$out/lib/modules/$kver rel f n
	local -a rels

	modtree_index "$moddir"
	mapfile -t rels < <(modtree_closure "$moddir" "$@")
	mkdir -p "$out"
	printf '%s\n' "${rels[@]}" | sed -n 's/^missing //p' > "$out/missing"
	mapfile -t rels < <(printf '%s\n' "${rels[@]}" | grep -v '^missing ')
	[ ${#rels[@]} -gt 0 ] || [ ${#MOD_BUILTIN[@]} -gt 0 ] ||
		die 125 "no kernel modules found in $moddir"
	mkdir -p "$dst" "$out/etc/modprobe.d"
	for rel in "${rels[@]}"; do
		f=$dst/$rel
		mkdir -p "${f%/*}"
		case $rel in
		*.ko.xz)  xz -dc "$moddir/$rel" > "${f%.xz}" ;;
		*.ko.zst) zstd -qdc "$moddir/$rel" > "${f%.zst}" ;;
		*.ko.gz)  gzip -dc "$moddir/$rel" > "${f%.gz}" ;;
		*)        cp "$moddir/$rel" "$f" ;;
		esac || die 125 "cannot decompress $moddir/$rel"
	done
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ -r "$moddir/$f" ] && cp "$moddir/$f" "$dst/$f"
	done
	# Out-of-tree modules (dixvm --kmod, --kmod-ko: MODTREE_EXTRA) go
	# where the kernel's build system installs them, extra/, so depmod
	# indexes them with the rest and modprobe finds them by name.
	for f in "${MODTREE_EXTRA[@]}"; do
		mkdir -p "$dst/extra"
		cp "$f" "$dst/extra/${f##*/}" || die 125 "cannot copy $f into the module tree"
	done
	# depmod wants modules.order entries to exist only as hints; stale
	# compressed suffixes there are harmless.
	depmod -b "$out" "$kver" 2> "$out/depmod.log" ||
		die 125 "depmod -b $out $kver failed: $(head -n 3 "$out/depmod.log")"

	# Soft dependencies are how "modprobe sd_mod" would drag in
	# crct10dif-pclmul (softdep crc_t10dif pre: crct10dif): libkmod reads
	# them only from modules.softdep and modprobe.d, so empty the former.
	: > "$dst/modules.softdep"
	# The kernel's own request_module("crypto-...") runs /sbin/modprobe
	# with an alias; a blacklisted module is never chosen for an alias,
	# yet "modprobe crct10dif_pclmul" by name still loads it.
	{
		echo "# dixvm: arch crypto accelerators load only when named explicitly"
		for rel in "${rels[@]}"; do
			case $rel in
			kernel/arch/*/crypto/*) echo "blacklist $(modname "$rel")" ;;
			esac
		done
	} > "$out/etc/modprobe.d/dixvm.conf"
}

# modtree_order OUT KVER NAME... - print the guest paths (/lib/modules/...)
# to insmod, in order: for each NAME its hard dependencies first (from the
# tree's modules.dep), then itself; built-in and absent names are skipped.
modtree_order()
{
	local out=$1 kver=$2; shift 2
	local dst=$out/lib/modules/$kver
	local -A path=() deps=() done_=()
	local key val n

	while IFS=: read -r key val; do
		n=$(modname "$key")
		path[$n]=$key
		deps[$n]=$val
	done < "$dst/modules.dep"

	_modtree_visit()
	{
		local m=$1 d
		[ -n "${done_[$m]:-}" ] && return
		done_[$m]=1
		for d in ${deps[$m]}; do
			_modtree_visit "$(modname "$d")"
		done
		printf '/lib/modules/%s/%s\n' "$kver" "${path[$m]}"
	}
	for n in "$@"; do
		n=$(modname "$n")
		[ -n "${path[$n]:-}" ] && _modtree_visit "$n"
	done
	return 0
}

# modtree_builtin OUT KVER NAME - 0 when NAME is built into the kernel.
modtree_builtin()
{
	local f=$1/lib/modules/$2/modules.builtin n
	[ -r "$f" ] || return 1
	while read -r n; do
		[ "$(modname "$n")" = "$3" ] && return 0
	done < "$f"
	return 1
}

# cpio_pack DIR OUT [ENTRY...] - write DIR (or only its top-level ENTRYs)
# as an uncompressed newc archive: the kernel unpacks it faster than it
# decompresses one under TCG, and archives can be concatenated.
cpio_pack()
{
	local dir=$1 out=$2; shift 2
	(
		cd "$dir" || exit 1
		if [ $# -gt 0 ]; then
			find "$@"
		else
			find . -mindepth 1
		fi | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet
	) > "$out" || die 125 "cpio of $dir failed"
}
