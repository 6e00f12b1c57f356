/* sched.c: the scheduling problem read from JSON and validated, its LP
 * built column by column in CLP's sparse arrays and solved (through the
 * shim of sched-solve.cc), and the result as JSON or a table.  Every
 * allocation here is checked and reported as "out of memory" in the
 * caller's error, so that the message names the input. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched-lp.h"
#include "sched-solve.h"

struct platform {
	const char *name;      /* points into the problem's JSON */
	double capacity;
};

struct app {
	const char *name;
	double load;
};

/* The LP has one column per usable (platform, app) pair, platform-major:
 * the columns of platform i are [column_first[i], column_first[i + 1]).
 * Column k has the element 1 in the row of its app (rows 0..apps-1) and
 * its CPI in the row of its platform (rows apps..apps+platforms-1). */
struct cprof_sched {
	json_t *root;
	struct platform *platforms;
	struct app *apps;
	int num_platforms;
	int num_apps;
	int num_columns;
	int *column_first;     /* num_platforms + 1 */
	int *column_app;       /* the app of each column */
	int *starts;           /* CLP's column starts: 2k */
	int *rows;             /* CLP's row indices, two per column */
	double *elements;      /* CLP's elements, two per column */
	double *cost;          /* the objective: each column's CPI */
	double *row_lower;
	double *row_upper;
	enum cprof_sched_status status;
	double *x;             /* the solution, one per column, rounded */
};

const char *cprof_sched_status_name(enum cprof_sched_status status)
{
	switch (status) {
	case CPROF_SCHED_OPTIMAL:
		return "optimal";
	case CPROF_SCHED_INFEASIBLE:
		return "infeasible";
	case CPROF_SCHED_UNBOUNDED:
		return "unbounded";
	default:
		return "unsolved";
	}
}

void cprof_sched_free(struct cprof_sched *sched)
{
	if (!sched)
		return;
	json_decref(sched->root);
	free(sched->platforms);
	free(sched->apps);
	free(sched->column_first);
	free(sched->column_app);
	free(sched->starts);
	free(sched->rows);
	free(sched->elements);
	free(sched->cost);
	free(sched->row_lower);
	free(sched->row_upper);
	free(sched->x);
	free(sched);
}

/* calloc that says "out of memory" in `err` when it fails. */
static void *alloc(size_t count, size_t size, struct cprof_error *err)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		cprof_error_set(err, "out of memory");
	return p;
}

/* Reading. */

/* Puts the JSON path of the value that starts after the first `end`
 * bytes of the document `text` into `path`.  The text before it is valid
 * JSON so far (the parser read it), so a shallow scan of brackets, commas,
 * colons and strings is enough. */
static void path_at(const char *text, size_t end, char *path, size_t size)
{
	enum { MAX_DEPTH = 64 };
	struct frame {
		bool object;
		bool want_key;
		size_t index;
		const char *key;
		size_t key_len;
	} stack[MAX_DEPTH];
	size_t depth = 0, deep = 0, i, used = 0, k;

	for (i = 0; i < end; i++) {
		struct frame *top = depth > 0 && deep == 0 ? &stack[depth - 1] : NULL;
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
			if (depth == MAX_DEPTH) {
				deep++;
				break;
			}
			stack[depth].object = text[i] == '{';
			stack[depth].want_key = true;
			stack[depth].index = 0;
			stack[depth].key = "";
			stack[depth].key_len = 0;
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

/* jansson's allocator in place when parse() started, and whether it
 * failed since: jansson's parser reports a failed allocation as "invalid
 * token", with no text, or not at all (a token cut short). */
static json_malloc_t parse_malloc;
static bool parse_malloc_failed;

static void *noting_malloc(size_t size)
{
	void *p = parse_malloc(size);

	if (!p)
		parse_malloc_failed = true;
	return p;
}

/* Parses the whole document `text`.  A failed allocation is "out of
 * memory", a number too large for a double is reported at its JSON path,
 * everything else with jansson's line and column. */
static json_t *parse(const char *text, size_t len, struct cprof_error *err)
{
	json_error_t json_err;
	json_free_t parse_free;
	json_t *root;

	json_get_alloc_funcs(&parse_malloc, &parse_free);
	parse_malloc_failed = false;
	json_set_alloc_funcs(noting_malloc, parse_free);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &json_err);
	json_set_alloc_funcs(parse_malloc, parse_free);
	if (parse_malloc_failed) {
		json_decref(root);
		cprof_error_set(err, "out of memory");
		return NULL;
	}
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
	sched = cprof_sched_from_json(root, err);
	json_decref(root);
	return sched;
}

/* Validation.  Every check names the JSON path of the fault, and the first
 * fault found wins: unknown top-level fields, then platforms, apps and cpi,
 * each element in order (the order cprof-sched(1) gives). */

static int bad(struct cprof_error *err, const char *path, const char *what)
{
	return cprof_error_set(err, "%s: %s", path, what);
}

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
		return bad(err, path, "unknown field");
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
		return bad(err, path, "missing");
	if (!json_is_number(value))
		return bad(err, path, "must be a number");
	v = json_number_value(value);
	if (!isfinite(v))
		return bad(err, path, "must be a finite number");
	if (v < 0)
		return bad(err, path, "must not be negative");
	if (limit > 0 && v >= limit)
		return bad(err, path, "must be less than 1e27");
	*out = v;
	return 0;
}

