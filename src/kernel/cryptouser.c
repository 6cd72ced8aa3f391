// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cryptouser.c - crypto_user netlink requests (GETALG, UPDATEALG, NEWALG,
 * DELALG) through libmnl.
 *
 * Why: the 2023 QAT patch changed a driver's priority so that the kernel
 * would stop selecting a slower one; crypto_user's UPDATEALG does the same
 * at run time, and GETALG is the only place the kernel's internal
 * CRYPTO_ALG_ALLOCATES_MEMORY bit can be read (cru_flags).
 *
 * Building and parsing are pure functions over buffers, so the parser is
 * tested on canned replies, truncated and malformed ones included; the
 * socket calls only send, receive and hand the bytes over.  A request waits
 * for the reply to its own sequence number and nothing else: the kernel
 * answers on the same socket, so a late reply to an earlier request (a
 * timed-out one) is skipped, never taken for this one's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cryptouser.h"

char *cru_flags_text(uint32_t flags, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		int want;	/* 1: named when set, 0: when clear */
		const char *text;
	} words[] = {
		{ CRU_F_ASYNC, 1, "async" },
		{ CRU_F_ALLOCATES_MEMORY, 1,
		  "allocates memory (kernel-internal flag)" },
		{ CRU_F_INSTANCE, 1, "instance" },
		{ CRU_F_INTERNAL, 1, "internal" },
		{ CRU_F_TESTED, 0, "not tested" },
	};
	size_t i, at = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		int n;

		if (!(flags & words[i].bit) != !words[i].want)
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
			     words[i].text);
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += n;
	}
	return buf;
}

#ifdef HAVE_MNL

#include <linux/cryptouser.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#ifndef NETLINK_CRYPTO
#define NETLINK_CRYPTO	21
#endif

static const int op_type[] = {
	[CRU_GET] = CRYPTO_MSG_GETALG,
	[CRU_UPDATE] = CRYPTO_MSG_UPDATEALG,
	[CRU_NEW] = CRYPTO_MSG_NEWALG,
	[CRU_DELETE] = CRYPTO_MSG_DELALG,
};

int cru_build(void *buf, size_t len, int op, const char *driver,
	      int have_priority, uint32_t priority, uint32_t seq)
{
	struct crypto_user_alg *ua;
	struct nlmsghdr *nlh;
	size_t need = MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(*ua)) +
		      MNL_ATTR_HDRLEN + MNL_ALIGN(sizeof(uint32_t));

	if (op < CRU_GET || op > CRU_DELETE || !driver || !driver[0] ||
	    strlen(driver) >= sizeof(ua->cru_driver_name))
		return -EINVAL;
	if (have_priority && op != CRU_UPDATE && op != CRU_NEW)
		return -EINVAL;
	if (len < need)
		return -ENOSPC;
	memset(buf, 0, need);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = op_type[op];
	nlh->nlmsg_flags = NLM_F_REQUEST | (op == CRU_GET ? 0 : NLM_F_ACK);
	nlh->nlmsg_seq = seq;
	ua = mnl_nlmsg_put_extra_header(nlh, sizeof(*ua));
	/* the kernel matches on the driver name whenever one is given; the
	 * algorithm name stays empty so that nothing else can match */
	memcpy(ua->cru_driver_name, driver, strlen(driver) + 1);
	if (have_priority)
		mnl_attr_put_u32(nlh, CRYPTOCFGA_PRIORITY_VAL, priority);
	return (int)nlh->nlmsg_len;
}

