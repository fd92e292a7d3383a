/*
** Character helpers the text parsers share (the JSON tokenizer and
** number reader, the Python-literal parser): a hex digit's value and a
** code point written as UTF-8.
**
** Ownership: none; the caller owns every buffer.
*/
#ifndef GP_CHARS_H
#define GP_CHARS_H

#include <stddef.h>
#include <stdint.h>

/* The value of hex digit c (0-9, a-f, A-F), or -1. */
static inline int gp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Writes cp (at most 0x1FFFFF) as UTF-8 at o, 1 to 4 bytes, and returns
** how many; surrogates are written as any other code point (a caller that
** wants U+FFFD for them checks first). */
static inline size_t gp_utf8_put(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

#endif
