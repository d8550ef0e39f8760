# shellcheck shell=bash
# The part every launcher shares (scripts/ricochet, ricochet-gms, ricochet-fd, bench): find the repository root
# and java, (re)build the module's jar when it is missing or older than any source or pom it is built from, and
# exec the JVM so that signals (SIGTERM) reach it. Sourced, never run:
#
#   source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/launcher.sh"
#   launch NAME JAR "MODULES" OPTS_VARIABLE DEFAULT_OPTS "$@"
#
# NAME prefixes every message; JAR is relative to the repository root; MODULES are the modules whose sources and
# poms make the jar (the first is the one built, with -am); OPTS_VARIABLE names the environment variable whose
# value (word-split: several JVM options) replaces DEFAULT_OPTS.

launcher_root="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# launcher_java and run_jar: shared with the release's launchers.
source "$launcher_root/scripts/lib/run-jar.sh"

# Builds JAR with Maven if it is missing or older than a source or pom of MODULES (or the root pom).
launcher_build() {
    local name="$1" jar="$2" modules="$3"
    local sources=("$launcher_root/pom.xml") module stale=""
    for module in $modules; do
        sources+=("$launcher_root/$module/src/main" "$launcher_root/$module/pom.xml")
    done
    if [[ -f "$jar" ]]; then
        stale="$(find "${sources[@]}" -newer "$jar" -type f -print -quit 2>/dev/null || true)"
    fi
    if [[ -f "$jar" && -z "$stale" ]]; then
        return
    fi
    if ! command -v mvn >/dev/null 2>&1; then
        echo "$name: $jar is missing and mvn was not found to build it:" \
            "install Maven 3.8+ and a Java 17 JDK (e.g. 'apt-get install maven openjdk-17-jdk-headless')" >&2
        exit 127
    fi
    echo "$name: building $jar (first run or sources changed; takes a minute) ..." >&2
    # Maven 3.8 as Debian packages it (with jansi 2) writes ANSI resets (ESC[0m) even with -B and
    # style.color=never: every SGR sequence is stripped, so its messages read as plain text. The launchers run
    # with pipefail, so a failed build still stops them with Maven's exit status.
    (cd "$launcher_root" && mvn -q -B -Dstyle.color=never -DskipTests -pl "${modules%% *}" -am package 2>&1) \
        | sed $'s/\e\\[[0-9;]*m//g' >&2
}

launch() {
    local name="$1" jar="$launcher_root/$2" modules="$3" opts_variable="$4" default_opts="$5"
    shift 5
    launcher_java "$name" >/dev/null
    launcher_build "$name" "$jar" "$modules"
    run_jar "$name" "$jar" "$opts_variable" "$default_opts" "$@"
}