/* A fixed-size name of the report, copied only when its NUL is inside. */
static int copy_name(char *dst, const char *src, size_t n)
{
	if (!memchr(src, '\0', n))
		return -EBADMSG;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

struct attr_ctx {
	struct cru_alg *a;
	int bad;
};

static int report_attr(const struct nlattr *attr, void *data)
{
	struct attr_ctx *x = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == CRYPTOCFGA_PRIORITY_VAL) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0) {
			x->bad = 1;
			return MNL_CB_ERROR;
		}
		x->a->priority = mnl_attr_get_u32(attr);
		x->a->have_priority = 1;
	} else if (type >= CRYPTOCFGA_REPORT_LARVAL &&
		   type <= CRYPTOCFGA_REPORT_ACOMP) {
		/* every crypto_report_* struct opens with char type[64] */
		if (mnl_attr_get_payload_len(attr) < CRU_NAME_LEN ||
		    copy_name(x->a->type, mnl_attr_get_payload(attr),
			      CRU_NAME_LEN)) {
			x->bad = 1;
			return MNL_CB_ERROR;
		}
	}
	/* statistics and attributes of later kernels: not needed */
	return MNL_CB_OK;
}

static int parse_report(const struct nlmsghdr *nlh, struct cru_alg *out)
{
	const struct crypto_user_alg *ua;
	struct cru_alg a;
	struct attr_ctx x = { &a, 0 };

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ua))
		return -EBADMSG;
	ua = mnl_nlmsg_get_payload(nlh);
	memset(&a, 0, sizeof(a));
	if (copy_name(a.name, ua->cru_name, sizeof(ua->cru_name)) ||
	    copy_name(a.driver, ua->cru_driver_name,
		      sizeof(ua->cru_driver_name)) ||
	    copy_name(a.module, ua->cru_module_name,
		      sizeof(ua->cru_module_name)))
		return -EBADMSG;
	a.flags = ua->cru_flags;
	a.refcnt = ua->cru_refcnt;
	if (mnl_attr_parse(nlh, MNL_ALIGN(sizeof(*ua)), report_attr, &x) < 0 ||
	    x.bad)
		return -EBADMSG;
	if (out)
		*out = a;
	return 1;
}

int cru_parse(const void *buf, size_t len, uint32_t seq, struct cru_alg *out)
{
	const struct nlmsghdr *nlh = buf;
	int left = (int)len, ret = -ENODATA;

	if (len > (size_t)1 << 30)
		return -EBADMSG;
	while (mnl_nlmsg_ok(nlh, left)) {
		if (nlh->nlmsg_seq != seq)
			return -EPROTO;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e;

			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
				return -EBADMSG;
			e = mnl_nlmsg_get_payload(nlh);
			if (e->error > 0)
				return -EBADMSG;
			/* an acknowledgement after a report keeps the report */
			return e->error < 0 ? e->error : ret == 1 ? 1 : 0;
		}
		if (nlh->nlmsg_type == CRYPTO_MSG_GETALG) {
			ret = parse_report(nlh, out);
			if (ret < 0)
				return ret;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			return ret == 1 ? 1 : -ENODATA;
		}
		/* NLMSG_NOOP and unknown types carry nothing for us */
		nlh = mnl_nlmsg_next(nlh, &left);
	}
	/* bytes that do not make a whole message: a truncated reply */
	if (left != 0)
		return -EBADMSG;
	return ret;
}

struct cru_sock {
	struct mnl_socket *nl;
	unsigned int portid;
	uint32_t seq;
};

struct cru_sock *cru_open(int *err)
{
	struct cru_sock *s = calloc(1, sizeof(*s));

	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	s->nl = mnl_socket_open(NETLINK_CRYPTO);
	if (!s->nl) {
		*err = -errno;
		free(s);
		return NULL;
	}
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		*err = -errno;
		mnl_socket_close(s->nl);
		free(s);
		return NULL;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	s->seq = (uint32_t)time(NULL);
	*err = 0;
	return s;
}

void cru_close(struct cru_sock *s)
{
	if (!s)
		return;
	mnl_socket_close(s->nl);
	free(s);
}

/*
 * Send one request and read until its answer.  crypto_user answers from the
 * sending thread's context, so the reply is queued before sendto() returns;
 * the 5 s bound only guards against a kernel that never answers.
 */
