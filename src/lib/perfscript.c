/* perfscript.c: the text of `perf script`, streamed line by line into
 * distinct stacks of interned frames (memory grows with those, never with
 * the text's size): the line parser and its tables.  Its hot path
 * (parse_lines, perf_frame_line, push_frame, find_frame, same_text) is
 * in this one file, so that it inlines.  perf-lines.c recognizes the
 * other lines, perf-blocks.c parses blocks in threads, perf-types.c makes
 * the events sample types, perf-keys.c keys, perf-data.c reads perf.data
 * (perf-int.h: what they share).
 *
 * A sample is a header line (comm, tid, time, period, "EVENT:", and
 * without call chains the ip, sym and dso on the same line), then with
 * call chains one "\tIP SYM+OFF (DSO)" line per frame, leaf first, and a
 * blank line; `-F +srcline` adds a "  FILE:LINE" line after each frame.
 * With `-F ip,sym` there is no header: a sample is its frames alone. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/arena.h"
#include "base/hash.h"
#include "base/input.h"
#include "base/util.h"
#include "perf-int.h"
#include "perfscript.h"
#include "profile-core.h"

static int settle(struct reader *r);

int cprof_perf_fail(struct reader *r, unsigned long long line, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	if (settle(r) < 0)
		return -1;     /* the held sample's error comes first */
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->child && !r->block)
		return cprof_error_set(r->err, "line %llu of perf script's output: %s", line, what);
	r->err->line = line;
	return cprof_error_set(r->err, "%s", what);
}

#ifdef __SSE2__
/* Which of the 16 bytes at p are hexadecimal digits, a bit each. */
static inline unsigned hex_mask(const char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p), digit, letter;

	digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
			      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
	v = _mm_or_si128(v, _mm_set1_epi8(0x20));  /* 'A'-'F' as 'a'-'f' */
	letter = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('a' - 1)),
			       _mm_cmplt_epi8(v, _mm_set1_epi8('f' + 1)));
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, letter));
}
#endif

/* perf prints a call-chain line as "\t%16" PRIx64 " SYM...": when
 * line[1, 17) is blanks, then hexadecimal digits, and line[17] a blank,
 * parse_frame's scan would take the IP to end there.  Tells so in a few
 * vector instructions, where the machine has them (false otherwise: the
 * scan then decides). */
static inline bool fixed_ip(const char *line, size_t len)
{
#ifdef __SSE2__
	unsigned blanks, hex;

	if (len < 19 || line[17] != ' ')
		return false;
	blanks = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_loadu_si128((const __m128i *)(const void *)(line + 1)), _mm_set1_epi8(' ')));
	hex = hex_mask(line + 1);
	/* the blanks a prefix, the digits the rest, at least one digit */
	return (blanks & (blanks + 1)) == 0 && (blanks | hex) == 0xffff && blanks != 0xffff;
#else
	(void)line;
	(void)len;
	return false;
#endif
}

/* Sets t's IP to the digits of line[1, 17), which fixed_ip accepted. */
static inline void fixed_ip_text(const char *line, struct frame_text *t)
{
	const char *ip = line + 1;

	while (*ip == ' ')
		ip++;
	t->ip = ip;
	t->ip_len = (size_t)(line + 17 - ip);
}

#ifdef __SSE2__
/* take_sym for text[sym, end) with at least 16 bytes readable before
 * `end`: the hexadecimal digits before `end` found in one comparison of
 * 16 bytes, when fewer than 16. */
static bool take_symoff(const char *sym, const char *end, struct frame_text *out)
{
	unsigned hex = hex_mask(end - 16);

	if (end - 16 < sym)    /* bytes before the symbol are not its digits */
		hex &= ~0u << (sym - (end - 16));
	if (hex == 0xffff)
		return cprof_perf_take_sym(sym, end, out);
	/* the run of ones ending at bit 15 */
	return sym_less_off(sym, end, (size_t)__builtin_clz(~hex << 16), out);
}
#endif

/* A call-chain line of perf's own layout, "\t%16x SYM+0xOFF (/DSO)\n",
 * read in one pass of 16-byte blocks over text[p, end) that finds its
 * newline and its last " (" together: when the line is one, fills `t`
 * as parse_frame would and returns the end of its newline.  NULL for any
 * other line (no DSO, a blank or '\r' at either end of the symbol and
 * DSO, a NUL byte, a newline within 16 bytes of the text's end), which
 * the general path reads: this path only ever agrees with it. */
