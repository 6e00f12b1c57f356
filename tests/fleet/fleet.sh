# tests/fleet/fleet.sh: the fleet of cprof-collect's tests, sourced after
# tests/setup.  Every server listens on a port of the loopback the system
# picks and writes its address to a file, so that no port is guessed;
# each is killed, by its pid, when the test ends.
#   build_fleet          builds tests/fleet (Go) into ./fleet, or skips
#   start_service NAME H L   a service burning H units in main.burnHeavy for
#                        each L in main.burnLight; its address in $addr
#   start_fakes [FILE]   tests/fleet/fake.py (serving FILE as target "file");
#                        its address in $fakes

fleet_pids=""
trap 'for pid in $fleet_pids; do kill "$pid" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT

# wait_file FILE WHAT: waits (up to 120 s, for a loaded machine) for FILE.
wait_file() {
	tries=0
	while [ ! -s "$1" ]; do
		tries=$((tries + 1))
		[ "$tries" -le 1200 ] || fail "$2 did not start"
		sleep 0.1
	done
}

build_fleet() {
	command -v go >/dev/null 2>&1 || skip "go (golang-go) is not installed"
	# The build cache lives in the build tree, so that runs after the
	# first build nothing.
	mkdir -p "$abs_builddir/tests/.gocache"
	(cd "$abs_srcdir/tests/fleet" &&
		HOME=$tmp GOCACHE=$abs_builddir/tests/.gocache GOPATH=$tmp/gopath GOPROXY=off \
		GOFLAGS= go build -o "$tmp/fleet" .) >build.err 2>&1 ||
		fail "go build tests/fleet: $(cat build.err)"
}

start_service() {
	rm -f "$1.addr"
	GODEBUG=asyncpreemptoff=1 ./fleet -addr "$1.addr" -heavy "$2" -light "$3" 2>"$1.err" &
	fleet_pids="$fleet_pids $!"
	wait_file "$1.addr" "service $1"
	addr=$(cat "$1.addr")
}

start_fakes() {
	command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
	rm -f fakes.addr
	python3 "$abs_srcdir/tests/fleet/fake.py" fakes.addr "$@" 2>fakes.err &
	fleet_pids="$fleet_pids $!"
	wait_file fakes.addr "tests/fleet/fake.py"
	fakes=$(cat fakes.addr)
}
