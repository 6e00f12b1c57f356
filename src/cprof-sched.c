/* cprof-sched: CPI-weighted load scheduling; solve the linear program and
 * print the assignment. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "sched/sched-lp.h"

static void usage(void)
{
	printf("usage: %s [-chtV] [PROBLEM.json]\n"
	       "Place the load of apps on platforms at the least total CPI-weighted cost.\n"
	       "  -c, --compact   JSON on one line\n"
	       "  -t, --text      tables for people instead of JSON\n"
	       "  -h, --help      this help;  -V, --version  the version\n"
	       "Exit status: 0 optimal, 1 infeasible or unbounded, 2 trouble.\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		CPROF_OUTPUT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cprof_error err = { .text = "", .line = 0 };
	enum cprof_sched_status status;
	struct cprof_sched *sched;
	json_t *result;
	bool compact = false, text = false;
	const char *source;
	int opt;

	cprof_set_progname(argv[0]);
	cprof_set_libraries("CLP");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chtV", options, NULL)) != -1) {
		if (cprof_output_option(opt, &compact, &text))
			continue;
		switch (opt) {
		case 'h':
			usage();
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		cprof_die("one PROBLEM operand at most, not %d (see --help)", argc);
	source = argc == 1 ? argv[0] : "-";

	sched = cprof_sched_read(source, &err);
	if (!sched)
		cprof_die_input(source, &err);
	status = cprof_sched_solve(sched, &err);
	if (status == CPROF_SCHED_UNSOLVED)
		cprof_die_input(source, &err);
	if (text) {
		cprof_sched_text(sched);
	} else {
		result = cprof_sched_json(sched);
		cprof_json_print(result, compact);
	}
	cprof_sched_free(sched);
	return cprof_finish_output(status == CPROF_SCHED_OPTIMAL ? EXIT_OK : EXIT_VERDICT);
}
