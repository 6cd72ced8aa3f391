/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * authenc_key.h - the key blob the kernel's authenc() template takes.
 */
#ifndef DIX_AUTHENC_KEY_H
#define DIX_AUTHENC_KEY_H

#include <stddef.h>

/* struct rtattr (4 bytes) + struct crypto_authenc_key_param (__be32) */
#define AUTHENC_KEY_HDR		8

/**
 * authenc_key() - lay out the key of an authenc(MAC,CIPHER) AEAD into @out.
 * @out: the blob, at least AUTHENC_KEY_HDR + @authlen + @enclen bytes
 * @len: bytes of room in @out
 * @authkey: the MAC's key, @authlen bytes
 * @enckey: the cipher's key, @enclen bytes
 *
 * The kernel (crypto_authenc_extractkeys(), include/crypto/authenc.h)
 * takes one setkey blob: a struct rtattr of type CRYPTO_AUTHENC_KEYA_PARAM
 * (1) whose payload is exactly the big-endian 32-bit cipher key length,
 * then the MAC key, then the cipher key (the MAC key's length is what is
 * left).  The rtattr header is in host byte order.
 *
 * Return: the blob's length, or -1 when @len is too small.
 */
int authenc_key(unsigned char *out, size_t len, const unsigned char *authkey,
		unsigned int authlen, const unsigned char *enckey,
		unsigned int enclen);

#endif
