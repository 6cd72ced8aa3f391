// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devdesc_nvme.c - the NVMe provider of the device description: namespace
 * id, Identify Namespace and NVM Command Set Identify Namespace, once per
 * device.
 *
 * The nvme engine sent the Identify pair from every worker's init and probe
 * sent the same sequence again; both read the description now.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_NVME
#include <libnvme.h>
#endif

#include "device/devdesc_nvme.h"
#include "lib/util.h"

int devdesc_nvme_from(struct devdesc_nvme *n, const uint8_t *ns, size_t ns_len,
		      const uint8_t *nvm, size_t nvm_len)
{
	n->has_pi = false;
	n->pif_ok = false;
	memset(&n->pif, 0, sizeof(n->pif));
	if (nvme_parse_id_ns(ns, ns_len, &n->f)) {
		n->stage = DEVDESC_NVME_MALFORMED;
		return -EBADMSG;
	}
	n->stage = DEVDESC_NVME_OK;
	n->nvm_ok = false;
	if (!nvm) {
		nvme_nvm_ns_default(&n->n);	/* NVMe 1.x: 16b guard only */
	} else if (nvme_parse_nvm_id_ns(nvm, nvm_len, n->f.format_index,
					&n->n)) {
		snprintf(n->nvm_note, sizeof(n->nvm_note),
			 "malformed extended LBA format %u", n->f.format_index);
		nvme_nvm_ns_default(&n->n);
	} else {
		n->nvm_ok = true;
	}
	if (!n->f.protection_type)
		return 0;
	n->has_pi = true;
	n->pif.guard = n->n.guard_bits == 64 ? DIX_GUARD_CRC64 :
		       n->n.guard_bits == 32 ? DIX_GUARD_CRC32C :
		       DIX_GUARD_CRC16;
	n->pif.type = n->f.protection_type;
	n->pif.interval = n->f.data_size;
	n->pif.ms = n->f.metadata_size;
	n->pif.pi_first = n->f.pi_first;
	n->pif.interleaved = n->f.extended_lba;
	n->pif_ok = !pi_format_check(&n->pif);
	return 0;
}

#ifdef HAVE_NVME
void devdesc_nvme_ask(struct devdesc_nvme *n, int fd, devdesc_raw_fn *raw,
		      void *arg)
{
	uint8_t *ns, *nvm;
	int st;

	memset(n, 0, sizeof(*n));
	n->asked = true;
	if (nvme_get_nsid(fd, &n->nsid)) {
		n->stage = DEVDESC_NVME_NSID;
		n->err = errno;
		return;
	}
	if (posix_memalign((void **)&ns, 4096, 2 * NVME_IDENTIFY_LEN)) {
		n->stage = DEVDESC_NVME_ID_NS;
		n->status = -1;
		n->err = ENOMEM;
		return;
	}
	nvm = ns + NVME_IDENTIFY_LEN;
	memset(ns, 0, 2 * NVME_IDENTIFY_LEN);
	st = nvme_identify_ns(fd, n->nsid, (struct nvme_id_ns *)ns);
	if (st) {
		n->stage = DEVDESC_NVME_ID_NS;
		n->status = st;
		n->err = st < 0 ? errno : 0;
		goto out;
	}
	if (raw)
		raw(arg, "id-ns", "Identify Namespace", ns, NVME_IDENTIFY_LEN);
	st = nvme_identify_ns_csi(fd, n->nsid, 0, NVME_CSI_NVM, nvm);
	if (st) {
		if (st < 0)
			snprintf(n->nvm_note, sizeof(n->nvm_note),
				 "NVM Command Set Identify Namespace failed: %s",
				 dix_io_strerror(errno));
		else
			snprintf(n->nvm_note, sizeof(n->nvm_note),
				 "NVM Command Set Identify Namespace failed: NVMe status 0x%x",
				 st);
	} else if (raw) {
		raw(arg, "nvm-id-ns", "NVM Command Set Identify Namespace", nvm,
		    NVME_IDENTIFY_LEN);
	}
	devdesc_nvme_from(n, ns, NVME_IDENTIFY_LEN, st ? NULL : nvm,
			  NVME_IDENTIFY_LEN);
out:
	free(ns);
}
#else
void devdesc_nvme_ask(struct devdesc_nvme *n, int fd, devdesc_raw_fn *raw,
		      void *arg)
{
	(void)fd;
	(void)raw;
	(void)arg;
	memset(n, 0, sizeof(*n));
	n->asked = true;
	n->stage = DEVDESC_NVME_NOLIB;
}
#endif

int devdesc_nvme_failure(const struct devdesc_nvme *n, const char *name,
			 char *out, size_t len)
{
	if (!n->asked) {
		snprintf(out, len, "%s: the NVMe description was not asked for",
			 name);
		return -EINVAL;
	}
	switch (n->stage) {
	case DEVDESC_NVME_OK:
		return 0;
	case DEVDESC_NVME_NSID:
		snprintf(out, len, "%s is not an NVMe namespace (NVME_IOCTL_ID: %s)",
			 name, strerror(n->err));
		return -ENODEV;
	case DEVDESC_NVME_NOLIB:
		snprintf(out, len, "%s: dixload was built without libnvme (configure --with-nvme)",
			 name);
		return -EOPNOTSUPP;
	case DEVDESC_NVME_ID_NS:
		if (n->status < 0) {
			snprintf(out, len, "%s: Identify Namespace %u failed: %s",
				 name, n->nsid, strerror(n->err));
			return -EIO;
		}
#ifdef HAVE_NVME
		snprintf(out, len, "%s: Identify Namespace %u failed: %s", name,
			 n->nsid, nvme_status_to_string(n->status, false));
#else
		snprintf(out, len, "%s: Identify Namespace %u failed: NVMe status 0x%x",
			 name, n->nsid, n->status);
#endif
		return -EIO;
	default:
		snprintf(out, len, "%s: Identify Namespace %u failed: malformed data",
			 name, n->nsid);
		return -EIO;
	}
}