struct named {
	const char *name;
	double amount;
};

/* Reads the array `field` of the root ("platforms" or "apps"): objects
 * with a unique non-empty name and the amount `amount_field`.  Returns
 * them in a new array the caller frees, their number in *count; NULL with
 * `err` set on a fault. */
static struct named *named_list(json_t *root, const char *field, const char *amount_field,
				double limit, size_t *count, struct cprof_error *err)
{
	const char *const known[] = { "name", amount_field, NULL };
	json_t *array = json_object_get(root, field), *item, *seen;
	struct named *list;
	size_t i;
	int rc = 0;

	if (!array) {
		bad(err, field, "missing");
		return NULL;
	}
	if (!json_is_array(array)) {
		bad(err, field, "must be an array");
		return NULL;
	}
	if (json_array_size(array) > (size_t)INT_MAX / 4) {
		bad(err, field, "too many entries");
		return NULL;
	}
	list = alloc(json_array_size(array), sizeof(*list), err);
	seen = json_object(); /* name -> the index of its first holder */
	if (!list || !seen) {
		free(list);
		json_decref(seen);
		cprof_error_set(err, "out of memory");
		return NULL;
	}
	json_array_foreach(array, i, item) {
		char path[96], sub[128];
		json_t *name, *first;

		snprintf(path, sizeof(path), "%s[%zu]", field, i);
		if (!json_is_object(item)) {
			rc = bad(err, path, "must be an object");
			break;
		}
		if ((rc = only_fields(item, path, known, err)) != 0)
			break;
		name = json_object_get(item, "name");
		snprintf(sub, sizeof(sub), "%s.name", path);
		if (!name) {
			rc = bad(err, sub, "missing");
			break;
		}
		if (!json_is_string(name) || json_string_length(name) == 0) {
			rc = bad(err, sub, "must be a non-empty string");
			break;
		}
		first = json_object_get(seen, json_string_value(name));
		if (first) {
			rc = cprof_error_set(err, "%s: same as %s[%zu].name", sub, field,
					     (size_t)json_integer_value(first));
			break;
		}
		if (json_object_set_new_nocheck(seen, json_string_value(name),
						json_integer((json_int_t)i)) != 0) {
			rc = cprof_error_set(err, "out of memory");
			break;
		}
		list[i].name = json_string_value(name);
		snprintf(sub, sizeof(sub), "%s.%s", path, amount_field);
		rc = amount(json_object_get(item, amount_field), sub, limit, &list[i].amount, err);
		if (rc != 0)
			break;
	}
	json_decref(seen);
	if (rc != 0) {
		free(list);
		return NULL;
	}
	*count = json_array_size(array);
	return list;
}

static int read_platforms(struct cprof_sched *sched, struct cprof_error *err)
{
	struct named *list;
	size_t count, i;

	list = named_list(sched->root, "platforms", "capacity", 0, &count, err);
	if (!list)
		return -1;
	sched->num_platforms = (int)count;
	sched->platforms = alloc(count, sizeof(*sched->platforms), err);
	if (!sched->platforms) {
		free(list);
		return -1;
	}
	for (i = 0; i < count; i++) {
		sched->platforms[i].name = list[i].name;
		sched->platforms[i].capacity = list[i].amount;
	}
	free(list);
	return 0;
}

static int read_apps(struct cprof_sched *sched, struct cprof_error *err)
{
	struct named *list;
	size_t count, i;

	list = named_list(sched->root, "apps", "load", CPROF_SCHED_INFINITY, &count, err);
	if (!list)
		return -1;
	sched->num_apps = (int)count;
	sched->apps = alloc(count, sizeof(*sched->apps), err);
	if (!sched->apps) {
		free(list);
		return -1;
	}
	for (i = 0; i < count; i++) {
		sched->apps[i].name = list[i].name;
		sched->apps[i].load = list[i].amount;
	}
	free(list);
	return 0;
}

