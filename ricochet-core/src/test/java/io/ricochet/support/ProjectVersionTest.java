package io.ricochet.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class ProjectVersionTest {

    @Test
    void isTheProjectVersionMavenBuilt() {
        String expected = System.getProperty("ricochet.expected.version");
        assertNotNull(expected, "surefire passes the pom's project.version as ricochet.expected.version");
        assertEquals(expected, ProjectVersion.version());
    }
}
