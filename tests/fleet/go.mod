module cprof.test/fleet

go 1.19
