dnl dix_lib.m4 - dixload's optional-library check, written once.
dnl
dnl DIX_LIB(NAME, VAR, PKG, HEADER, LIB, SYMBOL, DEBPKG, WHAT)
dnl
dnl   NAME    the --with-NAME switch (three states: auto by default; yes = the
dnl           library must be found or configure fails; no = left out)
dnl   VAR     prefix of VAR_CFLAGS / VAR_LIBS, of the HAVE_VAR define and of
dnl           the HAVE_VAR automake conditional
dnl   PKG     pkg-config module, or empty when the library ships no .pc file
dnl   HEADER  header to check when pkg-config is absent or fails
dnl   LIB     -lLIB for the link check
dnl   SYMBOL  a symbol the library really exports (nm -D), not a static
dnl           inline of its headers: libnvme 1.3's nvme_identify_ns is one
dnl   DEBPKG  the Debian package to name when it is missing
dnl   WHAT    what it brings, for the summary
dnl
dnl pkg-config is tried first; when it fails (e.g. libnvme.pc names json-c in
dnl Requires.private and json-c's .pc is absent), a header and link check
dnl decides, and the summary says why: "no (pkg-config: ...; libnvme.h not
dnl found)" instead of a bare "no".  Sets have_NAME to yes or no.
AC_DEFUN([DIX_LIB], [
	AC_ARG_WITH([$1], [AS_HELP_STRING([--with-$1], [$8 (default: auto)])],
		[], [with_$1=auto])
	have_$1=no
	dix_why_$1=
	AS_IF([test "x$with_$1" = xno], [dix_why_$1="--without-$1"], [
		m4_ifval([$3], [
			PKG_CHECK_MODULES([$2], [$3], [have_$1=yes; dix_why_$1="pkg-config $3"], [
				dix_why_$1="pkg-config: `echo "$$2_PKG_ERRORS" | sed -n '1{s/^ *//;p;}'`"
			])
		])
		AS_IF([test "x$have_$1" = xno], [
			AC_CHECK_HEADER([$4], [
				AC_CHECK_LIB([$5], [$6], [
					have_$1=yes
					$2_CFLAGS=
					$2_LIBS=-l$5
					dix_why_$1="${dix_why_$1:+$dix_why_$1; }linked -l$5 directly"
				], [dix_why_$1="${dix_why_$1:+$dix_why_$1; }$6 not in -l$5"])
			], [dix_why_$1="${dix_why_$1:+$dix_why_$1; }$4 not found"])
		])
		AS_IF([test "x$with_$1" = xyes && test "x$have_$1" = xno],
			[AC_MSG_ERROR([--with-$1 given but lib$5 is unusable ($dix_why_$1): install $7])])
	])
	AS_IF([test "x$have_$1" = xyes],
		[AC_DEFINE([HAVE_$2], [1], [$8])],
		[$2_CFLAGS=; $2_LIBS=])
	AC_SUBST([$2_CFLAGS])
	AC_SUBST([$2_LIBS])
	AM_CONDITIONAL([HAVE_$2], [test "x$have_$1" = xyes])
	AS_IF([test "x$have_$1" = xyes],
		[dix_summary="$dix_summary
  m4_format([%-14s], [$1:])yes  ($8)"],
		[dix_summary="$dix_summary
  m4_format([%-14s], [$1:])no   ($dix_why_$1; install $7)"])
])
