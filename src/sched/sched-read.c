/* sched-read.c: the scheduling problem read from JSON and validated, and
 * its LP built column by column in CLP's sparse arrays.  Every fault is
 * named by its JSON path.  Allocation is lib's (cprof_xcalloc, and
 * jansson's allocator that cprof_set_progname installs): out of memory
 * ends the program there, naming the input. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/input.h"
#include "sched-int.h"

static struct cprof_sched *sched_from_json(json_t *root, struct cprof_error *err);

/* Reading. */

enum { PATH_MAX_DEPTH = 64 };

/* An array or object open at a point of a JSON text, as path_at sees it. */
struct path_frame {
	bool object;
	bool want_key;
	size_t index;
	const char *key;
	size_t key_len;
};

/* Scans the first `end` bytes of `text` and leaves in `stack` the arrays
 * and objects still open there, the outermost first, at most
 * PATH_MAX_DEPTH of them (deeper ones are counted, not kept); returns
 * their number. */
static size_t open_frames(const char *text, size_t end, struct path_frame *stack)
{
	size_t depth = 0, deep = 0, i;

	for (i = 0; i < end; i++) {
		struct path_frame *top = depth > 0 && deep == 0 ? &stack[depth - 1] : NULL;
		size_t start;

		switch (text[i]) {
		case '"':
			start = ++i;
			while (i < end && text[i] != '"')
				i += text[i] == '\\' ? 2 : 1;
			if (top && top->object && top->want_key) {
				top->key = text + start;
				top->key_len = i - start;
			}
			break;
		case '{':
		case '[':
			if (depth == PATH_MAX_DEPTH) {
				deep++;
				break;
			}
			stack[depth] = (struct path_frame){ text[i] == '{', true, 0, "", 0 };
			depth++;
			break;
		case '}':
		case ']':
			if (deep > 0)
				deep--;
			else if (depth > 0)
				depth--;
			break;
		case ',':
			if (top) {
				top->index++;
				top->want_key = true;
			}
			break;
		case ':':
			if (top)
				top->want_key = false;
			break;
		default:
			break;
		}
	}
	return depth;
}

/* Puts the JSON path of the value that starts after the first `end`
 * bytes of the document `text` into `path`.  The text before it is valid
 * JSON so far (the parser read it), so a shallow scan of brackets, commas,
 * colons and strings is enough. */
static void path_at(const char *text, size_t end, char *path, size_t size)
{
	struct path_frame stack[PATH_MAX_DEPTH];
	size_t depth = open_frames(text, end, stack), used = 0, k;

	path[0] = '\0';
	for (k = 0; k < depth && used + 1 < size; k++) {
		int n;

		if (stack[k].object)
			n = snprintf(path + used, size - used, "%s%.*s", k > 0 ? "." : "",
				     (int)stack[k].key_len, stack[k].key);
		else
			n = snprintf(path + used, size - used, "[%zu]", stack[k].index);
		if (n < 0)
			break;
		used += (size_t)n < size - used ? (size_t)n : size - used - 1;
	}
	if (path[0] == '\0')
		snprintf(path, size, "(root)");
}

/* Parses the whole document `text`.  A number too large for a double is
 * reported at its JSON path, everything else with jansson's line and
 * column.  (jansson's allocator never returns NULL: no "invalid token"
 * here is an allocation that failed.) */
static json_t *parse(const char *text, size_t len, struct cprof_error *err)
{
	json_error_t json_err;
	json_t *root;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &json_err);
	if (root)
		return root;
	if (strncmp(json_err.text, "real number overflow", 20) == 0 ||
	    strncmp(json_err.text, "too big", 7) == 0) {
		char path[256];

		path_at(text, json_err.position > 0 ? (size_t)json_err.position : 0, path,
			sizeof(path));
		cprof_error_set(err, "%s: must be a finite number", path);
		return NULL;
	}
	err->line = json_err.line > 0 ? (unsigned long long)json_err.line : 0;
	cprof_error_set(err, "invalid JSON at column %d (byte %d): %s", json_err.column,
			json_err.position, json_err.text);
	return NULL;
}

struct cprof_sched *cprof_sched_read(const char *source, struct cprof_error *err)
{
	struct cprof_input in;
	struct cprof_sched *sched;
	long long got;
	json_t *root;

	if (cprof_input_open(&in, source, err) < 0)
		return NULL;
	do {
		got = cprof_input_fill(&in, cprof_input_avail(&in) + (1 << 20), err);
		if (got < 0) {
			cprof_input_close(&in);
			return NULL;
		}
	} while (!in.eof);
	root = parse((const char *)cprof_input_data(&in), cprof_input_avail(&in), err);
	cprof_input_close(&in);
	if (!root)
		return NULL;
	sched = sched_from_json(root, err);
	/* The tree is this function's own: the names stay in it, and the
	 * matrix, in the columns now, goes (a large part of the memory). */
	if (sched)
		json_object_del(root, "cpi");
	json_decref(root);
	return sched;
}

/* Validation.  Every check names the JSON path of the fault, and the first
 * fault found wins: unknown top-level fields, then platforms, apps and cpi,
 * each element in order (the order cprof-sched(1) gives). */

