/* gen-json: writes a profile of about MB megabytes in one of the JSON
 * formats cprof reads: a speedscope file as py-spy writes it (4 sampled
 * profiles, unit none, weights 1.0, stacks of depth 3 to 40 over 2,000
 * frames, from 20,000 Zipf-weighted chains), or a .cpuprofile as node
 * --cpu-prof writes it (a call tree of 50,000 nodes with positionTicks,
 * then samples of Zipf-weighted nodes and their timeDeltas).
 *
 *   gen-json speedscope|cpuprofile MB >FILE */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FRAMES = 2000, CHAINS = 20000, PROFILES = 4, NODES = 50000 };

static uint64_t state = 88172645463325252u;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* Zipf weights (s = 1.1) of n items, cumulated, into cum[]. */
static double *zipf(size_t n)
{
	double *cum = malloc(n * sizeof(*cum)), total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		cum[i] = total += 1 / pow((double)(i + 1), 1.1);
	return cum;
}

static size_t pick(const double *cum, size_t n)
{
	double x = (double)(next() >> 11) / 9007199254740992.0 * cum[n - 1];
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cum[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void speedscope(unsigned long long bytes)
{
	static uint16_t chains[CHAINS][41];
	double *cum = zipf(CHAINS);
	unsigned long long written = 0, per_profile = bytes / PROFILES;
	size_t i, k, p;

	for (i = 0; i < CHAINS; i++) {
		chains[i][0] = (uint16_t)(3 + next() % 38);
		for (k = 1; k <= chains[i][0]; k++)
			chains[i][k] = (uint16_t)(k == 1 ? 0 : next() % FRAMES);
	}
	printf("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":"
	       "{\"frames\":[");
	for (i = 0; i < FRAMES; i++)
		printf("%s{\"name\":\"module%zu.function_%zu\",\"file\":\"/srv/app/module%zu.py\","
		       "\"line\":%zu}", i ? "," : "", i % 97, i, i % 97, 10 + i % 500);
	printf("]},\"profiles\":[");
	for (p = 0; p < PROFILES; p++) {
		unsigned long long n = 0, start = written;

		printf("%s{\"type\":\"sampled\",\"name\":\"py-spy\",\"unit\":\"none\","
		       "\"startValue\":0,\"endValue\":0,\"samples\":[", p ? "," : "");
		while (written - start < per_profile) {
			const uint16_t *c = chains[pick(cum, CHAINS)];

			written += (unsigned long long)printf("%s[", n++ ? "," : "");
			for (k = 1; k <= c[0]; k++)
				written += (unsigned long long)printf("%s%u", k > 1 ? "," : "", c[k]);
			written += (unsigned long long)printf("]");
		}
		printf("],\"weights\":[");
		for (i = 0; i < n; i++)
			written += (unsigned long long)printf("%s1.0", i ? "," : "");
		printf("]}");
	}
	printf("],\"name\":\"py-spy profile\",\"activeProfileIndex\":null,"
	       "\"exporter\":\"py-spy@0.3.14\"}\n");
	free(cum);
}

/* The node of sample i: Zipf-weighted over the nodes past the first
 * 20 (the root and its children are rarely sampled). */
static void cpuprofile(unsigned long long bytes)
{
	static uint32_t parent[NODES], first[NODES + 1], kids[NODES];
	static uint64_t hits[NODES];
	double *cum = zipf(NODES - 20);
	/* about 10 bytes a sample, its id and its delta, past the nodes' 9 MB */
	unsigned long long n = (bytes > 9000000 ? bytes - 9000000 : bytes / 2) / 10, i;
	uint32_t *samples = malloc(n * sizeof(*samples));
	size_t j, k;

	for (j = 1; j < NODES; j++) {
		parent[j] = j < 20 ? 0 : (uint32_t)(next() % (j / 2 + 1));
		first[parent[j] + 1]++;
	}
	for (j = 0; j < NODES; j++)
		first[j + 1] += first[j];
	for (j = 1; j < NODES; j++)
		kids[first[parent[j]] + hits[parent[j]]++] = (uint32_t)j;
	memset(hits, 0, sizeof(hits));
	for (i = 0; i < n; i++) {
		samples[i] = (uint32_t)(20 + pick(cum, NODES - 20));
		hits[samples[i]]++;
	}
	printf("{\"nodes\":[");
	for (j = 0; j < NODES; j++) {
		printf("%s{\"id\":%zu,\"callFrame\":{\"functionName\":\"%s%zu\",\"scriptId\":"
		       "\"%zu\",\"url\":\"%s%zu%s\",\"lineNumber\":%zu,\"columnNumber\":%zu},"
		       "\"hitCount\":%" PRIu64, j ? "," : "", j + 1, j ? "handler" : "(root)",
		       j ? j % 3000 : 0, j % 61, j ? "file:///srv/app/lib/module" : "", j % 61,
		       j ? ".js" : "", j % 900, j % 40, hits[j]);
		if (first[j + 1] > first[j]) {
			printf(",\"children\":[");
			for (k = first[j]; k < first[j + 1]; k++)
				printf("%s%u", k > first[j] ? "," : "", kids[k] + 1);
			printf("]");
		}
		if (hits[j])
			printf(",\"positionTicks\":[{\"line\":%zu,\"ticks\":%" PRIu64 "},"
			       "{\"line\":%zu,\"ticks\":%" PRIu64 "}]", 1 + j % 900, hits[j] / 2,
			       2 + j % 900, hits[j] - hits[j] / 2);
		printf("}");
	}
	printf("],\"startTime\":1000000,\"endTime\":%llu,\"samples\":[", 1000000 + n * 1000);
	for (i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", samples[i] + 1);
	printf("],\"timeDeltas\":[");
	for (i = 0; i < n; i++)
		printf("%s%llu", i ? "," : "", (unsigned long long)(900 + next() % 300));
	printf("]}\n");
	free(samples);
	free(cum);
}

int main(int argc, char **argv)
{
	unsigned long long mb;

	if (argc != 3 || !(mb = strtoull(argv[2], NULL, 10)) ||
	    (strcmp(argv[1], "speedscope") != 0 && strcmp(argv[1], "cpuprofile") != 0)) {
		fprintf(stderr, "usage: gen-json speedscope|cpuprofile MB\n");
		return 2;
	}
	if (strcmp(argv[1], "speedscope") == 0)
		speedscope(mb * 1000000);
	else
		cpuprofile(mb * 1000000);
	return 0;
}