static const char *perf_frame_line(const char *p, const char *end, struct frame_text *t)
{
#ifdef __SSE2__
	const char *q = p + 18, *sym = q, *open = NULL, *nl;
	unsigned carry = 0;    /* the last block ended in a blank */

	if (end - p < 18 + 16 || p[0] != '\t' || !fixed_ip(p, (size_t)(end - p)) || *sym == ' ')
		return NULL;
	for (;; q += 16) {
		__m128i v;
		unsigned newline, blank, pairs, nul, before = 0xffff;

		if (end - q < 16)
			return NULL;
		v = _mm_loadu_si128((const __m128i *)(const void *)q);
		newline = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
		nul = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
		blank = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
		pairs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('('))) &
			((blank << 1) | carry);
		if (newline)
			before = (newline & -newline) - 1;
		if (nul & before)
			return NULL;   /* refused by the general path */
		pairs &= before;
		if (pairs)
			open = q + 31 - __builtin_clz(pairs);
		if (newline) {
			nl = q + __builtin_ctz(newline);
			break;
		}
		carry = blank >> 15;
	}
	if (!open || nl[-1] != ')' || open + 2 >= nl || (open[1] != '/' && open[1] != '['))
		return NULL;
	t->dso = open + 1;
	t->dso_len = (size_t)(nl - 1 - t->dso);
	t->padded = true;
	t->ip = NULL;          /* kept only for unnamed PCs, which are not read here */
	if (!take_symoff(sym, open - 1, t) || (t->sym_len == 9 && memcmp(t->sym, "[unknown]", 9) == 0))
		return NULL;   /* an unnamed PC keeps its address: the general path */
	return nl + 1;
#else
	(void)p;
	(void)end;
	(void)t;
	return NULL;
#endif
}

static void key_reserve(struct reader *r, size_t need)
{
	if (need <= r->key_cap)
		return;
	r->key_cap = need * 2;
	r->key = cprof_xrealloc(r->key, r->key_cap);
}

static void frames_grow(struct cprof_perf *perf)
{
	struct frame_slot *old = perf->frame_slots;
	size_t old_cap = perf->frame_mask + 1, i, j;

	perf->frame_mask = 2 * old_cap - 1;
	perf->frame_slots = cprof_pages_alloc((perf->frame_mask + 1) * sizeof(*old));
	for (i = 0; i < old_cap; i++) {
		if (!old[i].frame)
			continue;
		for (j = old[i].hash & perf->frame_mask; perf->frame_slots[j].frame;
		     j = (j + 1) & perf->frame_mask)
			;
		perf->frame_slots[j] = old[i];
	}
	cprof_pages_free(old, old_cap * sizeof(*old));
}

uint32_t cprof_perf_intern_frame(struct cprof_perf *perf, uint64_t hash, const char *key,
				 size_t len, size_t sym_len, size_t dso_len, bool has_srcline)
{
	struct frame_slot *slot;
	struct frame *f;
	size_t j;

	for (j = hash & perf->frame_mask; (slot = &perf->frame_slots[j])->frame;
	     j = (j + 1) & perf->frame_mask) {
		f = slot->frame;
		if (slot->hash == hash && f->key_len == len && memcmp(f->key, key, len) == 0)
			return f->id;
	}
	f = cprof_arena_alloc(&perf->arena, sizeof(*f) + len);
	f->hash = hash;
	f->key_len = (uint32_t)len;
	f->sym_len = (uint32_t)sym_len;
	f->dso_len = (uint32_t)dso_len;
	f->id = (uint32_t)perf->num_frames;
	memcpy(f->key, key, len);
	f->srcline = has_srcline ? f->key + sym_len + 1 + dso_len + 1 : NULL;
	if (perf->num_frames == perf->frames_cap) {
		perf->frames_cap = perf->frames_cap ? 2 * perf->frames_cap : 1024;
		perf->frames = cprof_xrealloc(perf->frames, perf->frames_cap * sizeof(*perf->frames));
	}
	perf->frames[perf->num_frames++] = f;
	*slot = (struct frame_slot){ .hash = hash, .frame = f };
	if (perf->num_frames > perf->frame_mask / 2)
		frames_grow(perf);
	return f->id;
}

