#!/bin/sh
# dixvm guest setup leaves crct10dif-pclmul unloaded (transform generic) even through aliases, softdeps, scsi_debug reloads and the kernel's own request_module; modprobe by name flips it.
. "$top_srcdir/tests/vm/lib.sh"
need_vm
vm_era '<= 6.13' 'crct10dif-pclmul is a module to hot-load up to 6.13; 6.14 built the arch CRC into lib, chosen at boot'

# The guest reports "key value" lines; the host judges them.
vm -- sh -c '
	m() { grep -q "^$1 " /proc/modules && echo 1 || echo 0; }
	tf=/sys/module/crc_t10dif/parameters/transform
	# a loadable module file, not "(builtin)" or an alias of something else
	case $(modinfo -n crct10dif_pclmul 2>/dev/null) in
	*/crct10dif-pclmul.ko*) has=1 ;;
	*) has=0 ;;
	esac
	echo "has_pclmul $has"
	echo "setup_pclmul $(m crct10dif_pclmul)"
	echo "setup_transform $(cat $tf 2>/dev/null || echo missing)"
	echo "setup_crypto_pclmul $(grep -c "^driver *: crct10dif-pclmul" /proc/crypto)"
	# What the kernel request_module()s for a missing shash: an alias.
	modprobe crypto-crct10dif; echo "alias_rc $?"
	echo "alias_pclmul $(m crct10dif_pclmul)"
	modprobe crypto-aes; modprobe crypto-ghash
	echo "alias_aesni $(m aesni_intel)"
	echo "alias_ghash $(m ghash_clmulni_intel)"
	echo "softdeps $(modprobe --show-depends sd_mod scsi_debug 2>&1 | grep -c pclmul)"
	# A scsi_debug reload the way the tests do it.
	rmmod scsi_debug; modprobe scsi_debug dif=1 dix=1 delay=0 dev_size_mb=16
	echo "reload_rc $?"
	i=0; while [ ! -b /dev/sda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	echo "reload_format $(cat /sys/block/sda/integrity/format 2>/dev/null)"
	echo "reload_pclmul $(m crct10dif_pclmul)"
	echo "reload_transform $(cat $tf 2>/dev/null || echo missing)"
	# The kernel asking itself: crc-t10dif loaded with no crct10dif shash
	# registered makes the kernel run /sbin/modprobe crypto-crct10dif.
	crc=$(modinfo -n crc_t10dif 2>/dev/null)
	case $crc in
	*.ko)
		rmmod scsi_debug sd_mod t10_pi crc_t10dif crct10dif_generic
		insmod "$crc"; echo "kreq_rc $?"
		echo "kreq_generic $(m crct10dif_generic)"
		echo "kreq_pclmul $(m crct10dif_pclmul)"
		echo "kreq_transform $(cat $tf 2>/dev/null || echo missing)"
		;;
	*)	echo "kreq_rc builtin" ;;
	esac
	# By name it must load, and crc-t10dif must switch to it.
	modprobe crct10dif_pclmul; echo "byname_rc $?"
	echo "byname_pclmul $(m crct10dif_pclmul)"
	i=0; while [ "$(cat $tf 2>/dev/null)" != crct10dif-pclmul ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
	echo "byname_transform $(cat $tf 2>/dev/null || echo missing)"
	echo "byname_crypto_pclmul $(grep -c "^driver *: crct10dif-pclmul" /proc/crypto)"
	modprobe aesni_intel; echo "aesni_rc $?"
' > "$WORK/out" 2> "$WORK/err"
st=$?
[ "$st" = 0 ] || fail "dixvm status $st: $(tail -c 800 "$WORK/err")"

get() { sed -n "s/^$1 //p" "$WORK/out"; }
expect() {
	v=$(get "$1")
	[ "$v" = "$2" ] || fail "$1 is '$v', want '$2' (guest said: $(tr '\n' ';' < "$WORK/out"))"
}
[ "$(get has_pclmul)" = 1 ] ||
	skip "kernel '$DIXVM_KERNEL' has no crct10dif_pclmul module (CRC-T10DIF is built in)"
expect setup_pclmul 0
expect setup_transform crct10dif-generic
expect setup_crypto_pclmul 0
expect alias_rc 0
expect alias_pclmul 0
expect alias_aesni 0
expect alias_ghash 0
expect softdeps 0
expect reload_rc 0
expect reload_format T10-DIF-TYPE1-CRC
expect reload_pclmul 0
expect reload_transform crct10dif-generic
if [ "$(get kreq_rc)" != builtin ]; then
	expect kreq_rc 0
	expect kreq_generic 1
	expect kreq_pclmul 0
	expect kreq_transform crct10dif-generic
fi
expect byname_rc 0
expect byname_pclmul 1
expect byname_transform crct10dif-pclmul
expect byname_crypto_pclmul 1
expect aesni_rc 0
exit 0
