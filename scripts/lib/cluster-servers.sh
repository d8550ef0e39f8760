# shellcheck shell=bash disable=SC2034,SC2154
# Starting the processes of a local cluster: GMS partitions and failure detectors in the svc namespace, one
# daemon per node namespace. Sourced; needs cluster-common.sh and cluster-procs.sh.

# JVM options per kind of process; word-split on purpose (several options). Two shared cores carry a dozen JVMs:
# the servers are light (C1 only), the daemons get the optimizing compiler and ZGC. With the serial collector every
# daemon stopped for 0.4 to 1 s at once early in a run (its first young collection copying the filling packet
# stores, then a full collection at the initial metaspace threshold), heartbeat thread included; ZGC's pauses are
# under a millisecond (docs/results.md, "The delivery promise on the local cluster").
SERVER_JAVA_OPTS="${RICOCHET_CLUSTER_SERVER_JAVA_OPTS:--Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
DAEMON_JAVA_OPTS="${RICOCHET_CLUSTER_DAEMON_JAVA_OPTS:--Xms256m -Xmx512m -XX:+UseZGC -XX:MetaspaceSize=96m}"
WORKLOAD_JAVA_OPTS="${RICOCHET_CLUSTER_WORKLOAD_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
# Workload clients run niced: on a loaded machine the daemons and detectors get the CPU first, so a client's
# JVM start-up or JIT never delays a heartbeat answer past the detector's 500 ms.
WORKLOAD_NICE="${RICOCHET_CLUSTER_WORKLOAD_NICE:-10}"
START_TIMEOUT="${RICOCHET_CLUSTER_START_TIMEOUT:-90}"

