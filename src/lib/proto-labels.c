/* proto-labels.c: the labels of profile.proto's samples: --tag-filter,
 * --by=label:KEY and the row labels of --rows --label. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "proto-int.h"

/* Label i of a stack: key, str, num, num_unit (string indexes but num).
 * As pprof reads them, a label with a str is a string label, else one
 * with a num or a num_unit a numeric label, else nothing. */
static const int64_t *label_words(const struct stack *s, uint32_t i)
{
	return (const int64_t *)(const void *)(s->data + s->depth + (size_t)LABEL_WORDS * i);
}

static bool string_is(const struct cprof_proto_reader *r, int64_t index, const char *s, size_t s_len)
{
	size_t len;
	const char *t = cprof_proto_string_at(r, index, &len);

	return len == s_len && memcmp(t, s, len) == 0;
}

/* Whether `s` carries a label that --tag-filter NAME=VALUE (`filter`)
 * keeps: a string label NAME of exactly VALUE, or a numeric label NAME
 * whose number VALUE is, in decimal. */
static bool filter_keeps(const struct cprof_proto_reader *r, const struct stack *s, const char *filter)
{
	const char *value = strchr(filter, '=') + 1;
	size_t name_len = (size_t)(value - 1 - filter), value_len = strlen(value);
	gint64 number = 0;
	bool numeric = g_ascii_string_to_signed(value, 10, G_MININT64, G_MAXINT64, &number, NULL);
	uint32_t i;

	for (i = 0; i < s->n_labels; i++) {
		const int64_t *label = label_words(s, i);

		if (!string_is(r, label[0], filter, name_len))
			continue;
		if (label[1] != 0 ? string_is(r, label[1], value, value_len) :
				    (label[2] != 0 || label[3] != 0) && numeric && label[2] == number)
			return true;
	}
	return false;
}

/* The values of `s`'s labels `key`, the strings then the numbers (with
 * their unit), joined by ',' as pprof's -tagroot joins them, interned in
 * the locations' names; NULL when it has none. */
static const char *label_value(struct cprof_proto_reader *r, struct cprof_profile *profile,
			       const struct stack *s, const char *key, GString *buf)
{
	size_t key_len = strlen(key);
	uint32_t i;
	int pass;

	g_string_truncate(buf, 0);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->n_labels; i++) {
			const int64_t *label = label_words(s, i);
			bool string = label[1] != 0, number = !string && (label[2] || label[3]);
			char *text;

			if (!string_is(r, label[0], key, key_len) || !(pass == 0 ? string : number))
				continue;
			if (buf->len)
				g_string_append_c(buf, ',');
			if (string) {
				text = cprof_proto_string_dup(r, label[1], &profile->replaced_utf8);
				g_string_append(buf, text);
			} else {
				text = cprof_proto_string_dup(r, label[3], &profile->replaced_utf8);
				g_string_append_printf(buf, "%" PRId64 "%s", label[2], text);
			}
			free(text);
		}
	}
	if (buf->len == 0)
		return NULL;
	return cprof_strings_intern(profile->locations->names, buf->str);
}

const char *cprof_proto_label_key(struct cprof_proto_reader *r, struct cprof_profile *profile,
				const struct stack *s, GString *buf)
{
	const char *key = r->options->label_key, *value;

	value = label_value(r, profile, s, key, buf);
	if (value)
		return value;
	g_string_printf(buf, "[no %s]", key);
	return cprof_strings_intern(profile->locations->names, buf->str);
}

void cprof_proto_add_row_labels(struct cprof_proto_reader *r, struct cprof_profile *profile,
			   const struct stack *s, GPtrArray *values, GString *buf)
{
	size_t j;

	for (j = 0; j < r->options->num_row_labels; j++)
		g_ptr_array_add(values, (gpointer)label_value(r, profile, s,
							      r->options->row_labels[j], buf));
}

bool cprof_proto_filters_keep(const struct cprof_proto_reader *r, const struct stack *s)
{
	size_t i;

	for (i = 0; i < r->options->num_tag_filters; i++)
		if (!filter_keeps(r, s, r->options->tag_filters[i]))
			return false;
	return true;
}