/* The key as it can stand in a one-line message. */
static void printable_key(const char *key, char *out, size_t size)
{
	size_t i;

	for (i = 0; key[i] && i + 1 < size; i++)
		out[i] = (unsigned char)key[i] < 0x20 || key[i] == 0x7f ? '?' : key[i];
	out[i] = '\0';
}

/* Fails on the first member of `object` not among `known`. */
static int only_fields(json_t *object, const char *prefix, const char *const *known,
		       struct cprof_error *err)
{
	const char *key;
	json_t *value;

	json_object_foreach(object, key, value) {
		const char *const *k;
		char name[128], path[192];

		for (k = known; *k && strcmp(*k, key) != 0; k++)
			;
		if (*k)
			continue;
		printable_key(key, name, sizeof(name));
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", name);
		return cprof_error_at(err, path, "unknown field");
	}
	return 0;
}

/* A load or a capacity: a finite number, not negative, and below `limit`
 * (CPROF_SCHED_INFINITY) when that is given (not 0). */
static int amount(json_t *value, const char *path, double limit, double *out,
		  struct cprof_error *err)
{
	double v;

	if (!value)
		return cprof_error_at(err, path, "missing");
	if (!json_is_number(value))
		return cprof_error_at(err, path, "must be a number");
	v = json_number_value(value);
	if (!isfinite(v))
		return cprof_error_at(err, path, "must be a finite number");
	if (v < 0)
		return cprof_error_at(err, path, "must not be negative");
	if (limit > 0 && v >= limit)
		return cprof_error_at(err, path, "must be less than 1e27");
	*out = v;
	return 0;
}

/* Reads element `i` of the array `field` into `out`: an object of the
 * fields `known`, a name not among those in `seen` (name -> the index of
 * its first holder, which it joins), and the amount `amount_field`.
 * Returns 0, or -1 with `err` set. */
static int named_item(json_t *item, size_t i, const char *field, const char *const *known,
		      double limit, json_t *seen, struct named *out, struct cprof_error *err)
{
	const char *amount_field = known[1];
	char path[96], sub[128];
	json_t *name, *first;
	int rc;

	snprintf(path, sizeof(path), "%s[%zu]", field, i);
	if (!json_is_object(item))
		return cprof_error_at(err, path, "must be an object");
	if ((rc = only_fields(item, path, known, err)) != 0)
		return rc;
	name = json_object_get(item, "name");
	snprintf(sub, sizeof(sub), "%s.name", path);
	if (!name)
		return cprof_error_at(err, sub, "missing");
	if (!json_is_string(name) || json_string_length(name) == 0)
		return cprof_error_at(err, sub, "must be a non-empty string");
	first = json_object_get(seen, json_string_value(name));
	if (first)
		return cprof_error_set(err, "%s: same as %s[%zu].name", sub, field,
				       (size_t)json_integer_value(first));
	if (json_object_set_new_nocheck(seen, json_string_value(name),
					json_integer((json_int_t)i)) != 0)
		cprof_die_oom();
	out->name = json_string_value(name);
	snprintf(sub, sizeof(sub), "%s.%s", path, amount_field);
	return amount(json_object_get(item, amount_field), sub, limit, &out->amount, err);
}

/* The array `field` of the root, or NULL with `err` set when it is
 * missing, not an array or too long. */
static json_t *named_array(json_t *root, const char *field, struct cprof_error *err)
{
	json_t *array = json_object_get(root, field);

	if (!array)
		cprof_error_at(err, field, "missing");
	else if (!json_is_array(array))
		cprof_error_at(err, field, "must be an array");
	else if (json_array_size(array) > (size_t)INT_MAX / 4)
		cprof_error_at(err, field, "too many entries");
	else
		return array;
	return NULL;
}

/* Reads the array `field` of the root ("platforms" or "apps"): objects
 * with a unique non-empty name and the amount `amount_field`.  Returns
 * them in a new array the caller frees, their number in *count; NULL with
 * `err` set on a fault. */
static struct named *named_list(json_t *root, const char *field, const char *amount_field,
				double limit, int *count, struct cprof_error *err)
{
	const char *const known[] = { "name", amount_field, NULL };
	json_t *array = named_array(root, field, err), *item, *seen;
	struct named *list;
	size_t i;
	int rc = 0;

	if (!array)
		return NULL;
	list = cprof_xcalloc(json_array_size(array), sizeof(*list));
	seen = json_object(); /* name -> the index of its first holder */
	if (!seen)
		cprof_die_oom();
	json_array_foreach(array, i, item) {
		rc = named_item(item, i, field, known, limit, seen, &list[i], err);
		if (rc != 0)
			break;
	}
	json_decref(seen);
	if (rc != 0) {
		free(list);
		return NULL;
	}
	*count = (int)json_array_size(array);
	return list;
}

/* Validates the CPI matrix `cpi`, one row per platform and one entry per
 * app, and puts the number of usable pairs (entries not null) in
 * *columns. */
static int check_cpi(json_t *cpi, int platforms, int apps, size_t *columns,
		     struct cprof_error *err)
{
	json_t *row, *value;
	size_t i, j;
	char path[96];

