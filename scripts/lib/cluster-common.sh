# shellcheck shell=bash disable=SC2034,SC2154
# Shared helpers of scripts/cluster and scripts/demo: messages, tool checks, jars, and the state of a run.
# Sourced, never run. Expects $root (the repository root) to be set by the sourcing script.
#
# A run is one local cluster. Its folder (default runs/<timestamp>/ under the repository) holds:
#   cluster.env       the run's settings (bash assignments written by state_save, read by state_load)
#   namespaces        every namespace created, one per line, in creation order (for teardown after a failed up)
#   pids/NAME.pid     the PID of every process started (servers, daemons, workload clients)
#   logs/NAME.log     the stdout + stderr of each of them
#   workload-*/       one folder per run-workload: plan, per-node results, kernel counters, summary
# runs/current is a symlink to the run that is up, so commands without --run-dir find it.

# ---------------------------------------------------------------------------------------------------- messages

CL_NAME="${CL_NAME:-cluster}"

say() {
    printf '%s: %s\n' "$CL_NAME" "$*" >&2
}

warn() {
    printf '%s: warning: %s\n' "$CL_NAME" "$*" >&2
}

# die MESSAGE...: one line on stderr, exit 1.
die() {
    printf '%s: error: %s\n' "$CL_NAME" "$*" >&2
    exit 1
}

# usage_error MESSAGE...: bad command-line input, exit 2.
usage_error() {
    printf '%s: %s\nTry '\''%s --help'\''.\n' "$CL_NAME" "$*" "${CL_USAGE_NAME:-scripts/$CL_NAME}" >&2
    exit 2
}

# ---------------------------------------------------------------------------------------------------- options
# Every script checks all its options with these before it creates or stops anything.

# need_value OPTION ARGC: OPTION needs an argument (ARGC: the arguments left, OPTION included).
need_value() {
    (($2 >= 2)) || usage_error "$1 needs a value"
}

# need_int NAME VALUE MIN MAX
need_int() {
    local name="$1" value="$2" min="$3" max="$4"
    if ! [[ "$value" =~ ^[0-9]+$ ]] || ((10#$value < min || 10#$value > max)); then
        usage_error "$name '$value': must be an integer in $min..$max"
    fi
}

# need_number NAME VALUE: a non-negative decimal.
need_number() {
    [[ "$2" =~ ^[0-9]+([.][0-9]+)?$ ]] || usage_error "$1 '$2': must be a non-negative number"
}

# need_positive NAME VALUE WHY: a decimal above 0; WHY says what 0 would mean.
need_positive() {
    need_number "$1" "$2"
    awk -v v="$2" 'BEGIN {exit !(v > 0)}' || usage_error "$1 '$2': must be above 0 ($3)"
}

# CHECK_CLASSPATH: where check_daemon_flags finds the daemon's classes (tests point it at their own class path).
CHECK_CLASSPATH="${RICOCHET_CHECK_CLASSPATH:-}"

# check_daemon_flags WHAT FLAGS...: 'ricochet daemon' would take FLAGS (its own rules: io.ricochet.cli.
# DaemonFlagsCheck; the key and certificate files aside); otherwise a usage error naming WHAT and the reason.
# Needs JAVA and a core jar that has the check (it is never rebuilt here: running daemons may have it open).
check_daemon_flags() {
    local what="$1" reason status=0
    shift
    reason="$("${JAVA:-java}" -cp "${CHECK_CLASSPATH:-$CORE_JAR}" io.ricochet.cli.DaemonFlagsCheck "$@" 2>&1)" \
        || status=$?
    case "$status" in
        0) ;;
        2) usage_error "$what: ${reason% (flags)}" ;;
        *) die "cannot check $what by the daemon's rules (${reason%%$'\n'*}): is $CORE_JAR built and up to date?" \
            "('scripts/ricochet --version' rebuilds it; not while a cluster runs on it)" ;;
    esac
}

# ---------------------------------------------------------------------------------------------------- tools

