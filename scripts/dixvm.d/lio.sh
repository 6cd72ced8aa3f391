#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dixvm guest: an LIO disk through tcm_loop, the second DIX target of the
# bed (scsi_debug being the first).  LIO is the kernel's SCSI target, the
# stack of Linux-based arrays: its sbc_dif_verify checks the PI that the
# block layer generated, so a kernel-path run computes the CRC twice per
# I/O as on scsi_debug, but in another emulator's code.  Made with configfs
# alone (no targetcli in the guest), after /init has insmod-ed the modules
# in order (configfs, target_core_mod, target_core_file, tcm_loop; no
# softdeps, so crct10dif-pclmul stays unloaded).
#
# Installed as /usr/local/sbin/dixvm-lio, so a test can also rebuild the
# disk with other parameters inside one boot (a matrix costs one boot):
#   dixvm-lio up TYPE SECTOR BACKSTORE   (BACKSTORE rd or fileio)
#   dixvm-lio down
# "up" prints the shell assignments of DIXVM_LIO (the disk), DIXVM_LIO_SG
# (its SCSI generic node) and, for fileio, DIXVM_LIO_FILE and
# DIXVM_LIO_PROT (the backstore's data and protection files) on stdout;
# a refusal goes to stderr, one line, with the kernel's own message, and
# the status is 1.

CFS=/sys/kernel/config
T=$CFS/target
WWN=naa.5001405d1c0c0a00	# the loopback port (the "target")
INI=naa.5001405d1c0c0a01	# the I_T nexus' initiator port
TPG=$T/loopback/$WWN/tpgt_1
STORE_DIR=/run/dixvm/lio
# rd_mcp pages are 4 KiB: 65536 = 256 MiB (and 4 MiB of PI at 512 bytes
# a sector), scsi_debug's size in the bed, so that the seed's figures on
# the two compare; the fileio image is the same size, on the guest's tmpfs.
RD_PAGES=65536
FD_BYTES=$((RD_PAGES * 4096))

die()
{
	printf 'dixvm-lio: %s\n' "$*" >&2
	exit 1
}

# kmsg_since N - kernel log lines after the first N ones, on one line: the
# target core's own reason for a refused configfs write.
kmsg_since()
{
	dmesg | tail -n "+$(($1 + 1))" | sed 's/^\[[ 0-9.]*\] //' | tr '\n' ' ' | sed 's/ *$//'
}

# put FILE VALUE WHAT - write VALUE into a configfs attribute, or die
# naming what was refused, the errno's text and what the kernel logged.
put()
{
	n=$(dmesg | wc -l)
	# dd, one write(2): it names the errno (dash's printf says "I/O
	# error" for any, busybox's printf does not see the failure at all)
	err=$(printf '%s\n' "$2" | busybox dd of="$1" conv=notrunc 2>&1) && return 0
	err=$(printf '%s\n' "$err" | sed -n 's/^dd: error writing .*: //p' | head -n 1)
	k=$(kmsg_since "$n")
	die "$3: writing '$2' to ${1#"$T"/} failed (${err:-error})${k:+; kernel: $k}"
}

# lio_down - undo lio_up in the reverse order: the port (its SCSI device
# goes), the LUN, the nexus (tcm_loop refuses to drop it while a port is
# linked), the TPG and WWN, the backstore and its HBA, the files.
lio_down()
{
	local l
	[ -d "$T" ] || return 0
	for l in "$TPG"/lun/lun_0/*; do
		[ -L "$l" ] && rm -f "$l"
	done
	[ -d "$TPG/lun/lun_0" ] && rmdir "$TPG/lun/lun_0"
	[ -n "$(cat "$TPG/nexus" 2>/dev/null)" ] && printf 'NULL\n' > "$TPG/nexus"
	[ -d "$TPG" ] && rmdir "$TPG"
	[ -d "$T/loopback/$WWN" ] && rmdir "$T/loopback/$WWN"
	for l in rd_mcp_0 fileio_0; do
		[ -d "$T/core/$l/lio0" ] && rmdir "$T/core/$l/lio0"
		[ -d "$T/core/$l" ] && rmdir "$T/core/$l"
	done
	rm -rf "$STORE_DIR"
	return 0
}

# lio_disk - the block device whose SCSI vendor is LIO-ORG (tcm_loop's).
lio_disk()
{
	local d
	for d in /sys/block/sd*; do
		[ -r "$d/device/vendor" ] || continue
		case $(cat "$d/device/vendor") in
		LIO-ORG*) printf '/dev/%s\n' "${d##*/}"; return 0 ;;
		esac
	done
	return 1
}

