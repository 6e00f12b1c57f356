/* perf-types.c: the events of a perf text as its sample types (one
 * event: its samples, and its periods where every sample has one;
 * several: each event's periods), the one --sample-index picks kept,
 * and the notes of a finished read. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/ptrs.h"
#include "base/util.h"
#include "perf-int.h"
#include "profile-core.h"

/* The index of the event named name[0, len) (NULL: samples without
 * headers) in r->events, added when new. */
uint32_t cprof_perf_find_event(struct reader *r, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < r->num_events; i++) {
		const struct event *e = &r->events[i];

		if (name ? e->name && e->name_len == len && memcmp(e->name, name, len) == 0 : !e->name)
			return (uint32_t)i;
	}
	if (r->num_events == r->events_cap) {
		r->events_cap = r->events_cap ? 2 * r->events_cap : 4;
		r->events = cprof_xrealloc(r->events, r->events_cap * sizeof(*r->events));
	}
	r->events[r->num_events] = (struct event){
		.name = name ? g_strndup(name, len) : NULL, .name_len = len,
		.all_periods = true, .same_period = true,
	};
	return (uint32_t)r->num_events++;
}

void cprof_perf_events_free(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->num_events; i++)
		g_free(r->events[i].name);
	free(r->events);
	r->events = NULL;
	r->num_events = r->events_cap = 0;
}

/* The unit of an event's period: time for the clock events. */
static const char *period_unit(const char *event)
{
	if (strcmp(event, "cpu-clock") == 0 || strcmp(event, "task-clock") == 0)
		return "nanoseconds";
	return "count";
}

/* The sample types of a text: with one event (or none), its samples
 * and, when every sample has one, its periods summed; with several,
 * each event's periods summed (its samples, where one lacks a period).
 * types[i]/units[i] are events[choice[i].event]'s. */
struct types {
	size_t n;
	const char **types, **units;
	char **names;          /* the events' names, sanitized: without modifiers unless two share one */
	char **full;           /* the events' names with their modifiers, sanitized */
	struct choice {
		uint32_t event;
		bool periods;
	} *choice;
};

/* True when event i's name without modifiers is another event's too
 * ("cycles:u" and "cycles:k"): the type names then keep them. */
static bool shared_bare(const struct reader *r, size_t i)
{
	const struct event *e = &r->events[i];
	size_t j, len = cprof_perf_event_name_len(e->name, e->name_len);

	for (j = 0; j < r->num_events; j++) {
		const struct event *o = &r->events[j];

		if (j != i && o->name && cprof_perf_event_name_len(o->name, o->name_len) == len &&
		    memcmp(o->name, e->name, len) == 0)
			return true;
	}
	return false;
}

/* The unit of the periods of the event whose name is `name`, its
 * modifiers left off. */
static const char *event_unit(const char *name)
{
	char *bare = g_strndup(name, cprof_perf_event_name_len(name, strlen(name)));
	const char *unit = period_unit(bare);

	g_free(bare);
	return unit;
}

static void types_make(const struct reader *r, struct types *t)
{
	size_t i;

	t->n = 0;
	t->types = cprof_xcalloc(r->num_events + 2, sizeof(*t->types));
	t->units = cprof_xcalloc(r->num_events + 2, sizeof(*t->units));
	t->choice = cprof_xcalloc(r->num_events + 2, sizeof(*t->choice));
	t->names = cprof_xcalloc(r->num_events + 1, sizeof(*t->names));
	t->full = cprof_xcalloc(r->num_events + 1, sizeof(*t->full));
	for (i = 0; i < r->num_events; i++)
		if (r->events[i].name) {
			const struct event *e = &r->events[i];

			t->full[i] = cprof_utf8_sanitize(e->name, e->name_len, &(bool){ false });
			t->names[i] = cprof_utf8_sanitize(e->name, shared_bare(r, i) ? e->name_len :
							  cprof_perf_event_name_len(e->name, e->name_len),
							  &(bool){ false });
		}
	if (r->num_events > 1) {
		for (i = 0; i < r->num_events; i++) {
			t->types[t->n] = t->names[i];
			t->units[t->n] = r->events[i].all_periods ? event_unit(t->names[i]) : "count";
			t->choice[t->n++] = (struct choice){ (uint32_t)i, r->events[i].all_periods };
		}
		return;
	}
	t->types[t->n] = "samples";
	t->units[t->n] = "count";
	t->choice[t->n++] = (struct choice){ 0, false };
	if (r->num_events == 1 && t->names[0] && r->events[0].samples > 0 &&
	    r->events[0].all_periods) {
		t->types[t->n] = t->names[0];
		t->units[t->n] = event_unit(t->names[0]);
		t->choice[t->n++] = (struct choice){ 0, true };
	}
}

static void types_free(const struct reader *r, struct types *t)
{
	size_t i;

	for (i = 0; i < r->num_events; i++) {
		free(t->names[i]);
		free(t->full[i]);
	}
	free(t->names);
	free(t->full);
	free(t->types);
	free(t->units);
	free(t->choice);
}