/* The hash of a frame without a source line: of its symbol (keyed by
 * the run's secret, so the mix of the DSO's length cannot be steered),
 * and its DSO's length (the DSO is compared, not hashed: there are few). */
static uint64_t frame_hash(const struct frame_text *t)
{
	return cprof_hash(t->sym, t->sym_len) ^ (t->dso_len * UINT64_C(0x9E3779B97F4A7C15));
}

/* a[0, len) == b[0, len).  With `padded`, the 16 bytes before a + len
 * and b + len can be read (a frame's key is after its header, and the
 * one-pass reader's fields are 18 bytes into their line): compared 16
 * at a time, without a call. */
static inline bool same_text(const char *a, const char *b, size_t len, bool padded)
{
#ifdef __SSE2__
	size_t i;
	unsigned last;

	if (!padded)
		return memcmp(a, b, len) == 0;
	for (i = 0; i + 16 < len; i += 16)
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + i)),
						     _mm_loadu_si128((const __m128i *)(const void *)(b + i)))) != 0xffff)
			return false;
	last = (unsigned)_mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + len - 16)),
			       _mm_loadu_si128((const __m128i *)(const void *)(b + len - 16))));
	return (last | (0xffffu >> (len < 16 ? len : 16))) == 0xffff;  /* bytes before a, b ignored */
#else
	(void)padded;
	return memcmp(a, b, len) == 0;
#endif
}

/* The id of the frame `t` without a source line, or UINT32_MAX. */
static uint32_t find_frame(const struct cprof_perf *perf, uint64_t hash, const struct frame_text *t)
{
	const struct frame_slot *slot;
	size_t j;

	for (j = hash & perf->frame_mask; (slot = &perf->frame_slots[j])->frame;
	     j = (j + 1) & perf->frame_mask) {
		const struct frame *f = slot->frame;

		if (slot->hash == hash && !f->srcline && f->sym_len == t->sym_len &&
		    f->dso_len == t->dso_len && same_text(f->key, t->sym, t->sym_len, t->padded) &&
		    same_text(frame_dso(f), t->dso, t->dso_len, t->padded))
			return f->id;
	}
	return UINT32_MAX;
}

/* Interns the new frame `t` whose frame_hash is `hash`; its id. */
static __attribute__((noinline)) uint32_t new_frame(struct reader *r, const struct frame_text *t,
						    uint64_t hash)
{
	size_t len = t->sym_len + 1 + t->dso_len + 1;

	key_reserve(r, len);
	memcpy(r->key, t->sym, t->sym_len);
	r->key[t->sym_len] = '\0';
	memcpy(r->key + t->sym_len + 1, t->dso, t->dso_len);
	r->key[len - 1] = '\0';
	if (t->dso_len)
		r->perf->has_dso = true;
	return cprof_perf_intern_frame(r->perf, hash, r->key, len, t->sym_len, t->dso_len, false);
}

/* The id of the frame `t`, interned when new. */
static inline uint32_t frame_id(struct reader *r, const struct frame_text *t)
{
	uint64_t hash = frame_hash(t);
	uint32_t id = find_frame(r->perf, hash, t);

	return id != UINT32_MAX ? id : new_frame(r, t, hash);
}

/* The id of frame `id` with the DSO dso[0, dso_len) (its source line kept). */
static uint32_t with_dso(struct reader *r, uint32_t id, const char *dso, size_t dso_len)
{
	const struct frame *f = r->perf->frames[id];
	struct frame_text t = { .sym = f->key, .sym_len = f->sym_len, .dso = dso, .dso_len = dso_len };
	size_t line_len, len;

	if (!f->srcline)
		return frame_id(r, &t);
	line_len = strlen(f->srcline);
	len = f->sym_len + 1 + dso_len + 1 + line_len + 1;
	key_reserve(r, len);
	memmove(r->key, f->key, f->sym_len + 1);
	memcpy(r->key + f->sym_len + 1, dso, dso_len);
	r->key[f->sym_len + 1 + dso_len] = '\0';
	memcpy(r->key + f->sym_len + 1 + dso_len + 1, f->srcline, line_len + 1);
	return cprof_perf_intern_frame(r->perf, cprof_hash(r->key, len), r->key, len, f->sym_len,
				       dso_len, true);
}

static bool is_inlined(const struct frame_text *t)
{
	return t->dso_len == 7 && memcmp(t->dso, "inlined", 7) == 0;
}

