#!/bin/sh
# --priority is checked before the load: a driver that is not registered, that no earlier --hotload may bring and that is no template instance is refused with exit 1 saying why (or, on a kernel without crypto_user, that there is no crypto_user); bad syntax is refused naming the allowed form; nothing runs.
. "$top_srcdir/tests/sh/lib.sh"

F=$WORK/f.img
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --runtime 1 \
	--priority 'dixload-no-such-driver=5@0.5'
st=$?
[ "$st" = 1 ] || fail "unknown driver: exit $st, want 1: $(cat "$WORK/e")"
grep -qF -- "--priority 'dixload-no-such-driver=5@0.5': " "$WORK/e" ||
	fail "the message does not name the option and value: $(cat "$WORK/e")"
# which reason depends on the kernel: either is a refusal that says why
if grep -q "crypto_user" "$WORK/e"; then
	grep -qE "no crypto_user|without libmnl" "$WORK/e" ||
		fail "crypto_user named without saying what is missing: $(cat "$WORK/e")"
else
	grep -qF "no crypto driver 'dixload-no-such-driver' is registered (/proc/crypto), and no --hotload before it may register it" "$WORK/e" ||
		fail "unknown driver: the reason is not given: $(cat "$WORK/e")"
fi
[ -e "$F" ] && fail "the load ran although --priority was refused"

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --runtime 1 --priority 'xts-aes-aesni@1'
st=$?
[ "$st" = 1 ] || fail "no =N: exit $st, want 1"
grep -qF -- "--priority 'xts-aes-aesni@1': no '=N' giving the priority (allowed: DRIVER=N@SEC)" "$WORK/e" ||
	fail "no =N: message: $(cat "$WORK/e")"
[ -e "$F" ] && fail "the load ran although --priority was refused"
exit 0
