/*
** Kernel-name patterns: the one small language in which the knowledge of
** kernel names is written as data (model/classify.c's communication
** kernels, src/ops/kernels.def's families, a user's ops file;
** docs/op-model.md, "Kernel families").
**
**   pattern    := condition { " & " condition }       every condition holds
**   condition  := [ "!" ] field op alternatives
**   field      := "name"  the kernel's short name (namespaces, template
**                         arguments and parameters removed)
**               | "qual"  its qualified name: the short name with its
**                         namespaces ("at::native::reduce_kernel"), so a
**                         namespace named only in template arguments
**                         ("at::native::k<fbgemm_gpu::T>") does not count
**               | "full"  its full demangled name (the short name when the
**                         trace has no other)
**   op         := "^" starts with | "=" is | "~" contains
**   alternatives := text { "|" text }                  any of them
**
** In a text, '#' stands for one decimal digit ("name^sm#0_" matches
** "sm80_..." and "sm90_..."), and a leading '@' makes it match only where
** a word starts ("full~@ck::" finds "void ck::kernel_gemm..." but not
** "block::").  Texts are case-sensitive.
**
** Ownership: a compiled gp_namepat points into the pattern text it was
** compiled from, which must outlive it; nothing is allocated.
*/
#ifndef GP_NAMEPAT_H
#define GP_NAMEPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_NAMEPAT_MAX 4   /* conditions a pattern may have */

enum { GP_NP_NAME, GP_NP_QUAL, GP_NP_FULL };
enum { GP_NP_PREFIX, GP_NP_EXACT, GP_NP_SUB };

struct gp_namepat {
	uint8_t n;
	struct gp_namecond {
		uint8_t field, op;
		bool neg;
		const char *alts;   /* "a|b|c", not NUL-terminated: len bytes */
		uint16_t len;
	} c[GP_NAMEPAT_MAX];
};

/* Compiles text into *p.  Returns true, or false with the reason in
** why[0..size) ("unknown field 'nme' (name or full)"). */
bool gp_namepat_compile(const char *text, struct gp_namepat *p, char *why, size_t size);

/* Whether a kernel with short name short_name and full name full_name
** (either may be NULL: the other stands in, "" when both are) matches p. */
bool gp_namepat_match(const struct gp_namepat *p, const char *short_name, const char *full_name);

/* The qualified name of a kernel (its short name with the namespaces and
** classes before it in full) into buf[0..size); the short name when full
** does not show it so.  Returns buf. */
char *gp_namepat_qual(const char *short_name, const char *full_name, char *buf, size_t size);

/* Whether s contains (op GP_NP_SUB), starts with (GP_NP_PREFIX) or is
** (GP_NP_EXACT) one of the '|'-separated texts of alts[0..len) ('#' = a
** digit). */
bool gp_namepat_any(const char *s, const char *alts, size_t len, int op);

#endif