/* Validates the CPI matrix and builds the LP's columns from it, platform
 * by platform, straight into the arrays CLP loads. */
static int read_cpi(struct cprof_sched *sched, struct cprof_error *err)
{
	json_t *cpi = json_object_get(sched->root, "cpi"), *row, *value;
	size_t columns = 0, i, j;
	char path[96];
	int apps = sched->num_apps;

	if (!cpi)
		return bad(err, "cpi", "missing");
	if (!json_is_array(cpi))
		return bad(err, "cpi", "must be an array");
	if (json_array_size(cpi) != (size_t)sched->num_platforms)
		return cprof_error_set(err, "cpi: has %zu rows, want %d (one per platform)",
				       json_array_size(cpi), sched->num_platforms);
	json_array_foreach(cpi, i, row) {
		snprintf(path, sizeof(path), "cpi[%zu]", i);
		if (!json_is_array(row))
			return bad(err, path, "must be an array");
		if (json_array_size(row) != (size_t)apps)
			return cprof_error_set(err, "%s: has %zu entries, want %d (one per app)", path,
					       json_array_size(row), apps);
		json_array_foreach(row, j, value) {
			if (json_is_null(value))
				continue;
			snprintf(path, sizeof(path), "cpi[%zu][%zu]", i, j);
			if (!json_is_number(value))
				return bad(err, path, "must be a positive number or null");
			if (!isfinite(json_number_value(value)))
				return bad(err, path, "must be a finite number");
			if (!(json_number_value(value) > 0))
				return bad(err, path, "must be a positive number");
			if (json_number_value(value) >= CPROF_SCHED_INFINITY)
				return bad(err, path, "must be less than 1e27");
			columns++;
		}
	}
	if (columns > (size_t)INT_MAX / 2)
		return bad(err, "cpi", "too many usable pairs for the solver");

	sched->num_columns = (int)columns;
	if (!(sched->column_first = alloc((size_t)sched->num_platforms + 1, sizeof(int), err)) ||
	    !(sched->column_app = alloc(columns, sizeof(int), err)) ||
	    !(sched->starts = alloc(columns + 1, sizeof(int), err)) ||
	    !(sched->rows = alloc(2 * columns, sizeof(int), err)) ||
	    !(sched->elements = alloc(2 * columns, sizeof(double), err)) ||
	    !(sched->cost = alloc(columns, sizeof(double), err)))
		return -1;
	columns = 0;
	json_array_foreach(cpi, i, row) {
		sched->column_first[i] = (int)columns;
		json_array_foreach(row, j, value) {
			double c;

			if (json_is_null(value))
				continue;
			c = json_number_value(value);
			sched->column_app[columns] = (int)j;
			sched->starts[columns] = (int)(2 * columns);
			sched->rows[2 * columns] = (int)j;
			sched->elements[2 * columns] = 1.0;
			sched->rows[2 * columns + 1] = apps + (int)i;
			sched->elements[2 * columns + 1] = c;
			sched->cost[columns] = c;
			columns++;
		}
	}
	sched->column_first[sched->num_platforms] = (int)columns;
	sched->starts[columns] = (int)(2 * columns);
	return 0;
}

struct cprof_sched *cprof_sched_from_json(json_t *root, struct cprof_error *err)
{
	static const char *const known[] = { "platforms", "apps", "cpi", NULL };
	struct cprof_sched *sched;
	int i, rows;

	if (!json_is_object(root)) {
		bad(err, "(root)", "must be an object");
		return NULL;
	}
	sched = alloc(1, sizeof(*sched), err);
	if (!sched)
		return NULL;
	sched->root = json_incref(root);
	if (only_fields(root, "", known, err) != 0 || read_platforms(sched, err) != 0 ||
	    read_apps(sched, err) != 0 || read_cpi(sched, err) != 0) {
		cprof_sched_free(sched);
		return NULL;
	}
	rows = sched->num_apps + sched->num_platforms;
	sched->row_lower = alloc((size_t)rows, sizeof(double), err);
	sched->row_upper = alloc((size_t)rows, sizeof(double), err);
	if (!sched->row_lower || !sched->row_upper) {
		cprof_sched_free(sched);
		return NULL;
	}
	for (i = 0; i < sched->num_apps; i++)
		sched->row_lower[i] = sched->row_upper[i] = sched->apps[i].load;
	for (i = 0; i < sched->num_platforms; i++) {
		double capacity = sched->platforms[i].capacity;

		sched->row_lower[sched->num_apps + i] = -DBL_MAX;
		sched->row_upper[sched->num_apps + i] =
			capacity >= CPROF_SCHED_INFINITY ? DBL_MAX : capacity;
	}
	/* The names and capacities stay in the tree; the matrix is in the
	 * columns now. */
	json_object_del(sched->root, "cpi");
	return sched;
}

