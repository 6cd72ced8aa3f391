# Helpers shared by the tests/vm/hotload-*.sh tests (sourced after
# tests/vm/lib.sh).

# guest_profiles NAME... - print shell text that recreates the named
# profiles in the guest's ./profiles (dixload looks there first; the guest
# cannot see the host's files).
guest_profiles()
{
	echo "mkdir -p profiles"
	for p; do
		[ -r "$top_srcdir/profiles/$p.profile" ] ||
			hard "profile $p not found in $top_srcdir/profiles"
		printf "cat > profiles/%s.profile <<'DIXLOAD_PROFILE_EOF'\n" "$p"
		cat "$top_srcdir/profiles/$p.profile"
		printf 'DIXLOAD_PROFILE_EOF\n'
	done
}

# Guest shell function: "ddt LABEL DD-ARGS..." runs dd and prints
# "DD LABEL BYTES SECONDS" timed by /proc/uptime (busybox dd prints no rate).
GUEST_DDT='ddt() {
	l=$1; shift
	a=$(cut -d" " -f1 /proc/uptime)
	dd "$@" 2> /dev/null || echo "DDFAIL $l"
	b=$(cut -d" " -f1 /proc/uptime)
	echo "DD $l 67108864 $(awk "BEGIN { print $b - $a }")"
}'

# need_module NAME - print guest text that ends the guest command with
# status 77 when the kernel has no module NAME.
guest_need_module()
{
	printf 'modinfo -n %s > /dev/null 2>&1 || { echo "NOMODULE %s"; exit 77; }\n' "$1" "$1"
}

# vm_status_check STATUS - turn a dixvm status into a test verdict for the
# statuses that are not the command's own.
vm_status_check()
{
	case $1 in
	122) fail "the guest died while the command ran: $(tail -c 600 "$WORK/err")" ;;
	123) fail "kernel log shows BUG/WARNING/Oops/PI errors: $(grep -i 'bug\|warn\|oops' "$WORK/err" | head -n 5)" ;;
	124) fail "timeout: $(tail -c 600 "$WORK/err")" ;;
	125) hard "dixvm failed: $(tail -c 600 "$WORK/err")" ;;
	esac
	return 0
}
