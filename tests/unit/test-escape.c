/* test-escape.c: cprof_put_escaped (src/base/util.c) leaves no byte that
 * drives a terminal or breaks a line, and cprof_unescape reads back what
 * it escaped; a folded line cprof_folded_put_line (src/lib/folded.c)
 * writes reads back as its key and counts. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/folded.h"
#include "base/util.h"
#include "check.h"

enum { ROUNDS = 20000, MAX_LEN = 24 };

/* Bytes that make escapes matter more often than uniform bytes would. */
static const unsigned char alphabet[] = {
	'\n', '\r', '\t', ' ', '#', '\\', 'x', '4', '1', '.', ';', 'a', 0x1b, 0x07, 0x7f,
	0xc2, 0x9b, 0xa9, 0xe2, 0x82, 0xac, 0xff, 0x80, '0', '9',
};

/* A deterministic stream of numbers (xorshift64). */
static uint64_t next(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* The generic escape of `s`: only printable bytes, and it reads back. */
static void test_text(const char *s, size_t len)
{
	char *text = NULL, *copy;
	size_t size = 0, i, back;
	FILE *out = open_memstream(&text, &size);

	cprof_put_escaped(out, s, len);
	fclose(out);
	for (i = 0; i < size; i++)
		check((unsigned char)text[i] >= 0x20 && text[i] != 0x7f,
		      "escaped byte 0x%02x at %zu of \"%s\"", (unsigned char)text[i], i, text);
	copy = strdup(text);
	back = cprof_unescape(copy, strlen(copy));
	check(back == len && memcmp(copy, s, len) == 0, "round trip of \"%s\"", text);
	free(copy);
	free(text);
}

/* The folded line of the key `s` (no NUL in it) with `two` counts:
 * printable bytes but its newline, a key that reads back, and a line
 * that reads as that key's counts. */
static void test_folded(const char *s, size_t len, bool two)
{
	const char *tail = two ? " 5 7\n" : " 5\n";
	char *key = strndup(s, len), *text = NULL, *line, *copy;
	size_t size = 0, i, key_len, back;
	FILE *out = open_memstream(&text, &size);

	cprof_folded_put_line(out, key, 5, two, 7);
	fclose(out);
	check(size > strlen(tail) && strcmp(text + size - strlen(tail), tail) == 0,
	      "folded line \"%s\" ends in its counts", text);
	key_len = size - strlen(tail);
	for (i = 0; i < size - 1; i++)
		check((unsigned char)text[i] >= 0x20 && text[i] != 0x7f,
		      "escaped byte 0x%02x at %zu of \"%s\"", (unsigned char)text[i], i, text);
	line = strndup(text, size - 1);
	check(cprof_folded_line_ok(line, strlen(line)), "folded line \"%s\"", line);
	copy = strndup(text, key_len);
	check(copy[0] != '#', "folded line starts with #: \"%s\"", text);
	/* the key alone ends in no count and no blank: "KEY 5" is one count */
	check(!cprof_folded_line_ok(copy, key_len), "key ends in a count: \"%s\"", text);
	check(copy[key_len - 1] != ' ', "key ends in a blank: \"%s\"", text);
	back = cprof_unescape(copy, key_len);
	check(back == len && memcmp(copy, s, len) == 0, "round trip of \"%s\"", text);
	free(copy);
	free(line);
	free(text);
	free(key);
}

int main(void)
{
	uint64_t state = 88172645463325252ULL;
	char s[MAX_LEN];
	size_t len, i;
	int round;

	for (round = 0; round < ROUNDS; round++) {
		len = 1 + next(&state) % (MAX_LEN - 1);
		for (i = 0; i < len; i++)
			s[i] = (char)alphabet[next(&state) % sizeof(alphabet)];
		test_text(s, len);
		test_folded(s, len, false);
		test_folded(s, len, true);
	}
	return failures ? 1 : 0;
}
