/* options.c: the options cprof-diff and cprof-regress share: the keys
 * compared and the levels of the tests. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "options.h"

static const char *const keys_names[] = {
	[CPROF_KEYS_UNION] = "union",
	[CPROF_KEYS_A] = "a",
};

const char *cprof_keys_name(enum cprof_keys keys)
{
	return keys_names[keys];
}

int cprof_keys_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(keys_names) / sizeof(keys_names[0]); i++)
		if (strcmp(name, keys_names[i]) == 0)
			return (int)i;
	return -1;
}

bool cprof_compare_option(int opt, const char *arg, size_t *k, enum cprof_keys *keys)
{
	uint64_t value;
	int parsed;

	switch (opt) {
	case 'k':
		value = cprof_option_u64("-k", arg);
		if (value > SIZE_MAX)
			cprof_die("-k: too large: '%s'", arg);
		*k = (size_t)value;
		return true;
	case CPROF_OPT_KEYS:
		parsed = cprof_keys_parse(arg);
		if (parsed < 0)
			cprof_die("--keys: must be union or a, not '%s'", arg);
		*keys = (enum cprof_keys)parsed;
		return true;
	default:
		return false;
	}
}

bool cprof_signif_option(int opt, const char *arg, struct cprof_signif_options *options)
{
	double value;

	switch (opt) {
	case CPROF_OPT_ALPHA:
		value = cprof_option_double("--alpha", arg);
		if (!(value > 0 && value < 1))
			cprof_die("--alpha: must be above 0 and below 1, not '%s'", arg);
		options->alpha = value;
		return true;
	case CPROF_OPT_MIN_EFFECT:
		value = cprof_option_double("--min-effect", arg);
		if (!(value >= 0 && value < 1))
			cprof_die("--min-effect: must be at least 0 and below 1, not '%s'", arg);
		options->min_effect = value;
		return true;
	case CPROF_OPT_DISPERSION:
		value = cprof_option_double("--dispersion", arg);
		if (!(value >= 1))
			cprof_die("--dispersion: must be at least 1, not '%s'", arg);
		options->dispersion = value;
		return true;
	default:
		return false;
	}
}