# require_tool COMMAND PACKAGE WHAT: exits with the package to install when COMMAND is missing.
require_tool() {
    local tool="$1" package="$2" what="$3"
    if ! command -v "$tool" >/dev/null 2>&1; then
        die "'$tool' not found: $what needs it; install the '$package' package (e.g. 'apt-get install $package')"
    fi
}

# require_root: creating namespaces, veths and nftables rules needs CAP_NET_ADMIN (root, or root of a user
# namespace such as the one scripts/demo enters).
require_root() {
    if [[ "$(id -u)" != 0 ]]; then
        die "network namespaces need root: run this as root, or inside a user namespace as scripts/demo does" \
            "without root (unshare -rnm --propagation private; see docs/operations.md)"
    fi
}

# java_cmd: the java binary, as the launchers choose it.
java_cmd() {
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
        printf '%s\n' "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        printf '%s\n' java
    else
        die "java not found: install a Java 17 (or newer) runtime, e.g. 'apt-get install openjdk-17-jre-headless'," \
            "or set JAVA_HOME"
    fi
}

CORE_JAR="$root/ricochet-core/target/ricochet.jar"
GMS_JAR="$root/ricochet-gms/target/ricochet-gms.jar"
FD_JAR="$root/ricochet-fd/target/ricochet-fd.jar"

# ensure_jars: builds the three jars through their launchers when missing or stale (the launchers rebuild when a
# source is newer than the jar). Must run before entering a namespace without network.
ensure_jars() {
    local launcher
    for launcher in ricochet ricochet-gms ricochet-fd; do
        if ! "$root/scripts/$launcher" --version >/dev/null; then
            die "could not build or run scripts/$launcher (see the messages above)"
        fi
    done
}

# ---------------------------------------------------------------------------------------------------- run state

RUNS_DIR="$root/runs"
CURRENT_LINK="$RUNS_DIR/current"

# run_dir_or_current DIR: DIR made absolute, or the run runs/current points to; empty if neither.
run_dir_or_current() {
    local dir="$1"
    if [[ -n "$dir" ]]; then
        if [[ -d "$dir" ]]; then
            (cd "$dir" && pwd)
        else
            printf '%s\n' "$dir"
        fi
    elif [[ -L "$CURRENT_LINK" || -d "$CURRENT_LINK" ]]; then
        readlink -f "$CURRENT_LINK"
    fi
}

# state_save DIR: writes the RC_* settings of the run to DIR/cluster.env.
state_save() {
    local dir="$1" var
    {
        printf '# Written by scripts/cluster: the settings of this run.\n'
        for var in RC_RUN_ID RC_PREFIX RC_NODES RC_RACKS RC_GMS RC_GMS_REPLICAS RC_INJECT_LOSS RC_DAEMON_ARGS RC_GMS_ARGS \
            RC_CREATED RC_ROOT RC_MODE RC_WORKLOADS RC_FD_INTERVAL RC_FD_MISS; do
            printf '%s=%q\n' "$var" "${!var-}"
        done
    } >"$dir/cluster.env.tmp"
    mv "$dir/cluster.env.tmp" "$dir/cluster.env"
}

# state_load DIR: reads DIR/cluster.env into RC_* variables; fails if it is not a run folder.
state_load() {
    local dir="$1" line var value
    [[ -f "$dir/cluster.env" ]] || die "$dir is not a cluster run folder (no cluster.env in it)"
    while IFS= read -r line; do
        [[ "$line" =~ ^(RC_[A-Z_]+)=(.*)$ ]] || continue
        var="${BASH_REMATCH[1]}"
        # Values were written with printf %q; eval of that quoting alone restores them.
        eval "value=${BASH_REMATCH[2]}"
        printf -v "$var" '%s' "$value"
    done <"$dir/cluster.env"
    [[ "${RC_PREFIX:-}" =~ ^rc-[a-z0-9]+$ ]] || die "$dir/cluster.env has no valid RC_PREFIX"
}

# ---------------------------------------------------------------------------------------------------- topology

