package io.ricochet.gms;

import io.ricochet.control.codec.Ipv4;
import io.ricochet.control.link.Partitioning;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@link MembershipState} as bytes, for the Raft snapshots of a partition: {@code "RGMS"}, a version, the
 * partition (index and count: a snapshot of another partitioning is refused), the highest view id, then every
 * registration, every group (protocol, view id, members with their registrations), every failed node with the
 * groups it is to be put back into, and the rack assignments (each daemon's rack and heartbeat address, each
 * detector's rack, the failed detectors), each list in ascending order, so equal states give equal bytes.
 */
final class MembershipSnapshot {
    private static final int MAGIC = 0x52474D53;
    private static final int VERSION = 2;
    /** More entries in one list than any real partition holds: a corrupt file, not a reason to allocate. */
    private static final int MAX_ENTRIES = 1 << 24;

    private MembershipSnapshot() {
    }

    static void write(MembershipState state, Partitioning partitioning, DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(partitioning.index());
        out.writeInt(partitioning.count());
        out.writeLong(state.highestViewId());
        Map<Integer, Registration> registrations = new TreeMap<>(state.registrations());
        out.writeInt(registrations.size());
        for (Map.Entry<Integer, Registration> e : registrations.entrySet()) {
            out.writeInt(e.getKey());
            writeRegistration(e.getValue(), out);
        }
        out.writeInt(state.groups().size());
        for (GroupState group : state.groups().values()) {
            out.writeInt(group.group());
            out.writeByte(group.protocol());
            out.writeLong(group.viewId());
            out.writeInt(group.size());
            for (Map.Entry<Integer, Registration> m : group.members().entrySet()) {
                out.writeInt(m.getKey());
                writeRegistration(m.getValue(), out);
            }
        }
        Map<Integer, SortedMap<Integer, Integer>> failed = new TreeMap<>(state.failedNodes());
        out.writeInt(failed.size());
        for (Map.Entry<Integer, SortedMap<Integer, Integer>> e : failed.entrySet()) {
            out.writeInt(e.getKey());
            out.writeInt(e.getValue().size());
            for (Map.Entry<Integer, Integer> g : e.getValue().entrySet()) {
                out.writeInt(g.getKey());
                out.writeByte(g.getValue());
            }
        }
        RackAssignments racks = state.racks();
        out.writeInt(racks.nodes().size());
        for (Map.Entry<Integer, RackAssignments.NodeRack> e : racks.nodes().entrySet()) {
            out.writeInt(e.getKey());
            out.writeShort(e.getValue().rack());
            out.writeInt(Ipv4.toInt(e.getValue().heartbeat()));
            out.writeShort(e.getValue().heartbeat().getPort());
        }
        out.writeInt(racks.detectors().size());
        for (Map.Entry<String, Integer> e : racks.detectors().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeShort(e.getValue());
        }
        out.writeInt(racks.failedDetectors().size());
        for (String d : racks.failedDetectors()) {
            out.writeUTF(d);
        }
    }

    /** Reads a snapshot written by {@link #write} for {@code partitioning}, regions off. */
    static MembershipState read(DataInputStream in, Partitioning partitioning, MulticastPool pool)
            throws IOException {
        return read(in, partitioning, pool, RegionSettings.OFF);
    }

    /**
     * Reads a snapshot written by {@link #write} for {@code partitioning}. Regions are not in the snapshot: they
     * are a function of the groups' members, recomputed here with {@code regions}.
     */
    static MembershipState read(DataInputStream in, Partitioning partitioning, MulticastPool pool,
                                RegionSettings regions) throws IOException {
        if (in.readInt() != MAGIC || in.readInt() != VERSION) {
            throw new IOException("not a GMS snapshot of version " + VERSION);
        }
        int index = in.readInt();
        int count = in.readInt();
        if (index != partitioning.index() || count != partitioning.count()) {
            throw new IOException("the snapshot is of partition " + index + " of " + count + ", this is partition "
                    + partitioning.index() + " of " + partitioning.count());
        }
        MembershipState state = new MembershipState(partitioning, pool, in.readLong(), regions);
        int registrations = count(in);
        for (int i = 0; i < registrations; i++) {
            int node = in.readInt();
            state.restoreRegistration(node, readRegistration(in));
        }
        int groups = count(in);
        for (int i = 0; i < groups; i++) {
            int group = in.readInt();
            int protocol = in.readUnsignedByte();
            long viewId = in.readLong();
            GroupState g = new GroupState(group, protocol, state.multicastOf(group), viewId);
            int members = count(in);
            for (int m = 0; m < members; m++) {
                int node = in.readInt();
                g.restore(node, readRegistration(in));
            }
            state.restoreGroup(g);
        }
        int failed = count(in);
        for (int i = 0; i < failed; i++) {
            int node = in.readInt();
            SortedMap<Integer, Integer> parked = new TreeMap<>();
            int n = count(in);
            for (int g = 0; g < n; g++) {
                int group = in.readInt();
                parked.put(group, in.readUnsignedByte());
            }
            state.restoreFailed(node, parked);
        }
        Map<Integer, RackAssignments.NodeRack> nodeRacks = new TreeMap<>();
        int n = count(in);
        for (int i = 0; i < n; i++) {
            int node = in.readInt();
            int rack = in.readUnsignedShort();
            InetSocketAddress heartbeat = Ipv4.socketAddress(in.readInt(), in.readUnsignedShort());
            nodeRacks.put(node, new RackAssignments.NodeRack(rack, heartbeat));
        }
        Map<String, Integer> detectors = new TreeMap<>();
        n = count(in);
        for (int i = 0; i < n; i++) {
            String id = in.readUTF();
            detectors.put(id, in.readUnsignedShort());
        }
        java.util.List<String> failedDetectors = new java.util.ArrayList<>();
        n = count(in);
        for (int i = 0; i < n; i++) {
            failedDetectors.add(in.readUTF());
        }
        state.racks().restore(nodeRacks, detectors, failedDetectors);
        if (in.read() != -1) {
            throw new IOException("trailing bytes after the snapshot");
        }
        state.restoreRegions();
        return state;
    }

    private static void writeRegistration(Registration registration, DataOutputStream out) throws IOException {
        out.writeInt(Ipv4.toInt(registration.address()));
        out.writeShort(registration.address().getPort());
        out.writeLong(registration.incarnation());
    }

    private static Registration readRegistration(DataInputStream in) throws IOException {
        InetSocketAddress address = Ipv4.socketAddress(in.readInt(), in.readUnsignedShort());
        return new Registration(address, in.readLong());
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_ENTRIES) {
            throw new IOException("a list of " + n + " entries in the snapshot");
        }
        return n;
    }
}
