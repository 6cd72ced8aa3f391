/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qat.h - is there an Intel QAT here, and does the kernel use it?
 *
 * The 2023 seed's question on a host that has the card: a QAT counts when
 * /sys/bus/pci and /proc/crypto agree (a PCI function with a QAT device id
 * and algorithms registered by its driver); either alone is said as such,
 * since a driver loaded without a device registers nothing, and a device
 * without its driver (or firmware) registers nothing either.
 */
#ifndef DIX_KERNEL_QAT_H
#define DIX_KERNEL_QAT_H

#include <stddef.h>

#define QAT_MAX_SHOWN	4

/**
 * struct qat_seen - what the machine shows of QAT
 * @ndev: PCI functions with a QAT device id (vendor 0x8086)
 * @dev: the first QAT_MAX_SHOWN as "0000:6b:00.0 4xxx (qat_4xxx)"
 * @mods: the QAT modules loaded (/proc/modules), ", "-separated
 * @nalg: /proc/crypto entries registered by QAT (module intel_qat, or a
 *	driver name qat_* / qat-* of a built-in one)
 * @nsel: of @alg, those the kernel selects for their name
 * @alg: the first QAT_MAX_SHOWN as "xts(aes): qat_aes_xts (100), the
 *	kernel selects xts-aes-vaes-avx512 (800)"
 */
struct qat_seen {
	int ndev;
	char dev[QAT_MAX_SHOWN][96];
	char mods[160];
	int nalg;
	int nsel;
	char alg[QAT_MAX_SHOWN][192];
};

/**
 * qat_look() - read @sys_root/bus/pci/devices and @proc_root/crypto
 * ("/sys", "/proc"; a unit test's scratch trees).
 * Return: 0, or -errno when neither could be read.
 */
int qat_look(const char *sys_root, const char *proc_root, struct qat_seen *q);

/**
 * qat_note() - the start line's word on QAT into @out: nothing (return 0)
 * when the machine shows none, else one line (return 1) saying what was
 * found, whether the two sources agree, and which driver the kernel
 * selects for each QAT algorithm.
 */
int qat_note(const char *sys_root, const char *proc_root, char *out, size_t len);

/**
 * qat_note_append() - qat_note() of the running system, as a line of its
 * own at the end of the engine's start note @note (of @size bytes).
 */
void qat_note_append(char *note, size_t size);

#endif
