/*
 * sgr_json.c — the one JSON string writer of the tools (`report --json`, `export --chrome`,
 * `calibrate --json`). Names in a trace or a store come from elsewhere: a directory or a
 * symbol may hold any byte, and a JSON text must be UTF-8 (RFC 8259 §8.1), so a raw 0xff
 * made the whole report unreadable to a strict parser. Every string goes through here:
 * well-formed UTF-8 sequences are copied as they are; each byte that is not part of one (a
 * stray continuation byte, a truncated or overlong sequence, a surrogate, a value above
 * U+10FFFF) becomes U+FFFD, written `\ufffd`; `"` and `\` are escaped, control characters
 * below 0x20 written `\u00XX` (docs/report-json.md "Strings").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sgtrace_read.h"

/* The length of the well-formed UTF-8 sequence at p (at most n bytes there; the caller
 * stops at the NUL), 0 when the byte at p begins none (RFC 3629 §4: the table of
 * well-formed byte sequences). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	unsigned lo = 0x80, hi = 0xbf;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;   /* 0x80-0xc1 (continuation, overlong lead), 0xf5-0xff */
	if (c == 0xe0)
		lo = 0xa0;  /* overlong */
	else if (c == 0xed)
		hi = 0x9f;  /* surrogates */
	else if (c == 0xf0)
		lo = 0x90;  /* overlong */
	else if (c == 0xf4)
		hi = 0x8f;  /* above U+10FFFF */
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if (p[k] < 0x80 || p[k] > 0xbf)
			return 0;
	return len;
}

/* Writes the escaped form of the character at *p into o (room for 6 bytes), advances *p past
 * what it consumed and returns the number of bytes written. */
static size_t esc_one(const unsigned char **p, size_t n, char *o)
{
	static const char hex[] = "0123456789abcdef";
	unsigned c = **p;
	if (c == '"' || c == '\\') {
		o[0] = '\\';
		o[1] = (char)c;
		++*p;
		return 2;
	}
	if (c < 0x20) {
		memcpy(o, "\\u00", 4);
		o[4] = hex[c >> 4];
		o[5] = hex[c & 15];
		++*p;
		return 6;
	}
	size_t len = utf8_len(*p, n);
	if (!len) {
		memcpy(o, "\\ufffd", 6);
		++*p;
		return 6;
	}
	memcpy(o, *p, len);
	*p += len;
	return len;
}

size_t sgr_json_quote(char *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *end = p + strlen((const char *)p);
	char *o = out;
	*o++ = '"';
	while (p < end)
		o += esc_one(&p, (size_t)(end - p), o);
	*o++ = '"';
	*o = '\0';
	return (size_t)(o - out);
}

int sgr_json_fput(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *end = p + strlen((const char *)p);
	char buf[256];
	size_t n = 0;
	buf[n++] = '"';
	while (p < end) {
		if (n > sizeof buf - 8) {
			if (fwrite(buf, 1, n, f) != n)
				return -EIO;
			n = 0;
		}
		n += esc_one(&p, (size_t)(end - p), buf + n);
	}
	buf[n++] = '"';
	return fwrite(buf, 1, n, f) == n ? 0 : -EIO;
}
