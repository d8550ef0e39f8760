# shellcheck shell=bash disable=SC2034,SC2154
# Shared parts of the daemon experiments on real sockets (scripts/experiments/daemon-throughput, daemon-overload):
# hosts as network namespaces on a private bridge, private copies of the jars, processes started and stopped by PID,
# host 1's GMS, receiving daemon and sink. Sourced after cluster-common.sh and cluster-net.sh, never run.
#
# The sourcing script sets: root, prefix (namespace prefix, also RC_PREFIX), subnet, gms_port, api_port,
# unicast_port, rx_buffer, groups, out, keep_work=0, pids=() and work="" (set to a fresh directory before use).

log() { say "$@"; }

host_ns() { echo "$prefix-h$1"; }

# ------------------------------------------------------------------ machine

await_quiet() { # LOAD: waits up to 15 minutes for the 1-minute load average to drop below LOAD
    local limit="$1" i load
    for ((i = 0; i < 90; i++)); do
        load="$(cut -d' ' -f1 /proc/loadavg)"
        if awk -v l="$load" -v m="$limit" 'BEGIN { exit !(l < m) }'; then
            log "load average $load < $limit: starting"
            return 0
        fi
        log "load average $load >= $limit: waiting for a quieter machine"
        sleep 10
    done
    die "the machine stayed busy (load average >= $limit) for 15 minutes"
}

# ------------------------------------------------------------------ jars

build_jars() {
    "$root/scripts/ricochet" --version >/dev/null
    "$root/scripts/ricochet-gms" --version >/dev/null
    "$root/scripts/bench" --version >/dev/null
    # Private copies, so rebuilding the project during a run cannot disturb it.
    cp "$root/ricochet-core/target/ricochet.jar" "$work/ricochet.jar"
    cp "$root/ricochet-gms/target/ricochet-gms.jar" "$work/ricochet-gms.jar"
    cp "$root/ricochet-bench/target/ricochet-bench.jar" "$work/ricochet-bench.jar"
}

# ------------------------------------------------------------------ network (NETWORK-TESTING.md recipe)

setup_network() { # HOSTS: the bridge and one namespace per host, recorded in $work/namespaces for cleanup
    local hosts="$1" i
    net_create_bridge "$work"
    for i in $(seq 1 "$hosts"); do
        net_add_host "$work" "$(host_ns "$i")" "p$i" "$subnet.$i"
    done
    log "namespaces up: $(run_namespaces "$work" | tr '\n' ' ')"
}

# ------------------------------------------------------------------ processes

# start_in HOST LOGFILE COMMAND...: runs COMMAND in host HOST's namespace in the background; sets $started.
start_in() {
    local host="$1" logfile="$2"
    shift 2
    ip netns exec "$(host_ns "$host")" "$@" >"$logfile" 2>&1 &
    started=$!
    pids+=("$started")
}

# stop_pid PID [SECONDS]: SIGTERM, then SIGKILL if it is still there after SECONDS (default 10).
stop_pid() {
    local pid="$1" wait_s="${2:-10}" i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < wait_s * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
        sleep 0.1
    done
    log "pid $pid ignored SIGTERM; killing it"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$? i
    trap - EXIT INT TERM
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        stop_pid "${pids[$i]}" 5
    done
    if [[ -n "$work" ]]; then
        local ns
        while read -r ns; do
            ns_delete "$ns"
        done < <(run_namespaces "$work")
    fi
    if [[ -n "$work" && "$keep_work" -eq 1 ]]; then
        log "logs and raw readings kept in $work"
    elif [[ -n "$work" ]]; then
        rm -rf "$work"
    fi
    exit "$status"
}

# wait_listen HOST PORT WHAT: waits up to 30 s for a TCP listener on PORT in host HOST's namespace.
wait_listen() {
    local host="$1" port="$2" what="$3" i
    for ((i = 0; i < 300; i++)); do
        if [[ -n "$(ip netns exec "$(host_ns "$host")" ss -Hltn "sport = :$port")" ]]; then
            return 0
        fi
        sleep 0.1
    done
    die "$what did not listen on port $port within 30 s"
}

# wait_file_line FILE PATTERN WHAT: waits up to 60 s for a line matching PATTERN in FILE.
wait_file_line() {
    local file="$1" pattern="$2" what="$3" i
    for ((i = 0; i < 600; i++)); do
        grep -q -- "$pattern" "$file" 2>/dev/null && return 0
        sleep 0.1
    done
    die "$what did not get ready within 60 s (see $file): $(tail -3 "$file" 2>/dev/null)"
}

# start_java HOST LOGFILE HEAP JAR ARGS...: runs one of the private jars in host HOST's namespace; sets $started.
# Extra JVM options for the daemon only (e.g. a flight recording) may be given in DAEMON_JAVA_OPTS.
start_java() {
    local host="$1" logfile="$2" heap="$3" jar="$4" extra=()
    shift 4
    if [[ "$jar" == ricochet.jar && -n "${DAEMON_JAVA_OPTS:-}" ]]; then
        read -r -a extra <<<"$DAEMON_JAVA_OPTS"
    fi
    start_in "$host" "$logfile" java "-Xmx$heap" -XX:+UseParallelGC "${extra[@]}" -jar "$work/$jar" "$@"
}

# start_daemon_host: host 1's GMS partition and receiving daemon (LEC on, r=8 c=5, no injected loss); sets
# $gms_pid and $daemon_pid.
start_daemon_host() {
    local gms_log="$work/gms.log" daemon_log="$work/daemon.log"
    start_java 1 "$gms_log" 256m ricochet-gms.jar --bind "$subnet.1" --port "$gms_port" --insecure \
        --stats-interval 600
    gms_pid=$started
    wait_listen 1 "$gms_port" "the GMS"
    start_java 1 "$daemon_log" 2g ricochet.jar daemon --node-id 1 --interface v0 --address "$subnet.1" \
        --unicast-port "$unicast_port" --gms "$subnet.1:$gms_port" --api-port "$api_port" --r 8 --c 5 \
        --inject-loss none --rx-buffer "$rx_buffer" --stats-interval 10 --insecure on
    # --insecure (daemon and GMS): the load generator writes raw frames without the authentication trailer and
    # registers without a certificate; the datagram MAC's cost is measured on its own (docs/design/security.md,
    # "Cost").
    daemon_pid=$started
    wait_listen 1 "$api_port" "the daemon's API"
}

# start_sink SINK_ARGS...: the sink application on host 1, in all the groups; sets $sink_pid.
start_sink() {
    local sink_log="$work/sink.log"
    start_java 1 "$sink_log" 1g ricochet-bench.jar sink --api "127.0.0.1:$api_port" --groups "$groups" "$@"
    sink_pid=$started
    wait_file_line "$sink_log" "sink: joined" "the sink"
}

# start_host1 SINK_ARGS...: GMS, daemon and sink on host 1.
start_host1() {
    start_daemon_host
    start_sink "$@"
    log "host 1: GMS pid $gms_pid, daemon pid $daemon_pid, sink pid $sink_pid"
}

# ------------------------------------------------------------------ measurement

daemon_stats() { # FILE: the daemon's counters, as ricochet stats --json prints them
    ip netns exec "$(host_ns 1)" java -Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$work/ricochet.jar" \
        stats --json --api "127.0.0.1:$api_port" >"$1"
}

# cpu_model: the host's CPU model name, for the record.
cpu_model() {
    awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo
}
