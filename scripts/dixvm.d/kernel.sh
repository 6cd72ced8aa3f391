# SPDX-License-Identifier: GPL-2.0-or-later
#
# dixvm kernel provider: fetches a stock Debian kernel package through a
# private apt configuration, unpacks it into the user's cache and reuses it.
# Sourced by scripts/dixvm; uses its die/note helpers.
#
# Cache layout (one tree per suite):
#   $DIXVM_CACHE/kernels/SUITE/apt/      private apt state (sources, lists, debs)
#   $DIXVM_CACHE/kernels/SUITE/current   the kernel release unpacked last
#   $DIXVM_CACHE/kernels/SUITE/KVER/root the unpacked packages (dpkg -x)
#   $DIXVM_CACHE/kernels/SUITE/KVER/modtree-HASH.cpio  cached module archives

# The one keyring we trust for Debian archives; the system's sources name it too.
: "${DIXVM_APT_KEYRING:=/usr/share/keyrings/debian-archive-keyring.gpg}"

# apt_mirror [SUITE] - print the Debian archive URI the system's apt sources
# use for SUITE.
#
# The URI is whatever the machine is configured with (never a host name
# written into the project), from one-line .list files and deb822 .sources
# files alike, enabled "deb" sources with component main.  For a plain
# suite (bookworm, sid) or a suite of the same archive (bookworm-backports)
# it is the first source that carries a release suite without a dash.  The
# security updates (bookworm-security: Debian 12 with its security kernel)
# are another archive: the source that lists SUITE itself, else the first
# that lists any *-security suite (one archive serves every release).
# DIXVM_APT_MIRROR and DIXVM_APT_SECURITY_MIRROR override them.  Prints
# nothing when none is found.
apt_mirror()
{
	local suite=${1:-} f uri mode
	case $suite in
	*-security)
		if [ -n "${DIXVM_APT_SECURITY_MIRROR:-}" ]; then
			printf '%s\n' "$DIXVM_APT_SECURITY_MIRROR"
			return
		fi
		for mode in "exact" "security"; do
			uri=$(apt_sources_uri "$mode" "$suite")
			[ -n "$uri" ] && { printf '%s\n' "$uri"; return; }
		done
		return 0
		;;
	esac
	if [ -n "${DIXVM_APT_MIRROR:-}" ]; then
		printf '%s\n' "$DIXVM_APT_MIRROR"
		return
	fi
	apt_sources_uri plain ""
}

# apt_sources_uri MODE SUITE - the first URI of the system's sources whose
# suites match MODE: plain (a suite without a dash), exact (SUITE itself)
# or security (a suite ending in -security).  DIXVM_APT_ETC (default
# /etc/apt) is where the sources are read, for the tests.
apt_sources_uri()
{
	local f uri e=${DIXVM_APT_ETC:-/etc/apt}
	for f in "$e/sources.list" "$e"/sources.list.d/*.list \
		 "$e"/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		case $f in
		*.sources) uri=$(deb822_mirror "$1" "$2" < "$f") ;;
		*) uri=$(oneline_mirror "$1" "$2" < "$f") ;;
		esac
		[ -n "$uri" ] && { printf '%s\n' "$uri"; return; }
	done
	return 0
}

# deb822_mirror MODE SUITE - first URI of a deb822 stanza (stdin) that is
# enabled, of type deb, with component main and a suite MODE accepts.
deb822_mirror()
{
	awk -v mode="$1" -v want="$2" '
	function ok(s) {
		if (mode == "exact") return s == want
		if (mode == "security") return s ~ /-security$/
		return s != "" && s !~ /-/
	}
	function flush(   n, i, s, u) {
		if (enabled != "no" && types ~ /(^|[ \t])deb([ \t]|$)/ &&
		    comps ~ /(^|[ \t])main([ \t]|$)/) {
			n = split(suites, s, /[ \t]+/)
			for (i = 1; i <= n; i++)
				if (ok(s[i])) {
					split(uris, u, /[ \t]+/); print u[1]; found = 1; exit
				}
		}
		types = uris = suites = comps = enabled = ""
	}
	/^[ \t]*$/ { flush(); next }
	/^#/ { next }
	{
		key = tolower($1); sub(/:$/, "", key)
		val = $0; sub(/^[^:]*:[ \t]*/, "", val)
		if (key == "types") types = val
		else if (key == "uris") uris = val
		else if (key == "suites") suites = val
		else if (key == "components") comps = val
		else if (key == "enabled") enabled = tolower(val)
	}
	END { if (!found) flush() }
	'
}

