/* test-escape.c: cprof_put_escaped (src/base/util.c) leaves no byte that
 * drives a terminal or breaks a line, and cprof_unescape reads back what
 * it escaped; a folded line of an escaped key reads as one count. */
#include "config.h"

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

static void test_round(const char *s, size_t len, int folded)
{
	char *text = NULL, *copy;
	size_t size = 0, i, back;
	FILE *out = open_memstream(&text, &size);

	cprof_put_escaped(out, s, len, folded);
	fclose(out);
	for (i = 0; i < size; i++)
		check((unsigned char)text[i] >= 0x20 && text[i] != 0x7f,
		      "escaped byte 0x%02x at %zu of \"%s\"", (unsigned char)text[i], i, text);
	copy = strdup(text);
	back = cprof_unescape(copy, strlen(copy));
	check(back == len && memcmp(copy, s, len) == 0, "round trip of \"%s\"", text);
	if (folded && len > 0) {
		char *line = malloc(size + 8);

		sprintf(line, "%s 5", text);
		check(cprof_folded_line_ok(line, strlen(line)), "folded line \"%s\"", line);
		check(text[0] != '#', "folded line starts with #: \"%s\"", text);
		/* the key alone ends in no count and no blank: "KEY 5" is one count */
		check(!cprof_folded_line_ok(text, strlen(text)), "key ends in a count: \"%s\"", text);
		check(text[strlen(text) - 1] != ' ', "key ends in a blank: \"%s\"", text);
		free(line);
	}
	free(copy);
	free(text);
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
		test_round(s, len, 0);
		test_round(s, len, 1);
	}
	return failures ? 1 : 0;
}
