/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cryptoname.h - the name this kernel has now for a driver name it no
 * longer has: "xts(ecb(aes-generic))" on 7.x, where the generic AES is
 * "aes-lib", is "xts(ecb(aes-lib))".
 *
 * Driver names are the kernel's, and they change: 7.x moved the generic
 * AES into the AES library (aes-generic -> aes-lib), as 6.14-6.17 did for
 * CRC32C (crc32c-generic -> crc32c-lib).  An experiment written on one
 * kernel (--priority 'xts(ecb(aes-generic))=4001@0') then fails on the next
 * with ENOENT, which names nothing.  The hint comes from /proc/crypto, not
 * from a table of renames: each part of the name that is neither a driver
 * nor an algorithm there ("aes-generic") is replaced by the generic driver
 * of its algorithm (the part before its last '-', "aes"): the one of
 * lowest priority that /proc/crypto lists for that algorithm.
 */
#ifndef DIX_KERNEL_CRYPTONAME_H
#define DIX_KERNEL_CRYPTONAME_H

#include <stddef.h>

#include "kernel/kwatch.h"

/**
 * crypto_name_now() - @name with each part this kernel does not know
 * replaced by its algorithm's generic driver, from the /proc/crypto entries
 * @v (@n of them; pure: no I/O).
 * Return: 0 with the new name in @out (differs from @name), or -ENOENT
 * when every part is known or an unknown part has no replacement.
 */
int crypto_name_now(const struct kw_alg *v, int n, const char *name,
		    char *out, size_t len);

/**
 * crypto_name_hint() - "; this kernel calls it NEW" for @name, from the
 * running kernel's /proc/crypto, into @out ("" when there is none).
 * Return: @out.
 */
const char *crypto_name_hint(const char *name, char *out, size_t len);

#endif
