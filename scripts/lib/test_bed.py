"""How the daemon experiments' test bed carried the load of a step (scripts/lib/throughput_step.py records it)."""
import os

# The environment variables that change a daemon experiment (scripts/lib/daemon-experiment.sh).
SETTINGS = ("INSECURE", "DAEMON_ARGS", "DAEMON_JAVA_OPTS", "GENERATOR_ARGS", "SINK_API", "RC_MCAST_SNOOPING")
# Settings that make a run a named variant of Ricochet as it ships.
NON_DEFAULT = ("DAEMON_ARGS", "GENERATOR_ARGS")


def configuration():
    """How Ricochet was configured: as it ships (a cluster key, TLS links, daemon defaults) or the insecure variant,
    then any non-default daemon or generator settings."""
    text = ("insecure (INSECURE=1: no datagram authentication, plaintext GMS links)"
            if os.environ.get("INSECURE") == "1"
            else "defaults, authenticated (cluster key file, TLS GMS links)")
    extra = ["%s=%s" % (k, os.environ[k]) for k in NON_DEFAULT if os.environ.get(k)]
    return text + ("; non-default: " + ", ".join(extra) if extra else "")


def environment():
    """The experiment's settings given in the environment, for the summary (the command line does not show them)."""
    return {k: os.environ[k] for k in SETTINGS if os.environ.get(k)}


def test_bed(step):
    """One line: the configuration (as shipped, or which variant), the generators' way of sending, whether the bridge snooped IGMP or flooded every group, and how
    the sink reached the daemon's API."""
    return "Configuration: %s. Generators: %s; bridge: %s; sink on the API's %s." % (
        configuration(),
        " / ".join(step.get("generatorSending") or ["round-robin"]),
        "IGMP snooping (each group forwarded to the hosts that joined it)" if step.get("bridgeSnooping")
        else "every group flooded to every host",
        "Unix domain socket" if step.get("sinkApi") == "unix" else "loopback TCP")
