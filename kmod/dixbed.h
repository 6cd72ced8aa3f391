/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dixbed.h - is this machine the bed (QEMU's emulator)?  The modules that
 * take xts(aes) from every user of a machine (the offload model at 4001,
 * dixsoft at 500) load only there unless told otherwise.  And: whether a
 * driver's self-test is over, before its modelled behaviour starts.
 */
#ifndef DIXBED_H
#define DIXBED_H

#include <linux/dmi.h>
#include <linux/compiler.h>
#include <linux/crypto.h>
#include <linux/string.h>
#include <asm/processor.h>
/* cpuid() left processor.h for asm/cpuid/api.h in 6.16 */
#if __has_include(<asm/cpuid/api.h>)
#include <asm/cpuid/api.h>
#endif

/*
 * dixbed_is_tcg - DMI says QEMU and the hypervisor CPUID leaf says
 * TCGTCGTCGTCG.  A KVM guest (KVMKVMKVM), which may be someone's
 * production machine, is not the bed.
 */
static inline bool dixbed_is_tcg(void)
{
	unsigned int eax, sig[3];
	char s[13];

	if (!dmi_match(DMI_SYS_VENDOR, "QEMU") || !boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return false;
	cpuid(0x40000000, &eax, &sig[0], &sig[1], &sig[2]);
	memcpy(s, sig, 12);
	s[12] = 0;
	return !strcmp(s, "TCGTCGTCGTCG");
}

/*
 * dixbed_tested - whether the kernel's self-test of @alg has passed.
 * Registration may return before it (measured on 6.12.95: "selftest :
 * unknown" for xts-aes-dixsoft after modprobe had returned, the test
 * running on beside the first load), so the modules' calibrated costs
 * and corruptions wait for the flag the crypto manager sets, and the
 * self-test checks the results alone.  Not by waiting in the module's
 * init: beside 8 x 16 requests of a load, that wait took 14 s on 6.12.
 */
static inline bool dixbed_tested(const struct crypto_alg *alg)
{
	return READ_ONCE(alg->cra_flags) & CRYPTO_ALG_TESTED;
}

#endif /* DIXBED_H */
