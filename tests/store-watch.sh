# tests/store-watch.sh: generated series of days for the cprof-store watch
# tests: 20 days, 3 hosts a day, folded profiles of 8 keys of Zipf shares,
# each count wiggled by up to 2% of itself (awk's srand, seeded by day and
# host).
#   series APP SCENARIO [DB]  writes APP's files and loads a day a load into
#                        DB (default the cprof-store default), build b2
#                        from day 12; SCENARIO rise (k3 x1.3 from day 12),
#                        spike (k3 x3 on day 12), shift (k2's cost to a
#                        new k9 from day 12) or none

# gen SCENARIO DAY HOST: one host's profile of one day.
gen() {
	awk -v scen="$1" -v day="$2" -v host="$3" -v change=12 'BEGIN {
		srand(day * 100 + host)
		for (k = 1; k <= 8; k++) {
			c = int(4000 / k * (1 + 0.04 * (rand() - 0.5)))
			if (scen == "rise" && k == 3 && day >= change) c = int(c * 1.3)
			if (scen == "spike" && k == 3 && day == change) c = c * 3
			if (scen == "shift" && k == 2 && day >= change) c = 0
			printf "main;k%d %d\n", k, c
		}
		if (scen == "shift" && day >= change)
			printf "main;k9 %d\n", int(2000 * (1 + 0.04 * (rand() - 0.5)))
	}'
}

# series APP SCENARIO [DB]: 20 days of APP into DB, build b2 from day 12.
series() {
	for d in $(seq 1 20); do
		build=b1
		[ "$d" -lt 12 ] || build=b2
		for h in 1 2 3; do
			gen "$2" "$d" "$h" >"$1-$d-$h.folded"
		done
		cprof-store ${3:+--db "$3"} load --tag app="$1" --tag build=$build --date "$(printf 2026-10-%02d "$d")" \
			"$1-$d-1.folded" "$1-$d-2.folded" "$1-$d-3.folded"
	done
}

