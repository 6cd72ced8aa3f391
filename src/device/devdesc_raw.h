/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devdesc_raw.h - how a provider hands over the bytes a device answered,
 * so probe --raw-dir can save them as tests/data fixtures while the
 * providers stay the only senders of the commands.
 */
#ifndef DIX_DEVDESC_RAW_H
#define DIX_DEVDESC_RAW_H

#include <stddef.h>
#include <stdint.h>

/**
 * typedef devdesc_raw_fn - called with each answer's bytes as they came.
 * @arg: the caller's
 * @name: file name stem ("inquiry", "readcap16", "id-ns", "nvm-id-ns")
 * @what: the command in words ("READ CAPACITY(16)")
 */
typedef void devdesc_raw_fn(void *arg, const char *name, const char *what,
			    const uint8_t *buf, size_t len);

#endif
