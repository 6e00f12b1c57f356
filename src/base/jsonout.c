/* jsonout.c: JSON text from a jansson tree, numbers in their shortest form. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jsonout.h"
#include "util.h"

static bool reads_back(const char *text, double value)
{
	return strtod(text, NULL) == value;
}

/* jansson's shape of a real: a '.' or an 'e' so that it reads back as a
 * real, and an exponent without '+' or leading zeros. */
static int jansson_shape(char *buf, int len)
{
	char *e = strchr(buf, 'e'), *digits, *end;

	if (!e && !strchr(buf, '.')) {
		memcpy(buf + len, ".0", 3);
		return len + 2;
	}
	if (!e)
		return len;
	digits = e + 1;
	if (*digits == '-')
		digits++;
	end = digits;
	while (*end == '+' || (*end == '0' && end[1] != '\0'))
		end++;
	memmove(digits, end, strlen(end) + 1);
	return (int)strlen(buf);
}

/* The text of `value` with `digits` significant digits in %e form into
 * buf, and whether it reads back as `value`. */
static bool try_digits(char buf[CPROF_DOUBLE_CHARS], double value, int digits)
{
	snprintf(buf, CPROF_DOUBLE_CHARS, "%.*e", digits - 1, value);
	return reads_back(buf, value);
}

/* The fewest significant digits that read back as `value`, its %e text
 * left in buf.  More digits never read back worse (every p-digit decimal
 * is also a (p+1)-digit one), so the answer is found by bisection; most
 * doubles (a count over a total) need 16 or 17, which are tried first. */
static int shortest_digits(char buf[CPROF_DOUBLE_CHARS], double value)
{
	int low = 1, high = 15;

	if (!try_digits(buf, value, 16)) {
		snprintf(buf, CPROF_DOUBLE_CHARS, "%.16e", value);
		return 17;
	}
	if (!try_digits(buf, value, 15)) {
		snprintf(buf, CPROF_DOUBLE_CHARS, "%.15e", value);
		return 16;
	}
	while (low < high) {
		int mid = (low + high) / 2;

		if (try_digits(buf, value, mid))
			high = mid;
		else
			low = mid + 1;
	}
	snprintf(buf, CPROF_DOUBLE_CHARS, "%.*e", low - 1, value);
	return low;
}

int cprof_format_double(char buf[CPROF_DOUBLE_CHARS], double value)
{
	int digits = shortest_digits(buf, value), len = (int)strlen(buf), exponent;

	exponent = atoi(strchr(buf, 'e') + 1);
	/* Positional between 1e-4 and 1e16, as Python's repr and jq print. */
	if (exponent >= -4 && exponent < 16)
		len = snprintf(buf, CPROF_DOUBLE_CHARS, "%.*f",
			       digits - 1 - exponent > 0 ? digits - 1 - exponent : 0, value);
	return jansson_shape(buf, len);
}

/* Where the text goes: a buffer written out to `out` when full, so that
 * the characters cost no stdio call each. */
struct sink {
	FILE *out;
	const struct cprof_json_stream *stream;
	double last;           /* the last real written, and its text: */
	int last_len;          /* sorted entries repeat their shares */
	char last_text[CPROF_DOUBLE_CHARS];
	size_t len;
	char buf[1 << 14];
};

static void sink_flush(struct sink *sink)
{
	fwrite(sink->buf, 1, sink->len, sink->out);
	sink->len = 0;
}

static void put_bytes(struct sink *sink, const char *s, size_t n)
{
	if (n > sizeof(sink->buf) - sink->len) {
		sink_flush(sink);
		if (n > sizeof(sink->buf)) {
			fwrite(s, 1, n, sink->out);
			return;
		}
	}
	memcpy(sink->buf + sink->len, s, n);
	sink->len += n;
}

static void put_char(struct sink *sink, char c)
{
	if (sink->len == sizeof(sink->buf))
		sink_flush(sink);
	sink->buf[sink->len++] = c;
}

static void put_text(struct sink *sink, const char *s)
{
	put_bytes(sink, s, strlen(s));
}

/* An integer as %lld writes it. */
static void put_integer(struct sink *sink, json_int_t value)
{
	char digits[24], *p = digits + sizeof(digits);
	unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value :
				       (unsigned long long)value;

	do {
		*--p = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude);
	if (value < 0)
		*--p = '-';
	put_bytes(sink, p, (size_t)(digits + sizeof(digits) - p));
}

/* A line break and the indentation of `depth`. */
static void put_indent(struct sink *sink, int depth)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)depth;

	put_char(sink, '\n');
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		put_bytes(sink, spaces, sizeof(spaces) - 1);
	put_bytes(sink, spaces, n);
}

/* The index of the first byte of s[i, len) that needs an escape, or len:
 * 16 at a time where they can be read. */