/* An unnamed PC in a file: "[unknown]" in a DSO that is no "[...]" nor
 * an anonymous mapping (those keep "[NAME]"). */
static bool unnamed_pc(const struct frame_text *t)
{
	return t->ip && t->ip_len <= 16 && t->sym_len == 9 && memcmp(t->sym, "[unknown]", 9) == 0 &&
	       t->dso_len > 0 && t->dso[0] != '[' && !cprof_perf_dso_anonymous(t->dso, t->dso_len);
}

/* The id of the unnamed PC `t`: its symbol "[unknown]@[PID:]ADDR", with
 * "~" after a call chain's (perf 6 prints those relative to the file
 * already), its address kept (made a file offset or not when the
 * profile is finished). */
static uint32_t unnamed_id(struct reader *r, const struct frame_text *t)
{
	struct frame_text named = *t;
	char sym[64], digits[17];
	uint64_t addr;

	memcpy(digits, t->ip, t->ip_len);
	digits[t->ip_len] = '\0';
	addr = strtoull(digits, NULL, 16);
	if (r->sample_has_pid)
		snprintf(sym, sizeof(sym), "[unknown]@%" PRIu64 ":%" PRIx64 "%s", r->sample_pid, addr,
			 r->at_header ? "" : "~");
	else
		snprintf(sym, sizeof(sym), "[unknown]@%" PRIx64 "%s", addr, r->at_header ? "" : "~");
	named.sym = sym;
	named.sym_len = strlen(sym);
	named.padded = false;
	return frame_id(r, &named);
}

/* push_frame of a frame that is inlined, unnamed, after inlined ones
 * or read for its address. */
static __attribute__((noinline)) void push_other_frame(struct reader *r,
						       const struct frame_text *t)
{
	size_t i;

	if (is_inlined(t)) {
		struct frame_text bare = *t;

		bare.dso = "";
		bare.dso_len = 0;
		r->chain[r->depth++] = r->addresses && t->ip && t->ip_len <= 16 ?
					       unnamed_id(r, &bare) : frame_id(r, &bare);
		r->inlined++;
		return;
	}
	if (r->addresses) {    /* inlined frames have the PC of this one: keyed once, here */
		r->depth -= r->inlined;
		r->inlined = 0;
	}
	r->chain[r->depth++] = unnamed_pc(t) || (r->addresses && t->ip && t->ip_len <= 16) ?
				       unnamed_id(r, t) : frame_id(r, t);
	for (i = 0; i < r->inlined && t->dso_len; i++)
		r->chain[r->depth - 2 - i] = with_dso(r, r->chain[r->depth - 2 - i], t->dso, t->dso_len);
	r->inlined = 0;
}

/* Adds frame `t` to the open sample: an "(inlined)" one without a DSO
 * until the next frame gives it that frame's. */
static inline void push_frame(struct reader *r, const struct frame_text *t)
{
	if (r->depth == r->chain_cap) {
		r->chain_cap = r->chain_cap ? 2 * r->chain_cap : 256;
		r->chain = cprof_xrealloc(r->chain, r->chain_cap * sizeof(*r->chain));
	}
	if (__builtin_expect(r->inlined || r->addresses || t->ip || is_inlined(t), 0))
		push_other_frame(r, t);
	else
		r->chain[r->depth++] = frame_id(r, t);
}

/* True when a srcline says nothing: ":0", "??:0", "[kernel.kallsyms][ff..]". */
static bool unknown_srcline(const char *s, size_t len)
{
	return len == 0 || s[0] == '[' || s[0] == ':' || (len >= 2 && s[0] == '?' && s[1] == '?') ||
	       (len >= 2 && s[len - 2] == ':' && s[len - 1] == '0');
}

/* Gives the open sample's last frame the source line s[0, len). */
static int attach_srcline(struct reader *r, const char *s, size_t len)
{
	const struct frame *f;
	size_t sym_len, dso_len, key_len;

	r->perf->has_srcline = true;
	if (!r->open || r->depth == 0)
		return cprof_perf_fail(r, r->line_no, "a source line without a frame before it");
	if (unknown_srcline(s, len))
		return 0;
	f = r->perf->frames[r->chain[r->depth - 1]];
	sym_len = f->sym_len;
	dso_len = f->dso_len;
	key_len = sym_len + 1 + dso_len + 1 + len + 1;
	key_reserve(r, key_len);
	memcpy(r->key, f->key, sym_len + 1 + dso_len + 1);
	memcpy(r->key + sym_len + 1 + dso_len + 1, s, len);
	r->key[key_len - 1] = '\0';
	r->chain[r->depth - 1] = cprof_perf_intern_frame(r->perf, cprof_hash(r->key, key_len), r->key,
							 key_len, sym_len, dso_len, true);
	return 0;
}