# key_create DIR: the run's cluster key, DIR/cluster.key (mode 0600, key id 1): every daemon and detector of the run
# authenticates its datagrams with it (the format of 'ricochet keygen', docs/design/security.md).
key_create() {
    local file="$1/cluster.key" hex
    hex="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
    ((${#hex} == 64)) || die "could not read 32 random bytes for the cluster key"
    (umask 077 && printf '# Ricochet cluster keys: ID HEX, the send key first\n1 %s\n' "$hex" >"$file") \
        || die "cannot write $file"
}

# certs_create DIR: the run's CA and a certificate per process in DIR/certs, made by scripts/certs (the one place a CA
# is made): gms-r<r> (OU=gms), node-<k> (OU=daemon), rack-<r>, standby-1 and top-1 (OU=detector). Every control link
# of the run (daemon or detector to GMS) is mutual TLS with them, and the GMS takes each message only from the role
# allowed it.
certs_create() {
    local dir="$1" i k r
    local -a names=(detector:top-1 detector:standby-1)
    for ((i = 1; i <= ${RC_GMS_REPLICAS:-1}; i++)); do
        names+=("gms:gms-r$i")
    done
    for ((k = 1; k <= RC_NODES; k++)); do
        names+=("daemon:node-$k")
    done
    for ((r = 1; r <= RC_RACKS; r++)); do
        names+=("detector:rack-$r")
    done
    "$root/scripts/certs" "$dir/certs" "${names[@]}" || die "could not make the run's certificates (scripts/certs)"
}

# tls_args DIR NAME: the --tls-cert/--tls-key/--tls-ca options of process NAME (its files from certs_create).
tls_args() {
    printf '%s\n' --tls-cert "$1/certs/$2.pem" --tls-key "$1/certs/$2.key" --tls-ca "$1/certs/ca.pem"
}

# java_in DIR NAME NS NICE OPTS JAR ARGS...: starts a JVM tagged with this run's marker, at niceness NICE.
java_in() {
    local dir="$1" name="$2" ns="$3" niceness="$4" opts="$5" jar="$6"
    shift 6
    local -a jvm
    read -r -a jvm <<<"$opts"
    proc_start "$dir" "$name" "$ns" nice -n "$niceness" "$JAVA" "$(marker)" "${jvm[@]}" -jar "$jar" "$@"
}

# gms_start DIR: one process per GMS replica, each on its own address of the svc namespace, serving every partition
# (a Raft group of all the replicas) and keeping its Raft state in DIR/gms-r<R>.
gms_start() {
    local dir="$1" r
    local -a tls extra
    for ((r = 1; r <= RC_GMS_REPLICAS; r++)); do
        mapfile -t tls < <(tls_args "$dir" "gms-r$r")
        read -r -a extra <<<"${RC_GMS_ARGS:-}"
        # Every replica runs in the svc namespace: with --metrics-port, each serves on its own address unless told.
        if [[ " ${RC_GMS_ARGS:-} " == *" --metrics-port "* && " ${RC_GMS_ARGS:-} " != *" --metrics-address "* ]]; then
            extra+=(--metrics-address "$(gms_addr "$r")")
        fi
        java_in "$dir" "gms-$r" "$(svc_ns)" 0 "$SERVER_JAVA_OPTS" "$GMS_JAR" --partitions "$RC_GMS" \
            --replicas "$(gms_replicas)" --replica "$r" --storage "$dir/gms-r$r" --stats-interval 10 "${tls[@]}" \
            "${extra[@]}"
    done
    for ((r = 1; r <= RC_GMS_REPLICAS; r++)); do
        wait_for_line "$dir" "gms-$r" "listening" "$START_TIMEOUT" "that it listens"
    done
}

# daemon_flags K: into DAEMON_FLAGS, the 'ricochet daemon' flags of node K but its key and certificate files and
# its API socket (from RC_*: the run's settings, injected loss and --daemon-args).
daemon_flags() {
    local k="$1"
    local -a extra=()
    read -r -a extra <<<"$RC_DAEMON_ARGS"
    local rack next detectors
    rack="$(rack_of "$k")"
    # The detectors that may ping node K, as GMS partition 0 hands racks over (docs/design/failure-detection.md,
    # "Takeover"): its rack's; the standby, which takes the rack while that one is down; and the next rack's, which
    # takes it when the standby is down too (at start-up, before the standby runs, say). Their heartbeats are
    # answered only at these addresses (docs/design/security.md, "Bound to the receiver"); a detector missing here
    # gets no answer and reports the node failed.
    detectors="rack-$rack@$(rack_fd_addr "$rack"):$FD_PORT,standby-1@$(standby_fd_addr):$FD_PORT"
    next=$((rack % RC_RACKS + 1))
    ((next == rack)) || detectors+=",rack-$next@$(rack_fd_addr "$next"):$FD_PORT"
    DAEMON_FLAGS=(--node-id "$k" --rack "$rack" --interface v0 --address "$(node_addr "$k")"
        --unicast-port "$UNICAST_PORT" --api-tcp on --api-bind 127.0.0.1 --api-port "$API_PORT" --gms "$(gms_list)"
        --failure-detectors "$detectors"
        --seed "$k" --inject-loss "$RC_INJECT_LOSS" --stats-interval 10 "${extra[@]}")
}

# api_socket DIR K: node K's API Unix socket, in the run folder: unlike its TCP API (127.0.0.1 in its namespace), a
# path-bound socket is reachable from the root namespace (scripts/cluster top).
api_socket() {
    printf '%s/api/node-%s.sock\n' "$1" "$2"
}

# daemon_start DIR K: the daemon of node K in its namespace (does not wait).
daemon_start() {
    local dir="$1" k="$2" socket
    local -a tls
    mapfile -t tls < <(tls_args "$dir" "node-$k")
    socket="$(api_socket "$dir" "$k")"
    # sun_path holds 107 bytes and a NUL.
    ((${#socket} <= 107)) || die "the API socket path $socket is longer than a Unix socket allows (107 bytes):" \
        "choose a shorter --run-dir"
    mkdir -p "$dir/api"
    daemon_flags "$k"
    java_in "$dir" "node-$k" "$(node_ns "$k")" 0 "$DAEMON_JAVA_OPTS" "$CORE_JAR" daemon "${DAEMON_FLAGS[@]}" \
        --api-unix-socket "$socket" --key-file "$dir/cluster.key" "${tls[@]}"
}

# daemons_start DIR: every daemon, then waits for each one's "running" line.
daemons_start() {
    local dir="$1" k
    for ((k = 1; k <= RC_NODES; k++)); do
        daemon_start "$dir" "$k"
    done
    for ((k = 1; k <= RC_NODES; k++)); do
        wait_for_line "$dir" "node-$k" "ricochet daemon: node $k running" "$START_TIMEOUT" \
            "its 'ricochet daemon: node $k running' line"
    done
}

# fds_start DIR: one detector per rack (--rack R: the GMS lists it the daemons registered in rack R, and any rack it
# takes over), a standby (standby-1, --standby: the GMS moves to it the racks of a rack detector the top level reports
# failed, and back when it recovers) and a top-level detector watching all of them; every verdict goes to every GMS
# partition. Interval and misses from RC_FD_INTERVAL / RC_FD_MISS (100 ms, 5). Waits until each rack detector watches
# every daemon of its rack, the standby has its (empty) list, and the top-level detector pings. The rack detectors and
# the standby answer only top-1's heartbeats, at its address (--watched-by).
fds_start() {
    local dir="$1" r k count watched=""
    local -a tls
    # The standby first: until a rack's own detector runs, GMS partition 0 gives the rack to a live standby, which
    # every daemon lists; started last, the racks would go to each other's detectors meanwhile.
    mapfile -t tls < <(tls_args "$dir" standby-1)
    java_in "$dir" fd-standby-1 "$(svc_ns)" 0 "$SERVER_JAVA_OPTS" "$FD_JAR" --id standby-1 \
        --bind "$(standby_fd_addr):$FD_PORT" --standby --interval-ms "$RC_FD_INTERVAL" --miss "$RC_FD_MISS" \
        --gms "$(gms_list)" --key-file "$dir/cluster.key" "${tls[@]}" --watched-by "top-1@$(top_fd_addr):$FD_PORT"
    watched="standby-1@$(standby_fd_addr):$FD_PORT"
    for ((r = 1; r <= RC_RACKS; r++)); do
        mapfile -t tls < <(tls_args "$dir" "rack-$r")
        java_in "$dir" "fd-rack-$r" "$(svc_ns)" 0 "$SERVER_JAVA_OPTS" "$FD_JAR" --id "rack-$r" \
            --bind "$(rack_fd_addr "$r"):$FD_PORT" --rack "$r" --interval-ms "$RC_FD_INTERVAL" \
            --miss "$RC_FD_MISS" --gms "$(gms_list)" --key-file "$dir/cluster.key" "${tls[@]}" \
            --watched-by "top-1@$(top_fd_addr):$FD_PORT"
        watched+="${watched:+,}rack-$r@$(rack_fd_addr "$r"):$FD_PORT"
    done
    # The top-level detector starts once the detectors it watches answer: started beside them, it could ping
    # them before their JVMs are up and report them failed (then recovered) for nothing.
    for ((r = 1; r <= RC_RACKS; r++)); do
        count=0
        for ((k = 1; k <= RC_NODES; k++)); do
            [[ "$(rack_of "$k")" != "$r" ]] || count=$((count + 1))
        done
        wait_for_line "$dir" "fd-rack-$r" "failure detector rack-$r: watching $count daemons? \(" "$START_TIMEOUT" \
            "that it watches the $count daemon(s) of rack $r (its watch list from the GMS)"
    done
    wait_for_line "$dir" fd-standby-1 "failure detector standby-1: watching [0-9]+ daemons? \(" "$START_TIMEOUT" \
        "its first watch list from the GMS"
    mapfile -t tls < <(tls_args "$dir" top-1)
    java_in "$dir" "fd-top" "$(svc_ns)" 0 "$SERVER_JAVA_OPTS" "$FD_JAR" --id top-1 --bind "$(top_fd_addr):$FD_PORT" \
        --watch-detectors "$watched" --interval-ms "$RC_FD_INTERVAL" --miss "$RC_FD_MISS" --gms "$(gms_list)" \
        --key-file "$dir/cluster.key" "${tls[@]}"
    wait_for_line "$dir" "fd-top" "failure detector top-1 .* pinging" "$START_TIMEOUT" "that it pings"
}
