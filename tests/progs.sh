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
	CPUPROFILE=$out CPUPROFILE_FREQUENCY=1000 "./$name" "$@" 2>/dev/null
	[ -s "$out" ] || fail "libprofiler wrote no profile $out"
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
