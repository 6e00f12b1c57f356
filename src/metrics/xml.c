/* xml.c: names as SVG and HTML show them: decoded with GLib, what XML
 * cannot hold replaced, escaped, their width estimated and cut to fit. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "xml.h"
#include "base/util.h"

/* A string as code points, each invalid UTF-8 byte and each character XML
 * cannot hold (or that would not show: controls) replaced by U+FFFD. */
struct text {
	uint32_t *cp;
	size_t len;
};

/* Decodes one UTF-8 sequence at p (avail bytes) with GLib; its length,
 * or 0 when it is not a valid one (overlong, a surrogate, past U+10FFFF,
 * cut short). */
static size_t decode_one(const unsigned char *p, size_t avail, uint32_t *out)
{
	gunichar c = g_utf8_get_char_validated((const char *)p, (gssize)avail);

	if (c == (gunichar)-1 || c == (gunichar)-2)
		return 0;
	*out = c;
	return (size_t)g_utf8_skip[p[0]];
}

/* Whether a character may stand in a name as it is: XML 1.0 holds it, and
 * it is no control character (a tab or a newline would break the line). */
static bool shown(uint32_t c)
{
	return c >= 0x20 && !(c >= 0x7f && c <= 0x9f) && c != 0xfffe && c != 0xffff;
}

static void text_decode(const char *s, size_t len, struct text *t)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	uint32_t c;

	t->cp = cprof_xcalloc(len + 1, sizeof(*t->cp));
	t->len = 0;
	while (i < len) {
		n = decode_one(p + i, len - i, &c);
		if (n == 0) {
			c = 0xfffd;
			n = 1;
		}
		t->cp[t->len++] = shown(c) ? c : 0xfffd;
		i += n;
	}
}

/* The columns a character takes in a monospace font. */
static size_t columns_of(uint32_t c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

static size_t text_columns(const uint32_t *cp, size_t len)
{
	size_t i, sum = 0;

	for (i = 0; i < len; i++)
		sum += columns_of(cp[i]);
	return sum;
}

/* The columns the `len` bytes at `s` take as they are drawn. */
static size_t columns_n(const char *s, size_t len)
{
	struct text t;
	size_t n;

	text_decode(s, len, &t);
	n = text_columns(t.cp, t.len);
	free(t.cp);
	return n;
}

/* Writes one character as UTF-8, unescaped. */
static void put_utf8(FILE *out, uint32_t c)
{
	char bytes[6];

	fwrite(bytes, 1, (size_t)g_unichar_to_utf8(c, bytes), out);
}

/* Writes one character escaped for XML text and attribute values. */
static void put_char(FILE *out, uint32_t c)
{
	switch (c) {
	case '&':
		fputs("&amp;", out);
		break;
	case '<':
		fputs("&lt;", out);
		break;
	case '>':
		fputs("&gt;", out);
		break;
	case '"':
		fputs("&quot;", out);
		break;
	case '\'':
		fputs("&apos;", out);
		break;
	default:
		put_utf8(out, c);
	}
}

static void put_chars(FILE *out, const uint32_t *cp, size_t len, bool escape)
{
	size_t i;

	for (i = 0; i < len; i++)
		(escape ? put_char : put_utf8)(out, cp[i]);
}

size_t cprof_xml_columns(const char *s)
{
	return columns_n(s, strlen(s));
}

void cprof_xml_escaped_n(FILE *out, const char *s, size_t len)
{
	struct text t;

	text_decode(s, len, &t);
	put_chars(out, t.cp, t.len, true);
	free(t.cp);
}

#define ELLIPSIS 0x2026

void cprof_xml_escaped(FILE *out, const char *s)
{
	cprof_xml_escaped_n(out, s, strlen(s));
}

void cprof_xml_fit_n(FILE *out, const char *s, size_t len, size_t max, bool keep_end,
		     bool escape)
{
	struct text t;
	size_t used = 0, i;

	text_decode(s, len, &t);
	if (text_columns(t.cp, t.len) <= max || max < 2) {
		put_chars(out, t.cp, t.len, escape);
	} else if (!keep_end) {
		for (i = 0; i < t.len && used + columns_of(t.cp[i]) <= max - 1; i++)
			used += columns_of(t.cp[i]);
		put_chars(out, t.cp, i, escape);
		put_utf8(out, ELLIPSIS);
	} else {
		for (i = t.len; i > 0 && used + columns_of(t.cp[i - 1]) <= max - 1; i--)
			used += columns_of(t.cp[i - 1]);
		put_utf8(out, ELLIPSIS);
		put_chars(out, t.cp + i, t.len - i, escape);
	}
	free(t.cp);
}

void cprof_xml_fit(FILE *out, const char *s, size_t max, bool keep_end, bool escape)
{
	cprof_xml_fit_n(out, s, strlen(s), max, keep_end, escape);
}
