# shellcheck shell=bash disable=SC2153
# scripts/cluster run-workload: the paper's (n, d, s) workload through every node's local API ('ricochet
# workload' in each host namespace), optional nftables loss on the links, then one summary of the exactly-once
# check, the daemons' counters and the kernel's UDP counters. Sourced; needs the other cluster-*.sh.

PROGRESS_SECONDS="${RICOCHET_CLUSTER_PROGRESS:-5}"

# daemons_restart DIR LOSS WHY: restarts every daemon with --inject-loss LOSS (their old logs are kept aside),
# then waits until the failure detectors, which saw each daemon go, report it alive again.
daemons_restart() {
    local dir="$1" loss="$2" why="$3" k stamp
    stamp="$(date +%H%M%S)"
    say "restarting the daemons ($why)"
    proc_stop "$dir" 'node-*'
    for ((k = 1; k <= RC_NODES; k++)); do
        [[ ! -f "$dir/logs/node-$k.log" ]] || mv "$dir/logs/node-$k.log" "$dir/logs/node-$k.before-$stamp.log"
    done
    RC_INJECT_LOSS="$loss" RC_WORKLOADS=0
    state_save "$dir"
    daemons_start "$dir"
    sleep 1
    fd_wait_alive "$dir" 30
}

# fd_failed_nodes DIR: the nodes whose latest verdict is FAILED, in the logs of the rack detectors and of the
# standby (fd-standby-1.log), which watches a rack once its detector failed (a rack may also go to the next
# rack's detector): the verdicts of all of them, ordered by their log time (HH:MM:SS.mmm; in a run that crosses
# midnight the verdicts of that moment may be misordered). A detector that takes a daemon over logs its first
# answer as RECOVERED, so a daemon failed by its old detector counts as alive once its new one hears it.
fd_failed_nodes() {
    local dir="$1" log
    local -a logs=()
    for log in "$dir"/logs/fd-rack-*.log "$dir/logs/fd-standby-1.log"; do
        [[ ! -f "$log" ]] || logs+=("$log")
    done
    ((${#logs[@]} > 0)) || return 0
    { grep -hoE '^[0-9:.]+ .* node [0-9]+ \([0-9.:]+\) (FAILED|RECOVERED)' "${logs[@]}" 2>/dev/null || true; } \
        | LC_ALL=C sort -s -k1,1 \
        | awk '{ verdict[$(NF - 2)] = $NF } END { for (k in verdict) if (verdict[k] == "FAILED") print k }' \
        | sort -n | tr '\n' ' '
    return 0
}

# fd_wait_alive DIR SECONDS: waits until no rack detector (nor the standby) holds a daemon for failed.
fd_wait_alive() {
    local dir="$1" timeout="$2" deadline failed
    deadline=$((SECONDS + timeout))
    while failed="$(fd_failed_nodes "$dir")" && [[ -n "$failed" ]]; do
        ((SECONDS < deadline)) || die "the failure detectors still hold node(s) ${failed}for failed after" \
            "${timeout}s; see $dir/logs/fd-rack-*.log and fd-standby-1.log"
        sleep 0.5
    done
}

# require_daemons DIR: every daemon of the run is running.
require_daemons() {
    local dir="$1" k
    for ((k = 1; k <= RC_NODES; k++)); do
        proc_alive "$dir" "node-$k" || die "the daemon of node $k is not running (see $dir/logs/node-$k.log;" \
            "'scripts/cluster status'); restart the cluster with 'scripts/cluster down' and 'scripts/cluster up'"
    done
}

# kernel_snapshot WL WHEN: every host's and the svc namespace's UDP counters into WL/udp-WHEN-NAME.txt.
kernel_snapshot() {
    local wl="$1" when="$2" k
    for ((k = 1; k <= RC_NODES; k++)); do
        udp_counters "$(node_ns "$k")" >"$wl/udp-$when-$k.txt"
    done
    udp_counters "$(svc_ns)" >"$wl/udp-$when-svc.txt"
}

# kernel_json WL NFT: WL/kernel.json: per namespace (node id or "svc"), the change of each UDP counter between
# the two snapshots, plus the packets nftables dropped there.
kernel_json() {
    local wl="$1" nft="$2" name drops sep=""
    {
        printf '{'
        for name in $(seq 1 "$RC_NODES") svc; do
            drops=0
            if [[ -n "$nft" && "$name" != svc ]]; then
                drops="$(nft_loss_count "$(node_ns "$name")")"
            fi
            printf '%s\n  "%s": {' "$sep" "$name"
            awk 'NR == FNR {before[$1] = $2; next} {printf "\"%s\": %d, ", $1, $2 - before[$1]}' \
                "$wl/udp-before-$name.txt" "$wl/udp-after-$name.txt"
            printf '"nftDrops": %d}' "$drops"
            sep=","
        done
        printf '\n}\n'
    } >"$wl/kernel.json"
}

# workload_progress DIR: one line summing every node's last progress line.
workload_progress() {
    local dir="$1" k line sent=0 delivered=0 lost=0 s d l
    for ((k = 1; k <= RC_NODES; k++)); do
        line="$(grep -oE 'progress: sent [0-9]+, delivered [0-9]+, lost [0-9]+' "$dir/logs/workload-node-$k.log" \
            2>/dev/null | tail -n 1 || true)"
        [[ -n "$line" ]] || continue
        read -r s d l < <(tr -cs '0-9' ' ' <<<"$line")
        sent=$((sent + s)) delivered=$((delivered + d)) lost=$((lost + l))
    done
    printf 'sent %d, delivered %d, lost notices %d' "$sent" "$delivered" "$lost"
}

# workload_cleanup: the trap of an interrupted run-workload: stop the clients, remove the nftables rules.
workload_cleanup() {
    local status=$? k
    trap - EXIT INT TERM
    if [[ -n "${WL_ACTIVE:-}" ]]; then
        warn "run-workload interrupted: stopping the workload clients"
        proc_stop "$RUN_DIR" 'workload-*'
        for ((k = 1; k <= RC_NODES; k++)); do
            nft_loss_off "$(node_ns "$k")"
        done
    fi
    exit "$((status == 0 ? 130 : status))"
}

cmd_run_workload() {
    local groups="" degree="" rate=50 seconds=10 ramp="" payload=1023 seed=1 settle=5 loss="" nft="" run_dir=""
    local reuse=0
    while (($# > 0)); do
        case "$1" in
            --groups) need_value "$1" $#; groups="$2"; shift 2 ;;
            --degree) need_value "$1" $#; degree="$2"; shift 2 ;;
            --rate) need_value "$1" $#; rate="$2"; shift 2 ;;
            --seconds) need_value "$1" $#; seconds="$2"; shift 2 ;;
            --ramp) need_value "$1" $#; ramp="$2"; shift 2 ;;
            --payload) need_value "$1" $#; payload="$2"; shift 2 ;;
            --seed) need_value "$1" $#; seed="$2"; shift 2 ;;
            --settle) need_value "$1" $#; settle="$2"; shift 2 ;;
            --inject-loss) need_value "$1" $#; loss="$2"; shift 2 ;;
            --nft-loss) need_value "$1" $#; nft="$2"; shift 2 ;;
            --run-dir) need_value "$1" $#; run_dir="$2"; shift 2 ;;
            --reuse-daemons) reuse=1; shift ;;
            -h | --help) command_usage run-workload; return 0 ;;
            *) usage_error "run-workload: unknown option '$1'" ;;
        esac
    done
    [[ -n "$groups" && -n "$degree" ]] || usage_error "run-workload needs --groups G and --degree D"
    need_int --groups "$groups" 1 65535
    need_int --degree "$degree" 1 "$groups"
    # A workload that sends nothing checks nothing: its verdict could only be NOTHING_CHECKED.
    need_positive --rate "$rate" "no message would be sent"
    need_positive --seconds "$seconds" "no message would be sent"
    need_number --settle "$settle"
    [[ -n "$ramp" ]] || ramp="$(awk -v s="$seconds" 'BEGIN {print (s < 3 ? s : 3)}')"
    need_number --ramp "$ramp"
    awk -v r="$ramp" -v s="$seconds" 'BEGIN {exit !(r <= s)}' || usage_error "--ramp $ramp: must not exceed --seconds"
    need_int --payload "$payload" 44 65000
    need_int --seed "$seed" 0 2147483647
    [[ -z "$nft" ]] || need_int --nft-loss "$nft" 0 1000
    JAVA="$(java_cmd)"
    # By the daemon's own rules, before any daemon is stopped for it (a typo once left a cluster without daemons).
    [[ -z "$loss" ]] || check_daemon_flags --inject-loss --node-id 1 --inject-loss "$loss"
    require_root
    require_tool ip iproute2 "scripts/cluster"
    [[ -z "$nft" ]] || require_tool nft nftables "--nft-loss"
    load_run "$run_dir"
    require_daemons "$RUN_DIR"
    # The plan (groups of every node) is made, and so checked, before any daemon is restarted.
    local wl k rc=0 next status tag
    local -a node_groups=()
    wl="$RUN_DIR/workload-$(date +%Y%m%d-%H%M%S)"
    tag="$(date +%s%N)"
    mkdir -p "$wl/logs"
    "$JAVA" -jar "$CORE_JAR" workload --make-plan --nodes "$RC_NODES" --total-groups "$groups" --degree "$degree" \
        --seed "$seed" --out "$wl/plan.json" >"$wl/plan.txt" || die "could not make the plan (see above)"
    while read -r k next; do
        node_groups[k]="$next"
    done <"$wl/plan.txt"
    if [[ -n "$loss" && "$loss" != "$RC_INJECT_LOSS" ]]; then
        daemons_restart "$RUN_DIR" "$loss" "for --inject-loss $loss; they ran with $RC_INJECT_LOSS"
    elif ((${RC_WORKLOADS:-0} > 0 && !reuse)); then
        # Every workload starts from the same state: fresh streams, caches and counters. (Before the daemons
        # continued a sender's seqnos across a leave and a rejoin, reused daemons also broke the check.)
        daemons_restart "$RUN_DIR" "$RC_INJECT_LOSS" \
            "they ran a workload already: fresh streams for a clean check; --reuse-daemons skips this"
    fi
    fd_wait_alive "$RUN_DIR" 30
    RC_WORKLOADS=$((${RC_WORKLOADS:-0} + 1))
    state_save "$RUN_DIR"
    say "workload in $wl: $RC_NODES nodes each in $degree of $groups groups, $rate msg/s per node for ${seconds}s," \
        "$payload-byte payloads, injected loss $RC_INJECT_LOSS${nft:+, nftables loss $nft per mille}"


    WL_ACTIVE=1
    trap workload_cleanup EXIT INT TERM
    if [[ -n "$nft" ]]; then
        for ((k = 1; k <= RC_NODES; k++)); do
            nft_loss_on "$(node_ns "$k")" "$nft"
        done
    fi
    kernel_snapshot "$wl" before
    for ((k = 1; k <= RC_NODES; k++)); do
        java_in "$RUN_DIR" "workload-node-$k" "$(node_ns "$k")" "$WORKLOAD_NICE" "$WORKLOAD_JAVA_OPTS" "$CORE_JAR" \
            workload --api "127.0.0.1:$API_PORT" --node "$k" --groups "${node_groups[k]}" --rate "$rate" \
            --seconds "$seconds" --ramp-seconds "$ramp" --payload "$payload" --seed "$((seed * 1000 + k))" \
            --tag "$tag" --settle-seconds "$settle" --start-file "$wl/go" --out "$wl/node-$k.json"
    done
    for ((k = 1; k <= RC_NODES; k++)); do
        wait_for_line "$RUN_DIR" "workload-node-$k" "joined [0-9]+ group" "$START_TIMEOUT" "that it joined its groups"
    done
    # Every daemon is in its groups; let the GMS's pushes of the last joins reach every member, then start.
    sleep 1
    touch "$wl/go"
    say "all $RC_NODES nodes joined their groups; sending for ${seconds}s, then settling until deliveries stop for ${settle}s"
    local -a pids=()
    for ((k = 1; k <= RC_NODES; k++)); do
        pids+=("$(proc_pid "$RUN_DIR" "workload-node-$k")")
    done
    local start=$SECONDS
    while :; do
        local running=0
        for k in "${pids[@]}"; do
            pid_alive "$k" && running=$((running + 1))
        done
        ((running > 0)) || break
        sleep "$PROGRESS_SECONDS"
        say "  +$((SECONDS - start))s: $(workload_progress "$RUN_DIR") ($running node(s) running)"
    done
    for ((k = 1; k <= RC_NODES; k++)); do
        status=0
        wait "${pids[k - 1]}" || status=$?
        cp "$RUN_DIR/logs/workload-node-$k.log" "$wl/logs/" 2>/dev/null || true
        if ((status != 0)); then
            warn "the workload of node $k failed (exit $status): $(tail -n 1 "$wl/logs/workload-node-$k.log")"
            rc=1
        fi
    done
    proc_stop "$RUN_DIR" 'workload-*'
    kernel_snapshot "$wl" after
    kernel_json "$wl" "$nft"
    if [[ -n "$nft" ]]; then
        for ((k = 1; k <= RC_NODES; k++)); do
            nft_loss_off "$(node_ns "$k")"
        done
    fi
    WL_ACTIVE=""
    trap - EXIT INT TERM

    say "summary of $wl:"
    status=0
    "$JAVA" -jar "$CORE_JAR" workload --summarize "$wl" --out "$wl/summary.json" | tee "$wl/summary.txt" \
        || status=$?
    say "written: $wl/summary.json (table: summary.txt; per node: node-K.json, logs/)"
    ((status == 0)) || rc=1
    return "$rc"
}
