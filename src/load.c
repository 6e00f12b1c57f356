/* load.c: the options and the reading every profile-reading program shares. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "load.h"
#include "symbolize.h"

void cprof_loader_init(struct cprof_loader *loader)
{
	memset(loader, 0, sizeof(*loader));
	loader->key.by = CPROF_BY_FUNCTION;
	loader->key.symbolize = true;
	loader->key.inline_frames = true;
}

bool cprof_loader_option(struct cprof_loader *loader, int opt, const char *arg)
{
	int by;

	switch (opt) {
	case CPROF_OPT_BINARY:
		loader->binary = arg;
		return true;
	case CPROF_OPT_BY:
		by = cprof_by_parse(arg);
		if (by < 0)
			cprof_die("--by: unknown key '%s' (function, dso, line, address, stack or "
				  "label:NAME)", arg);
		loader->key.by = (enum cprof_by)by;
		loader->key.by_given = true;
		return true;
	case CPROF_OPT_CUM:
		loader->key.cum = true;
		loader->key.by_given = true;
		return true;
	case CPROF_OPT_NO_CACHE:
		loader->no_cache = true;
		return true;
	case CPROF_OPT_NO_INLINE:
		loader->key.inline_frames = false;
		return true;
	case CPROF_OPT_NO_SYMBOLIZE:
		loader->key.symbolize = false;
		return true;
	case CPROF_OPT_SYMBOLS:
		cprof_ptrs_add(&loader->symbol_dirs, cprof_xstrdup(arg));
		return true;
	case CPROF_OPT_SAMPLE_INDEX:
		if (!*arg)
			cprof_die("--sample-index: empty (a number or a sample type's name)");
		loader->read.sample_index = arg;
		return true;
	case CPROF_OPT_TAG_FILTER:
		if (arg[0] == '=' || !strchr(arg, '=') || !g_utf8_validate(arg, -1, NULL))
			cprof_die("--tag-filter: '%s' is not NAME=VALUE", arg);
		cprof_ptrs_add(&loader->tag_filters, (void *)arg);
		loader->read.tag_filters = (const char *const *)loader->tag_filters.items;
		loader->read.num_tag_filters = loader->tag_filters.len;
		return true;
	default:
		return false;
	}
}

/* Creates the symbolizer on first need: --symbols directories first, then
 * those of CPROF_SYMBOL_PATH. */
static void start_symbolizer(struct cprof_loader *loader)
{
	struct cprof_symbol_options options = { 0 };
	const char *path = getenv("CPROF_SYMBOL_PATH");

	if (loader->key.symbolizer || !loader->key.symbolize)
		return;
	if (path && *path) {
		char **dirs = g_strsplit(path, ":", -1), **d;

		for (d = dirs; *d; d++)
			if (**d)
				cprof_ptrs_add(&loader->symbol_dirs, cprof_xstrdup(*d));
		g_strfreev(dirs);
	}
	options.symbol_dirs = (const char *const *)loader->symbol_dirs.items;
	options.num_symbol_dirs = loader->symbol_dirs.len;
	options.binary = loader->binary;
	options.inline_frames = loader->key.inline_frames;
	options.lines = loader->key.by == CPROF_BY_LINE;
	options.cache = !loader->no_cache;
	loader->key.symbolizer = cprof_symbolizer_new(&options);
}

void cprof_loader_read(struct cprof_loader *loader, const char *name, struct cprof_dist **dist)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	const char *type;

	loader->read.label_key = cprof_by_label_key(loader->key.by);
	if (loader->read.label_key && loader->key.cum)
		cprof_die("--cum: a label is no frame of a stack (--by=%s counts each sample once)",
			  cprof_by_name(loader->key.by));
	profile = cprof_profile_read_with(name, &loader->read, &err);
	if (!profile)
		cprof_die_input(name, &err);
	if (profile->replaced_utf8)
		cprof_warn("%s: names that are not valid UTF-8 were replaced by U+FFFD", name);
	type = profile->format == CPROF_FORMAT_FLAT ? cprof_dist_sample_type(profile->flat) :
	       profile->sample_type ? profile->sample_type : "samples/count";
	if (!loader->sample_type)
		loader->sample_type = cprof_xstrdup(type);
	else if (strcmp(loader->sample_type, type) != 0)
		cprof_die("%s: sample type %s differs from %s of the input before it", name, type,
			  loader->sample_type);
	if (profile->format != CPROF_FORMAT_FOLDED && profile->format != CPROF_FORMAT_FLAT &&
	    (loader->key.by == CPROF_BY_FUNCTION || loader->key.by == CPROF_BY_LINE ||
	     loader->key.by == CPROF_BY_STACK))
		start_symbolizer(loader);
	if (!*dist)
		*dist = cprof_dist_new(loader->key.by, loader->key.cum);
	if (cprof_profile_to_dist(profile, &loader->key, *dist, &err) < 0)
		cprof_die_input(name, &err);
	cprof_dist_note_input(*dist, name, profile->has_period, profile->period_us);
	if (cprof_dist_note_sample_type(*dist, type, &err) < 0)
		cprof_die_input(name, &err);
	cprof_profile_free(profile);
}

void cprof_loader_check_operands(const char *const *names, int count)
{
	bool seen_stdin = false;
	int i;

	for (i = 0; i < count; i++) {
		if (strcmp(names[i], "-") != 0)
			continue;
		if (seen_stdin)
			cprof_die("standard input (-) can be read only once");
		seen_stdin = true;
	}
}

void cprof_loader_free(struct cprof_loader *loader)
{
	cprof_symbolizer_free(loader->key.symbolizer);
	free(loader->sample_type);
	cprof_ptrs_clear(&loader->symbol_dirs, free);
	cprof_ptrs_clear(&loader->tag_filters, NULL);
}
