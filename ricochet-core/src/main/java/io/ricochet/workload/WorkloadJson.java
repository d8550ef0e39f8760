package io.ricochet.workload;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.api.NodeStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The JSON shapes the workload files share, and reading and writing them. Seqno sets are arrays of
 * {@code [first, last]} ranges; streams are arrays of {@code {"origin", "group", "count", "seqnos"}}; a
 * violation log is {@code {"count", "first": [...]}}. Reading trusts nothing: a missing or ill-typed field is an
 * {@link IllegalArgumentException} that names it.
 */
public final class WorkloadJson {
    /** The mapper every workload file is written and read with (indented output). */
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private WorkloadJson() {
    }

    /** Writes {@code json} to {@code file} through a temporary file, so readers never see half a file. */
    public static void write(Path file, JsonNode json) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            MAPPER.writeValue(tmp.toFile(), json);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a JSON file.
     *
     * @throws IllegalArgumentException if it cannot be read or is not JSON
     */
    public static JsonNode read(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": not a readable JSON file (" + e.getMessage() + ")");
        }
    }

    /** The field {@code name} of {@code node}; throws if missing. */
    static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    static long longField(JsonNode node, String name) {
        JsonNode value = field(node, name);
        if (!value.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + name + "' is not an integer: " + value);
        }
        return value.asLong();
    }

    static int intField(JsonNode node, String name) {
        long value = longField(node, name);
        if (value != (int) value) {
            throw new IllegalArgumentException("field '" + name + "' is out of range: " + value);
        }
        return (int) value;
    }

    static List<Integer> intList(JsonNode node, String name) {
        List<Integer> out = new ArrayList<>();
        for (JsonNode item : array(node, name)) {
            if (!item.canConvertToInt()) {
                throw new IllegalArgumentException("field '" + name + "' holds a non-integer: " + item);
            }
            out.add(item.asInt());
        }
        return out;
    }

    static JsonNode array(JsonNode node, String name) {
        JsonNode value = field(node, name);
        if (!value.isArray()) {
            throw new IllegalArgumentException("field '" + name + "' is not an array");
        }
        return value;
    }

    /** A daemon's stats (or null / missing). */
    static NodeStats stats(JsonNode node) {
        try {
            return node == null || node.isNull() ? null : MAPPER.treeToValue(node, NodeStats.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("daemon stats: " + e.getOriginalMessage(), e);
        }
    }

    /** A JSON object (or null / missing) as a plain map of maps, lists and numbers. */
    static Map<String, Object> map(JsonNode node) {
        return node == null || node.isNull() ? Map.of() : MAPPER.convertValue(node, MAP);
    }

    static ArrayNode ranges(SeqnoRanges set) {
        ArrayNode array = MAPPER.createArrayNode();
        for (long[] range : set.ranges()) {
            array.addArray().add(range[0]).add(range[1]);
        }
        return array;
    }

    static SeqnoRanges ranges(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("'seqnos' is not an array of [first, last] ranges");
        }
        SeqnoRanges set = new SeqnoRanges();
        for (JsonNode range : array) {
            if (!range.isArray() || range.size() != 2 || !range.get(0).canConvertToLong()
                    || !range.get(1).canConvertToLong() || range.get(0).asLong() > range.get(1).asLong()) {
                throw new IllegalArgumentException("'seqnos' holds " + range + ", not a [first, last] range");
            }
            set.addRange(range.get(0).asLong(), range.get(1).asLong());
        }
        return set;
    }

    /** Per-stream seqno sets as an array of {@code {"origin", "group", "count", "seqnos"}}. */
    static ArrayNode streams(Map<StreamKey, SeqnoRanges> streams) {
        ArrayNode array = MAPPER.createArrayNode();
        streams.forEach((key, set) -> {
            ObjectNode item = array.addObject();
            item.put("origin", key.origin()).put("group", key.group()).put("count", set.count());
            item.set("seqnos", ranges(set));
        });
        return array;
    }

    static SortedMap<StreamKey, SeqnoRanges> streams(JsonNode node, String name) {
        SortedMap<StreamKey, SeqnoRanges> out = new TreeMap<>();
        for (JsonNode item : array(node, name)) {
            StreamKey key = new StreamKey(intField(item, "origin"), intField(item, "group"));
            out.merge(key, ranges(item.get("seqnos")), (a, b) -> {
                b.ranges().forEach(r -> a.addRange(r[0], r[1]));
                return a;
            });
        }
        return out;
    }

    static ObjectNode violations(ViolationLog log) {
        ObjectNode node = MAPPER.createObjectNode().put("count", log.count());
        ArrayNode first = node.putArray("first");
        for (Violation v : log.first()) {
            ObjectNode item = first.addObject().put("origin", v.origin()).put("group", v.group())
                    .put("seqno", v.seqno()).put("receiver", v.receiver());
            if (!v.detail().isEmpty()) {
                item.put("detail", v.detail());
            }
        }
        return node;
    }

    static ViolationLog violations(JsonNode node, String name) {
        JsonNode log = field(node, name);
        List<Violation> first = new ArrayList<>();
        for (JsonNode v : array(log, "first")) {
            first.add(new Violation(intField(v, "origin"), intField(v, "group"), longField(v, "seqno"),
                    intField(v, "receiver"), v.path("detail").asText("")));
        }
        ViolationLog out = new ViolationLog();
        out.addAll(longField(log, "count"), first);
        return out;
    }

    /** The object's fields in order, as (name, value) pairs. */
    static Map<String, JsonNode> fields(JsonNode node) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }
}
