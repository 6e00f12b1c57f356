# tests/store.sh: a generated fleet for the cprof-store tests.
#   gen_fleet DIR        200 gperftools profiles over 3 applications x 2
#                        platforms x 4 builds x 3 days, APP-PLATFORM-BUILD-DAY-NNN.prof,
#                        each file's modification time on its day (UTC)
#   load_fleet DB        loads the profiles of the working directory into DB,
#                        one load per application, platform and build (the
#                        days from the files)
#   check_fleet DB       every query of the fleet gives what cprof-flat gives
#                        on the same files merged

apps="db search web"
platforms="arm x86"
builds="b1 b2 b3 b4"
days="2026-11-01 2026-11-02 2026-11-03"

gen_fleet() {
	mkdir -p "$1"
	(
		cd "$1"
		awk -v apps="$apps" -v platforms="$platforms" -v builds="$builds" -v days="$days" '
		BEGIN {
			na = split(apps, app, " "); np = split(platforms, plat, " ")
			nb = split(builds, build, " "); nd = split(days, day, " ")
			srand(17)
			for (i = 0; i < 200; i++) {
				c = i % (na * np * nb * nd)
				a = c % na; p = int(c / na) % np; b = int(c / (na * np)) % nb
				d = int(c / (na * np * nb))
				name = sprintf("%s-%s-%s-%s-%03d.prof", app[a + 1], plat[p + 1],
					       build[b + 1], day[d + 1], i)
				spec = name ".spec"
				# search samples every 4 ms; one db profile in ten every 2 ms
				period = app[a + 1] == "search" ? 4000 : (app[a + 1] == "db" && i % 10 == 0 ? 2000 : 1000)
				print "period " period > spec
				print "header" > spec
				n = 5 + int(rand() * 20)
				for (r = 0; r < n; r++) {
					# each app has its own hot spots, and each build moves them a little
					k = int(rand() * rand() * 40) + 8 * a + b
					printf "record %d 0x%x 0x%x\n", 1 + int(rand() * 50),
						4198400 + 16 * k, 4198400 + 4096 + 16 * (r % 3) >> spec
				}
				print "trailer" >> spec
				printf "text 00400000-00410000 r-xp 00000000 08:01 123 /opt/%s/server\n", app[a + 1] >> spec
				print name, day[d + 1] > "days"
			}
		}'
		for spec in *.spec; do
			gen-profile <"$spec" >"${spec%.spec}"
		done
		rm -- *.spec
		for day in $days; do
			awk -v day="$day" '$2 == day { print $1 }' days | xargs touch -d "${day}T12:00:00Z"
		done
		rm days
	)
}

load_fleet() {
	for app in $apps; do
		for platform in $platforms; do
			for build in $builds; do
				cprof-store --db "$1" load --by=address --no-symbolize \
					--tag app=$app --tag platform=$platform --tag build=$build \
					$app-$platform-$build-*.prof ||
					fail "load of $app-$platform-$build into $1: exit $?"
			done
		done
	done
}

# files APP PLATFORM BUILD DAY: the matching names, sorted bytewise ('*'
# for any).
files() {
	ls $1-$2-$3-$4-*.prof | LC_ALL=C sort
}

# check_query WANT-FILES -- CPROF-STORE-ARGS...: cprof-store prints what
# cprof-flat prints for WANT-FILES, in bytewise order, merged (by address;
# $FLAT_ARGS added).
check_query() {
	want_files=
	while [ "$1" != -- ]; do
		want_files="$want_files $1"
		shift
	done
	shift
	want_files=$(printf '%s\n' $want_files | LC_ALL=C sort)
	# shellcheck disable=SC2086
	cprof-flat -c --by=address --no-symbolize ${FLAT_ARGS:-} $want_files >want.json
	# The command as a message says it: its first 300 bytes.
	args=$(echo "$*" | head -c 300)
	cprof-store -c "$@" >got.json 2>got.err || fail "cprof-store $args: exit $?: $(cat got.err)"
	[ ! -s got.err ] || fail "cprof-store $args: stderr: $(cat got.err)"
	cmp -s want.json got.json || {
		diff want.json got.json | head -c 2000 >&2
		fail "cprof-store $args differs from cprof-flat on$(echo "$want_files" | head -c 300)"
	}
}