lio_up()
{
	local type=$1 sector=$2 store=$3 dev hba i disk sg what
	case $type in
	1|3) ;;
	2) ;;	# tried, so that the refusal is LIO's own
	*) die "PI type '$type' is not 1, 2 or 3" ;;
	esac
	case $sector in
	512|4096) ;;
	*) die "sector size '$sector' is not 512 or 4096" ;;
	esac
	if ! awk '$3 == "configfs" { f = 1 } END { exit !f }' /proc/mounts; then
		mount -t configfs configfs $CFS 2>/dev/null || die "cannot mount configfs on $CFS"
	fi
	[ -d "$T" ] || die "no $T: target_core_mod not loaded"
	[ -d "$T/loopback" ] || mkdir "$T/loopback" 2>/dev/null ||
		die "no $T/loopback: tcm_loop not loaded"
	mkdir -p "$STORE_DIR"
	case $store in
	rd)
		hba=$T/core/rd_mcp_0
		dev=$hba/lio0
		mkdir -p "$dev" || die "cannot create the rd_mcp backstore"
		put "$dev/control" "rd_pages=$RD_PAGES" "rd_mcp"
		;;
	fileio)
		hba=$T/core/fileio_0
		dev=$hba/lio0
		mkdir -p "$dev" || die "cannot create the fileio backstore (target_core_file loaded?)"
		truncate -s $FD_BYTES "$STORE_DIR/disk.img" || die "cannot create $STORE_DIR/disk.img"
		put "$dev/control" "fd_dev_name=$STORE_DIR/disk.img,fd_dev_size=$FD_BYTES" "fileio"
		;;
	*)
		die "backstore '$store' is not rd or fileio"
		;;
	esac
	put "$dev/enable" 1 "enable"
	# The logical block size after enable (enabling resets it to the
	# backstore's hw_block_size, 512: a 4096 written before was lost, and
	# the disk came up with 512-byte sectors) and before PI is switched
	# on: the protection store is sized from it.
	put "$dev/attrib/block_size" "$sector" "sector size $sector"
	# LIO has no Type 2 (target_core_configfs: "DIF TYPE2 protection
	# currently not supported", ENOSYS).
	what="PI Type $type"
	[ "$type" = 2 ] && what="PI Type 2 (LIO has none)"
	put "$dev/attrib/pi_prot_type" "$type" "$what"
	# A fresh fileio protection file is a hole of zeros: app tag 0, so
	# every never-written sector would fail its guard and ref checks.
	# Formatting writes 0xff tuples (app tag 0xffff, the escape that skips
	# the checks), as rd_mcp's protection pages start.
	[ "$store" = fileio ] && put "$dev/attrib/pi_prot_format" 1 "PI format"

	mkdir -p "$TPG/lun/lun_0" || die "cannot create the tcm_loop port $WWN"
	put "$TPG/nexus" "$INI" "I_T nexus"
	ln -s "$dev" "$TPG/lun/lun_0/lio0" 2>/dev/null ||
		die "cannot link the backstore into LUN 0"
	i=0
	while ! disk=$(lio_disk) || [ ! -b "$disk" ]; do
		i=$((i + 1))
		[ $i -gt 300 ] && die "the tcm_loop disk did not appear"
		sleep 0.1
	done
	sg=
	for i in /sys/block/"${disk#/dev/}"/device/scsi_generic/sg*; do
		[ -e "$i" ] && sg=/dev/${i##*/}
	done
	printf 'DIXVM_LIO=%s\n' "$disk"
	printf 'DIXVM_LIO_SG=%s\n' "$sg"
	if [ "$store" = fileio ]; then
		printf 'DIXVM_LIO_FILE=%s\n' "$STORE_DIR/disk.img"
		printf 'DIXVM_LIO_PROT=%s\n' "$STORE_DIR/disk.img.protection"
	fi
}

case ${1:-} in
up)	[ $# = 4 ] || die "usage: dixvm-lio up TYPE SECTOR rd|fileio"
	lio_down
	lio_up "$2" "$3" "$4" ;;
down)	lio_down ;;
*)	die "usage: dixvm-lio up TYPE SECTOR rd|fileio | down" ;;
esac
