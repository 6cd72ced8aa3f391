// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-authenc-key.c - the authenc() key blob parses the way the kernel's
 * crypto_authenc_extractkeys() parses it (rtattr checks spelled out here
 * with the uapi macros), and its bytes are the ones expected on x86.
 */
#include "config.h"

#include <endian.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "engines/authenc_key.h"
#include "tap.h"

int main(void)
{
	unsigned char auth[32], enc[32], blob[80];	/* enc: up to AES-256 */
	const struct rtattr *rta = (const struct rtattr *)blob;
	const unsigned char *p;
	unsigned int i, enclen;
	int n;

	for (i = 0; i < sizeof(auth); i++)
		auth[i] = 0xa0 + i;
	for (i = 0; i < sizeof(enc); i++)
		enc[i] = 0x10 + i;
	n = authenc_key(blob, sizeof(blob), auth, 32, enc, 16);
	is_int(n, 8 + 32 + 16, "blob length: header, MAC key, cipher key");
	ok(RTA_OK(rta, n), "RTA_OK over the blob");
	is_int(rta->rta_type, 1, "type CRYPTO_AUTHENC_KEYA_PARAM");
	is_int(RTA_PAYLOAD(rta), 4, "payload exactly the __be32 enckeylen");
	p = RTA_DATA(rta);
	enclen = (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
	is_int(enclen, 16, "enckeylen big-endian");
	ok(!memcmp(blob + rta->rta_len, auth, 32),
	   "MAC key right after the attribute");
	ok(!memcmp(blob + n - enclen, enc, 16), "cipher key last");
#if __BYTE_ORDER == __LITTLE_ENDIAN
	{
		static const unsigned char hdr[8] = { 8, 0, 1, 0, 0, 0, 0, 16 };

		ok(!memcmp(blob, hdr, 8), "header bytes 08 00 01 00 00 00 00 10");
	}
#endif
	is_int(authenc_key(blob, 55, auth, 32, enc, 16), -1,
	       "too small a buffer refused");
	n = authenc_key(blob, sizeof(blob), auth, 20, enc, sizeof(enc));
	p = RTA_DATA(rta);
	is_int(n, 60, "other lengths: 8 + 20 + 32");
	is_int(p[3], 32, "enckeylen follows the cipher key");
	return tap_done();
}
