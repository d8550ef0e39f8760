"""How the daemon experiments' test bed carried the load of a step (scripts/lib/throughput_step.py records it)."""
import os

# The environment variables that change a daemon experiment (scripts/lib/daemon-experiment.sh).
SETTINGS = ("DAEMON_ARGS", "DAEMON_JAVA_OPTS", "GENERATOR_ARGS", "SINK_API", "RC_MCAST_SNOOPING")


def environment():
    """The experiment's settings given in the environment, for the summary (the command line does not show them)."""
    return {k: os.environ[k] for k in SETTINGS if os.environ.get(k)}


def test_bed(step):
    """One line: the generators' way of sending, whether the bridge snooped IGMP or flooded every group, and how
    the sink reached the daemon's API."""
    return "Generators: %s; bridge: %s; sink on the API's %s." % (
        " / ".join(step.get("generatorSending") or ["round-robin"]),
        "IGMP snooping (each group forwarded to the hosts that joined it)" if step.get("bridgeSnooping")
        else "every group flooded to every host",
        "Unix domain socket" if step.get("sinkApi") == "unix" else "loopback TCP")