static int transact(struct cru_sock *s, int op, const char *driver,
		    int have_priority, uint32_t prio, struct cru_alg *out)
{
	/* a report is struct crypto_user_alg plus a few attributes:
	 * MNL_SOCKET_BUFFER_SIZE (8 KiB or a page) holds it with room */
	char req[512], *rbuf;
	size_t rlen = MNL_SOCKET_BUFFER_SIZE;
	uint32_t seq = ++s->seq;
	int n, ret;

	n = cru_build(req, sizeof(req), op, driver, have_priority, prio, seq);
	if (n < 0)
		return n;
	if (mnl_socket_sendto(s->nl, req, n) < 0)
		return -errno;
	rbuf = malloc(rlen);
	if (!rbuf)
		return -ENOMEM;
	for (;;) {
		struct pollfd pfd = { mnl_socket_get_fd(s->nl), POLLIN, 0 };
		ssize_t got;

		if (poll(&pfd, 1, 5000) == 0) {
			ret = -ETIMEDOUT;
			break;
		}
		got = mnl_socket_recvfrom(s->nl, rbuf, rlen);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		ret = cru_parse(rbuf, (size_t)got, seq, out);
		/* a stale reply (an earlier request's): read on */
		if (ret != -EPROTO && ret != -ENODATA)
			break;
	}
	free(rbuf);
	return ret;
}

int cru_get(struct cru_sock *s, const char *driver, struct cru_alg *out)
{
	int ret = transact(s, CRU_GET, driver, 0, 0, out);

	if (ret == 1) {
		if (out->refcnt)
			out->refcnt--;
		return strcmp(out->driver, driver) ? -ENOENT : 0;
	}
	return ret == 0 ? -ENODATA : ret;
}

int cru_set_priority(struct cru_sock *s, const char *driver, uint32_t prio)
{
	int ret = transact(s, CRU_UPDATE, driver, 1, prio, NULL);

	return ret > 0 ? 0 : ret;
}

int cru_instantiate(struct cru_sock *s, const char *driver, int have_priority,
		    uint32_t prio)
{
	int ret = transact(s, CRU_NEW, driver, have_priority, prio, NULL);

	return ret > 0 ? 0 : ret;
}

int cru_delete(struct cru_sock *s, const char *driver)
{
	int ret = transact(s, CRU_DELETE, driver, 0, 0, NULL);

	return ret > 0 ? 0 : ret;
}

#else /* !HAVE_MNL */

int cru_build(void *buf, size_t len, int op, const char *driver,
	      int have_priority, uint32_t priority, uint32_t seq)
{
	(void)buf; (void)len; (void)op; (void)driver;
	(void)have_priority; (void)priority; (void)seq;
	return -EOPNOTSUPP;
}

int cru_parse(const void *buf, size_t len, uint32_t seq, struct cru_alg *out)
{
	(void)buf; (void)len; (void)seq; (void)out;
	return -EOPNOTSUPP;
}

struct cru_sock *cru_open(int *err)
{
	*err = -EOPNOTSUPP;
	return NULL;
}

void cru_close(struct cru_sock *s)
{
	(void)s;
}

int cru_get(struct cru_sock *s, const char *driver, struct cru_alg *out)
{
	(void)s; (void)driver; (void)out;
	return -EOPNOTSUPP;
}

int cru_set_priority(struct cru_sock *s, const char *driver, uint32_t prio)
{
	(void)s; (void)driver; (void)prio;
	return -EOPNOTSUPP;
}

int cru_instantiate(struct cru_sock *s, const char *driver, int have_priority,
		    uint32_t prio)
{
	(void)s; (void)driver; (void)have_priority; (void)prio;
	return -EOPNOTSUPP;
}

int cru_delete(struct cru_sock *s, const char *driver)
{
	(void)s; (void)driver;
	return -EOPNOTSUPP;
}

#endif
