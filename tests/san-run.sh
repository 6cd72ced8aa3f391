#!/bin/sh
# san-run.sh - run one test of a sanitized build (configure
# --enable-sanitizers) and fail it when any process of it left a sanitizer
# report: the unit test itself, or a dixload the test started (on this
# machine, or in a scripts/dixvm guest, which hands its reports back).
#
# A report must fail the test whatever the test does with dixload's exit
# status: shell tests capture dixload's stderr into files and some expect a
# non-zero status (usage errors), where an ASan exit would pass unseen.  So
# the reports go to files (log_path) in a directory of this test's own, and
# this wrapper prints every one into the test's log, prefixed with '# ' so
# the TAP driver shows them as comments, and exits 1: FAIL for a shell test,
# ERROR for a TAP unit test.
#
# Options: every report is fatal (halt_on_error, and the build's
# -fno-sanitize-recover=all for UBSan); leaks are reported at exit
# (detect_leaks); stack traces for UBSan too.  ASAN_OPTIONS/UBSAN_OPTIONS
# already in the environment are appended, so a developer can add to them.

dir=$(mktemp -d "${TMPDIR:-/tmp}/dixload-san.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT

ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:log_path=$dir/report${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$dir/report${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
LSAN_OPTIONS="log_path=$dir/report${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# scripts/dixvm copies the reports of a sanitized dixload in the guest here
DIXLOAD_SAN_REPORTS=$dir
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS DIXLOAD_SAN_REPORTS

"$@"
status=$?

reports=$(find "$dir" -type f -name 'report*' | sort)
if [ -n "$reports" ]; then
	echo "# sanitizer report(s) from $*: (test status was $status)"
	for r in $reports; do
		echo "# ---- $r"
		sed 's/^/# /' "$r"
	done
	exit 1
fi
exit "$status"
