# shellcheck shell=bash
# Finding java and running a jar, shared by the source tree's launchers (scripts/lib/launcher.sh) and the release's
# (bin/ricochet, bin/ricochet-gms, bin/ricochet-fd, which find it in the release's lib/). Sourced, never run:
#
#   run_jar NAME JAR OPTS_VARIABLE DEFAULT_OPTS "$@"
#
# NAME prefixes every message; OPTS_VARIABLE names the environment variable whose value (word-split: several JVM
# options) replaces DEFAULT_OPTS.

# The java to run: JAVA_HOME's, else the one on PATH; exits 127 with what to install if there is none.
launcher_java() {
    local name="$1"
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
        echo "$JAVA_HOME/bin/java"
    elif command -v java >/dev/null 2>&1; then
        echo "java"
    else
        echo "$name: java not found: install a Java 17 (or newer) runtime," \
            "e.g. 'apt-get install openjdk-17-jre-headless', or set JAVA_HOME" >&2
        exit 127
    fi
}

# Execs the JVM on JAR, so that signals (SIGTERM) reach it.
run_jar() {
    local name="$1" jar="$2" opts_variable="$3" default_opts="$4"
    shift 4
    local java
    java="$(launcher_java "$name")"
    if [[ ! -f "$jar" ]]; then
        echo "$name: $jar is missing: reinstall Ricochet" >&2
        exit 127
    fi
    local opts="${!opts_variable:-$default_opts}"
    # Word splitting of the options is intended: they may hold several JVM options.
    # shellcheck disable=SC2086
    exec "$java" $opts -jar "$jar" "$@"
}
