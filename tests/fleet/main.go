// fleet: a service of cprof-collect's tests.  It serves net/http/pprof's
// handlers on a port of the loopback the system picks (written to -addr
// once it listens) and burns its CPU in two named functions, burnHeavy
// and burnLight, in the ratio -heavy to -light: burnHeavy's share of the
// CPU profile is heavy/(heavy+light), up to sampling error.
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
)

var sink uint64

// The two loops are the same: each function's share of the CPU is that
// of its units.  Run with GODEBUG=asyncpreemptoff=1: the runtime's
// preemption of a loop by a signal shows in a CPU profile as
// runtime.asyncPreempt rather than the function.  Each loop yields after
// each unit (runtime.Gosched), so that it need not be preempted.

//go:noinline
func burnHeavy(units int) {
	x := sink
	for u := 0; u < units; u++ {
		for i := 0; i < 200000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		runtime.Gosched()
	}
	sink = x
}

//go:noinline
func burnLight(units int) {
	x := sink
	for u := 0; u < units; u++ {
		for i := 0; i < 200000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		runtime.Gosched()
	}
	sink = x
}

func main() {
	addr := flag.String("addr", "", "file to write the address listened on to")
	heavy := flag.Int("heavy", 3, "units of work in burnHeavy per round")
	light := flag.Int("light", 1, "units of work in burnLight per round")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	tmp := *addr + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(tmp, *addr); err != nil {
		log.Fatal(err)
	}
	go func() {
		for {
			burnHeavy(*heavy)
			burnLight(*light)
		}
	}()
	log.Fatal(http.Serve(ln, nil))
}
