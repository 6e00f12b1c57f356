// goprof: writes a CPU profile and a heap profile with Go's runtime/pprof
// (gzip-compressed profile.proto), for tests/go-pprof.test.  hot() burns
// about three times the CPU of warm(), each under a label phase=hot or
// phase=warm (pprof.Do); keepBig() keeps 20 MiB and keepSmall() 5 MiB in
// 512-byte blocks.  Given a third file, it writes the same heap profile
// there as text too (debug=1), for tests/go-heap-text.test.  The standard
// library only.
package main

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
)

var sink [][]byte

//go:noinline
func spin(n int) float64 {
	x := 0.0
	for i := 0; i < n; i++ {
		x += float64(i%7) * 1.0001
	}
	return x
}

//go:noinline
func hot() float64 { return spin(3000000) }

//go:noinline
func warm() float64 { return spin(1000000) }

//go:noinline
func keepBig() {
	for i := 0; i < 20; i++ {
		sink = append(sink, make([]byte, 1<<20))
	}
}

//go:noinline
func keepSmall() {
	for i := 0; i < 10240; i++ {
		sink = append(sink, make([]byte, 512))
	}
}

func main() {
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		panic(err)
	}
	s := 0.0
	ctx := context.Background()
	for i := 0; i < 150; i++ {
		pprof.Do(ctx, pprof.Labels("phase", "hot"), func(context.Context) { s += hot() })
		pprof.Do(ctx, pprof.Labels("phase", "warm"), func(context.Context) { s += warm() })
	}
	pprof.StopCPUProfile()
	cpu.Close()

	runtime.MemProfileRate = 4096
	keepBig()
	keepSmall()
	runtime.GC()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	if err := pprof.WriteHeapProfile(heap); err != nil {
		panic(err)
	}
	heap.Close()
	if len(os.Args) > 3 {
		writeHeapText(os.Args[3])
	}
	if s == 1 {
		println(s)
	}
}

// writeHeapText writes the heap profile to name as text (debug=1): the
// legacy heap profile of addresses, without maps.
func writeHeapText(name string) {
	text, err := os.Create(name)
	if err != nil {
		panic(err)
	}
	if err := pprof.Lookup("heap").WriteTo(text, 1); err != nil {
		panic(err)
	}
	text.Close()
}
