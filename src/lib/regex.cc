// regex.cc: the C++ shim between cprof and RE2.  RE2 reports running out
// of memory by throwing std::bad_alloc; every call is inside try/catch, so
// no exception reaches C.
#include "config.h"

#include <cstdio>
#include <new>

#include <re2/re2.h>

#include "regex.h"
extern "C" {
#include "base/util.h"
}

struct cprof_regex {
	RE2 *re2;
};

struct cprof_regex *cprof_regex_new(const char *pattern, char *error, size_t error_size)
{
	try {
		RE2::Options options;   // UTF-8, Perl classes, Go's defaults

		options.set_log_errors(false);
		RE2 *re2 = new RE2(pattern, options);
		if (!re2->ok()) {
			snprintf(error, error_size, "%s", re2->error().c_str());
			delete re2;
			return NULL;
		}
		return new cprof_regex{ re2 };
	} catch (const std::bad_alloc &) {
		cprof_die_oom();
	} catch (...) {
		cprof_die("internal error: RE2 threw compiling a pattern");
	}
}

bool cprof_regex_matches(const struct cprof_regex *regex, const char *text, size_t len)
{
	try {
		return regex->re2->Match(re2::StringPiece(text, len), 0, len, RE2::UNANCHORED,
					 NULL, 0);
	} catch (const std::bad_alloc &) {
		cprof_die_oom();
	} catch (...) {
		cprof_die("internal error: RE2 threw matching a pattern");
	}
}

void cprof_regex_free(struct cprof_regex *regex)
{
	if (!regex)
		return;
	delete regex->re2;
	delete regex;
}
