/* fetch.c: the GETs of a round, through libcurl's multi interface.  A
 * body is checked as it arrives: its bytes against the limit, and when it
 * is gzip, what it inflates to (zlib, into a scratch buffer), so that a
 * gzip bomb ends as one failure.  Redirects are followed by hand, and only
 * to the same host and port.  What the body holds is the reading
 * library's to judge. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <zlib.h>

#include "base/util.h"
#include "fetch.h"

enum { MAX_REDIRECTS = 5 };

/* One fetch running. */
struct transfer {
	CURL *easy;
	struct cprof_fetch *fetch;
	const struct cprof_fetch_limits *limits;
	size_t cap;
	z_stream z;
	bool z_open, z_end, gzip_checked;
	uint64_t inflated;
	int redirects;
	char *url;             /* the URL now asked (after redirects) */
	char errbuf[CURL_ERROR_SIZE];
	struct timespec start;
};

static double since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void fail(struct transfer *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the first reason `t` failed. */
static void fail(struct transfer *t, const char *fmt, ...)
{
	va_list ap;
	char text[320];

	if (t->fetch->error)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	t->fetch->error = cprof_xstrdup(text);
}

/* Inflates `n` more bytes of a gzip body into nothing, counting; false
 * (the failure recorded) when the stream is bad or inflates too far. */
static bool inflate_more(struct transfer *t, const unsigned char *bytes, size_t n)
{
	unsigned char scratch[65536];

	if (t->z_end)
		return true;
	t->z.next_in = (unsigned char *)bytes;
	t->z.avail_in = (uInt)n;
	while (t->z.avail_in > 0 && !t->z_end) {
		int status;

		t->z.next_out = scratch;
		t->z.avail_out = sizeof(scratch);
		status = inflate(&t->z, Z_NO_FLUSH);
		t->inflated += sizeof(scratch) - t->z.avail_out;
		if (t->inflated > t->limits->max_bytes) {
			fail(t, "inflates to more than %llu bytes (--max-bytes)",
			     (unsigned long long)t->limits->max_bytes);
			return false;
		}
		if (status == Z_STREAM_END) {
			t->z_end = true;
		} else if (status != Z_OK && status != Z_BUF_ERROR) {
			fail(t, "a bad gzip stream at byte %llu: %s",
			     (unsigned long long)(t->fetch->len - t->z.avail_in),
			     t->z.msg ? t->z.msg : "inflate failed");
			return false;
		} else if (status == Z_BUF_ERROR && t->z.avail_out != 0) {
			break;
		}
	}
	return true;
}

/* Checks and inflates what arrived; false when the body is to be refused. */
static bool check_body(struct transfer *t, const unsigned char *bytes, size_t n)
{
	const unsigned char *body = t->fetch->data;

	if (!t->gzip_checked && t->fetch->len >= 2) {
		t->gzip_checked = true;
		if (body[0] == 0x1f && body[1] == 0x8b) {
			if (inflateInit2(&t->z, 16 + MAX_WBITS) != Z_OK)
				cprof_die_oom();
			t->z_open = true;
			return inflate_more(t, body, t->fetch->len);
		}
		return true;
	}
	return !t->z_open || inflate_more(t, bytes, n);
}

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct transfer *t = data;
	struct cprof_fetch *fetch = t->fetch;
	size_t n = size * nmemb;

	if (fetch->len + n > t->limits->max_bytes) {
		fail(t, "more than %llu bytes (--max-bytes)", (unsigned long long)t->limits->max_bytes);
		return 0;
	}
	if (fetch->len + n > t->cap) {
		t->cap = t->cap ? 2 * t->cap : 65536;
		while (t->cap < fetch->len + n)
			t->cap *= 2;
		if (t->cap > t->limits->max_bytes)
			t->cap = (size_t)t->limits->max_bytes;
		fetch->data = cprof_xrealloc(fetch->data, t->cap);
	}
	memcpy(fetch->data + fetch->len, ptr, n);
	fetch->len += n;
	return check_body(t, (unsigned char *)ptr, n) ? n : 0;
}

