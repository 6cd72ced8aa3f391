dnl dix_reliab.m4 - the sanitizer build and the libFuzzer build switches.
dnl
dnl DIX_SANITIZERS
dnl   --enable-sanitizers: compile and link everything (libdix, dixload, the
dnl   unit tests) with AddressSanitizer and UndefinedBehaviorSanitizer.
dnl   -fno-sanitize-recover=all makes every UBSan report abort the program,
dnl   so a report fails the test that triggered it instead of scrolling past
dnl   in its log; -fno-omit-frame-pointer keeps the reports' stacks whole.
dnl   float-cast-overflow is named because gcc leaves it out of "undefined"
dnl   (clang has it there): a double of seconds cast to time_t is one.
dnl   -ftrivial-auto-var-init=pattern (gcc 12, clang 8), when the compiler
dnl   has it, makes a read of an uninitialised stack variable fail alike on
dnl   every run.
dnl   Sets SAN_CFLAGS and SAN_LDFLAGS, the SANITIZE automake conditional
dnl   (the tests then run with ASAN_OPTIONS/UBSAN_OPTIONS of their own) and
dnl   DIX_SANITIZED in config.h (--version says so).
dnl
dnl DIX_FUZZ
dnl   --enable-fuzz (auto by default; yes = clang with libFuzzer must be
dnl   found; no = off): look for a clang that links -fsanitize=fuzzer.
dnl   libFuzzer exists only in clang, so the fuzz targets are built with
dnl   FUZZ_CC whatever CC is; `make fuzz` compiles a second copy of libdix
dnl   with it (libdixfuzz.a).  Sets FUZZ_CC and the FUZZ conditional.
dnl   Without clang, configure still succeeds and `make fuzz` says what to
dnl   install.

AC_DEFUN([DIX_SANITIZERS], [
	AC_ARG_ENABLE([sanitizers],
		[AS_HELP_STRING([--enable-sanitizers],
			[build with ASan + UBSan (reports abort) for testing (default: no)])],
		[], [enable_sanitizers=no])
	SAN_CFLAGS=
	SAN_LDFLAGS=
	AS_IF([test "x$enable_sanitizers" = xyes], [
		dix_san="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer"
		AC_MSG_CHECKING([whether $CC links $dix_san])
		dix_save_CFLAGS=$CFLAGS
		dix_save_LDFLAGS=$LDFLAGS
		CFLAGS="$CFLAGS $dix_san"
		LDFLAGS="$LDFLAGS $dix_san"
		AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <stdlib.h>]],
				[[char *p = malloc(4); p[0] = 0; free(p);]])],
			[AC_MSG_RESULT([yes])],
			[AC_MSG_RESULT([no])
			 AC_MSG_ERROR([--enable-sanitizers: $CC cannot link with $dix_san (gcc needs libasan and libubsan: apt-get install gcc)])])
		dnl Uninitialised stack variables get a pattern instead of
		dnl whatever the stack held: a use of one (ASan does not see
		dnl those) then fails the same way on every run.
		AC_MSG_CHECKING([whether $CC accepts -ftrivial-auto-var-init=pattern])
		CFLAGS="$CFLAGS -ftrivial-auto-var-init=pattern -Werror"
		AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
			[AC_MSG_RESULT([yes])
			 dix_san="$dix_san -ftrivial-auto-var-init=pattern"],
			[AC_MSG_RESULT([no])])
		CFLAGS=$dix_save_CFLAGS
		LDFLAGS=$dix_save_LDFLAGS
		SAN_CFLAGS=$dix_san
		SAN_LDFLAGS=$dix_san
		AC_DEFINE([DIX_SANITIZED], [1], [built with ASan + UBSan])
	])
	AC_SUBST([SAN_CFLAGS])
	AC_SUBST([SAN_LDFLAGS])
	AM_CONDITIONAL([SANITIZE], [test "x$enable_sanitizers" = xyes])
])

AC_DEFUN([DIX_FUZZ], [
	AC_ARG_ENABLE([fuzz],
		[AS_HELP_STRING([--enable-fuzz],
			[libFuzzer targets for `make fuzz' (needs clang; default: auto)])],
		[], [enable_fuzz=auto])
	AC_ARG_VAR([FUZZ_CC], [clang used for the libFuzzer targets])
	have_fuzz=no
	dix_why_fuzz=
	AS_IF([test "x$enable_fuzz" = xno], [dix_why_fuzz="--disable-fuzz"], [
		AS_IF([test -z "$FUZZ_CC"],
			[AC_CHECK_PROGS([FUZZ_CC], [clang clang-14 clang-15 clang-16 clang-17 clang-18 clang-19])])
		# libFuzzer's runtime ships per clang major version (Debian 12:
		# libclang-rt-14-dev, 13: libclang-rt-19-dev), so the hint names
		# the package that fits the clang found, not one release's
		dix_fuzz_hint="clang and the libclang-rt-N-dev of its major version N"
		AS_IF([test -n "$FUZZ_CC"], [
			dix_clang_major=`$FUZZ_CC -dumpversion 2>/dev/null | sed -n 's/^\([[0-9]][[0-9]]*\).*/\1/p'`
			AS_IF([test -n "$dix_clang_major"],
				[dix_fuzz_hint="libclang-rt-$dix_clang_major-dev"])
		])
		AS_IF([test -z "$FUZZ_CC"], [dix_why_fuzz="no clang found"], [
			AC_MSG_CHECKING([whether $FUZZ_CC links -fsanitize=fuzzer,address,undefined])
			cat > conftest-fuzz.c <<_DIXEOF
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return n && d[[0]] == 1; }
_DIXEOF
			AS_IF([$FUZZ_CC -fsanitize=fuzzer,address,undefined conftest-fuzz.c \
				-o conftest-fuzz >&AS_MESSAGE_LOG_FD 2>&1],
				[have_fuzz=yes],
				[dix_why_fuzz="$FUZZ_CC cannot link -fsanitize=fuzzer"])
			rm -f conftest-fuzz.c conftest-fuzz
			AC_MSG_RESULT([$have_fuzz])
		])
		AS_IF([test "x$enable_fuzz" = xyes && test "x$have_fuzz" = xno],
			[AC_MSG_ERROR([--enable-fuzz given but $dix_why_fuzz: install $dix_fuzz_hint])])
	])
	AS_IF([test -z "$dix_fuzz_hint"],
		[dix_fuzz_hint="clang and the libclang-rt-N-dev of its major version N"])
	AC_SUBST([FUZZ_HINT], [$dix_fuzz_hint])
	AM_CONDITIONAL([FUZZ], [test "x$have_fuzz" = xyes])
	AS_IF([test "x$have_fuzz" = xyes],
		[dix_summary="$dix_summary
  m4_format([%-14s], [fuzz:])yes  (make fuzz with $FUZZ_CC)"],
		[dix_summary="$dix_summary
  m4_format([%-14s], [fuzz:])no   ($dix_why_fuzz; install $dix_fuzz_hint)"])
])
