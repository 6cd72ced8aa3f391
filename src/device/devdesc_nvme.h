/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devdesc_nvme.h - the NVMe provider of the device description: the
 * namespace's id, its Identify Namespace and NVM Command Set Identify
 * Namespace data, and the protection format that follows, asked once per
 * device for the run and for probe.  Parsing the answers into the
 * description is pure (devdesc_nvme_from()), tested on tests/data/NAME.hex.
 */
#ifndef DIX_DEVDESC_NVME_H
#define DIX_DEVDESC_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/devdesc_raw.h"
#include "pi/pi.h"
#include "proto/nvme_parse.h"

/** enum devdesc_nvme_stage - where asking the namespace stopped. */
enum devdesc_nvme_stage {
	DEVDESC_NVME_OK,	/* Identify Namespace answered and parsed */
	DEVDESC_NVME_NSID,	/* NVME_IOCTL_ID failed: not a namespace */
	DEVDESC_NVME_ID_NS,	/* Identify Namespace failed */
	DEVDESC_NVME_MALFORMED,	/* it answered bytes the parser refused */
	DEVDESC_NVME_NOLIB,	/* dixload was built without libnvme */
};

/**
 * struct devdesc_nvme - the NVMe namespace's own description.
 * @asked: the provider ran (devdesc_nvme_ask())
 * @stage: DEVDESC_NVME_OK, or where it stopped
 * @err: errno of a failed ioctl (@stage NSID, or ID_NS with @status < 0)
 * @status: Identify Namespace: 0, the NVMe status (> 0) or < 0 (ioctl
 *	failed, @err)
 * @nsid: namespace id
 * @f: Identify Namespace: format, metadata, protection settings (@stage OK)
 * @nvm_ok: @n came from the NVM Command Set specific Identify Namespace
 * @nvm_note: when !@nvm_ok, why (the 16-bit guard format is then implied)
 * @n: protection information format of the in-use LBA format
 * @has_pi: the namespace is formatted with protection information
 * @pif: with @has_pi, its format: guard from @n, the type, one interval per
 *	block of @f.data_size bytes, @f.metadata_size bytes of metadata,
 *	interleaved on an extended-LBA namespace
 * @pif_ok: @pif passes pi_format_check() (dixload can generate it)
 */
struct devdesc_nvme {
	bool asked;
	enum devdesc_nvme_stage stage;
	int err;
	int status;
	unsigned int nsid;
	struct nvme_ns_format f;
	bool nvm_ok;
	char nvm_note[128];
	struct nvme_nvm_ns n;
	bool has_pi;
	struct pi_format pif;
	bool pif_ok;
};

/**
 * devdesc_nvme_from() - parse the Identify answers into @n (pure).
 * @ns: Identify Namespace bytes
 * @nvm: NVM Command Set Identify Namespace bytes, or NULL when it gave none
 *	(@n->nvm_note then says why, set by the caller)
 *
 * Return: 0, or -EBADMSG when @ns does not parse (@n->stage MALFORMED).  A
 * @nvm that does not parse implies the 16-bit guard format, with a note.
 */
int devdesc_nvme_from(struct devdesc_nvme *n, const uint8_t *ns, size_t ns_len,
		      const uint8_t *nvm, size_t nvm_len);

/**
 * devdesc_nvme_ask() - ask the namespace open as @fd for its id and
 * Identify data and describe it in @n.
 * @raw: called with each answer's bytes (NULL: not wanted)
 *
 * Only Identify commands are sent.
 */
void devdesc_nvme_ask(struct devdesc_nvme *n, int fd, devdesc_raw_fn *raw,
		      void *arg);

/**
 * devdesc_nvme_failure() - why the namespace gave no format, as an error
 * message naming @name ("nvme0n1: Identify Namespace 1 failed: ...").
 *
 * Return: 0 when it did give one (@out untouched), else -errno.
 */
int devdesc_nvme_failure(const struct devdesc_nvme *n, const char *name,
			 char *out, size_t len);

#endif
