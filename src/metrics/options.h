/* options.h: the options cprof-diff and cprof-regress share: the keys
 * compared (-k, --keys) and the levels of the tests (--alpha,
 * --min-effect, --dispersion). */
#ifndef CPROF_METRICS_OPTIONS_H
#define CPROF_METRICS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "signif.h"
#include "stats.h"

/* The name of a --keys value ("union", "a"), and back; -1 for an unknown
 * name. */
const char *cprof_keys_name(enum cprof_keys keys);
int cprof_keys_parse(const char *name);

/* The comparison and significance options of cprof-diff and
 * cprof-regress (with -k, a short option of their own). */
enum {
	CPROF_OPT_ALPHA = 768,
	CPROF_OPT_MIN_EFFECT,
	CPROF_OPT_DISPERSION,
	CPROF_OPT_KEYS,
};

#define CPROF_COMPARE_LONG_OPTIONS { "keys", required_argument, NULL, CPROF_OPT_KEYS }

/* Takes -k into *k or --keys into *keys; false when `opt` is neither.
 * Dies on a bad value, naming the option. */
bool cprof_compare_option(int opt, const char *arg, size_t *k, enum cprof_keys *keys);

#define CPROF_SIGNIF_LONG_OPTIONS                                          \
	{ "alpha", required_argument, NULL, CPROF_OPT_ALPHA },             \
	{ "min-effect", required_argument, NULL, CPROF_OPT_MIN_EFFECT }

#define CPROF_SIGNIF_HELP                                                              \
	"  --alpha A       the level of the tests and intervals (default 0.01)\n"          \
	"  --min-effect E  the least change of a share that counts (default 0.005)\n"

/* Takes --alpha, --min-effect or --dispersion into *options; false when
 * `opt` is none of them.  Dies on a value out of range, naming the option
 * and the value. */
bool cprof_signif_option(int opt, const char *arg, struct cprof_signif_options *options);

#endif