static void stacks_grow(struct cprof_perf *perf)
{
	struct stack_slot *old = perf->stack_slots;
	size_t old_cap = perf->stack_mask + 1, i, j;

	perf->stack_mask = 2 * old_cap - 1;
	perf->stack_slots = cprof_pages_alloc((perf->stack_mask + 1) * sizeof(*old));
	for (i = 0; i < old_cap; i++) {
		if (!old[i].stack)
			continue;
		for (j = old[i].hash & perf->stack_mask; perf->stack_slots[j].stack;
		     j = (j + 1) & perf->stack_mask)
			;
		perf->stack_slots[j] = old[i];
	}
	cprof_pages_free(old, old_cap * sizeof(*old));
}

uint64_t cprof_perf_stack_hash(const uint32_t *chain, size_t depth, uint32_t event)
{
	return cprof_hash(chain, depth * sizeof(uint32_t)) ^ (event * UINT64_C(0x9E3779B97F4A7C15));
}

struct stack *cprof_perf_intern_stack(struct cprof_perf *perf, const uint32_t *chain,
				      size_t depth, uint32_t event, uint64_t hash)
{
	size_t bytes = depth * sizeof(uint32_t), j;
	struct stack *s;

	for (j = hash & perf->stack_mask; (s = perf->stack_slots[j].stack);
	     j = (j + 1) & perf->stack_mask)
		if (perf->stack_slots[j].hash == hash && s->depth == depth && s->event == event &&
		    memcmp(s->frames, chain, bytes) == 0)
			return s;
	s = cprof_arena_alloc(&perf->stack_arena, sizeof(*s) + bytes);
	s->hash = hash;
	s->samples = s->period = 0;
	s->id = (uint32_t)perf->stacks.len;
	s->depth = (uint32_t)depth;
	s->event = event;
	memcpy(s->frames, chain, bytes);
	perf->stack_slots[j] = (struct stack_slot){ .hash = hash, .stack = s };
	cprof_ptrs_add(&perf->stacks, s);
	if (perf->stacks.len > perf->stack_mask / 2)
		stacks_grow(perf);
	return s;
}

int cprof_perf_count_sample(struct reader *r, struct stack *s, bool has_period, uint64_t period,
			    unsigned long long line)
{
	struct event *e = &r->events[s->event];

	s->samples++;
	r->samples++;
	e->samples++;
	if (!has_period) {
		e->all_periods = false;
		return 0;
	}
	if (e->samples == 1)
		e->first_period = period;
	else if (period != e->first_period)
		e->same_period = false;
	if (s->period + period < s->period || e->period_sum + period < e->period_sum)
		return cprof_perf_fail(r, line, "the periods' sum overflows");
	s->period += period;
	e->period_sum += period;
	return 0;
}

/* Counts the held sample, if any: in its stack's entry, or in a block
 * recorded to be counted when the block is merged. */
static int settle(struct reader *r)
{
	struct held *h = &r->held;
	struct stack *s;

	if (!h->valid)
		return 0;
	h->valid = false;
	s = cprof_perf_intern_stack(r->perf, h->chain, h->depth, h->event, h->hash);
	if (r->block) {
		cprof_perf_record_sample(r->block, s, h->has_period, h->period, h->line);
		return 0;
	}
	return cprof_perf_count_sample(r, s, h->has_period, h->period, h->line);
}

/* Fetches the held sample's stack entry into the cache, once its slot,
 * fetched when it was held, has had time to arrive. */
static void held_touch(struct reader *r)
{
	const struct stack_slot *slot = &r->perf->stack_slots[r->held.hash & r->perf->stack_mask];

	r->held.touched = true;
	if (slot->stack && slot->hash == r->held.hash) {
		__builtin_prefetch(slot->stack);
		__builtin_prefetch((const char *)slot->stack + 64);
	}
}