/* True when type i is an event's (not the samples of the one event). */
static bool event_type(const struct reader *r, const struct types *t, size_t i)
{
	return (r->num_events > 1 || i > 0) && t->full[t->choice[i].event];
}

/* Which of the types `request` (--sample-index) names: an event as
 * perf prints it, or as a type is named, or its modifiers ("cycles:u")
 * left off on both sides when that names one event only (an error
 * naming them when it names several). */
static int pick_type(struct reader *r, const struct types *t, const char *request)
{
	size_t i, len, matches = 0;
	GString *names;
	int pick = -1;

	if (!request)
		return 0;
	for (i = 0; i < t->n; i++)
		if (strcmp(t->types[i], request) == 0)
			return (int)i;
	for (i = 0; i < t->n; i++)
		if (event_type(r, t, i) && strcmp(t->full[t->choice[i].event], request) == 0)
			return (int)i;
	len = cprof_perf_event_name_len(request, strlen(request));
	names = g_string_new(NULL);
	for (i = 0; i < t->n; i++) {
		const char *full = t->full[t->choice[i].event];

		if (!event_type(r, t, i) || cprof_perf_event_name_len(full, strlen(full)) != len ||
		    memcmp(full, request, len) != 0)
			continue;
		g_string_append_printf(names, "%s%s", matches++ ? ", " : "", t->types[i]);
		pick = (int)i;
	}
	if (matches > 1)
		pick = cprof_error_set(r->err, "--sample-index=%s names %zu events: %s; name one with "
					       "its modifiers", request, matches, names->str);
	else if (matches == 0)
		pick = cprof_sample_index_pick(t->types, t->units, t->n, NULL, request, r->err);
	g_string_free(names, TRUE);
	return pick;
}

/* Notes which event the counts are when the text has several. */
static void note_events(const struct types *t, struct cprof_profile *profile)
{
	GString *text = g_string_new(NULL);
	size_t i;

	g_string_printf(text, "samples of %zu events: %s (read)", t->n, t->types[0]);
	for (i = 1; i < t->n; i++)
		g_string_append_printf(text, ", %s", t->types[i]);
	g_string_append(text, "; --sample-index=EVENT reads another");
	cprof_ptrs_add(&profile->notes, cprof_xstrdup(text->str));
	g_string_free(text, TRUE);
}

/* Keeps the stacks of the sample type `c`, counting its samples or
 * periods. */
static void keep_type(struct cprof_perf *perf, struct choice c, bool all_events)
{
	size_t i, kept = 0;

	for (i = 0; i < perf->stacks.len; i++) {
		struct stack *s = perf->stacks.items[i];

		if (!all_events && s->event != c.event)
			continue;
		if (c.periods)
			s->samples = s->period;
		s->id = (uint32_t)kept;
		perf->stacks.items[kept++] = s;
	}
	perf->stacks.len = kept;
}

/* Picks the sample type and fills the profile's counts and its list of
 * sample types. */
int cprof_perf_finish(struct reader *r, struct cprof_profile *profile, const char *sample_index)
{
	struct types t;
	const struct event *e;
	struct choice c;
	size_t i;
	int pick;

	types_make(r, &t);
	pick = pick_type(r, &t, sample_index);
	if (pick < 0) {
		types_free(r, &t);
		return -1;
	}
	c = t.choice[pick];
	e = r->num_events ? &r->events[c.event] : NULL;
	profile->total = !e ? 0 : c.periods ? e->period_sum : e->samples;
	if (strcmp(t.types[pick], "samples") != 0)
		profile->sample_type = g_strdup_printf("%s/%s", t.types[pick], t.units[pick]);
	keep_type(r->perf, c, r->num_events <= 1);
	if (e && e->name && e->samples > 0 && e->all_periods && e->same_period &&
	    strcmp(period_unit(t.names[c.event]), "nanoseconds") == 0 && e->first_period >= 1000) {
		profile->has_period = true;
		profile->period_us = e->first_period / 1000 + (e->first_period % 1000 >= 500);
	}
	for (i = 0; i < t.n; i++) {
		char *type = g_strdup_printf("%s/%s", t.types[i], t.units[i]);

		cprof_ptrs_add(&profile->sample_types, cprof_xstrdup(type));
		g_free(type);
	}
	if (r->num_events > 1 && !sample_index)
		note_events(&t, profile);
	cprof_perf_key_unnamed(r->perf, r->child, profile);
	types_free(r, &t);
	return 0;
}

/* Notes the lines dropped from samples, the first named. */
void cprof_perf_note_dropped(const struct reader *r, struct cprof_profile *profile)
{
	char where[64], *text;

	if (r->child)
		snprintf(where, sizeof(where), "line %llu of perf script's output", r->dropped_line);
	else
		snprintf(where, sizeof(where), "%llu", r->dropped_line);
	text = g_strdup_printf("%s: \"%s\": %" PRIu64 " line%s inside samples that %s no frame "
			       "(\"IP SYM (DSO)\"), source line nor header: dropped", where,
			       r->dropped_text, r->dropped, r->dropped == 1 ? "" : "s",
			       r->dropped == 1 ? "is" : "are");
	cprof_ptrs_add(&profile->notes, cprof_xstrdup(text));
	g_free(text);
}
