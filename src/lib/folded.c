/* folded.c: folded stacks, one "root;...;leaf COUNT" line per stack. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "folded.h"
#include "input.h"
#include "profile.h"
#include "ptrs.h"
#include "util.h"

/* Splits a folded line at its last run of blanks: frames before it, the
 * count after.  Returns false when there is no count. */
static bool split_line(const char *line, size_t len, size_t *frames_len, const char **count,
		       size_t *count_len)
{
	size_t i = len, digits_start;

	while (i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9')
		i--;
	digits_start = i;
	if (digits_start == len || i == 0 || (line[i - 1] != ' ' && line[i - 1] != '\t'))
		return false;
	while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t'))
		i--;
	if (i == 0)
		return false;
	*frames_len = i;
	*count = line + digits_start;
	*count_len = len - digits_start;
	return true;
}

bool cprof_folded_line_ok(const char *line, size_t len)
{
	size_t frames_len, count_len;
	const char *count;

	return split_line(line, len, &frames_len, &count, &count_len);
}

static bool blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return false;
	return true;
}

/* True when a stack has an empty frame: ";a", "a;;b", "a;". */
static bool empty_frame(const char *frames, size_t len)
{
	size_t i;

	if (frames[0] == ';' || frames[len - 1] == ';')
		return true;
	for (i = 1; i < len; i++)
		if (frames[i] == ';' && frames[i - 1] == ';')
			return true;
	return false;
}

static int read_lines(struct cprof_input *in, struct cprof_profile *profile, GHashTable *index,
		      struct cprof_error *err);

int cprof_folded_read(struct cprof_input *in, struct cprof_profile *profile,
		      struct cprof_error *err)
{
	/* frames -> stack, the stacks owned by profile->folded */
	GHashTable *index = g_hash_table_new(g_str_hash, g_str_equal);
	int status;

	profile->format = CPROF_FORMAT_FOLDED;
	status = read_lines(in, profile, index, err);
	g_hash_table_destroy(index);
	return status;
}

/* Reads the lines of cprof_folded_read, each stack summed in its entry of
 * `index`. */
static int read_lines(struct cprof_input *in, struct cprof_profile *profile, GHashTable *index,
		      struct cprof_error *err)
{
	unsigned long long line_no = 0;
	const char *line, *count_text;
	size_t frames_len, count_len;
	long long len;
	bool has_nul;

	while ((len = cprof_input_line(in, &line, &has_nul, err)) >= 0) {
		struct cprof_folded_stack *stack;
		char digits[24], *frames;
		uint64_t count;

		line_no++;
		if (has_nul) {
			err->line = line_no;
			return cprof_error_set(err, "NUL byte in a folded line");
		}
		if (blank(line, (size_t)len))
			continue;
		if (!split_line(line, (size_t)len, &frames_len, &count_text, &count_len)) {
			err->line = line_no;
			return cprof_error_set(err, "folded line without a count");
		}
		if (empty_frame(line, frames_len)) {
			err->line = line_no;
			return cprof_error_set(err, "empty frame name in a folded stack");
		}
		if (count_len >= sizeof(digits)) {
			err->line = line_no;
			return cprof_error_set(err, "count too large");
		}
		memcpy(digits, count_text, count_len);
		digits[count_len] = '\0';
		if (!cprof_parse_u64(digits, &count)) {
			err->line = line_no;
			return cprof_error_set(err, "count too large");
		}
		if (profile->total + count < profile->total) {
			err->line = line_no;
			return cprof_error_set(err, "sample count overflow");
		}
		profile->total += count;
		frames = cprof_utf8_sanitize(line, frames_len, &profile->replaced_utf8);
		stack = g_hash_table_lookup(index, frames);
		if (!stack) {
			size_t n = strlen(frames);

			stack = cprof_xmalloc(sizeof(*stack) + n + 1);
			stack->count = 0;
			memcpy(stack->frames, frames, n + 1);
			cprof_ptrs_add(&profile->folded, stack);
			g_hash_table_insert(index, stack->frames, stack);
		}
		free(frames);
		stack->count += count;
	}
	return err->text[0] ? -1 : 0;
}
