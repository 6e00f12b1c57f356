/* prune.c: pprof's Prune patterns, matched as its prune.go matches them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "prune.h"
#include "regex.h"
#include "base/util.h"

const char cprof_prune_alloc_drop[] =
	"calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_memalign|pvalloc|valloc|"
	"realloc|"
	"tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|tc_free|tc_memalign|tc_posix_memalign|"
	"tc_pvalloc|tc_valloc|tc_realloc|tc_new|tc_delete|tc_newarray|tc_deletearray|"
	"tc_new_nothrow|tc_newarray_nothrow|"
	"malloc_zone_malloc|malloc_zone_calloc|malloc_zone_valloc|malloc_zone_realloc|"
	"malloc_zone_memalign|malloc_zone_free|"
	"runtime\\..*|"
	"BaseArena::.*|(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_malloc|"
	"DoSampledAllocation|MallocedMemBlock::MallocedMemBlock|_M_allocate|"
	"__builtin_(vec_)?delete|__builtin_(vec_)?new|__gnu_cxx::new_allocator::allocate|"
	"__libc_malloc|__malloc_alloc_template::allocate|allocate|cpp_alloc|"
	"operator new(\\[\\])?|simple_alloc::allocate";
const char cprof_prune_alloc_keep[] = "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";

struct cprof_prune {
	struct cprof_regex *drop, *keep;
};

static struct cprof_regex *compile(const char *pattern)
{
	char *anchored = g_strdup_printf("^(%s)$", pattern), error[256];
	struct cprof_regex *regex = cprof_regex_new(anchored, error, sizeof(error));

	if (!regex)
		cprof_die("internal error: bad prune pattern %s: %s", anchored, error);
	g_free(anchored);
	return regex;
}

struct cprof_prune *cprof_prune_new(const char *drop, const char *keep)
{
	struct cprof_prune *prune;

	if (!drop)
		return NULL;
	prune = cprof_xcalloc(1, sizeof(*prune));
	prune->drop = compile(drop);
	prune->keep = keep ? compile(keep) : NULL;
	return prune;
}

/* The length of `name` as pprof's simplifyFunc keeps it: up to its first
 * '(' that begins neither "(anonymous namespace)" nor "operator()". */
static size_t simple_length(const char *name)
{
	static const char *const reserved[] = { "(anonymous namespace)", "operator()" };
	size_t i = 0, r;

	while (name[i]) {
		for (r = 0; r < G_N_ELEMENTS(reserved); r++)
			if (strncmp(name + i, reserved[r], strlen(reserved[r])) == 0)
				break;
		if (r < G_N_ELEMENTS(reserved))
			i += strlen(reserved[r]);
		else if (name[i] == '(')
			break;
		else
			i++;
	}
	return i;
}

bool cprof_prune_drops(const struct cprof_prune *prune, const char *name)
{
	char *simple;
	bool drops;

	if (name[0] == '.')
		name++;
	simple = g_strndup(name, simple_length(name));
	drops = cprof_regex_matches(prune->drop, simple, strlen(simple)) &&
		!(prune->keep && cprof_regex_matches(prune->keep, simple, strlen(simple)));
	g_free(simple);
	return drops;
}

void cprof_prune_free(struct cprof_prune *prune)
{
	if (!prune)
		return;
	cprof_regex_free(prune->drop);
	cprof_regex_free(prune->keep);
	free(prune);
}
