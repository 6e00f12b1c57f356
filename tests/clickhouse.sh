# tests/clickhouse.sh: two clickhouse-server processes on loopback ports, one
# cluster "fleet" of two shards, each with its own data directory under
# $CH_DIR.  Sourced by the store tests and benchmarks, after a `fail`
# function is defined.
#   start_cluster        starts both (CH_PORT1, CH_PORT2: their TCP ports)
#   stop_server N        stops server N and waits for it to end
#   stop_cluster         stops every server still running (for traps)

# ch_ports_busy BASE: true when any of the six ports BASE+1 to BASE+6
# (each server's TCP, HTTP and interserver ports) cannot be bound on
# loopback: something listens there (a server of another test, any
# program).
ch_ports_busy() {
	python3 -c '
import socket, sys
base = int(sys.argv[1])
for port in range(base + 1, base + 7):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        sys.exit(0)
    finally:
        s.close()
sys.exit(1)' "$1"
}

# The ports: a block of 10 picked from the process id, moved on while
# any of its six ports is taken.
ch_pick_ports() {
	base=$((20000 + ($$ % 3000) * 10))
	while ch_ports_busy $base; do
		base=$((base + 10))
	done
	CH_PORT1=$((base + 1)) CH_PORT2=$((base + 2))
	CH_BASE=$base
}

ch_write_config() {
	n=$1 dir=$CH_DIR/s$1
	mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas"
	cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$dir/server.log</log>
    <errorlog>$dir/error.log</errorlog>
    <console>0</console>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$((CH_BASE + n))</tcp_port>
  <http_port>$((CH_BASE + 2 + n))</http_port>
  <interserver_http_port>$((CH_BASE + 4 + n))</interserver_http_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$CH_DIR/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <remote_servers>
    <fleet>
      <shard><replica><host>127.0.0.1</host><port>$CH_PORT1</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$CH_PORT2</port></replica></shard>
    </fleet>
  </remote_servers>
</yandex>
XML
}

start_cluster() {
	CH_DIR=${CH_DIR:-$tmp/clickhouse}
	mkdir -p "$CH_DIR"
	ch_pick_ports
	cat >"$CH_DIR/users.xml" <<'XML'
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
XML
	for n in 1 2; do
		ch_write_config $n
		clickhouse-server --config-file="$CH_DIR/s$n/config.xml" \
			>"$CH_DIR/s$n/stdout.log" 2>&1 &
		echo $! >"$CH_DIR/s$n/pid"
	done
	for n in 1 2; do
		i=0
		until clickhouse-client --port $((CH_BASE + n)) -q 'SELECT 1' >/dev/null 2>&1; do
			i=$((i + 1))
			if [ $i -gt 240 ] || ! kill -0 "$(cat "$CH_DIR/s$n/pid")" 2>/dev/null; then
				tail -n 5 "$CH_DIR/s$n/error.log" "$CH_DIR/s$n/stdout.log" >&2 || true
				fail "clickhouse-server $n did not start on port $((CH_BASE + n))"
			fi
			sleep 0.5
		done
	done
}

stop_server() {
	pidfile=$CH_DIR/s$1/pid
	[ -f "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	rm -f "$pidfile"
	kill "$pid" 2>/dev/null || return 0
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || { kill -9 "$pid" 2>/dev/null || true; break; }
		sleep 0.2
	done
}

stop_cluster() {
	[ -n "${CH_DIR:-}" ] || return 0
	stop_server 1
	stop_server 2
}
