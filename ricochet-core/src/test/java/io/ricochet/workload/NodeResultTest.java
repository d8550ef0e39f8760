package io.ricochet.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeResultTest {

    @Test
    void shouldRoundTripThroughJson() throws Exception {
        NodeResult result = Results.node(2, 1, 2).sent(1, 0, 99).sent(2, 5, 7)
                .got(1, 1, 0, 9).got(1, 1, 11, 20).got(1, 1, 3, 3).gotCorrupt(3, 2, 0).lost(3, 2, 1)
                .stats(Map.of("counters", Map.of("DELIVERED", 1)), Map.of("counters", Map.of("DELIVERED", 21)))
                .build();

        String text = WorkloadJson.MAPPER.writeValueAsString(result.toJson());
        NodeResult back = NodeResult.fromJson(WorkloadJson.MAPPER.readTree(text));

        assertEquals(2, back.node());
        assertEquals(result.sent(), back.sent());
        assertEquals(result.deliveries().received(), back.deliveries().received());
        assertEquals(result.deliveries().lost(), back.deliveries().lost());
        assertEquals(1, back.deliveries().duplicates().count());
        assertEquals(result.deliveries().corrupt().first(), back.deliveries().corrupt().first());
        assertEquals(result.deliveries().latency().summary(), back.deliveries().latency().summary());
        assertEquals(Map.of("DELIVERED", 21L), back.statsAfter().counters());
        assertEquals("[[0,9],[11,20]]", new ObjectMapper().writeValueAsString(
                result.toJson().get("received").get(0).get("seqnos")));
    }

    @Test
    void shouldNameTheBadFieldOfAResultFile() {
        ObjectNode json = Results.node(2, 1).sent(1, 0, 3).build().toJson();
        json.withArray("sent").addObject().put("group", 9).putArray("seqnos").addArray().add(5).add(1);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeResult.fromJson(json));

        assertEquals("'seqnos' holds [5,1], not a [first, last] range", e.getMessage());
    }
}
