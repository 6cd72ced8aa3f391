/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cryptouser.h - the kernel's crypto_user netlink interface (NETLINK_CRYPTO):
 * one registered algorithm by driver name, its priority changed, a template
 * instance registered or deleted.
 *
 * Why netlink and not /proc/crypto: /proc/crypto is read-only and hides the
 * kernel's internal flags (CRYPTO_ALG_ALLOCATES_MEMORY, which dm-crypt
 * excludes); crypto_user (crypto/crypto_user.c) is the one interface that
 * sets a registered driver's priority at run time (CRYPTO_MSG_UPDATEALG),
 * which is what the 2023 QAT patch did with a kernel build.
 *
 * Messages are built and parsed by pure functions over buffers (the unit
 * tests feed canned replies, tests/data/cru/); only cru_open() and the
 * calls that take a struct cru_sock touch a socket.  Built on libmnl; without
 * it (configure --without-mnl) every call returns -EOPNOTSUPP.
 */
#ifndef DIX_CRYPTOUSER_H
#define DIX_CRYPTOUSER_H

#include <stddef.h>
#include <stdint.h>

/* The crypto API's name length (CRYPTO_MAX_NAME), the NUL included. */
#define CRU_NAME_LEN	64

/*
 * Bits of cru_flags, the kernel's cra_flags as crypto_user reports them.
 * Not all are in the uapi headers: CRU_F_ALLOCATES_MEMORY is the kernel's
 * internal CRYPTO_ALG_ALLOCATES_MEMORY (include/linux/crypto.h, since 5.9),
 * which in-kernel users such as dm-crypt mask out; /proc/crypto never shows
 * it.
 */
#define CRU_F_TYPE_MASK		0x0000000fu
#define CRU_F_LARVAL		0x00000010u
#define CRU_F_DEAD		0x00000020u
#define CRU_F_DYING		0x00000040u
#define CRU_F_ASYNC		0x00000080u
#define CRU_F_NEED_FALLBACK	0x00000100u
#define CRU_F_TESTED		0x00000400u
#define CRU_F_INSTANCE		0x00000800u
#define CRU_F_KERN_DRIVER_ONLY	0x00001000u
#define CRU_F_INTERNAL		0x00002000u
#define CRU_F_ALLOCATES_MEMORY	0x00010000u

/**
 * struct cru_alg - one registered algorithm as crypto_user reports it.
 * @name: the algorithm ("xts(aes)")
 * @driver: the implementation ("xts-aes-aesni", "xts(ecb(aes-generic))")
 * @module: the module providing it ("aesni_intel", "kernel")
 * @type: the report attribute's type ("skcipher", "cipher", "shash"...),
 *	"" when the reply carried none
 * @flags: the kernel's cra_flags (CRU_F_*), internal bits included
 * @refcnt: the kernel's reference count as the reply carries it, which
 *	includes the reference crypto_user holds while it reports: one more
 *	than /proc/crypto shows (2 for a registered algorithm nobody holds,
 *	+1 for each TFM or instance holding it); cru_get() takes that one off
 * @have_priority: the reply carried CRYPTOCFGA_PRIORITY_VAL
 * @priority: the driver's priority (higher wins a lookup by name)
 */
struct cru_alg {
	char name[CRU_NAME_LEN];
	char driver[CRU_NAME_LEN];
	char module[CRU_NAME_LEN];
	char type[CRU_NAME_LEN];
	uint32_t flags;
	uint32_t refcnt;
	int have_priority;
	uint32_t priority;
};

/* The requests dixload sends (CRYPTO_MSG_*). */
enum cru_op {
	CRU_GET,	/* CRYPTO_MSG_GETALG: report one algorithm */
	CRU_UPDATE,	/* CRYPTO_MSG_UPDATEALG: set a driver's priority */
	CRU_NEW,	/* CRYPTO_MSG_NEWALG: instantiate by name, set priority */
	CRU_DELETE,	/* CRYPTO_MSG_DELALG: unregister a template instance */
};