	if (!cpi)
		return cprof_error_at(err, "cpi", "missing");
	if (!json_is_array(cpi))
		return cprof_error_at(err, "cpi", "must be an array");
	if (json_array_size(cpi) != (size_t)platforms)
		return cprof_error_set(err, "cpi: has %zu rows, want %d (one per platform)",
				       json_array_size(cpi), platforms);
	*columns = 0;
	json_array_foreach(cpi, i, row) {
		snprintf(path, sizeof(path), "cpi[%zu]", i);
		if (!json_is_array(row))
			return cprof_error_at(err, path, "must be an array");
		if (json_array_size(row) != (size_t)apps)
			return cprof_error_set(err, "%s: has %zu entries, want %d (one per app)", path,
					       json_array_size(row), apps);
		json_array_foreach(row, j, value) {
			if (json_is_null(value))
				continue;
			snprintf(path, sizeof(path), "cpi[%zu][%zu]", i, j);
			if (!json_is_number(value))
				return cprof_error_at(err, path, "must be a positive number or null");
			if (!isfinite(json_number_value(value)))
				return cprof_error_at(err, path, "must be a finite number");
			if (!(json_number_value(value) > 0))
				return cprof_error_at(err, path, "must be a positive number");
			if (json_number_value(value) >= CPROF_SCHED_INFINITY)
				return cprof_error_at(err, path, "must be less than 1e27");
			(*columns)++;
		}
	}
	if (*columns > (size_t)INT_MAX / 2)
		return cprof_error_at(err, "cpi", "too many usable pairs for the solver");
	return 0;
}

/* Builds the LP's columns from the valid matrix `cpi`, platform by
 * platform, straight into the arrays CLP loads. */
static void build_columns(struct cprof_sched *sched, json_t *cpi, size_t columns)
{
	json_t *row, *value;
	size_t i, j, k = 0;

	sched->num_columns = (int)columns;
	sched->column_first = cprof_xcalloc((size_t)sched->num_platforms + 1, sizeof(int));
	sched->column_app = cprof_xcalloc(columns, sizeof(int));
	sched->starts = cprof_xcalloc(columns + 1, sizeof(int));
	sched->rows = cprof_xcalloc(2 * columns, sizeof(int));
	sched->elements = cprof_xcalloc(2 * columns, sizeof(double));
	sched->cost = cprof_xcalloc(columns, sizeof(double));
	json_array_foreach(cpi, i, row) {
		sched->column_first[i] = (int)k;
		json_array_foreach(row, j, value) {
			double c;

			if (json_is_null(value))
				continue;
			c = json_number_value(value);
			sched->column_app[k] = (int)j;
			sched->starts[k] = (int)(2 * k);
			sched->rows[2 * k] = (int)j;
			sched->elements[2 * k] = 1.0;
			sched->rows[2 * k + 1] = sched->num_apps + (int)i;
			sched->elements[2 * k + 1] = c;
			sched->cost[k] = c;
			k++;
		}
	}
	sched->column_first[sched->num_platforms] = (int)k;
	sched->starts[k] = (int)(2 * k);
}

/* Validates the CPI matrix and builds the LP's columns from it. */
static int read_cpi(struct cprof_sched *sched, struct cprof_error *err)
{
	json_t *cpi = json_object_get(sched->root, "cpi");
	size_t columns = 0;

	if (check_cpi(cpi, sched->num_platforms, sched->num_apps, &columns, err) != 0)
		return -1;
	build_columns(sched, cpi, columns);
	return 0;
}

static struct cprof_sched *sched_from_json(json_t *root, struct cprof_error *err)
{
	static const char *const known[] = { "platforms", "apps", "cpi", NULL };
	struct cprof_sched *sched;
	int i, rows;

	if (!json_is_object(root)) {
		cprof_error_at(err, "(root)", "must be an object");
		return NULL;
	}
	sched = cprof_xcalloc(1, sizeof(*sched));
	sched->root = json_incref(root);
	if (only_fields(root, "", known, err) != 0 ||
	    !(sched->platforms = named_list(root, "platforms", "capacity", 0,
					    &sched->num_platforms, err)) ||
	    !(sched->apps = named_list(root, "apps", "load", CPROF_SCHED_INFINITY,
				       &sched->num_apps, err)) ||
	    read_cpi(sched, err) != 0) {
		cprof_sched_free(sched);
		return NULL;
	}
	rows = sched->num_apps + sched->num_platforms;
	sched->row_lower = cprof_xcalloc((size_t)rows, sizeof(double));
	sched->row_upper = cprof_xcalloc((size_t)rows, sizeof(double));
	for (i = 0; i < sched->num_apps; i++)
		sched->row_lower[i] = sched->row_upper[i] = sched->apps[i].amount;
	for (i = 0; i < sched->num_platforms; i++) {
		double capacity = sched->platforms[i].amount;

		sched->row_lower[sched->num_apps + i] = -DBL_MAX;
		sched->row_upper[sched->num_apps + i] =
			capacity >= CPROF_SCHED_INFINITY ? DBL_MAX : capacity;
	}
	return sched;
}

