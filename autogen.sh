#!/bin/sh
# Regenerate the build system from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
mkdir -p build-aux m4
autoreconf --force --install
# The test harness drivers: automake installs test-driver only for the
# default LOG_DRIVER, and tap-driver.sh never on its own.
am=$(automake --print-libdir)
cp -f "$am/tap-driver.sh" "$am/test-driver" build-aux/
