# Helpers shared by the tests/vm/kload-*.sh tests that run the dixkload
# module (sourced after tests/vm/lib.sh, hotload-lib.sh and kcapi-lib.sh).

# kload_needs - skip unless a VM, this dixload, python3, and kmod/'s
# sources of the dixkload module (dixvm --kmod builds them for the guest).
kload_needs()
{
	need_vm
	need_dixload
	need_python
	grep -qs 'dixkload' "$top_srcdir/kmod/Kbuild" ||
		skip "kmod/ has no dixkload module to build (kmod/Kbuild does not name it)"
}

# kload_boot SCRIPT [DIXVM-OPTION...] - boot the guest with kmod/ built and
# installed for its kernel, and run SCRIPT.
kload_boot()
{
	_s=$1
	shift
	boot_guest "" --scsi-debug none --kmod "$@" -- sh -c "$_s"
}
