package io.ricochet.bench.regions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ricochet.bench.BenchCli;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionsCommandTest {
    @TempDir
    Path dir;

    @Test
    void reportsOneRowPerSettingWithConsistentFigures() throws Exception {
        Path json = dir.resolve("regions.json");
        StringWriter err = new StringWriter();
        assertEquals(0, BenchCli.run(err, "regions", "--nodes", "40,80", "--groups", "100", "--min-region-size",
                "1,5", "--out", json.toString()), err.toString());
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("rows");
        assertEquals(4, rows.size());
        for (JsonNode row : rows) {
            assertEquals(10.0, row.get("groupsPerNodeMean").asDouble(), 1e-9, row.toString());
            assertTrue(row.get("regionsPerNodeMean").asDouble() >= 1, row.toString());
            assertTrue(row.get("regionsPerGroupMax").asDouble() >= row.get("regionsPerGroupMean").asDouble());
            double top2 = row.get("top2ShareMean").asDouble();
            assertTrue(top2 > 0 && top2 <= 1, row.toString());
        }
        // Minimum 1: every group in one set, so each node is in exactly one region and it carries all its traffic.
        JsonNode exact = rows.get(0);
        assertEquals(1, exact.get("sets").asInt());
        assertEquals(1.0, exact.get("regionsPerNodeMax").asDouble());
        assertEquals(1.0, exact.get("top2ShareMean").asDouble(), 1e-9);
        assertTrue(rows.get(1).get("sets").asInt() > 1, rows.get(1).toString());
    }

    @Test
    void countsTheGroupsAJoinMoves() throws Exception {
        Path json = dir.resolve("churn.json");
        StringWriter err = new StringWriter();
        assertEquals(0, BenchCli.run(err, "regions", "--nodes", "40", "--groups", "50", "--min-region-size", "1",
                "--churn", "5", "--out", json.toString()), err.toString());
        JsonNode row = new ObjectMapper().readTree(json.toFile()).get("rows").get(0);
        assertEquals(5, row.get("joins").asInt());
        // With one set, the joiner's new group set changes its region in every group it is in, the joined one too.
        assertTrue(row.get("groupsChangedPerJoin").asDouble() >= 1, row.toString());
        assertTrue(row.get("viewsPerJoin").asDouble() >= row.get("groupsChangedPerJoin").asDouble(), row.toString());
    }

    @Test
    void drawsTheSameMembershipsFromTheSameSeed() {
        Map<Integer, List<Integer>> a = ZipfMemberships.distinct(30, 200, 20, 1.5, 9);
        assertEquals(a, ZipfMemberships.distinct(30, 200, 20, 1.5, 9));
        assertEquals(30 * 20, a.values().stream().mapToInt(List::size).sum());
        Map<Integer, List<Integer>> b = ZipfMemberships.draws(30, 200, 20, 1.5, 9);
        assertEquals(b, ZipfMemberships.draws(30, 200, 20, 1.5, 9));
        assertEquals(30, b.get(1).size(), "every node draws the most popular group at least once in 20 draws");
    }

    @Test
    void badOptionsAreRefusedWithTheRule() {
        StringWriter err = new StringWriter();
        assertEquals(2, BenchCli.run(err, "regions", "--share", "0"));
        assertTrue(err.toString().contains("--share 0.0: must be in (0, 1]"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(2, BenchCli.run(err2, "regions", "--nodes", "100000", "--groups", "100000"));
        assertTrue(err2.toString().contains("at most 20000000 memberships"), err2.toString());
        StringWriter err3 = new StringWriter();
        assertEquals(2, BenchCli.run(err3, "regions", "--min-region-size", "0"));
        assertTrue(err3.toString().contains("each must be in 1..65535"), err3.toString());
    }
}
