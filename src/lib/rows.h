/* rows.h: profiles as dimensional rows, one per key of each profile
 * (cprof-flat --rows; the rows cprof-store keeps). */
#ifndef CPROF_ROWS_H
#define CPROF_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "dist.h"
#include "load.h"
#include "profile-core.h"
#include "base/ptrs.h"

/* One --tag NAME=VALUE; both owned. */
struct cprof_tag {
	char *name;
	char *value;
};

/* True when `name` matches [a-z_][a-z0-9_]* (at most 64 bytes). */
bool cprof_tag_name_ok(const char *name);

/* Parses the NAME=VALUE argument of `option` into a new tag appended to
 * `tags` (struct cprof_tag *, each freed with cprof_tag_free).  Dies naming the option when NAME is malformed, is one
 * of the NULL-terminated `reserved` names or is given twice, or when
 * VALUE is not valid UTF-8. */
void cprof_tag_parse(struct cprof_ptrs *tags, const char *option, const char *arg,
		     const char *const *reserved);

/* Frees a tag; accepts NULL. */
void cprof_tag_free(void *tag);

/* Dies unless the rows of `dist` (one profile, read on its own) sum to its
 * total: a cumulative flat and a flat cut by --top have none that do. */
void cprof_rows_check(const struct cprof_dist *dist);

/* Parses a --label FIELD[=KEY] into a new tag appended to `labels`
 * (name FIELD, value KEY: the profile.proto label a row's FIELD holds,
 * FIELD itself when no KEY is given).  Dies naming the option when FIELD
 * is malformed, one of `reserved` or given twice, or KEY is empty or not
 * valid UTF-8. */
void cprof_label_parse(struct cprof_ptrs *labels, const char *arg, const char *const *reserved);

/* Points `read` at the KEYs of `labels`, gathered into `keys` (emptied
 * first; it borrows them, and must live while `read` is used). */
void cprof_labels_read_options(const struct cprof_ptrs *labels, struct cprof_ptrs *keys,
			       struct cprof_read_options *read);

/* Dies when a --label FIELD is also a --tag's NAME. */
void cprof_labels_check(const struct cprof_ptrs *tags, const struct cprof_ptrs *labels);

/* Prints the rows of `count` parts of profiles as JSON Lines: {"profile",
 * "by", "key", "count"}, each tag, then each label's field (the part's
 * value, null when its samples do not carry it).  Profiles come in
 * bytewise order of their names (the order of the operands, part->input,
 * among equal names), a profile's parts in the order of their values
 * (absent first, then bytewise), each part's keys in flat order, so the
 * output does not depend on the order of the operands.  Sorts the
 * distributions. */
void cprof_rows_print(struct cprof_part **parts, size_t count, const struct cprof_ptrs *tags,
		      const struct cprof_ptrs *labels);

#endif
