# bench/lib.sh: sourced by the benchmarks.  Work files go under
# $BENCH_DIR (default: bench-work in the build tree), never the source tree.
set -eu
: "${builddir:=$(pwd)}" "${srcdir:=.}"
BENCH_DIR=${BENCH_DIR:-$builddir/bench-work}
RUNS=${BENCH_RUNS:-3}
mkdir -p "$BENCH_DIR"
CC=${CC:-cc}

# measure LABEL CMD...: runs CMD $RUNS times (output discarded) and sets
# WALL (median seconds) and PEAK (largest peak RSS in MiB); prints a row.
measure() {
	label=$1
	shift
	: >"$BENCH_DIR/times"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		/usr/bin/time -f '%e %M' -o "$BENCH_DIR/time1" "$@" >/dev/null 2>"$BENCH_DIR/stderr" ||
			{ echo "$label: failed: $(tail -1 "$BENCH_DIR/stderr")"; WALL=; PEAK=; return 0; }
		cat "$BENCH_DIR/time1" >>"$BENCH_DIR/times"
		i=$((i + 1))
	done
	WALL=$(sort -n "$BENCH_DIR/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
	PEAK=$(awk '$2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$BENCH_DIR/times")
}

# ratio A B: A/B to two decimals, or "-" when either is missing or B is 0.
ratio() {
	awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f\n", a / b }'
}

row() {
	printf '%-44s %9s %9s %10s %10s\n' "$@"
}
