# shellcheck shell=bash disable=SC2034,SC2154
# Shared pieces of the one-receiver daemon experiments (scripts/experiments/daemon-throughput, daemon-groups,
# daemon-overload):
# hosts as network namespaces on a private bridge (cluster-net.sh), 198.18.0.1 the receiving host (GMS, daemon,
# sink), 198.18.0.2.. the load generators (scripts/bench load); processes started by PID and stopped by PID;
# readings of the daemon's counters (ricochet stats --json) and of /proc at the edges of a measured window.
# Ricochet runs as the package configures it: a cluster key file ('ricochet keygen') authenticates every datagram
# of the daemon and of the generators, the GMS links are mutual TLS with certificates from scripts/certs, and every
# daemon setting is at its default but addressing (and what a script names, e.g. --rx-buffer). INSECURE=1 is the
# named variant that runs the GMS --insecure, the daemon insecure = on and the generators --insecure (no key, no
# certificates); every table says which ran (test_bed.py).
# Sourced after cluster-common.sh and cluster-net.sh. The sourcing script sets $root, $prefix (namespace prefix,
# letters then the script's PID, e.g. rctp$$), $out, and may change the defaults below before calling anything;
# experiment_begin makes $work (the scratch folder).

subnet="198.18.0"
# The bridge snoops IGMP (cluster-net.sh), as a datacenter switch does: a generator's multicast reaches the hosts
# that joined its groups, not the other generators, whose CPU (the host's) would carry every copy through their
# receive path. RC_MCAST_SNOOPING=0 floods every group to every host instead.
export RC_MCAST_SNOOPING="${RC_MCAST_SNOOPING:-1}"
# How the sink reaches the daemon's local API: loopback TCP, or SINK_API=unix its Unix domain socket (as an
# application on the daemon's host may).
export SINK_API="${SINK_API:-tcp}"
[[ "$SINK_API" == tcp || "$SINK_API" == unix ]] || die "SINK_API must be tcp or unix, got '$SINK_API'"
# INSECURE=1: no datagram authentication and plaintext GMS links (the variant; the default is authenticated).
export INSECURE="${INSECURE:-0}"
[[ "$INSECURE" == 0 || "$INSECURE" == 1 ]] || die "INSECURE must be 0 or 1, got '$INSECURE'"
gms_port=7100
api_port=7400
unicast_port=7300
max_send_seconds=600
pids=()
work=""
keep_work=0
wait_quiet=""
daemon_pid=""
sink_pid=""
gms_pid=""

log() { say "$@"; }

# usage: the sourcing script's header comment (line 2 up to the first line that is not a comment) on stderr; exits 2.
# usage [STATUS]: the script's header comment; 'usage 0' (--help) on stdout, otherwise on stderr with exit 2.
usage() {
    local status="${1:-2}"
    if ((status == 0)); then
        awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'
    else
        awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//' >&2
    fi
    exit "$status"
}

host_ns() { echo "$prefix-h$1"; }

