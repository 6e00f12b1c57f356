/* jsonout.c: JSON text from a jansson tree, numbers in their shortest form. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "jsonout.h"

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

int cprof_format_double(char buf[CPROF_DOUBLE_CHARS], double value)
{
	int low = 1, high = 17, len, exponent;

	/* More significant digits never read back worse (every p-digit
	 * decimal is also a (p+1)-digit one), so the shortest that reads back
	 * can be found by bisection; 17 always does. */
	while (low < high) {
		int mid = (low + high) / 2;

		snprintf(buf, CPROF_DOUBLE_CHARS, "%.*e", mid - 1, value);
		if (reads_back(buf, value))
			high = mid;
		else
			low = mid + 1;
	}
	len = snprintf(buf, CPROF_DOUBLE_CHARS, "%.*e", low - 1, value);
	exponent = atoi(strchr(buf, 'e') + 1);
	/* Positional between 1e-4 and 1e16, as Python's repr and jq print. */
	if (exponent >= -4 && exponent < 16)
		len = snprintf(buf, CPROF_DOUBLE_CHARS, "%.*f",
			       low - 1 - exponent > 0 ? low - 1 - exponent : 0, value);
	return jansson_shape(buf, len);
}

/* A string with jansson's escapes: the mandatory ones, and \uXXXX for the
 * other control characters; UTF-8 passes through as it is. */
static void write_string(FILE *out, const char *s, size_t len)
{
	size_t i, run = 0;

	putc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *escape = NULL;
		char seq[8];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		fwrite(s + run, 1, i - run, out);
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
		fputs(escape, out);
	}
	fwrite(s + run, 1, len - run, out);
	putc('"', out);
}

/* Before an item (first or not) of an array or object at `depth`. */
static void separate(FILE *out, bool first, bool compact, int depth)
{
	if (!first)
		putc(',', out);
	if (!compact)
		fprintf(out, "\n%*s", 2 * depth, "");
}

static void write_value(FILE *out, const json_t *value, bool compact, int depth);

static void write_object(FILE *out, const json_t *object, bool compact, int depth)
{
	const char *key;
	json_t *item;
	bool first = true;

	putc('{', out);
	json_object_foreach((json_t *)object, key, item) {
		separate(out, first, compact, depth + 1);
		write_string(out, key, strlen(key));
		fputs(compact ? ":" : ": ", out);
		write_value(out, item, compact, depth + 1);
		first = false;
	}
	if (!first && !compact)
		fprintf(out, "\n%*s", 2 * depth, "");
	putc('}', out);
}

static void write_array(FILE *out, const json_t *array, bool compact, int depth)
{
	size_t i, n = json_array_size(array);

	putc('[', out);
	for (i = 0; i < n; i++) {
		separate(out, i == 0, compact, depth + 1);
		write_value(out, json_array_get(array, i), compact, depth + 1);
	}
	if (n > 0 && !compact)
		fprintf(out, "\n%*s", 2 * depth, "");
	putc(']', out);
}

static void write_value(FILE *out, const json_t *value, bool compact, int depth)
{
	char number[CPROF_DOUBLE_CHARS];

	switch (json_typeof(value)) {
	case JSON_OBJECT:
		write_object(out, value, compact, depth);
		break;
	case JSON_ARRAY:
		write_array(out, value, compact, depth);
		break;
	case JSON_STRING:
		write_string(out, json_string_value(value), json_string_length(value));
		break;
	case JSON_INTEGER:
		fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
		break;
	case JSON_REAL:
		fwrite(number, 1, (size_t)cprof_format_double(number, json_real_value(value)), out);
		break;
	case JSON_TRUE:
		fputs("true", out);
		break;
	case JSON_FALSE:
		fputs("false", out);
		break;
	case JSON_NULL:
		fputs("null", out);
		break;
	}
}

void cprof_json_dump(FILE *out, const json_t *root, bool compact)
{
	write_value(out, root, compact, 0);
}