static void setopt_ok(CURLcode code)
{
	if (code != CURLE_OK)
		cprof_die("libcurl: %s", curl_easy_strerror(code));
}

/* Points `t` at `url` from the start: no body yet. */
static void reset_to(struct transfer *t, const char *url)
{
	char *copy = cprof_xstrdup(url);

	free(t->url);
	t->url = copy;
	t->fetch->len = 0;
	t->gzip_checked = t->z_end = false;
	t->inflated = 0;
	if (t->z_open)
		inflateEnd(&t->z);
	t->z_open = false;
	t->errbuf[0] = '\0';
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_URL, t->url));
}

static struct transfer *transfer_new(const struct cprof_fetch_limits *limits,
				     struct cprof_fetch *fetch)
{
	struct transfer *t = cprof_xcalloc(1, sizeof(*t));

	t->easy = curl_easy_init();
	if (!t->easy)
		cprof_die("libcurl: cannot make a handle");
	t->fetch = fetch;
	t->limits = limits;
	clock_gettime(CLOCK_MONOTONIC, &t->start);
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_body));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, t->errbuf));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_PROTOCOLS_STR, "http,https"));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_FOLLOWLOCATION, 0L));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_TIMEOUT, fetch->seconds));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT, limits->connect_seconds));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_MAXFILESIZE_LARGE,
				   (curl_off_t)limits->max_bytes));
	setopt_ok(curl_easy_setopt(t->easy, CURLOPT_USERAGENT, PACKAGE_NAME "-collect/" PACKAGE_VERSION));
	reset_to(t, fetch->url);
	return t;
}

static void transfer_free(struct transfer *t)
{
	if (t->z_open)
		inflateEnd(&t->z);
	curl_easy_cleanup(t->easy);
	free(t->url);
	free(t);
}

/* A URL's host and port ("HOST:PORT", newly allocated), or NULL. */
static char *host_port(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL, *port = NULL, *out = NULL;

	if (!u)
		cprof_die_oom();
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
		size_t len = strlen(host) + strlen(port) + 2;

		out = cprof_xmalloc(len);
		snprintf(out, len, "%s:%s", host, port);
	}
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return out;
}

/* Takes the redirect `t` answered: true when it is to be asked again (the
 * same host and port), false with the failure recorded. */
static bool follow(struct transfer *t, long code)
{
	char *to = NULL, *from, *there;
	bool same;

	if (curl_easy_getinfo(t->easy, CURLINFO_REDIRECT_URL, &to) != CURLE_OK || !to) {
		fail(t, "HTTP %ld without a Location", code);
		return false;
	}
	from = host_port(t->url);
	there = host_port(to);
	same = from && there && strcmp(from, there) == 0;
	if (!there)
		fail(t, "HTTP %ld: a redirect to a URL that is not one", code);
	else if (!same)
		fail(t, "HTTP %ld: a redirect to another host (%s), not followed", code, there);
	else if (++t->redirects > MAX_REDIRECTS)
		fail(t, "more than %d redirects", MAX_REDIRECTS);
	else
		reset_to(t, to);
	free(from);
	free(there);
	return same && t->redirects <= MAX_REDIRECTS;
}

/* The first line of an error's body, printable ASCII only, into `out`. */
static void body_line(const struct cprof_fetch *fetch, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < fetch->len && n + 1 < size && n < 120; i++) {
		unsigned char c = fetch->data[i];

		if (c == '\n' || c == '\r')
			break;
		out[n++] = (char)(c >= 0x20 && c < 0x7f ? c : '?');
	}
	out[n] = '\0';
}

/* Judges a GET that libcurl ended with `result`: true when it is to be
 * asked again (a redirect), false when it is over (its error set when
 * it failed). */
