#!/bin/sh
# The --priority experiment of kcapi-priority.sh on the newest kernel (sid), unchecked (--verify off): the competitor is xts(ecb(aes-lib)), and aesni_intel offers xts-aes-aesni-avx (500) and VAES variants where the CPU has them; the selection after the lowering is whatever /proc/crypto offered before, never assumed.
DIXVM_KERNEL=sid
# 7.x's aes-lib cipher runs AES-NI itself, so the competitor differs from
# aesni's XTS only in its per-block calls; with every result checked the
# checks dominate and hide that (measured, 7.2.13, 4 TFMs x QD16 async:
# 6.4 MB/s on xts(ecb(aes-lib)), 6.6 on xts-aes-aesni-avx, not significant).
PRIORITY_VERIFY=off
. "$top_srcdir/tests/vm/kcapi-priority.sh"