# check_groups WANT-JSONL -- QUERY-ARGS: the JSON Lines of a grouped query.
check_groups() {
	want=$1
	shift 2
	cprof-store "$@" >got.jsonl 2>got.err || fail "cprof-store $*: exit $?: $(cat got.err)"
	cmp -s "$want" got.jsonl || {
		diff "$want" got.jsonl | head -c 2000 >&2
		fail "cprof-store $*: the groups differ from cprof-flat's"
	}
}

# want_group GROUP-JSON FILES...: appends cprof-flat's flat of FILES with
# the group object, as a grouped query prints it.
want_group() {
	group=$1
	shift
	cprof-flat -c --by=address --no-symbolize "$@" | sed "s|}\$|,\"group\":$group}|" >>want.jsonl
}

check_fleet() {
	db=$1
	check_query $(files '*' '*' '*' '*') -- --db "$db" query --by=address
	check_query $(files web '*' '*' '*') -- --db "$db" query --by=address --where app=web
	# search profiles all say 4000 us: the flat says so too
	check_query $(files search '*' '*' '*') -- --db "$db" query --by=address --where app=search
	grep -q '"period_us":4000' got.json || fail "search: period_us is not 4000: $(head -c 300 got.json)"
	check_query $(files web arm '*' 2026-11-02) $(files web arm '*' 2026-11-03) \
		$(files db arm '*' 2026-11-02) $(files db arm '*' 2026-11-03) -- \
		--db "$db" query --by=address --where app=web --where platform=arm --where app=db \
		--from 2026-11-02 --to 2026-11-03
	check_query $(files '*' '*' b3 2026-11-01) -- \
		--db "$db" query --by=address --where build=b3 --where date=2026-11-01
	one=$(files db x86 b2 2026-11-03 | head -n 1)
	check_query "$one" -- --db "$db" query --by=address --where profile="$one"
	# sample_type, like profile, is a column of the profile, not of its
	# rows: asked for, it is joined.
	check_query $(files web '*' '*' '*') -- \
		--db "$db" query --by=address --where app=web --where sample_type=samples/count
	FLAT_ARGS="-n 5" check_query $(files '*' '*' '*' '*') -- --db "$db" top --by=address -n 5
	FLAT_ARGS="-n 10" check_query $(files '*' '*' '*' '*') -- --db "$db" top --by=address

	: >want.jsonl
	for app in $apps; do
		for build in $builds; do
			want_group "{\"app\":\"$app\",\"build\":\"$build\"}" $(files $app '*' $build '*')
		done
	done
	check_groups want.jsonl -- --db "$db" query --by=address --group app,build
	: >want.jsonl
	for day in $days; do
		want_group "{\"date\":\"$day\"}" $(files web '*' '*' $day)
	done
	check_groups want.jsonl -- --db "$db" query --by=address --where app=web --group date
	: >want.jsonl
	for f in $(files search arm '*' 2026-11-02); do
		want_group "{\"profile\":\"$f\",\"sample_type\":\"samples/count\"}" "$f"
	done
	check_groups want.jsonl -- --db "$db" query --by=address --where app=search \
		--where platform=arm --where date=2026-11-02 --group profile,sample_type
}