/* Ends the open sample: counts the one held before, and holds this one
 * (its frames, hashed, and its stack's slot fetched). */
static int end_sample(struct reader *r)
{
	struct held *h = &r->held;
	uint32_t *spare = h->chain;
	size_t spare_cap = h->cap;

	if (!r->open)
		return 0;
	r->open = false;
	if (r->depth == 0 && r->sample_dropped)
		return cprof_perf_fail(r, r->sample_line, "a sample without frames: no line after "
							  "its header is \"IP SYM (DSO)\"");
	if (r->depth == 0)
		return cprof_perf_fail(r, r->sample_line, "a sample header without frames after it "
							  "(perf script -F needs ip and sym)");
	if (settle(r) < 0)
		return -1;
	h->chain = r->chain;
	h->cap = r->chain_cap;
	r->chain = spare;
	r->chain_cap = spare_cap;
	h->depth = r->depth;
	h->event = r->sample_event;
	h->hash = cprof_perf_stack_hash(h->chain, h->depth, h->event);
	h->has_period = r->sample_has_period;
	h->period = r->sample_period;
	h->line = r->sample_line;
	h->valid = true;
	h->touched = false;
	__builtin_prefetch(&r->perf->stack_slots[h->hash & r->perf->stack_mask]);
	return 0;
}

static int begin_sample(struct reader *r, bool header)
{
	if (end_sample(r) < 0)
		return -1;
	if (r->headers >= 0 && r->headers != (int)header)
		return cprof_perf_fail(r, r->line_no,
				       header ? "a sample header after samples without one"
					      : "a sample without a header line (its event) "
						"after samples with one");
	r->headers = header;
	r->open = true;
	r->depth = 0;
	r->inlined = 0;
	r->sample_dropped = false;
	r->sample_line = r->line_no;
	r->sample_has_period = false;
	r->sample_has_pid = false;
	if (!header)
		r->sample_event = cprof_perf_find_event(r, NULL, 0);
	return 0;
}

/* Opens the sample of header `h`, whose line is line[0, len); `index`
 * its event's, or UINT32_MAX: found by name. */
static int take_header(struct reader *r, const char *line, const struct header *h, uint32_t index)
{
	struct frame_text t;

	if (begin_sample(r, true) < 0)
		return -1;
	if (index == UINT32_MAX) {
		index = cprof_perf_find_event(r, h->event, h->event_len);
		cprof_perf_keep_header(r, line, h, index);
	}
	r->sample_event = index;
	r->sample_has_period = h->has_period;
	r->sample_period = h->period;
	r->sample_has_pid = h->has_pid;
	r->sample_pid = h->pid;
	if (cprof_perf_parse_frame(h->rest, h->rest_len, false, &t)) {
		r->at_header = true;
		push_frame(r, &t);
		r->at_header = false;
	}
	return 0;
}

/* Drops line text[0, len) of the open sample, counted for one note;
 * an address alone is a frame's line cut short, an error. */
static int drop_line(struct reader *r, const char *text, size_t len)
{
	size_t i = 0, digits;

	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	for (digits = i; digits < len && is_hex(text[digits]); digits++)
		;
	if (i < len && digits == len)
		return cprof_perf_fail(r, r->line_no, "a frame's line cut short after its address");
	r->sample_dropped = true;
	if (r->dropped++ == 0) {
		r->dropped_line = r->line_no;
		r->dropped_text = cprof_utf8_sanitize(text + i, len - i < 60 ? len - i : 60,
						      &(bool){ false });
	}
	return 0;
}

/* Reads a line that is no frame indented by a tab: a header, a frame
 * indented by blanks or not at all, a source line, or a line dropped
 * from the open sample. */
static int take_other_line(struct reader *r, const char *line, size_t len)
{
	struct frame_text t;
	struct header h;
	size_t i;

	if (cprof_perf_same_header(r, line, len, &h))
		return take_header(r, line, &h, r->last.event_index);
	switch (cprof_perf_parse_header(line, len, &h)) {
	case HEADER_RECORD:
		cprof_perf_take_record(r->perf, line, len);
		return end_sample(r);
	case HEADER_SAMPLE:
		return take_header(r, line, &h, UINT32_MAX);
	default:
		break;
	}
	if (cprof_perf_parse_frame(line, len, false, &t)) {
		if ((!r->open || r->headers != 1) && begin_sample(r, false) < 0)
			return -1;
		push_frame(r, &t);
		return 0;
	}
	for (i = 0; i < len && line[i] == ' '; i++)
		;
	if (i >= 1 && cprof_perf_is_srcline(line + i, len - i))
		return attach_srcline(r, line + i, len - i);
	if (r->open)
		return drop_line(r, line, len);
	if (cprof_perf_has_time(line, len))
		return cprof_perf_fail(r, r->line_no, "a sample header without its event (perf "
						      "script -F needs event)");
	return cprof_perf_fail(r, r->line_no, "not a line of perf script's output: no sample "
					      "header (\"COMM TID TIME: PERIOD EVENT:\") nor frame "
					      "(\"IP SYM (DSO)\")");
}