/**
 * cru_build() - compose one request into @buf (no I/O).
 * @buf: where the message goes, 4-byte aligned
 * @len: its size; 512 bytes always suffice
 * @op: enum cru_op
 * @driver: the driver name the request is about (the kernel matches
 *	UPDATE, DELETE and a NEW with a priority on the driver name only)
 * @have_priority: add CRYPTOCFGA_PRIORITY_VAL (UPDATE and NEW only)
 * @priority: its value
 * @seq: the sequence number the reply must carry
 *
 * GET asks for no acknowledgement (the report is the answer); UPDATE, NEW and
 * DELETE ask for one, so success is an explicit error 0 from the kernel.
 *
 * Return: the message's length, or -EINVAL (@driver empty or longer than
 * CRU_NAME_LEN - 1, a priority on GET or DELETE), -ENOSPC (@len too small).
 */
int cru_build(void *buf, size_t len, int op, const char *driver,
	      int have_priority, uint32_t priority, uint32_t seq);

/**
 * cru_parse() - read the kernel's reply to request @seq (no I/O).
 * @buf: what recv() returned (one or more netlink messages)
 * @len: its length
 * @seq: the request's sequence number; messages of another sequence are
 *	refused (-EPROTO): a stale reply must not answer a new request
 * @out: filled from a CRYPTO_MSG_GETALG report when @buf holds one (may be
 *	NULL when no report is expected)
 *
 * Return: 1 a report was parsed into @out; 0 the kernel acknowledged
 * (error 0) without a report; -errno the kernel refused the request
 * (NLMSG_ERROR: -ENOENT no such driver, -EPERM no CAP_NET_ADMIN, -EBUSY
 * still held, -EEXIST already registered, -EINVAL not an instance);
 * -EBADMSG a truncated or malformed message (a report shorter than struct
 * crypto_user_alg, names without their NUL, a priority attribute that is not
 * a u32, bytes left over); -EPROTO a message of another sequence; -ENODATA
 * nothing that answers the request.
 */
int cru_parse(const void *buf, size_t len, uint32_t seq, struct cru_alg *out);

/**
 * cru_flags_text() - the flags in words for messages: "async",
 * "allocates memory (kernel-internal flag)", "instance", "internal", "not
 * tested", separated by ", "; "" when none of them is set.
 * Return: @buf.
 */
char *cru_flags_text(uint32_t flags, char *buf, size_t len);

struct cru_sock;

/**
 * cru_open() - open a NETLINK_CRYPTO socket.
 * @err: set to 0, or -errno: -EPROTONOSUPPORT when the kernel has no
 *	crypto_user (module not loaded, or not built), -EOPNOTSUPP when
 *	dixload was built without libmnl
 *
 * Return: the socket (free with cru_close()), or NULL.
 */
struct cru_sock *cru_open(int *err);

/** cru_close() - close @s (NULL is fine). */
void cru_close(struct cru_sock *s);

/**
 * cru_get() - report registered algorithm @driver (by driver name), with
 * @out->refcnt as /proc/crypto counts it (crypto_user's own reference
 * taken off; measured on 6.1: /proc/crypto 5, the reply 6).
 * Return: 0 with *@out filled, -ENOENT when no driver has that name, other
 * -errno (socket failures, a malformed reply: -EBADMSG).
 */
int cru_get(struct cru_sock *s, const char *driver, struct cru_alg *out);

/**
 * cru_set_priority() - set registered driver @driver's priority to @prio
 * (CRYPTO_MSG_UPDATEALG).  The kernel also tears down the template
 * instances spawned on @driver that nothing holds, so the next lookup
 * selects again; open TFMs keep their driver.
 * Return: 0, -ENOENT no such driver, -EPERM without CAP_NET_ADMIN, other
 * -errno.
 */
int cru_set_priority(struct cru_sock *s, const char *driver, uint32_t prio);

/**
 * cru_instantiate() - register @driver, a template instance named by its
 * driver name ("xts(ecb(aes-generic))"), through the kernel's own lookup
 * (CRYPTO_MSG_NEWALG: the crypto manager builds it from its templates,
 * loading their modules), at priority @prio when @have_priority.
 * Return: 0, -EEXIST already registered, -ENOENT no template or
 * algorithm makes that name, -EPERM, other -errno.
 */
int cru_instantiate(struct cru_sock *s, const char *driver, int have_priority,
		    uint32_t prio);

/**
 * cru_delete() - unregister template instance @driver (CRYPTO_MSG_DELALG).
 * Return: 0, -EBUSY while a TFM or another instance holds it, -EINVAL
 * when @driver is not an instance (a module's driver: unload the module),
 * -ENOENT, -EPERM, other -errno.
 */
int cru_delete(struct cru_sock *s, const char *driver);

#endif
