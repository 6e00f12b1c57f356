# tests/progs.sh: sourced by tests that need real profiles from libprofiler.
# build_burn NAME [CFLAGS...]: compiles examples/burn.c into ./NAME.
# profile NAME OUT ARGS...: runs ./NAME ARGS under libprofiler into OUT.

have_libprofiler || skip "libprofiler (libgoogle-perftools-dev) is not installed"

build_burn() {
	name=$1
	shift
	${CC:-cc} -O2 -g "$@" -o "$name" "$abs_srcdir/examples/burn.c" -lm \
		-Wl,--no-as-needed -lprofiler -Wl,--as-needed
}

profile() {
	name=$1 out=$2
	shift 2
	CPUPROFILE=$out CPUPROFILE_FREQUENCY=1000 "./$name" "$@" 2>profile.err ||
		fail "$name failed: $(cat profile.err)"
	[ -s "$out" ] || fail "libprofiler wrote no profile $out"
}

# profile_samples MIN NAME OUT MS ARGS...: profile NAME OUT MS ARGS, with
# MS doubled up to twice while OUT holds fewer than MIN samples: on a
# loaded machine libprofiler's timer signals come fewer than its rate.
profile_samples() {
	min=$1 name=$2 out=$3 ms=$4
	shift 4
	for try in 1 2 3; do
		profile "$name" "$out" "$ms" "$@"
		got=$(cprof-flat -c --by=dso "$out" | sed 's/.*"total":\([0-9]*\).*/\1/')
		[ "$got" -lt "$min" ] || return 0
		ms=$((2 * ms))
	done
	fail "$out: only $got samples in $((ms / 2)) ms of CPU, want $min"
}

# symbol_offsets BINARY SYMBOL: prints "START END" of SYMBOL as file
# offsets (what --by=address keys are), from nm and the program headers.
symbol_offsets() {
	line=$(nm -S "$1" | awk -v sym="$2" '$4 == sym { print $1, $2; exit }')
	[ -n "$line" ] || fail "no symbol $2 in $1"
	addr=$((0x${line% *}))
	size=$((0x${line#* }))
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $5 }' | while read -r off va fsz; do
		off=$((off)) va=$((va)) fsz=$((fsz))
		if [ "$addr" -ge "$va" ] && [ "$addr" -lt $((va + fsz)) ]; then
			echo $((addr - va + off)) $((addr - va + off + size))
			break
		fi
	done
}

# count_in_range FOLDED BASENAME START END: sums the counts of the
# BASENAME+0xOFF keys of a --folded --by=address listing in [START, END).
count_in_range() {
	sum=0
	while read -r key count; do
		case $key in "$2+0x"*) ;; *) continue ;; esac
		off=$((0x${key#"$2+0x"}))
		if [ "$off" -ge "$3" ] && [ "$off" -lt "$4" ]; then
			sum=$((sum + count))
		fi
	done <"$1"
	echo "$sum"
}

# build_sym DIR [CFLAGS...]: builds tests/progs/sym.c and its own shared
# library libspin.so into DIR, with DWARF.
build_sym() {
	dir=$1
	shift
	case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
	mkdir -p "$dir"
	${CC:-cc} -O2 -g -fPIC -shared -I"$abs_srcdir/tests/progs" -o "$dir/libspin.so" \
		"$abs_srcdir/tests/progs/libspin.c"
	${CC:-cc} -O2 -g "$@" -I"$abs_srcdir/tests/progs" -o "$dir/sym" \
		"$abs_srcdir/tests/progs/sym.c" -L"$dir" -lspin -Wl,-rpath,"$dir" -lm \
		-Wl,--no-as-needed -lprofiler -Wl,--as-needed
}

# share FOLDED KEY: the count of KEY in a --folded listing (0 if absent).
count_of() {
	awk -v k="$2" '{ c = $NF; sub(/ [0-9]+$/, ""); if ($0 == k) { print c; found = 1 } }
		END { if (!found) print 0 }' "$1"
}

# count_of_dso FOLDED BASENAME: the counts of BASENAME's PCs that no
# symbol names (keys BASENAME+0xOFFSET, or [BASENAME]), summed.
count_of_dso() {
	awk -v d="$2" '{ c = $NF; sub(/ [0-9]+$/, "")
		if ($0 == "[" d "]" || index($0, d "+0x") == 1) s += c }
		END { print s + 0 }' "$1"
}

# share_within K N LO HI: K samples of N are a share that a binomial draw
# with a share between LO and HI gives with a probability of 1e-7 or more
# on the side K lies (K/N below LO: P(X <= K) at LO; above HI: P(X >= K) at
# HI; X ~ Binomial(N, share)).  A multinomial count is binomial key by
# key, so a check of a true claim fails with probability below 1e-7; the
# exact tail, not 5 normal sd, which on 80 samples at 0.9 fail 1.6e-5 of
# the time.  libprofiler's ticks come at even steps of CPU time and vary
# less than binomial draws, which only makes the bound more conservative.
share_within() {
	awk -v k="$1" -v n="$2" -v lo="$3" -v hi="$4" '
	function cdf(k, n, p,   i, lp, s) {
		if (p <= 0) return 1
		if (p >= 1) return k >= n
		lp = n * log(1 - p)
		s = exp(lp)
		for (i = 0; i < k; i++) {
			lp += log((n - i) / (i + 1)) + log(p / (1 - p))
			s += exp(lp)
		}
		return s
	}
	BEGIN {
		if (n <= 0 || k < 0 || k > n) exit 1
		if (k / n < lo) exit !(cdf(k, n, lo) >= 1e-7)
		if (k / n > hi) exit !(cdf(n - k, n, 1 - hi) >= 1e-7)
		exit 0
	}'
}

# total_of PROFILE: its number of samples.
total_of() {
	cprof-flat -c --by=dso "$1" | sed 's/.*"total":\([0-9]*\).*/\1/'
}

# same_share KA NA KB NB: KA samples of NA and KB of NB are shares that
# one share explains, as two runs of one program are: they differ by 5.5
# standard deviations of the difference or less, sqrt(p (1 - p) (1/NA +
# 1/NB)) at the pooled share p (a normal tail of 4e-8; a difference of
# two binomials is nearly symmetric, and libprofiler's ticks vary less
# than binomial draws).
same_share() {
	awk -v ka="$1" -v na="$2" -v kb="$3" -v nb="$4" 'BEGIN {
		if (na <= 0 || nb <= 0) exit 1
		p = (ka + kb) / (na + nb)
		d = ka / na - kb / nb
		exit !((d < 0 ? -d : d) <= 5.5 * sqrt(p * (1 - p) * (1 / na + 1 / nb)))
	}'
}