/* Solving. */

/* Rounds `x` to CPROF_SCHED_DIGITS significant digits of `scale`: to a
 * multiple of 10^(E + 1 - CPROF_SCHED_DIGITS), E the decimal exponent of
 * `scale`, by an exact power of ten so that the result is the double
 * nearest that decimal.  Returns 0 for x that rounds to 0 or below. */
static double round_to(double x, double scale)
{
	static const double powers[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	int decimals;

	if (!(x > 0) || !(scale > 0))
		return 0.0;
	decimals = CPROF_SCHED_DIGITS - 1 - (int)floor(log10(scale));
	if (decimals > 22) {
		/* A scale below 1e-13: no exact power; keep x unless it is noise. */
		return x > 1e-9 * scale ? x : 0.0;
	}
	if (decimals >= 0)
		x = round(x * powers[decimals]) / powers[decimals];
	else
		x = round(x / powers[-decimals]) * powers[-decimals];
	return x > 0 ? x : 0.0;
}

/* Rounds each x[i][j] against the smaller of load[j] and capacity[i] /
 * cpi[i][j], the most of app j that platform i can hold: against a load
 * of 1e12 alone, x moves by up to 500, and with it a platform of capacity
 * 1e6 past its capacity. */
static void round_solution(struct cprof_sched *sched)
{
	int i, k;

	for (i = 0; i < sched->num_platforms; i++)
		for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++) {
			double load = sched->apps[sched->column_app[k]].load;
			double room = sched->platforms[i].capacity / sched->cost[k];

			sched->x[k] = round_to(sched->x[k], room > 0 && room < load ? room : load);
		}
}

/* The error of a solve that gave no answer. */
static void solve_error(const struct cprof_lp_result *result, struct cprof_error *err)
{
	switch (result->outcome) {
	case CPROF_LP_NO_MEMORY:
		cprof_error_set(err, "out of memory");
		break;
	case CPROF_LP_FAILED:
		cprof_error_set(err, "the solver failed: %s", result->what);
		break;
	default:
		cprof_error_set(err, "the solver stopped without an answer: %s", result->what);
		break;
	}
}

/* Loads the LP into CLP and frees the arrays CLP copied. */
static struct cprof_clp *load(struct cprof_sched *sched, struct cprof_lp_result *result)
{
	struct cprof_lp lp = {
		.num_columns = sched->num_columns,
		.num_rows = sched->num_apps + sched->num_platforms,
		.starts = sched->starts,
		.rows = sched->rows,
		.elements = sched->elements,
		.cost = sched->cost,
		.row_lower = sched->row_lower,
		.row_upper = sched->row_upper,
	};
	struct cprof_clp *clp = cprof_clp_load(&lp, result);

	free(sched->starts);
	free(sched->rows);
	free(sched->elements);
	sched->starts = NULL;
	sched->rows = NULL;
	sched->elements = NULL;
	return clp;
}

enum cprof_sched_status cprof_sched_solve(struct cprof_sched *sched, struct cprof_error *err)
{
	struct cprof_lp_result result;
	struct cprof_clp *clp;

	sched->status = CPROF_SCHED_UNSOLVED;
	sched->x = alloc((size_t)sched->num_columns, sizeof(double), err);
	if (!sched->x)
		return CPROF_SCHED_UNSOLVED;
	clp = load(sched, &result);
	if (clp)
		cprof_clp_solve(clp, sched->x, &result);
	cprof_clp_free(clp);
	switch (result.outcome) {
	case CPROF_LP_OPTIMAL:
		sched->status = CPROF_SCHED_OPTIMAL;
		round_solution(sched);
		break;
	case CPROF_LP_INFEASIBLE:
		sched->status = CPROF_SCHED_INFEASIBLE;
		break;
	case CPROF_LP_UNBOUNDED:
		sched->status = CPROF_SCHED_UNBOUNDED;
		break;
	default:
		solve_error(&result, err);
		break;
	}
	return sched->status;
}

/* Output. */

static double platform_used(const struct cprof_sched *sched, int i)
{
	double used = 0.0;
	int k;

	for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++)
		used += sched->cost[k] * sched->x[k];
	return used;
}