# gen_labelled FILE: a profile.proto whose samples carry a label worker
# (a, b, both, or none) and a numeric label size (tests/cases/rows-label.case).
gen_labelled() {
	gen-profile >"$1" <<'SPEC'
pb-string 6
pb-string 6 samples
pb-string 6 count
pb-string 6 main
pb-string 6 hot
pb-string 6 cold
pb-string 6 worker
pb-string 6 a
pb-string 6 b
pb-string 6 size
pb-string 6 bytes
pb-begin 1
pb 1 1
pb 2 2
pb-end
pb-begin 2
pb-packed 1 1 2
pb-packed 2 5
pb-begin 3
pb 1 6
pb 2 7
pb-end
pb-begin 3
pb 1 9
pb 3 1024
pb 4 10
pb-end
pb-end
pb-begin 2
pb-packed 1 1 2
pb-packed 2 3
pb-begin 3
pb 1 6
pb 2 8
pb-end
pb-end
pb-begin 2
pb-packed 1 3 2
pb-packed 2 2
pb-begin 3
pb 1 6
pb 2 7
pb-end
pb-begin 3
pb 1 6
pb 2 8
pb-end
pb-end
pb-begin 2
pb-packed 1 3 2
pb-packed 2 4
pb-end
pb-begin 2
pb-packed 1 1 2
pb-packed 2 1
pb-begin 3
pb 1 9
pb 3 2048
pb 4 10
pb-end
pb-end
pb-begin 4
pb 1 1
pb-begin 4
pb 1 2
pb-end
pb-end
pb-begin 4
pb 1 2
pb-begin 4
pb 1 1
pb-end
pb-end
pb-begin 4
pb 1 3
pb-begin 4
pb 1 3
pb-end
pb-end
pb-begin 5
pb 1 1
pb 2 3
pb-end
pb-begin 5
pb 1 2
pb 2 4
pb-end
pb-begin 5
pb 1 3
pb 2 5
pb-end
SPEC
}

# check_labels DB [INIT-ARGS]: a profile.proto loaded with --label worker
# into DB (of dimensions app and worker, made here).  A sample that carries
# worker=a and worker=b has the value "a,b" (as pprof's -tagroot joins
# them), so the flats of --where worker=W --where worker=a,b are what
# cprof-flat --tag-filter worker=W counts, and all of them what cprof-flat
# counts.
check_labels() {
	gen_labelled p.pb
	# shellcheck disable=SC2086
	cprof-store --db "$1" init --dims app,worker ${2:-}
	cprof-store --db "$1" load --tag app=x --label worker --date 2026-11-05 p.pb
	for worker in a b; do
		cprof-flat -c --tag-filter worker="$worker" p.pb >want.json
		cprof-store --db "$1" query -c --where worker="$worker" --where worker=a,b >got.json
		cmp -s want.json got.json || fail "--label worker: $worker: $(cat got.json)"
	done
	cprof-flat -c p.pb >want.json
	cprof-store --db "$1" query -c >got.json
	cmp -s want.json got.json || fail "--label worker: all: $(cat got.json)"
	[ "$(cprof-store --db "$1" query -c --group worker | wc -l)" -eq 4 ] ||
		fail "--label worker: not 4 groups (a, b, a,b and none)"
}

# gen_cpi FILE HOT_CYCLES HOT_INSTRUCTIONS MAIN_CYCLES MAIN_INSTRUCTIONS:
# a profile.proto of two sample types, cycles/count and
# instructions/count (the default, the last), over two functions, hot
# (called by main) and main.
gen_cpi() {
	gen-profile >"$1" <<SPEC
pb-string 6
pb-string 6 cycles
pb-string 6 count
pb-string 6 instructions
pb-string 6 main
pb-string 6 hot
pb-begin 1
pb 1 1
pb 2 2
pb-end
pb-begin 1
pb 1 3
pb 2 2
pb-end
pb-begin 2
pb-packed 1 1 2
pb-packed 2 $2 $3
pb-end
pb-begin 2
pb-packed 1 2
pb-packed 2 $4 $5
pb-end
pb-begin 4
pb 1 1
pb-begin 4
pb 1 2
pb-end
pb-end
pb-begin 4
pb 1 2
pb-begin 4
pb 1 1
pb-end
pb-end
pb-begin 5
pb 1 1
pb 2 4
pb-end
pb-begin 5
pb 1 2
pb 2 5
pb-end
SPEC
}