/* Reads one line of perf script's text. */
static int take_line(struct reader *r, const char *line, size_t len)
{
	struct frame_text t;

	if (len > 0 && line[0] == '\t' &&
	    (fixed_ip(line, len) ? (fixed_ip_text(line, &t),
				    cprof_perf_parse_sym_dso(line + 18, line + len, &t))
				 : cprof_perf_parse_frame(line, len, true, &t))) {
		if (!r->open && begin_sample(r, false) < 0)
			return -1;
		push_frame(r, &t);
		return 0;
	}
	if (cprof_blank_line(line, len))
		return end_sample(r);
	if (line[0] == '#')
		return 0;      /* perf script --header's, wherever outputs were joined */
	if (line[0] != '\t')
		return take_other_line(r, line, len);
	if (r->open)
		return drop_line(r, line, len);
	return cprof_perf_fail(r, r->line_no, "a call-chain line that is not \"IP SYM (DSO)\", "
					      "outside a sample");
}

int cprof_perf_parse_lines(struct reader *r, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl, *next;
		size_t n, m;
		struct frame_text t;

		if (r->open && !r->addresses && (next = perf_frame_line(p, end, &t))) {
			r->line_no++;
			push_frame(r, &t);
			if (r->depth == 4 && r->held.valid && !r->held.touched)
				held_touch(r);
			p = next;
			continue;
		}
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		m = n;
		r->line_no++;
		if (memchr(p, '\0', n))
			return cprof_perf_fail(r, r->line_no, "NUL byte in perf script's text");
		if (m > 0 && p[m - 1] == '\r')
			m--;
		if (take_line(r, p, m) < 0)
			return -1;
		p += n + (nl != NULL);
	}
	return settle(r);
}

void cprof_perf_init(struct cprof_perf *perf)
{
	perf->frame_mask = 1023;
	perf->frame_slots = cprof_pages_alloc((perf->frame_mask + 1) * sizeof(*perf->frame_slots));
	perf->stack_mask = 1023;
	perf->stack_slots = cprof_pages_alloc((perf->stack_mask + 1) * sizeof(*perf->stack_slots));
}

int cprof_perf_read_text(struct cprof_input *in, struct cprof_profile *profile,
			 const struct cprof_read_options *options, bool child,
			 struct cprof_error *err)
{
	const char *sample_index = options ? options->sample_index : NULL;
	struct reader r = {
		.err = err, .child = child, .headers = -1, .addresses = options && options->addresses,
	};
	struct cprof_perf *perf = cprof_xcalloc(1, sizeof(*perf));
	int status;

	cprof_perf_init(perf);
	perf->addresses = r.addresses;
	profile->format = CPROF_FORMAT_PERF;
	profile->perf = perf;
	r.perf = perf;
	status = cprof_perf_read_lines(&r, in);
	if (status == 0)
		status = end_sample(&r);
	if (status == 0)
		status = settle(&r);
	if (status == 0 && r.samples == 0 && !child)
		status = cprof_perf_fail(&r, r.line_no, "no samples in perf script's text");
	if (status == 0)
		status = cprof_perf_finish(&r, profile, sample_index);
	if (status == 0 && r.dropped)
		cprof_perf_note_dropped(&r, profile);
	free(r.key);
	free(r.last.prefix);
	free(r.last.event);
	free(r.dropped_text);
	free(r.chain);
	free(r.held.chain);
	cprof_perf_events_free(&r);
	return status;
}

int cprof_perfscript_read(struct cprof_input *in, struct cprof_profile *profile,
			  const struct cprof_read_options *options, struct cprof_error *err)
{
	return cprof_perf_read_text(in, profile, options, false, err);
}
