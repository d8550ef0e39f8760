# shellcheck shell=bash
# Processes of a local cluster: each runs in a namespace, detached (setsid), its stdout + stderr in
# logs/NAME.log and its PID in pids/NAME.pid. Every JVM carries -Dricochet.cluster=<prefix> on its command line,
# so a recorded PID is signalled only while it still belongs to this run (never a reused PID, never by name).
# Sourced; needs cluster-common.sh.

GRACE_SECONDS="${RICOCHET_CLUSTER_GRACE:-10}"

# marker: the command-line flag that tags every JVM of this run.
marker() {
    printf -- '-Dricochet.cluster=%s\n' "$RC_PREFIX"
}

# close_inherited_fds: closes every file descriptor of this shell above 2. Called in the subshell that becomes a
# started process, so that it holds nothing of its caller's (a lock the caller holds on fd 9 stays the caller's).
close_inherited_fds() {
    local fd
    local -a fds=()
    for fd in /proc/"$BASHPID"/fd/*; do
        fds+=("${fd##*/}")
    done
    for fd in "${fds[@]}"; do
        if ((fd > 2)) && [[ -e /proc/$BASHPID/fd/$fd ]]; then
            exec {fd}>&-
        fi
    done
}

# start_detached LOG COMMAND...: starts COMMAND in the background in a session of its own (setsid), stdin from
# /dev/null, stdout and stderr to LOG, with no other descriptor of the caller; its PID is $! (the subshell execs
# setsid, which execs COMMAND: one process throughout).
start_detached() {
    local log="$1"
    shift
    (
        close_inherited_fds
        exec setsid "$@"
    ) >"$log" 2>&1 </dev/null &
}

# proc_start DIR NAME NS COMMAND...: starts COMMAND in namespace NS in the background, detached from the
# terminal; records its PID. The PID is the command's own (ip netns exec and setsid exec, they do not fork).
proc_start() {
    local dir="$1" name="$2" ns="$3"
    shift 3
    mkdir -p "$dir/logs" "$dir/pids"
    start_detached "$dir/logs/$name.log" ip netns exec "$ns" "$@"
    printf '%s\n' "$!" >"$dir/pids/$name.pid"
}

# proc_pid DIR NAME: the recorded PID, or nothing.
proc_pid() {
    local file="$1/pids/$2.pid"
    [[ -f "$file" ]] && cat "$file"
    return 0
}

# pid_alive PID: the process exists and is not a zombie (an exited child not yet reaped).
pid_alive() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state="$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" || return 1
    [[ -n "$state" && "$state" != Z ]]
}

# is_ours PID: PID is alive and carries this run's marker.
is_ours() {
    local pid="$1"
    [[ -n "$pid" ]] && pid_alive "$pid" \
        && tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$(marker)"
}

# proc_alive DIR NAME
proc_alive() {
    is_ours "$(proc_pid "$1" "$2")"
}

# proc_names DIR [GLOB]: the names of recorded processes, optionally matching GLOB (e.g. 'node-*').
proc_names() {
    local dir="$1" glob="${2:-*}" file
    for file in "$dir"/pids/$glob.pid; do
        [[ -f "$file" ]] && basename "$file" .pid
    done
    return 0
}

# signal_and_wait GRACE PID...: SIGTERM to each PID, SIGKILL to those still alive after GRACE seconds.
signal_and_wait() {
    local grace="$1" pid deadline
    shift
    [[ $# -gt 0 ]] || return 0
    kill -TERM "$@" 2>/dev/null || true
    deadline=$((SECONDS + grace))
    while ((SECONDS < deadline)); do
        local alive=0
        for pid in "$@"; do
            pid_alive "$pid" && alive=1
        done
        ((alive)) || return 0
        sleep 0.2
    done
    for pid in "$@"; do
        if pid_alive "$pid"; then
            warn "PID $pid did not stop within ${grace}s of SIGTERM: SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
}

# proc_stop DIR GLOB: stops every recorded process matching GLOB that is still ours; removes the PID files.
proc_stop() {
    local dir="$1" glob="$2" name pid
    local -a pids=()
    for name in $(proc_names "$dir" "$glob"); do
        pid="$(proc_pid "$dir" "$name")"
        if is_ours "$pid"; then
            pids+=("$pid")
        fi
    done
    signal_and_wait "$GRACE_SECONDS" "${pids[@]}"
    for name in $(proc_names "$dir" "$glob"); do
        rm -f "$dir/pids/$name.pid"
    done
}

# ns_kill_all NS: stops every process still inside namespace NS (by the PIDs 'ip netns pids' lists).
ns_kill_all() {
    local ns="$1"
    local -a pids=()
    mapfile -t pids < <(ip netns pids "$ns" 2>/dev/null || true)
    if ((${#pids[@]} > 0)); then
        warn "namespace $ns still holds PID(s) ${pids[*]}: stopping them"
        signal_and_wait "$GRACE_SECONDS" "${pids[@]}"
    fi
}

# wait_for_line DIR NAME REGEX SECONDS WHAT: waits until NAME's log matches REGEX; fails, pointing at the log,
# if the process exits first or SECONDS pass.
wait_for_line() {
    local dir="$1" name="$2" regex="$3" timeout="$4" what="$5"
    local log="$dir/logs/$name.log" deadline=$((SECONDS + timeout))
    while ! grep -qE -- "$regex" "$log" 2>/dev/null; do
        # Alive, not "ours": just after proc_start the PID may still be the subshell that has not yet exec'd the
        # command (its cmdline without the run's marker); this script recorded the PID a moment ago, so it is no
        # other process's.
        if ! pid_alive "$(proc_pid "$dir" "$name")"; then
            tail -n 5 "$log" >&2 2>/dev/null || true
            die "$name exited before $what; see $log"
        fi
        if ((SECONDS >= deadline)); then
            tail -n 5 "$log" >&2 2>/dev/null || true
            die "$name did not report $what within ${timeout}s; see $log"
        fi
        sleep 0.2
    done
}
