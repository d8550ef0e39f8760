"""How the daemon experiments' test bed carried the load of a step (scripts/lib/throughput_step.py records it)."""


def test_bed(step):
    """One line: the generators' way of sending, whether the bridge snooped IGMP or flooded every group, and how
    the sink reached the daemon's API."""
    return "Generators: %s; bridge: %s; sink on the API's %s." % (
        " / ".join(step.get("generatorSending") or ["round-robin"]),
        "IGMP snooping (each group forwarded to the hosts that joined it)" if step.get("bridgeSnooping")
        else "every group flooded to every host",
        "Unix domain socket" if step.get("sinkApi") == "unix" else "loopback TCP")