static double utilization(const struct cprof_sched *sched, int i, double used)
{
	double capacity = sched->platforms[i].capacity;

	return capacity > 0 ? used / capacity : 0.0;
}

/* object[name] = value and array += value take the reference to `value`,
 * also when they fail (a NULL object or value, an allocation), so that
 * building goes on after a failure without leaks and fails at the end. */
static bool set(json_t *object, const char *name, json_t *value)
{
	return json_object_set_new(object, name, value) == 0;
}

static bool append(json_t *array, json_t *value)
{
	return json_array_append_new(array, value) == 0;
}

/* A capacity as given: a whole number when it is one. */
static json_t *capacity_json(const struct platform *platform)
{
	double c = platform->capacity;

	if (c == floor(c) && c < 9007199254740992.0)
		return json_integer((json_int_t)c);
	return json_real(c);
}

/* Appends platform i's pairs to `assignment` and its object to
 * `platforms`; false when an allocation failed. */
static bool platform_json(const struct cprof_sched *sched, int i, json_t *assignment,
			  json_t *platforms)
{
	const struct platform *platform = &sched->platforms[i];
	double used = platform_used(sched, i);
	json_t *item = json_object();
	bool ok = true;
	int k;

	for (k = sched->column_first[i]; ok && k < sched->column_first[i + 1]; k++) {
		json_t *pair;

		if (sched->x[k] == 0.0)
			continue;
		pair = json_object();
		ok = set(pair, "platform", json_string(platform->name)) && ok;
		ok = set(pair, "app", json_string(sched->apps[sched->column_app[k]].name)) && ok;
		ok = set(pair, "load", json_real(sched->x[k])) && ok;
		ok = append(assignment, pair) && ok;
	}
	ok = set(item, "name", json_string(platform->name)) && ok;
	ok = set(item, "capacity", capacity_json(platform)) && ok;
	ok = set(item, "used", json_real(used)) && ok;
	ok = set(item, "utilization", json_real(utilization(sched, i, used))) && ok;
	return append(platforms, item) && ok;
}

json_t *cprof_sched_json(const struct cprof_sched *sched)
{
	json_t *root = json_object(), *assignment, *platforms;
	double objective = 0.0;
	bool ok = true;
	int i;

	ok = set(root, "cprof", json_string("sched")) && ok;
	ok = set(root, "version", json_integer(CPROF_SCHEMA_VERSION)) && ok;
	ok = set(root, "status", json_string(cprof_sched_status_name(sched->status))) && ok;
	if (ok && sched->status == CPROF_SCHED_OPTIMAL) {
		assignment = json_array();
		platforms = json_array();
		for (i = 0; ok && i < sched->num_platforms; i++) {
			ok = platform_json(sched, i, assignment, platforms);
			objective += platform_used(sched, i);
		}
		ok = set(root, "objective", json_real(objective)) && ok;
		ok = set(root, "assignment", assignment) && ok;
		ok = set(root, "platforms", platforms) && ok;
	}
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

static int name_width(const char *title, const char *name, int width)
{
	int len = (int)strlen(name);

	if (width < (int)strlen(title))
		width = (int)strlen(title);
	return len > width ? len : width;
}

void cprof_sched_text(const struct cprof_sched *sched)
{
	int pw = 0, aw = 0, i, k;
	double objective = 0.0;

	if (sched->status != CPROF_SCHED_OPTIMAL) {
		printf("status %s\n", cprof_sched_status_name(sched->status));
		return;
	}
	for (i = 0; i < sched->num_platforms; i++) {
		pw = name_width("platform", sched->platforms[i].name, pw);
		objective += platform_used(sched, i);
	}
	for (i = 0; i < sched->num_apps; i++)
		aw = name_width("app", sched->apps[i].name, aw);
	printf("status optimal, objective %.10g\n", objective);
	printf("%-*s %14s %14s %8s\n", pw, "platform", "capacity", "used", "util%");
	for (i = 0; i < sched->num_platforms; i++) {
		double used = platform_used(sched, i);

		printf("%-*s %14.10g %14.10g %7.2f%%\n", pw, sched->platforms[i].name,
		       sched->platforms[i].capacity, used,
		       100.0 * utilization(sched, i, used));
	}
	printf("\n%-*s %-*s %14s\n", pw, "platform", aw, "app", "load");
	for (i = 0; i < sched->num_platforms; i++)
		for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++) {
			double x = sched->x[k];

			if (x != 0.0)
				printf("%-*s %-*s %14.10g\n", pw, sched->platforms[i].name, aw,
				       sched->apps[sched->column_app[k]].name, x);
		}
}