# await_quiet LOAD: waits up to 15 minutes for the 1-minute load average to drop below LOAD.
await_quiet() {
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

# build_jars: builds the jars through their launchers, then takes private copies, so that rebuilding the project
# during a run cannot disturb it.
build_jars() {
    "$root/scripts/ricochet" --version >/dev/null
    "$root/scripts/ricochet-gms" --version >/dev/null
    "$root/scripts/bench" --version >/dev/null
    cp "$root/ricochet-core/target/ricochet.jar" "$work/ricochet.jar"
    cp "$root/ricochet-gms/target/ricochet-gms.jar" "$work/ricochet-gms.jar"
    cp "$root/ricochet-bench/target/ricochet-bench.jar" "$work/ricochet-bench.jar"
}

# setup_network HOSTS: the bridge and one namespace per host, recorded in $work/namespaces for cleanup.
setup_network() {
    local hosts="$1" i
    net_create_bridge "$work"
    for i in $(seq 1 "$hosts"); do
        net_add_host "$work" "$(host_ns "$i")" "p$i" "$subnet.$i"
    done
    log "namespaces up: $(run_namespaces "$work" | tr '\n' ' ')"
}

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

# cleanup: the EXIT trap: stops every process started (newest first), deletes the namespaces, removes $work.
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

# make_credentials: unless INSECURE=1, the run's cluster key ($work/cluster.key, by 'ricochet keygen') and its CA
# with the certificates of the GMS (gms-1) and the receiving daemon (node-1) in $work/certs (scripts/certs); the
# generators' certificates are made as they start (generator_cert).
make_credentials() {
    ((INSECURE == 0)) || { log "INSECURE=1: no cluster key, no TLS (the insecure variant)"; return 0; }
    java -Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$work/ricochet.jar" keygen \
        --out "$work/cluster.key" >/dev/null || die "ricochet keygen failed"
    "$root/scripts/certs" "$work/certs" gms:gms-1 daemon:node-1 >/dev/null \
        || die "could not make the run's certificates (scripts/certs)"
    log "cluster key $work/cluster.key, certificates in $work/certs: authenticated datagrams, TLS GMS links"
}

# tls_of NAME: the --tls-cert/--tls-key/--tls-ca options of NAME's certificate (from make_credentials), one a line.
tls_of() {
    printf '%s\n' --tls-cert "$work/certs/$1.pem" --tls-key "$work/certs/$1.key" --tls-ca "$work/certs/ca.pem"
}

# generator_cert NODE: node-NODE's daemon certificate (the GMS takes a daemon's messages from OU=daemon,
# CN=node-<id> only), made once; nothing when INSECURE=1.
generator_cert() {
    ((INSECURE == 0)) || return 0
    [[ -s "$work/certs/node-$1.pem" ]] || "$root/scripts/certs" "$work/certs" "daemon:node-$1" >/dev/null \
        || die "could not make node-$1's certificate (scripts/certs)"
}

# experiment_begin: the checks every experiment makes, the cleanup trap, $work (/tmp/<prefix's letters>-work.*),
# $out, the jars, the cluster key and certificates (make_credentials), the quiet wait, the load average at the start
# ($work/loadavg-start).
experiment_begin() {
    require_root
    command -v python3 >/dev/null || die "needs python3"
    trap cleanup EXIT INT TERM
    work="$(mktemp -d "/tmp/${prefix%%[0-9]*}-work.XXXXXX")"
    mkdir -p "$out"
    build_jars
    make_credentials
    [[ -z "$wait_quiet" ]] || await_quiet "$wait_quiet"
    cut -d' ' -f1-3 /proc/loadavg >"$work/loadavg-start"
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

# wait_file_line FILE PATTERN WHAT [SECONDS]: waits up to SECONDS (default 60) for a line matching PATTERN in FILE.
wait_file_line() {
    local file="$1" pattern="$2" what="$3" limit="${4:-60}" i
    for ((i = 0; i < limit * 10; i++)); do
        grep -q -- "$pattern" "$file" 2>/dev/null && return 0
        sleep 0.1
    done
    die "$what did not get ready within $limit s (see $file): $(tail -3 "$file" 2>/dev/null)"
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

# start_gms: one GMS replica (alone, its Raft state in the work folder) on host 1, with TLS (--insecure when
# INSECURE=1); sets $gms_pid.
start_gms() {
    local -a security=(--insecure)
    ((INSECURE == 1)) || mapfile -t security < <(tls_of gms-1)
    start_java 1 "$work/gms.log" 256m ricochet-gms.jar --bind "$subnet.1" --port "$gms_port" "${security[@]}" \
        --storage "$work/gms-data" --stats-interval 600
    gms_pid=$started
    wait_listen 1 "$gms_port" "the GMS"
}

# start_daemon LOGFILE ARGS...: the receiving daemon on host 1 (node 1), every setting at its default (LEC r=8 c=5,
# no injected loss, the cluster key and its TLS certificate; insecure = on when INSECURE=1) but addressing, ARGS
# added to its command line, and then DAEMON_ARGS if set (daemon flags, e.g. "--receive-thread off", recorded as
# non-default settings); sets $daemon_pid.
start_daemon() {
    local logfile="$1" extra=()
    shift
    if [[ -n "${DAEMON_ARGS:-}" ]]; then
        read -r -a extra <<<"$DAEMON_ARGS"
        set -- "$@" "${extra[@]}"
    fi
    if [[ "$SINK_API" == unix ]]; then
        set -- --api-unix-socket "$work/api.sock" "$@"
    fi
    local -a security=(--insecure on)
    if ((INSECURE == 0)); then
        mapfile -t security < <(tls_of node-1)
        security+=(--key-file "$work/cluster.key")
    fi
    start_java 1 "$logfile" 2g ricochet.jar daemon --node-id 1 --interface v0 --address "$subnet.1" \
        --unicast-port "$unicast_port" --gms "$subnet.1:$gms_port" --api-tcp on --api-port "$api_port" \
        "${security[@]}" "$@"
    daemon_pid=$started
    wait_listen 1 "$api_port" "the daemon's API"
}

# start_sink LOGFILE PROGRESS REPORT GROUPS [SINK_ARGS...]: the sink application on host 1, joined to GROUPS
# through the daemon's API, writing its running totals to PROGRESS (none if empty) and its report to REPORT, with
# SINK_ARGS added to its command line (e.g. --expect, --grace, --daemon-stats, --daemon-pid, --sample-ms); sets
# $sink_pid.
start_sink() {
    local logfile="$1" progress="$2" report="$3" groups="$4"
    shift 4
    if [[ -n "$progress" ]]; then
        set -- --progress "$progress" "$@"
    fi
    local api="127.0.0.1:$api_port"
    [[ "$SINK_API" == tcp ]] || api="unix:$work/api.sock"
    start_java 1 "$logfile" 1g ricochet-bench.jar sink --api "$api" --groups "$groups" \
        --out "$report" "$@"
    sink_pid=$started
    wait_file_line "$logfile" "sink: joined" "the sink"
}

# launch_generators STEP_DIR FIRST_NODE SENDERS GROUPS LOAD_ARGS...: one load generator on each of hosts
# 2 .. SENDERS+1, node ids FIRST_NODE+2 .., sending 1 KB packets round-robin over GROUPS as LOAD_ARGS say (a rate
# and a time, or a schedule), reporting to STEP_DIR/load-hH.json, authenticated as a daemon (the cluster key, a
# daemon certificate for its node id; --insecure when INSECURE=1), then GENERATOR_ARGS if set (e.g. "--run 16
# --gso"). No receiver shares a generator's host, so their multicast is not looped back. Waits until all send; sets
# $gens (PIDs) and $gen_roles (load-hH=PID).
launch_generators() {
    local step_dir="$1" first_node="$2" senders="$3" groups="$4" h node
    local -a extra=() security
    shift 4
    if [[ -n "${GENERATOR_ARGS:-}" ]]; then
        read -r -a extra <<<"$GENERATOR_ARGS"
    fi
    gens=()
    gen_roles=()
    for ((h = 2; h < 2 + senders; h++)); do
        node=$((first_node + h))
        security=(--insecure)
        if ((INSECURE == 0)); then
            generator_cert "$node"
            mapfile -t security < <(tls_of "node-$node")
            security+=(--key-file "$work/cluster.key")
        fi
        start_java "$h" "$step_dir/load-h$h.log" 1g ricochet-bench.jar load --node-id "$node" "${security[@]}" \
            --interface v0 --address "$subnet.$h" --unicast-port "$unicast_port" --gms "$subnet.1:$gms_port" \
            --groups "$groups" --payload 1024 --out "$step_dir/load-h$h.json" --no-multicast-loop "$@" \
            ${extra[@]+"${extra[@]}"}
        gens+=("$started")
        gen_roles+=("load-h$h=$started")
    done
    for ((h = 2; h < 2 + senders; h++)); do
        wait_file_line "$step_dir/load-h$h.log" "sending" "load generator on host $h" 120
    done
}

# start_generators STEP_DIR FIRST_NODE SENDERS RATE GROUPS ARGS...: launch_generators with each generator sending
# RATE/SENDERS packets/s until stopped (stop_generators); ARGS added to each command line.
start_generators() {
    local step_dir="$1" first_node="$2" senders="$3" rate="$4" groups="$5" per_sender
    shift 5
    per_sender=$(python3 -c "print(round($rate / $senders, 3))")
    launch_generators "$step_dir" "$first_node" "$senders" "$groups" \
        --rate "$per_sender" --seconds "$max_send_seconds" "$@"
}

# stop_generators STEP_DIR SENDERS: SIGTERM to every generator (they report and leave their groups), waits for
# them, and fails if one wrote no report.
stop_generators() {
    local step_dir="$1" senders="$2" pid h
    for pid in "${gens[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${gens[@]}"; do
        stop_pid "$pid" 30
    done
    for ((h = 2; h < 2 + senders; h++)); do
        [[ -s "$step_dir/load-h$h.json" ]] || die "the load generator on host $h wrote no report:" \
            "$(tail -5 "$step_dir/load-h$h.log")"
    done
}

# daemon_stats FILE: the daemon's counters, as ricochet stats --json prints them. Tried up to 3 times: on a busy
# machine the client's JVM may not say HELLO within the API's 5 s, and the daemon then closes the connection.
daemon_stats() {
    local try
    for try in 1 2 3; do
        if ip netns exec "$(host_ns 1)" java -Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
            -jar "$work/ricochet.jar" stats --json --api "127.0.0.1:$api_port" >"$1"; then
            return 0
        fi
        log "ricochet stats failed (try $try of 3)"
    done
    die "ricochet stats failed 3 times"
}

# snapshot DIR SINK_PROGRESS PIDS...: kernel, CPU, memory and sink readings at one instant (the daemon's counters
# are taken apart, by daemon_stats).
snapshot() {
    local dir="$1" progress="$2" pid
    shift 2
    mkdir -p "$dir"
    date +%s.%N >"$dir/time"
    for pid in "$@"; do
        cat "/proc/$pid/stat" >"$dir/proc-$pid" 2>/dev/null || true
    done
    cat "/proc/$daemon_pid/task/"*/stat >"$dir/daemon-threads" 2>/dev/null || true
    cat "/proc/$daemon_pid/status" >"$dir/daemon-status" 2>/dev/null || true
    head -1 /proc/stat >"$dir/cpu"
    cat /proc/loadavg >"$dir/loadavg"
    ip netns exec "$(host_ns 1)" cat /proc/net/snmp >"$dir/snmp"
    # Netty's epoll sockets are IPv6 dual-stack: the daemon's sockets are listed in udp6, v4-mapped.
    ip netns exec "$(host_ns 1)" cat /proc/net/udp /proc/net/udp6 >"$dir/udp-sockets"
    cp "$progress" "$dir/sink-progress.json"
}

# measure_window STEP_DIR SECONDS SINK_PROGRESS PIDS...: readings around a window of SECONDS: /proc snapshots
# (before, after) inside the daemon's counters (stats-before, stats-after), inside wider snapshots (wide-before,
# wide-after) for the kernel's drop counters. The counters' interval is timed by the daemon's own stamps in the two
# stats replies (takenAtNs); the .time files say only when each `ricochet stats` returned (statsToolSeconds).
measure_window() {
    local step_dir="$1" seconds="$2" progress="$3"
    shift 3
    snapshot "$step_dir/wide-before" "$progress" "$@"
    daemon_stats "$step_dir/stats-before.json"
    date +%s.%N >"$step_dir/stats-before.time"
    snapshot "$step_dir/before" "$progress" "$@"
    sleep "$seconds"
    snapshot "$step_dir/after" "$progress" "$@"
    daemon_stats "$step_dir/stats-after.json"
    date +%s.%N >"$step_dir/stats-after.time"
    snapshot "$step_dir/wide-after" "$progress" "$@"
}

# configuration_line: how Ricochet was configured, as every table records it (test_bed.py's configuration()).
configuration_line() {
    PYTHONPATH="$root/scripts/lib" python3 -c 'from test_bed import configuration; print(configuration())'
}

# cpu_model: the host's CPU model name, for the record.
cpu_model() {
    awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo
}