# Addresses on the private bridge (198.18.0.0/24, RFC 2544): node K is .K (1..199), GMS replica R is .199+R,
# the FD of rack R is .220+R, the standby FD (standby-1) is .249, the top-level FD is .250. Every server lives in
# the one "svc" namespace.
NET_PREFIX="198.18.0"
GMS_PORT=7100
GMS_RAFT_PORT=7190
FD_PORT=7200
UNICAST_PORT=7300
HEARTBEAT_PORT=7500
API_PORT=7400
MAX_NODES=199
MAX_GMS=20
MAX_GMS_REPLICAS=7
MAX_RACKS=28  # rack FD R at .220+R stays below the standby's .249

node_addr() { printf '%s.%d\n' "$NET_PREFIX" "$1"; }
gms_addr() { printf '%s.%d\n' "$NET_PREFIX" $((199 + $1)); }
rack_fd_addr() { printf '%s.%d\n' "$NET_PREFIX" $((220 + $1)); }
standby_fd_addr() { printf '%s.249\n' "$NET_PREFIX"; }
top_fd_addr() { printf '%s.250\n' "$NET_PREFIX"; }
node_ns() { printf '%s-n%d\n' "$RC_PREFIX" "$1"; }
svc_ns() { printf '%s-svc\n' "$RC_PREFIX"; }
bridge_ns() { printf '%s-br\n' "$RC_PREFIX"; }

# rack_of K: racks are contiguous blocks of nodes, sizes differing by at most one, none empty (racks <= nodes).
rack_of() {
    printf '%d\n' $((($1 - 1) * RC_RACKS / RC_NODES + 1))
}

# gms_list: the daemons' and detectors' --gms: every partition in partition order (','), each as its replicas'
# host:port ('/'); replica R serves partition I on GMS_PORT + I.
gms_list() {
    local i r list="" replicas
    for ((i = 0; i < RC_GMS; i++)); do
        replicas=""
        for ((r = 1; r <= ${RC_GMS_REPLICAS:-1}; r++)); do
            replicas+="${replicas:+/}$(gms_addr "$r"):$((GMS_PORT + i))"
        done
        list+="${list:+,}$replicas"
    done
    printf '%s\n' "$list"
}

# gms_replicas: ricochet-gms --replicas: ID=HOST:PORT:RAFTPORT of every replica.
gms_replicas() {
    local r list=""
    for ((r = 1; r <= ${RC_GMS_REPLICAS:-1}; r++)); do
        list+="${list:+,}$r=$(gms_addr "$r"):$GMS_PORT:$GMS_RAFT_PORT"
    done
    printf '%s\n' "$list"
}

# ---------------------------------------------------------------------------------------------------- verdicts

# fd_verdicts DIR: every verdict in the run's failure detector logs (logs/fd-*.log), one line each: TIME KIND NAME
# VERDICT, KIND node or detector, VERDICT FAILED or RECOVERED. A daemon's first answer to a detector that takes it
# over, logged as RECOVERED so that its latest verdict reads alive, is no verdict on it and is left out.
fd_verdicts() {
    local dir="$1"
    { grep -hE '^[0-9:.]+ .* (node|detector) [^ ]+ \([^)]*\) (FAILED|RECOVERED)' "$dir"/logs/fd-*.log 2>/dev/null \
        || true; } | { grep -v 'first answer since the GMS listed it' || true; } \
        | sed -E 's/^([0-9:.]+) .* (node|detector) ([^ ]+) \([^)]*\) (FAILED|RECOVERED).*/\1 \2 \3 \4/' \
        | LC_ALL=C sort -s -k1,1
    return 0
}

# fd_verdict_summary DIR: one line counting the verdicts of fd_verdicts, 0 when none, naming who failed.
fd_verdict_summary() {
    fd_verdicts "$1" | awk '
        { count[$2 " " $4]++ }
        $4 == "FAILED" { failed[$2] = failed[$2] " " $3 }
        END {
            printf "failure detector verdicts: %d node failed%s, %d node recovered, %d detector failed%s, " \
                "%d detector recovered\n", count["node FAILED"], failed["node"] ? " (" substr(failed["node"], 2) ")" : "",
                count["node RECOVERED"], count["detector FAILED"],
                failed["detector"] ? " (" substr(failed["detector"], 2) ")" : "", count["detector RECOVERED"]
        }'
}
