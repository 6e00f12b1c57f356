/* test-jsonout.c: src/base/jsonout.c writes what json_dumpf writes, but for
 * reals, which come out as the shortest decimal that reads back. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
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

/* An escape at every offset of a string longer than a 16-byte block,
 * beside UTF-8: written as jansson writes it. */
static void test_escape_offsets(void)
{
	static const char specials[] = "\"\\\n\x01\x1f\x7f";
	char text[64];
	size_t k, c;

	for (c = 0; c < sizeof(specials) - 1; c++) {
		for (k = 0; k < 40; k++) {
			json_t *root;
			char *theirs, *mine;

			memset(text, 'a', k);
			text[k] = specials[c];
			memset(text + k + 1, 'b', 40 - k);
			memcpy(text + 41, "caf\xc3\xa9", 6);
			root = json_pack("{s:s}", "s", text);
			theirs = json_dumps(root, JSON_COMPACT);
			mine = ours(root, true);
			check(strcmp(theirs, mine) == 0, "escape %#x at %zu: %s, not %s",
			      (unsigned)specials[c], k, mine, theirs);
			free(theirs);
			free(mine);
			json_decref(root);
		}
	}
}

/* Reals repeated, and 0.0 beside -0.0 (equal, but not the same text):
 * each written as itself. */
static void test_repeated_reals(void)
{
	json_t *root = json_pack("[f,f,f,f,f,f,f]", 0.0, -0.0, -0.0, 0.0, 0.25, 0.25, 1e-5);
	char *mine = ours(root, true);

	check(strcmp(mine, "[0.0,-0.0,-0.0,0.0,0.25,0.25,1e-5]") == 0, "reals: %s", mine);
	free(mine);
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

/* The items of a streamed array: one object, its members set anew. */
struct items {
	int next, n;
	json_t *item;
};

static const json_t *next_item(void *ctx)
{
	struct items *items = ctx;
	char key[32];

	if (items->next == items->n)
		return NULL;
	snprintf(key, sizeof(key), "k\"%d\n", items->next);
	json_string_set(json_object_get(items->item, "key"), key);
	json_integer_set(json_object_get(items->item, "count"), 1000 - items->next);
	json_real_set(json_object_get(items->item, "p"), items->next / 7.0);
	items->next++;
	return items->item;
}

/* An array streamed through cprof_json_dump_stream is written as the
 * same array held in the tree, empty or not, at any depth. */
static void test_stream(void)
{
	int n, compact;

	for (n = 0; n <= 3; n++) {
		for (compact = 0; compact <= 1; compact++) {
			json_t *whole = json_pack("{s:i, s:{s:[], s:s}}", "a", 1, "b", "list", "c", "d");
			json_t *hollow = json_deep_copy(whole);
			struct items items = { 0, n, json_pack("{s:s, s:i, s:f}", "key", "", "count", 0, "p", 0.0) };
			struct cprof_json_stream stream = {
				json_object_get(json_object_get(hollow, "b"), "list"), next_item, &items
			};
			char *text = NULL, *mine;
			size_t size = 0;
			FILE *out = open_memstream(&text, &size);

			for (items.next = 0; items.next < n;)
				json_array_append_new(json_object_get(json_object_get(whole, "b"), "list"),
						      json_deep_copy(next_item(&items)));
			items.next = 0;
			cprof_json_dump_stream(out, hollow, compact, &stream);
			fclose(out);
			mine = ours(whole, compact);
			check(strcmp(text, mine) == 0, "stream of %d (compact %d):\n%s\n---\n%s", n,
			      compact, mine, text);
			free(text);
			free(mine);
			json_decref(items.item);
			json_decref(whole);
			json_decref(hollow);
		}
	}
}

int main(void)
{
	test_layout();
	test_escape_offsets();
	test_repeated_reals();
	test_numbers();
	test_stream();
	return failures ? 1 : 0;
}