static size_t plain_run(const char *s, size_t i, size_t len)
{
#ifdef __SSE2__
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		/* bytes below 0x20, as signed: 0x00-0x1f only (UTF-8's are negative) */
		__m128i control = _mm_and_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
						_mm_cmpgt_epi8(v, _mm_set1_epi8(-1)));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			control, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
					      _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));

		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == '"' || c == '\\')
			break;
	}
	return i;
}

/* A string with jansson's escapes: the mandatory ones, and \uXXXX for the
 * other control characters; UTF-8 passes through as it is. */
static void write_string(struct sink *sink, const char *s, size_t len)
{
	size_t i, run = 0;

	put_char(sink, '"');
	for (i = 0; (i = plain_run(s, i, len)) < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *escape = NULL;
		char seq[8];

		put_bytes(sink, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': escape = "\\\""; break;
		case '\\': escape = "\\\\"; break;
		case '\b': escape = "\\b"; break;
		case '\f': escape = "\\f"; break;
		case '\n': escape = "\\n"; break;
		case '\r': escape = "\\r"; break;
		case '\t': escape = "\\t"; break;
		default:
			snprintf(seq, sizeof(seq), "\\u%04X", c);
			escape = seq;
		}
		put_text(sink, escape);
	}
	put_bytes(sink, s + run, len - run);
	put_char(sink, '"');
}

/* Before an item (first or not) of an array or object at `depth`. */
static void separate(struct sink *sink, bool first, bool compact, int depth)
{
	if (!first)
		put_char(sink, ',');
	if (!compact)
		put_indent(sink, depth);
}

static void write_value(struct sink *sink, const json_t *value, bool compact, int depth);

static void write_object(struct sink *sink, const json_t *object, bool compact, int depth)
{
	const char *key;
	json_t *item;
	bool first = true;

	put_char(sink, '{');
	json_object_foreach((json_t *)object, key, item) {
		separate(sink, first, compact, depth + 1);
		write_string(sink, key, strlen(key));
		put_text(sink, compact ? ":" : ": ");
		write_value(sink, item, compact, depth + 1);
		first = false;
	}
	if (!first && !compact)
		put_indent(sink, depth);
	put_char(sink, '}');
}

/* The items of the array `array`: its own, or those of the stream when it
 * is the stream's placeholder. */
static void write_array(struct sink *sink, const json_t *array, bool compact, int depth)
{
	const struct cprof_json_stream *stream = sink->stream;
	bool streamed = stream && stream->placeholder == array;
	size_t i, n = json_array_size(array);
	const json_t *item;

	put_char(sink, '[');
	for (i = 0; (item = streamed ? stream->next(stream->ctx) :
			    i < n ? json_array_get(array, i) : NULL); i++) {
		separate(sink, i == 0, compact, depth + 1);
		write_value(sink, item, compact, depth + 1);
	}
	if (i > 0 && !compact)
		put_indent(sink, depth);
	put_char(sink, ']');
}

static void write_value(struct sink *sink, const json_t *value, bool compact, int depth)
{
	double real;

	switch (json_typeof(value)) {
	case JSON_OBJECT:
		write_object(sink, value, compact, depth);
		break;
	case JSON_ARRAY:
		write_array(sink, value, compact, depth);
		break;
	case JSON_STRING:
		write_string(sink, json_string_value(value), json_string_length(value));
		break;
	case JSON_INTEGER:
		put_integer(sink, json_integer_value(value));
		break;
	case JSON_REAL:
		real = json_real_value(value);
		if (sink->last_len == 0 || memcmp(&sink->last, &real, sizeof(real)) != 0) {
			sink->last = real;    /* compared bit for bit: -0.0 is not 0.0 */
			sink->last_len = cprof_format_double(sink->last_text, real);
		}
		put_bytes(sink, sink->last_text, (size_t)sink->last_len);
		break;
	case JSON_TRUE:
		put_text(sink, "true");
		break;
	case JSON_FALSE:
		put_text(sink, "false");
		break;
	case JSON_NULL:
		put_text(sink, "null");
		break;
	}
}

void cprof_json_dump_stream(FILE *out, const json_t *root, bool compact,
			    const struct cprof_json_stream *stream)
{
	struct sink sink;

	sink.out = out;
	sink.stream = stream;
	sink.last_len = 0;
	sink.len = 0;
	write_value(&sink, root, compact, 0);
	sink_flush(&sink);
}

void cprof_json_dump(FILE *out, const json_t *root, bool compact)
{
	cprof_json_dump_stream(out, root, compact, NULL);
}

json_t *cprof_json_string(const char *s)
{
	json_t *value = json_string(s);

	if (!value)
		cprof_die("internal error: a key is not valid UTF-8");
	return value;
}

void cprof_json_set(json_t *object, const char *name, json_t *value)
{
	if (!value || json_object_set_new(object, name, value) != 0)
		cprof_die_oom();
}

void cprof_json_print(json_t *root, bool compact)
{
	/* A failed write shows in cprof_finish_output. */
	cprof_json_dump(stdout, root, compact);
	fputc('\n', stdout);
	json_decref(root);
}
