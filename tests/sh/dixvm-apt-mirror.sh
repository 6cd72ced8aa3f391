#!/bin/sh
# dixvm's archive URIs come from the system's apt sources: a plain or backports suite takes the release mirror, bookworm-security the security stanza's URI (deb822 and one-line files), the suite's own stanza before another release's, and none when no source lists a security suite.
. "$top_srcdir/tests/sh/lib.sh"
command -v bash > /dev/null || skip "bash not installed (dixvm is a bash script)"

# mirror DIR SUITE - apt_mirror of kernel.sh over the sources in DIR
mirror() {
	DIXVM_APT_ETC=$1 bash -c '. "$1/scripts/dixvm.d/kernel.sh" && apt_mirror "$2"' sh "$top_srcdir" "$2"
}
want() {	# want DIR SUITE URI
	got=$(mirror "$1" "$2") || fail "apt_mirror $2 failed over $1"
	[ "$got" = "$3" ] || fail "$(basename "$1"): suite $2 gives '$got', want '$3'"
}

# Debian 12's own layout: one deb822 file, the security archive in a
# stanza of its own (the URIs are placeholders, never contacted).
d=$WORK/deb822
mkdir -p "$d/sources.list.d"
cat > "$d/sources.list.d/debian.sources" <<'S'
Types: deb
URIs: http://mirror.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security.invalid/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
S
want "$d" bookworm http://mirror.invalid/debian
want "$d" bookworm-backports http://mirror.invalid/debian
want "$d" sid http://mirror.invalid/debian
want "$d" bookworm-security http://security.invalid/debian-security
# another release's security suite: the one security archive serves all
want "$d" trixie-security http://security.invalid/debian-security

# The one-line format, a disabled stanza first, and two security sources:
# the suite's own wins over the first one listed.
o=$WORK/oneline
mkdir -p "$o/sources.list.d"
cat > "$o/sources.list" <<'S'
# deb http://commented.invalid/debian-security bookworm-security main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.invalid/debian bookworm main
deb http://other.invalid/debian-security trixie-security main
deb http://security.invalid/debian-security bookworm-security main contrib
S
want "$o" bookworm http://mirror.invalid/debian
want "$o" bookworm-security http://security.invalid/debian-security
want "$o" trixie-security http://other.invalid/debian-security

# No security source: nothing (dixvm then says so and names
# DIXVM_APT_SECURITY_MIRROR), never the release mirror, whose tree has no
# bookworm-security.
n=$WORK/nosec
mkdir -p "$n/sources.list.d"
printf 'deb http://mirror.invalid/debian bookworm main\n' > "$n/sources.list"
want "$n" bookworm-security ""
got=$(DIXVM_APT_SECURITY_MIRROR=http://set.invalid/ds mirror "$n" bookworm-security)
[ "$got" = http://set.invalid/ds ] || fail "DIXVM_APT_SECURITY_MIRROR not taken: '$got'"
exit 0