static bool judge(struct transfer *t, CURLcode result)
{
	long code = 0;
	char line[128];

	if (result != CURLE_OK) {
		if (result == CURLE_OPERATION_TIMEDOUT)
			fail(t, "no whole answer within %ld seconds (%s)", t->fetch->seconds,
			     t->errbuf[0] ? t->errbuf : curl_easy_strerror(result));
		else if (result == CURLE_FILESIZE_EXCEEDED)
			fail(t, "more than %llu bytes (--max-bytes)",
			     (unsigned long long)t->limits->max_bytes);
		else
			fail(t, "%s", t->errbuf[0] ? t->errbuf : curl_easy_strerror(result));
		return false;
	}
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &code);
	if (code >= 300 && code < 400)
		return follow(t, code);
	if (code != 200) {
		body_line(t->fetch, line, sizeof(line));
		fail(t, "HTTP %ld%s%s", code, line[0] ? ": " : "", line);
	} else if (t->fetch->len == 0) {
		fail(t, "an empty answer");
	} else if (t->z_open && !t->z_end) {
		fail(t, "a truncated gzip stream (%zu bytes)", t->fetch->len);
	}
	return false;
}

/* The state of a cprof_fetch_all. */
struct run {
	const struct cprof_fetch_limits *limits;
	struct cprof_fetch *fetches;
	size_t count, next, active;
	bool *busy;            /* per machine: a fetch of it running */
	size_t num_busy;
	bool stopped;
	CURLM *multi;
};

/* Starts the next fetches whose targets are free, up to the limit. */
static void start_more(struct run *run)
{
	size_t i;

	while (run->next < run->count && run->fetches[run->next].started)
		run->next++;
	for (i = run->next; i < run->count && run->active < run->limits->jobs && !run->stopped; i++) {
		struct cprof_fetch *fetch = &run->fetches[i];
		struct transfer *t;

		if (fetch->started || run->busy[fetch->machine])
			continue;
		fetch->started = true;
		run->busy[fetch->machine] = true;
		t = transfer_new(run->limits, fetch);
		if (curl_multi_add_handle(run->multi, t->easy) != CURLM_OK)
			cprof_die("libcurl: cannot start a transfer");
		run->active++;
	}
}

/* Ends the transfers libcurl says are done. */
static void reap(struct run *run, cprof_fetch_done_fn *done, void *data)
{
	CURLMsg *msg;
	int left;

	while ((msg = curl_multi_info_read(run->multi, &left))) {
		struct transfer *t = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
		curl_multi_remove_handle(run->multi, t->easy);
		if (judge(t, msg->data.result)) {
			curl_multi_add_handle(run->multi, t->easy);
			continue;
		}
		t->fetch->elapsed = since(&t->start);
		if (t->fetch->error) {
			free(t->fetch->data);
			t->fetch->data = NULL;
			t->fetch->len = 0;
		}
		run->busy[t->fetch->machine] = false;
		run->active--;
		if (!done(data, t->fetch))
			run->stopped = true;
		transfer_free(t);
	}
}

void cprof_fetch_all(const struct cprof_fetch_limits *limits, struct cprof_fetch *fetches,
		     size_t count, cprof_fetch_done_fn *done, cprof_fetch_tick_fn *tick,
		     void *data)
{
	struct run run = { limits, fetches, count, 0, 0, NULL, 0, false, curl_multi_init() };
	size_t i;

	if (!run.multi)
		cprof_die("libcurl: cannot make a multi handle");
	for (i = 0; i < count; i++)
		if (fetches[i].machine + 1 > run.num_busy)
			run.num_busy = fetches[i].machine + 1;
	run.busy = cprof_xcalloc(run.num_busy + 1, sizeof(*run.busy));
	for (;;) {
		int running;
		struct curl_waitfd wait;

		start_more(&run);
		if (run.active == 0)
			break;
		if (curl_multi_perform(run.multi, &running) != CURLM_OK)
			cprof_die("libcurl: the transfers failed");
		reap(&run, done, data);
		wait.fd = tick ? tick(data) : -1;
		wait.events = CURL_WAIT_POLLIN;
		wait.revents = 0;
		if (run.active > 0 && curl_multi_poll(run.multi, &wait, wait.fd >= 0, 1000, NULL) != CURLM_OK)
			cprof_die("libcurl: poll failed");
	}
	free(run.busy);
	curl_multi_cleanup(run.multi);
}

void cprof_fetch_global_init(void)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		cprof_die("libcurl: cannot initialize");
}

const char *cprof_fetch_version(void)
{
	return curl_version_info(CURLVERSION_NOW)->version;
}
