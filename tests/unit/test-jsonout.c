/* test-jsonout.c: src/jsonout.c writes what json_dumpf writes, but for
 * reals, which come out as the shortest decimal that reads back. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "check.h"

static char *ours(const json_t *root, bool compact)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	cprof_json_dump(out, root, compact);
	fclose(out);
	return text;
}

/* Without reals, the layout and the escapes are jansson's own. */
static void test_layout(void)
{
	json_t *root = json_pack("{s:s, s:i, s:b, s:n, s:[], s:{}, s:[i,[i,{s:s}]], s:{s:I}}",
				 "key \"q\" \\ / \t\n\x01\x1f caf\xc3\xa9 \xe2\x82\xac", "x", "count", -42,
				 "cum", 1, "none", "empty", "obj", "nested", 1, 2, "deep", "\r\b\f",
				 "big", "n", (json_int_t)INT64_MAX);
	int compact;

	for (compact = 0; compact <= 1; compact++) {
		char *theirs = json_dumps(root, compact ? JSON_COMPACT : JSON_INDENT(2));
		char *mine = ours(root, compact);

		check(strcmp(theirs, mine) == 0, "layout (compact %d):\n%s\n---\n%s", compact, theirs, mine);
		free(theirs);
		free(mine);
	}
	json_decref(root);
}

static void expect(double value, const char *text)
{
	char buf[CPROF_DOUBLE_CHARS];

	cprof_format_double(buf, value);
	check(strcmp(buf, text) == 0, "%.17g printed as %s, not %s", value, buf, text);
}

/* The significant digits of a number's text. */
static int significant(const char *text)
{
	char digits[CPROF_DOUBLE_CHARS];
	size_t n = 0;
	const char *c;

	for (c = text; *c && *c != 'e'; c++)
		if (*c >= '0' && *c <= '9' && (n > 0 || *c != '0'))
			digits[n++] = *c;
	while (n > 0 && digits[n - 1] == '0')
		n--;
	return n ? (int)n : 1;
}

/* Shortest, and read back exactly, over values of every magnitude. */
static void test_numbers(void)
{
	char buf[CPROF_DOUBLE_CHARS], longer[CPROF_DOUBLE_CHARS];
	unsigned long long state = 88172645463325252ULL;
	int i, digits;

	expect(0.8, "0.8");
	expect(0.1 + 0.2, "0.30000000000000004");
	expect(1.0, "1.0");
	expect(600.0, "600.0");
	expect(0.0, "0.0");
	expect(-0.0, "-0.0");
	expect(1e-5, "1e-5");
	expect(1.5e20, "1.5e20");
	expect(1e300, "1e300");
	expect(DBL_MAX, "1.7976931348623157e308");
	expect(DBL_TRUE_MIN, "5e-324");
	expect(1.0 / 3.0, "0.3333333333333333");
	expect(2.718281828459045, "2.718281828459045");
	for (i = 0; i < 200000; i++) {
		double value;

		state ^= state << 13, state ^= state >> 7, state ^= state << 17;
		memcpy(&value, &state, sizeof(value));
		if (!isfinite(value))
			continue;
		if (i % 2)
			value = (double)(state % 1000003) / 1000003.0;
		cprof_format_double(buf, value);
		check(strtod(buf, NULL) == value, "%.17g printed as %s", value, buf);
		/* One significant digit fewer must not read back. */
		for (digits = 1; digits < 17; digits++) {
			snprintf(longer, sizeof(longer), "%.*g", digits, value);
			if (strtod(longer, NULL) == value)
				break;
		}
		snprintf(longer, sizeof(longer), "%.*g", digits, value);
		check(strspn(buf, "-0123456789.e") == strlen(buf) &&
		      (strchr(buf, '.') || strchr(buf, 'e')), "%s: not a JSON real", buf);
		check(significant(buf) <= digits, "%.17g printed as %s, shortest is %s",
		      value, buf, longer);
	}
}

int main(void)
{
	test_layout();
	test_numbers();
	return failures ? 1 : 0;
}
