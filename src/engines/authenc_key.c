// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * authenc_key.c - the key blob of the kernel's authenc() AEAD template.
 *
 * A pure function of its own so the layout is unit-tested on the host
 * (whose kernel has no AF_ALG) against the uapi rtattr macros.
 */
#include "config.h"

#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>

#include "engines/authenc_key.h"
#include "lib/byteorder.h"

/* include/crypto/authenc.h (not uapi): the attribute's type */
#define CRYPTO_AUTHENC_KEYA_PARAM	1

int authenc_key(unsigned char *out, size_t len, const unsigned char *authkey,
		unsigned int authlen, const unsigned char *enckey,
		unsigned int enclen)
{
	struct rtattr rta = {
		.rta_len = RTA_LENGTH(4),
		.rta_type = CRYPTO_AUTHENC_KEYA_PARAM,
	};
	size_t n = AUTHENC_KEY_HDR + (size_t)authlen + enclen;

	if (len < n)
		return -1;
	memcpy(out, &rta, sizeof(rta));
	put_be32(out + sizeof(rta), enclen);
	memcpy(out + AUTHENC_KEY_HDR, authkey, authlen);
	memcpy(out + AUTHENC_KEY_HDR + authlen, enckey, enclen);
	return (int)n;
}
