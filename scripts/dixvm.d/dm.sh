# SPDX-License-Identifier: GPL-2.0-or-later
#
# dixvm guest: the device-mapper mapping of --dm, made over the scsi_debug
# disk with the real tools (dmsetup, integritysetup) before COMMAND runs.
# Sourced by /init (dash) after the disk is up; uses its setup_failed.
#
# Plain mappings with hex keys, not LUKS2: LUKS2 keeps its key in the
# kernel keyring, so a live table could not be reloaded as read.  The keys
# are drawn here from /dev/urandom, written only to $DIXVM_DM_KEYS (mode
# 600, one "ROLE HEX" line each) so a test can search every output for
# them, and never printed.
#
# Config (from /etc/dixvm/config): DIXVM_DM_KIND crypt|integrity|aead,
# DIXVM_DM_ALG (the cipher or the hash), DIXVM_DM_MODE (J, B or D),
# DIXVM_DM_KEYLEN (key bytes, 0: none), DIXVM_DM_TAG (aead tag bytes).

DM_NAME=dixdm
DM_UNDER=/dev/sda
DM_KEYS=/run/dixvm/dm.keys
export DM_DISABLE_UDEV=1

# dm_key ROLE BYTES RAW - a fresh key of BYTES bytes in the file RAW
# (mode 600), as hex on stdout, recorded in $DM_KEYS.
dm_key()
{
	local k
	( umask 077; head -c "$2" /dev/urandom > "$3" ) ||
		setup_failed "--dm: cannot draw a $2-byte key"
	k=$(od -An -vtx1 "$3" | tr -d ' \n')
	[ ${#k} = $(($2 * 2)) ] || setup_failed "--dm: cannot draw a $2-byte key"
	printf '%s %s\n' "$1" "$k" >> $DM_KEYS
	printf '%s' "$k"
}

# dm_create NAME - a mapping from the table on stdin (never on a command
# line, where the key would show in /proc/PID/cmdline).
dm_create()
{
	local out
	out=$(dmsetup --noudevsync create "$1" 2>&1) ||
		setup_failed "--dm: dmsetup create $1: $out"
}

# dm_integrity_raw DEV TAG - a dm-integrity mapping without an internal
# hash (dm-crypt's AEAD supplies the tags), by hand: a short first table
# makes the kernel write the superblock of a zeroed device, whose status
# line then gives the provided data sectors (field 2) for the real one.
dm_integrity_raw()
{
	local n=${DM_NAME}_int p out
	printf '0 8 integrity %s 0 %s %s 0\n' "$1" "$2" "$DIXVM_DM_MODE" | dm_create $n
	p=$(dmsetup status $n | cut -d' ' -f5)
	case $p in
	''|*[!0-9]*) setup_failed "--dm: no provided data sectors in '$(dmsetup status $n)'" ;;
	esac
	out=$(dmsetup remove $n 2>&1) || setup_failed "--dm: dmsetup remove $n: $out"
	p=$((p - p % 8))
	printf '0 %s integrity %s 0 %s %s 0\n' "$p" "$1" "$2" "$DIXVM_DM_MODE" | dm_create $n
	DM_LOWER=/dev/mapper/$n
	DM_LOWER_SECTORS=$p
}

# wait_chr PATH - wait up to 10 s for a character device node.
wait_chr()
{
	local i=0
	while [ ! -c "$1" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && setup_failed "$1 did not appear"
		sleep 0.1
	done
}

# dm_round_pages NAME - cut the mapping to whole 4 KiB pages: dm-integrity
# provides a number of sectors that need not be one, and a partial last
# page would be read before the page cache writes it (an unwritten
# sector: an error).  The table goes through pipes, never a command line.
dm_round_pages()
{
	local out
	out=$(dmsetup table --showkeys "$1" | awk '{ $2 = $2 - $2 % 8; print }' |
	      dmsetup --noudevsync reload "$1" 2>&1 && dmsetup --noudevsync resume "$1" 2>&1) ||
		setup_failed "--dm: cannot cut $1 to whole pages: $out"
}

dm_setup()
{
	local size key out kf mode
	DM_LOWER= DM_LOWER_SECTORS=
	: > $DM_KEYS && chmod 600 $DM_KEYS || setup_failed "--dm: cannot write $DM_KEYS"
	modprobe -a dm_mod dm_crypt dm_integrity 2>/dev/null ||
		setup_failed "--dm: modprobe dm_mod dm_crypt dm_integrity failed"
	wait_chr /dev/mapper/control
	size=$(cat /sys/block/sda/size)
	case $DIXVM_DM_KIND in
	crypt)
		key=$(dm_key crypt "$DIXVM_DM_KEYLEN" /run/dixvm/dm.raw)
		rm -f /run/dixvm/dm.raw
		printf '0 %s crypt %s %s 0 %s 0\n' "$size" "$DIXVM_DM_ALG" "$key" $DM_UNDER |
			dm_create $DM_NAME
		;;
	integrity)
		kf=
		set --
		if [ "$DIXVM_DM_KEYLEN" -gt 0 ]; then
			kf=/run/dixvm/dm.ikey
			dm_key internal_hash "$DIXVM_DM_KEYLEN" $kf > /dev/null
			set -- --integrity-key-file $kf --integrity-key-size "$DIXVM_DM_KEYLEN"
		fi
		case $DIXVM_DM_MODE in
		B) mode=--integrity-bitmap-mode ;;
		D) mode=--integrity-no-journal ;;
		*) mode= ;;
		esac
		out=$(integritysetup format --batch-mode --no-wipe \
			--integrity "$DIXVM_DM_ALG" "$@" $DM_UNDER 2>&1) ||
			setup_failed "--dm: integritysetup format: $out"
		out=$(integritysetup open --integrity "$DIXVM_DM_ALG" \
			"$@" $mode $DM_UNDER $DM_NAME 2>&1) ||
			setup_failed "--dm: integritysetup open: $out"
		[ -n "$kf" ] && rm -f $kf
		dm_round_pages $DM_NAME
		;;
	aead)
		dm_integrity_raw $DM_UNDER "$DIXVM_DM_TAG"
		key=$(dm_key crypt "$DIXVM_DM_KEYLEN" /run/dixvm/dm.raw)
		rm -f /run/dixvm/dm.raw
		printf '0 %s crypt %s %s 0 %s 0 1 integrity:%s:aead\n' "$DM_LOWER_SECTORS" \
			"$DIXVM_DM_ALG" "$key" "$DM_LOWER" "$DIXVM_DM_TAG" | dm_create $DM_NAME
		;;
	*)
		setup_failed "--dm: unknown kind '$DIXVM_DM_KIND'"
		;;
	esac
	wait_dev /dev/mapper/$DM_NAME
	# Formatted without wipe, an integrity mapping's unwritten sectors
	# read as errors, and signature probes (blkid, dixload's safety check)
	# read them at places of their own: the mapping is written once,
	# whole, in whole pages (a partial one would be read first, and fail).
	# 256 MiB took about 10 s here; integritysetup's own wipe is no faster.
	if [ "$DIXVM_DM_KIND" != crypt ]; then
		size=$(dmsetup table $DM_NAME | cut -d' ' -f2)
		mib=$((size / 2048))
		out=$(dd if=/dev/zero of=/dev/mapper/$DM_NAME bs=1M count=$mib conv=fsync 2>&1 &&
		      dd if=/dev/zero of=/dev/mapper/$DM_NAME bs=4096 seek=$((mib * 256)) \
			count=$((size / 8 - mib * 256)) conv=fsync 2>&1) ||
			setup_failed "--dm: cannot write the mapping once: $(echo "$out" | tr '\n' ' ')"
	fi
	# dm-integrity's request_module("crypto-crc32c") and dm-crypt's
	# "crypto-xts(aes)" must have found the generic drivers: the
	# accelerators are what a test hot-loads.
	for m in aesni_intel crc32c_intel sha256_ssse3; do
		grep -q "^$m " /proc/modules && setup_failed "--dm: $m was loaded during setup"
	done
	export DIXVM_DM=/dev/mapper/$DM_NAME DIXVM_DM_KEYS=$DM_KEYS
}
