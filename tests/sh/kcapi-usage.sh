#!/bin/sh
# kcapi engine on the command line: no --dev, --alg required and known, --tfms a multiple of --jobs, no --pi app; block engines refuse --alg; sweep's usage errors.
. "$top_srcdir/tests/sh/lib.sh"
need_feature kcapi

expect_usage() {
	want=$1; shift
	run_dix "$WORK/o" "$WORK/e" "$@"
	st=$?
	[ "$st" = 1 ] || fail "$*: exit $st, want 1: $(cat "$WORK/e")"
	grep -q -- "$want" "$WORK/e" || fail "$*: no '$want' in: $(cat "$WORK/e")"
}

expect_usage "takes no --dev" --engine kcapi --alg 'xts(aes)' --dev "$WORK/f"
expect_usage "needs --alg" --engine kcapi
expect_usage "not a multiple of --jobs" --engine kcapi --alg sha256 --tfms 3 --jobs 2
expect_usage "checks every result itself" --engine kcapi --alg sha256 --pi app
expect_usage "is for crypto engines" --dev "$WORK/f" --size 1m --alg sha256
# --inject: tag@N is the crypto engine's rule, guard|app|ref the devices'
expect_usage "it is for --engine kcapi" --dev "$WORK/f" --size 1m --inject tag@5
expect_usage "its --inject is tag@N" --engine kcapi --alg 'gcm(aes)' --inject guard@5
expect_usage "not a fault rule" --engine kcapi --alg 'gcm(aes)' --inject tag@0
expect_usage "sha256 has no authentication tag" --engine kcapi --alg sha256 --inject tag@5 --runtime 1
expect_usage "needs --submit sync" --engine kcapi --alg 'gcm(aes)' --inject tag@5 --submit async --runtime 1
expect_usage "--rw write only encrypts" --engine kcapi --alg 'gcm(aes)' --inject tag@5 --rw write --runtime 1
# an algorithm the engine does not drive: named with the list, before any I/O
expect_usage "is not one this engine drives (xts(aes), cbc(aes)" --engine kcapi --alg 'ecb(des)' --runtime 1
expect_usage "is not KEY=V1,V2" sweep iodepth -- --engine kcapi --alg sha256
expect_usage "unknown option 'nosuch'" sweep nosuch=1 -- --engine kcapi --alg sha256
run_dix "$WORK/o" "$WORK/e" --help
grep -q "targets: none (the kernel crypto API; no --dev)" "$WORK/o" || fail "--help lacks the kcapi engine's targets"
echo "kcapi usage checks passed"
