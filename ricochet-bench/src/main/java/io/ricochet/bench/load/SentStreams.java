package io.ricochet.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.engine.StreamTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What the load generators say they sent, read from their JSON reports ({@link LoadReport}: {@code nodeId} and
 * {@code sentPerGroup}): packets sent per stream (origin, group), keyed by {@link StreamTable#key}, as
 * {@link DeliveryCounter#check} takes them.
 */
final class SentStreams {
    private static final ObjectMapper JSON = JsonFiles.MAPPER;

    private SentStreams() {
    }

    /**
     * Reads the reports.
     *
     * @throws IOException with the file named if one is missing, unreadable or not a load report
     */
    static Map<Long, Long> read(List<Path> reports) throws IOException {
        Map<Long, Long> sent = new HashMap<>();
        for (Path report : reports) {
            if (!Files.isRegularFile(report)) {
                throw new IOException(report + ": no such load report");
            }
            JsonNode root;
            try {
                root = JSON.readTree(report.toFile());
            } catch (IOException e) {
                throw new IOException(report + ": not valid JSON (" + e.getMessage() + ")", e);
            }
            JsonNode node = root == null ? null : root.get("nodeId");
            JsonNode groups = root == null ? null : root.get("sentPerGroup");
            if (node == null || !node.canConvertToInt() || groups == null || !groups.isObject()) {
                throw new IOException(report + ": not a bench load report (no nodeId or sentPerGroup)");
            }
            Iterator<Map.Entry<String, JsonNode>> fields = groups.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> group = fields.next();
                int id;
                try {
                    id = Integer.parseInt(group.getKey());
                } catch (NumberFormatException e) {
                    throw new IOException(report + ": group '" + group.getKey() + "' is not a group id", e);
                }
                if (!group.getValue().canConvertToLong() || group.getValue().asLong() < 0) {
                    throw new IOException(report + ": group " + id + " has no packet count");
                }
                if (sent.put(StreamTable.key(node.asInt(), id), group.getValue().asLong()) != null) {
                    throw new IOException(report + ": stream (node " + node.asInt() + ", group " + id
                            + ") is in another report too: two generators with one node id?");
                }
            }
        }
        return sent;
    }
}
