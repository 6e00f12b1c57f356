/* watch.h: the changes of one series of days (cprof-store watch): each
 * key's share day by day, the day it moved to a new level beyond its noise
 * between days, and the group's entropy the same way.  Pure computation
 * on counts: the store's query fills a series, the calibration bench
 * simulates one.
 *
 * The model: each day's profiles (its hosts) are summed into the day's
 * counts, and the days are the runs of cprof-regress's noise model: a
 * key's share on day d varies around its level with variance
 * phi_k pi (1 - pi) / N_d, phi_k its dispersion between days, which holds
 * both its dispersion between hosts and its wander from day to day,
 * measured and moderated across the keys by cprof_noise_estimate (the
 * days before a split one group, the days from it on the other).  A split
 * at day s tests the `baseline` days before s against every day from s on
 * (at least `persist`) with cprof_noise_test (the mixture over the key's
 * posterior dispersion, as cprof-regress judges), its levels' intervals
 * at cprof_noise_interval_phi.  Each key's change is at its best split
 * (smallest p), kept when its q-value is at most `alpha` (that p times
 * the splits tested, then Benjamini-Hochberg over the keys and entropy,
 * weighted by the square root of each key's share as cprof-diff's), its
 * share moved by at least `min_effect` of itself, and the move held (the mean
 * of its first `persist` days a quarter of the way to the new level, the
 * mean of its last third of days, at least `persist` of them, half of it:
 * a spike that went away is no change).
 * Keys that moved on the same day in opposite directions by amounts that
 * offset each other (their sum within a quarter of the larger side) while
 * the profiles' total did not move (Welch's t of the profiles' totals,
 * not significant at `alpha`) are one change of kind shift. */
#ifndef CPROF_WATCH_H
#define CPROF_WATCH_H

#include <stddef.h>
#include <stdint.h>

/* One series: a group's days, in order. */
struct cprof_watch_series {
	size_t num_days, num_keys;
	const uint64_t *counts;        /* counts[key * num_days + day], summed over its profiles */
	const uint64_t *totals;        /* each day's samples (every key's) */
	const double *profile_totals;  /* each profile's samples, day by day */
	const size_t *day_start;       /* day d's profiles: profile_totals[day_start[d] ..
					* day_start[d + 1]) */
};

struct cprof_watch_settings {
	size_t baseline;               /* days before the split (14) */
	size_t persist;                /* days from it on, at least (2) */
	double alpha;                  /* the q-value's bound (0.01) */
	double min_effect;             /* the relative move, at least (0.05) */
};

enum cprof_watch_kind {
	CPROF_WATCH_REGRESSION,        /* a key's share went up */
	CPROF_WATCH_IMPROVEMENT,       /* down */
	CPROF_WATCH_SHIFT,             /* keys that offset each other */
	CPROF_WATCH_ENTROPY,           /* the group's entropy moved */
};

/* A level with its interval at 1 - alpha. */
struct cprof_watch_level {
	double value, low, high;       /* NAN when undefined (a ratio over 0) */
};

/* One change. */
struct cprof_watch_change {
	enum cprof_watch_kind kind;
	size_t key;                    /* the key (the largest move of a shift); SIZE_MAX: entropy */
	size_t day;                    /* the first day of the new level */
	struct cprof_watch_level before, after, ratio;  /* shares, or entropies in bits */
	double q_value;
	size_t days;                   /* the days it has held: day to the last */
	size_t *offset_by;             /* a shift's other keys */
	size_t num_offset;
};

/* The changes of `series` under `settings` into *changes (newly
 * allocated, freed with cprof_watch_free); returns their number, those of
 * keys first by day then key, then entropy's. */
size_t cprof_watch_detect(const struct cprof_watch_series *series,
			  const struct cprof_watch_settings *settings,
			  struct cprof_watch_change **changes);

/* Frees the `n` changes `changes`. */
void cprof_watch_free(struct cprof_watch_change *changes, size_t n);

/* The kind's name: "regression", "improvement", "shift", "entropy". */
const char *cprof_watch_kind_name(enum cprof_watch_kind kind);

#endif
