/* targets.c: the machine database as JSON Lines, each line checked whole
 * before anything is collected. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "targets.h"

/* Whether `url` is an http:// or https:// URL with a host. */
static bool url_ok(const char *url)
{
	const char *rest;

	if (strncmp(url, "http://", 7) == 0)
		rest = url + 7;
	else if (strncmp(url, "https://", 8) == 0)
		rest = url + 8;
	else
		return false;
	return *rest && *rest != '/' && !strpbrk(url, " \t\r\n?#");
}

/* Fills `target` from the object `obj` of line `line`; -1 with `err` set
 * when it is not a target. */
static int target_of(json_t *obj, unsigned long long line, struct cprof_target *target,
		     struct cprof_error *err)
{
	const char *name;
	json_t *value;
	size_t n = 0, len;

	err->line = line;
	if (!json_is_object(obj))
		return cprof_error_set(err, "not a JSON object");
	value = json_object_get(obj, "url");
	if (!json_is_string(value))
		return cprof_error_set(err, "no \"url\" string");
	if (!url_ok(json_string_value(value)))
		return cprof_error_set(err, "\"url\": '%s': not an http:// or https:// URL of a host",
				       json_string_value(value));
	json_object_foreach(obj, name, value)
		if (strcmp(name, "url") != 0 && !json_is_string(value))
			return cprof_error_set(err, "\"%s\": a dimension's value is a string", name);
	target->line = line;
	target->url = cprof_xstrdup(json_string_value(json_object_get(obj, "url")));
	len = strlen(target->url);
	while (len > 0 && target->url[len - 1] == '/')
		target->url[--len] = '\0';
	target->num_dims = json_object_size(obj) - 1;
	target->dim_names = cprof_xcalloc(target->num_dims + 1, sizeof(char *));
	target->dim_values = cprof_xcalloc(target->num_dims + 1, sizeof(char *));
	json_object_foreach(obj, name, value) {
		if (strcmp(name, "url") == 0)
			continue;
		target->dim_names[n] = cprof_xstrdup(name);
		target->dim_values[n++] = cprof_xstrdup(json_string_value(value));
	}
	return 0;
}

static void target_clear(struct cprof_target *target)
{
	size_t i;

	for (i = 0; i < target->num_dims; i++) {
		free(target->dim_names[i]);
		free(target->dim_values[i]);
	}
	free(target->dim_names);
	free(target->dim_values);
	free(target->url);
}

/* Adds the target of `text` (line `line`, not blank) to `targets`. */
static int add_line(struct cprof_targets *targets, const char *text, size_t len,
		    unsigned long long line, size_t *cap, struct cprof_error *err)
{
	json_error_t jerr;
	json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES,
				 &jerr);
	int status;

	if (!obj) {
		err->line = line;
		return cprof_error_set(err, "not JSON: %s at column %d", jerr.text, jerr.column);
	}
	if (targets->len == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		targets->items = cprof_xrealloc(targets->items, *cap * sizeof(*targets->items));
	}
	status = target_of(obj, line, &targets->items[targets->len], err);
	json_decref(obj);
	if (status == 0)
		targets->len++;
	return status;
}

static bool blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", s[i]))
			return false;
	return true;
}

int cprof_targets_read(const char *path, struct cprof_targets *targets, struct cprof_error *err)
{
	FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL;
	size_t size = 0, cap = 0;
	ssize_t len;
	unsigned long long number = 0;
	int status = 0;

	memset(targets, 0, sizeof(*targets));
	if (!in)
		return cprof_error_set(err, "%s", strerror(errno));
	while (status == 0 && (len = getline(&line, &size, in)) >= 0) {
		number++;
		if (memchr(line, '\0', (size_t)len)) {
			err->line = number;
			status = cprof_error_set(err, "a NUL byte");
		} else if (!blank(line, (size_t)len)) {
			status = add_line(targets, line, (size_t)len, number, &cap, err);
		}
	}
	if (status == 0 && ferror(in))
		status = cprof_error_set(err, "%s", strerror(errno));
	if (status == 0 && targets->len == 0)
		status = cprof_error_set(err, "no target");
	free(line);
	if (in != stdin)
		fclose(in);
	if (status != 0)
		cprof_targets_clear(targets);
	return status;
}

void cprof_targets_clear(struct cprof_targets *targets)
{
	size_t i;

	for (i = 0; i < targets->len; i++)
		target_clear(&targets->items[i]);
	free(targets->items);
	memset(targets, 0, sizeof(*targets));
}
