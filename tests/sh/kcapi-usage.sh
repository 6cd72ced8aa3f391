#!/bin/sh
# kcapi engine on the command line and in profiles: no --dev, --alg required and known, --tfms a multiple of --jobs, no --pi app; the engine's options are its own (block engines refuse them, naming kcapi; a profile sets them for the engine the command line or the profile names); --help lists them under the engine; sweep's usage errors.
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
expect_usage "^dixload: --alg sha256: --engine libaio does not load the kernel crypto API; engines that take --alg: kcapi, kload$" --dev "$WORK/f" --size 1m --alg sha256
# --inject: tag@N is the crypto engine's rule, guard|app|ref the devices'
expect_usage "it is for --engine kcapi" --dev "$WORK/f" --size 1m --inject tag@5
expect_usage "its --inject is tag@N" --engine kcapi --alg 'gcm(aes)' --inject guard@5
expect_usage "not a fault rule" --engine kcapi --alg 'gcm(aes)' --inject tag@0
expect_usage "sha256 has no authentication tag" --engine kcapi --alg sha256 --inject tag@5 --runtime 1
expect_usage "needs --submit sync" --engine kcapi --alg 'gcm(aes)' --inject tag@5 --submit async --runtime 1
expect_usage "--rw write only encrypts" --engine kcapi --alg 'gcm(aes)' --inject tag@5 --rw write --runtime 1
# an algorithm the engine does not drive: named with the list, before any I/O
expect_usage "is not one this engine drives (xts(aes), cbc(aes)" --engine kcapi --alg 'ecb(des)' --runtime 1
# the kernel's wrappers: pcrypt wraps AEADs only; what is inside is checked
expect_usage "pcrypt wraps AEADs only" --engine kcapi --alg 'pcrypt(xts(aes))' --runtime 1
expect_usage "'cryptd(ecb(des))': 'ecb(des)' is not one this engine drives" --engine kcapi --alg 'cryptd(ecb(des))' --runtime 1
expect_usage "is not KEY=V1,V2" sweep iodepth -- --engine kcapi --alg sha256
expect_usage "unknown option 'nosuch'" sweep nosuch=1 -- --engine kcapi --alg sha256
# another engine's option: refused naming the engine that takes it
expect_usage "^dixload: --tfms 4: --engine libaio does not load the kernel crypto API; engines that take --tfms: kcapi, kload$" --dev "$WORK/f" --size 1m --tfms 4
expect_usage "^dixload: --submit async: --engine sync does not load" --engine sync --dev "$WORK/f" --size 1m --submit async
# profiles set engine options: the engine is known before they are read,
# from the profile's own engine= or from the command line
printf 'alg=ecb(des)\nengine=kcapi\n' > "$WORK/kc.profile"
expect_usage "--alg 'ecb(des)' is not one this engine drives" --profile "$WORK/kc.profile" --runtime 1
printf 'alg=sha256\ntfms=3\n' > "$WORK/kc2.profile"
expect_usage "not a multiple of --jobs" --engine kcapi --profile "$WORK/kc2.profile" --jobs 2
expect_usage "^dixload: $WORK/kc2.profile:1: --alg sha256: --engine libaio does not load the kernel crypto API; engines that take --alg: kcapi, kload (in 'alg=sha256')$" --profile "$WORK/kc2.profile" --dev "$WORK/f"
# the command line's engine wins over the profile's, for its options too
expect_usage "kc.profile:1: --alg ecb(des): --engine sync does not load" --engine sync --profile "$WORK/kc.profile" --dev "$WORK/f"
run_dix "$WORK/o" "$WORK/e" --help
grep -q "targets: none (the kernel crypto API; no --dev)" "$WORK/o" || fail "--help lacks the kcapi engine's targets"
# the engine's options are listed under it, not among the run's
sed -n '/^  kcapi /,/^  [a-z_][a-z_]* \|^$/p' "$WORK/o" > "$WORK/kchelp"
for opt in alg tfms submit rebind; do
	grep -q "^             --$opt " "$WORK/kchelp" || fail "--help lists no --$opt under the kcapi engine: $(cat "$WORK/kchelp")"
	! sed -n '1,/^ENGINES/p' "$WORK/o" | grep -q -- "^  --$opt " || fail "--help lists --$opt among the run's options"
done
echo "kcapi usage checks passed"