# oneline_mirror MODE SUITE - the same for one-line "deb [opts] URI SUITE
# COMP..." files.
oneline_mirror()
{
	awk -v mode="$1" -v want="$2" '
	function ok(s) {
		if (mode == "exact") return s == want
		if (mode == "security") return s ~ /-security$/
		return s !~ /-/
	}
	{ sub(/#.*/, "") }
	!/^[ \t]*deb[ \t]/ { next }
	{
		sub(/^[ \t]*deb[ \t]+/, "")
		if ($0 ~ /^\[/) sub(/^\[[^]]*\][ \t]*/, "")
		n = split($0, w, /[ \t]+/)
		if (n < 3 || !ok(w[2])) next
		for (i = 3; i <= n; i++) if (w[i] == "main") { print w[1]; exit }
	}
	'
}

# apt_private - run an apt tool (apt-get/apt-cache) with the suite's private
# configuration: own sources list, lists, cache and an empty dpkg status, so
# the system's apt state is neither read for sources nor written.
# Valid-Until and Date checks are off because the archive mirror can serve a
# sid Release whose Valid-Until has passed (seen: "Release file ... is
# expired" in a fresh debootstrap root); signatures are still checked.
apt_private()
{
	local tool=$1; shift
	local a=$SUITE_DIR/apt
	"$tool" -q \
		-o Dir::Etc::sourcelist="$a/sources.list" \
		-o Dir::Etc::sourceparts="$a/empty" \
		-o Dir::Etc::preferences="$a/empty/none" \
		-o Dir::Etc::preferencesparts="$a/empty" \
		-o Dir::State="$a/state" \
		-o Dir::State::Lists="$a/lists" \
		-o Dir::State::status="$a/status" \
		-o Dir::Cache="$a/cache" \
		-o APT::Architecture=amd64 \
		-o APT::Architectures::=amd64 \
		-o APT::Sandbox::User=root \
		-o Acquire::Languages=none \
		-o Acquire::Check-Valid-Until=false \
		-o Acquire::Check-Date=false \
		-o Acquire::Retries=1 \
		-o Acquire::http::Timeout=30 \
		"$@"
}

# kernel_fetch SUITE - make sure SUITE's current kernel is unpacked in the
# cache; sets KVER, VMLINUZ and MODDIR.
# Fetches only when nothing is cached yet or --refresh was given.
# Dies with status 125 naming the suite and package when anything fails.
kernel_fetch()
{
	local suite=$1
	SUITE_DIR=$DIXVM_CACHE/kernels/$suite
	mkdir -p "$SUITE_DIR" || die 125 "cannot create cache directory $SUITE_DIR"

	# Two runs may start together (make check -j2): one fetches, the
	# other waits for it instead of unpacking into the same tree.
	exec {lockfd}>"$SUITE_DIR/.lock"
	flock "$lockfd"

	if [ "$REFRESH" = 0 ] && [ -s "$SUITE_DIR/current" ]; then
		KVER=$(cat "$SUITE_DIR/current")
		if kernel_locate "$SUITE_DIR/$KVER/root"; then
			flock -u "$lockfd"
			return 0
		fi
	fi
	kernel_download "$suite"
	flock -u "$lockfd"
}

# kernel_download SUITE - resolve linux-image-amd64 in SUITE, download the
# image package and its same-release companions (7.x splits the image into
# linux-binary/linux-modules packages), unpack them with dpkg -x.
kernel_download()
{
	local suite=$1 mirror a meta image pkgs p deb
	mirror=$(apt_mirror "$suite")
	if [ -z "$mirror" ]; then
		case $suite in
		*-security) die 125 "kernel $suite: no Debian security archive found in /etc/apt/sources.list{,.d} (no source lists a *-security suite; set DIXVM_APT_SECURITY_MIRROR=URI)" ;;
		*) die 125 "kernel $suite: no Debian mirror found in /etc/apt/sources.list{,.d} (set DIXVM_APT_MIRROR=URI)" ;;
		esac
	fi
	[ -r "$DIXVM_APT_KEYRING" ] || die 125 "kernel $suite: keyring $DIXVM_APT_KEYRING missing (install debian-archive-keyring or set DIXVM_APT_KEYRING)"

	a=$SUITE_DIR/apt
	rm -rf "$a/cache"
	mkdir -p "$a/empty" "$a/state" "$a/lists/partial" "$a/cache/archives/partial" "$a/debs" || die 125 "cannot create $a"
	: > "$a/status"
	printf 'deb [signed-by=%s] %s %s main\n' "$DIXVM_APT_KEYRING" "$mirror" "$suite" > "$a/sources.list"

	say "fetching the Debian $suite kernel (package index from $mirror)"
	if ! apt_private apt-get update > "$a/update.log" 2>&1; then
		sed 's/^/dixvm:   /' "$a/update.log" >&2
		die 125 "kernel $suite: apt-get update of suite '$suite' failed; cannot fetch package linux-image-amd64"
	fi
	meta=linux-image-amd64
	# apt-get update only warns when an index cannot be fetched.
	if grep -q -e '^W: Failed to fetch' -e '^E: ' "$a/update.log"; then
		sed 's/^/dixvm:   /' "$a/update.log" >&2
		die 125 "kernel $suite: cannot fetch the package index of suite '$suite' from $mirror, so not package $meta"
	fi
	image=$(apt_private apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
	if [ -z "$image" ]; then
		sed 's/^/dixvm:   /' "$a/update.log" >&2
		die 125 "kernel $suite: package $meta not found in suite '$suite' at $mirror"
	fi
	KVER=${image#linux-image-}
	if kernel_locate "$SUITE_DIR/$KVER/root"; then
		say "kernel $suite: $KVER is the newest and already cached"
		printf '%s\n' "$KVER" > "$SUITE_DIR/current"
		return 0
	fi
	# The image's own same-release dependencies (linux-binary-KVER,
	# linux-modules-KVER on 7.x); nothing else (no initramfs tools).
	pkgs=("$image")
	while read -r p; do
		pkgs+=("$p")
	done < <(apt_private apt-cache depends "$image" 2>/dev/null |
		 sed -n "s/^ *|\{0,1\}Depends: \(linux-[a-z]*-$KVER\)\$/\1/p" | sort -u)

	say "downloading ${pkgs[*]}"
	rm -f "$a/debs"/*.deb
	if ! (cd "$a/debs" && apt_private apt-get download "${pkgs[@]}") > "$a/download.log" 2>&1; then
		sed 's/^/dixvm:   /' "$a/download.log" >&2
		die 125 "kernel $suite: apt-get download ${pkgs[*]} failed"
	fi

	local dest=$SUITE_DIR/$KVER
	rm -rf "$dest.new"
	mkdir -p "$dest.new/root" || die 125 "cannot create $dest.new"
	for deb in "$a/debs"/*.deb; do
		dpkg -x "$deb" "$dest.new/root" || die 125 "kernel $suite: dpkg -x $deb failed"
	done
	rm -f "$a/debs"/*.deb
	kernel_locate "$dest.new/root" || die 125 "kernel $suite: ${pkgs[*]} holds no vmlinuz/modules for $KVER"
	rm -rf "$dest"
	mv "$dest.new" "$dest" || die 125 "cannot rename $dest.new"
	kernel_locate "$dest/root" || die 125 "kernel $suite: lost $dest"
	printf '%s\n' "$KVER" > "$SUITE_DIR/current"
	say "kernel $KVER cached in $dest"
	# An unpacked 6.1 tree is ~400 MB: drop the releases it replaces.
	for deb in "$SUITE_DIR"/*/; do
		deb=${deb%/}
		case ${deb##*/} in
		apt|"$KVER") ;;
		*) note "removing the superseded kernel $deb"; rm -rf "$deb" ;;
		esac
	done
}

# kernel_locate ROOT - find vmlinuz and the modules tree of $KVER under an
# unpacked root (Debian moved /lib/modules to /usr/lib/modules); sets
# VMLINUZ and MODDIR.  Returns 1 when either is missing.
kernel_locate()
{
	local root=$1 d
	VMLINUZ='' MODDIR=''
	for d in "$root/boot/vmlinuz-$KVER" "$root/usr/lib/linux/vmlinuz-$KVER" \
		 "$root/usr/lib/modules/$KVER/vmlinuz"; do
		[ -f "$d" ] && { VMLINUZ=$d; break; }
	done
	for d in "$root/lib/modules/$KVER" "$root/usr/lib/modules/$KVER"; do
		[ -d "$d/kernel" ] && { MODDIR=$d; break; }
	done
	[ -n "$VMLINUZ" ] && [ -n "$MODDIR" ]
}

# bzimage_version FILE - print the release string embedded in an x86
# bzImage (boot protocol: kernel_version pointer at 0x20e, +0x200).
bzimage_version()
{
	local off
	off=$(od -An -tu2 -j $((0x20e)) -N2 "$1" 2>/dev/null | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 0
	dd if="$1" bs=1 skip=$((off + 0x200)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}
