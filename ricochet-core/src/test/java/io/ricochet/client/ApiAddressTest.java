package io.ricochet.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiAddressTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:7400", "localhost:1", "[::1]:7400", "unix:/run/ricochet/api.sock",
        "unix:/tmp/a b/ricochet.sock"})
    void shouldRoundTripThroughToString(String text) {
        assertEquals(text, ApiAddress.parse(text).toString());
    }

    @Test
    void shouldReadATcpAddress() {
        ApiAddress address = ApiAddress.parse("[::1]:7400");

        assertEquals(ApiAddress.Kind.TCP, address.kind());
        assertEquals("::1", address.host());
        assertEquals(7400, address.port());
        assertNull(address.unixSocket());
        assertEquals(new ApiAddress("::1", 7400), address);
    }

    @Test
    void shouldReadAUnixAddress() {
        ApiAddress address = ApiAddress.parse("unix:/run/ricochet/api.sock");

        assertEquals(ApiAddress.Kind.UNIX, address.kind());
        assertEquals(Path.of("/run/ricochet/api.sock"), address.unixSocket());
        assertNull(address.host());
        assertEquals(0, address.port());
        assertEquals(ApiAddress.unix(Path.of("/run/ricochet/api.sock")), address);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "unix:|the path is missing",
        "unix:api.sock|must be absolute",
        "unix:relative/api.sock|must be absolute",
        "localhost|expected HOST:PORT, for example 127.0.0.1:7400, or unix:/path/to/socket",
        ":7400|expected HOST:PORT, for example 127.0.0.1:7400, or unix:/path/to/socket",
        "localhost:|expected HOST:PORT, for example 127.0.0.1:7400, or unix:/path/to/socket",
        "localhost:http|port 'http' is not a number",
        "localhost:0|port 0 is not in 1..65535",
        "localhost:65536|port 65536 is not in 1..65535"})
    void shouldExplainWhatIsWrongWithABadAddress(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ApiAddress.parse(text));

        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void shouldRefuseAPathWithANulCharacter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ApiAddress.parse("unix:/tmp/a\0b"));

        assertTrue(e.getMessage().contains("is not a valid path"), e.getMessage());
    }

    @Test
    void shouldRefuseAnAddressThatIsBothKinds() {
        assertThrows(IllegalArgumentException.class, () -> new ApiAddress("localhost", 7400, Path.of("/a.sock")));
        assertThrows(IllegalArgumentException.class, () -> ApiAddress.unix(null));
    }

    @Test
    void shouldReportAMissingSocketAsAConnectionFailure() {
        ApiConnectionException e = assertThrows(ApiConnectionException.class,
                () -> ApiAddress.parse("unix:/nonexistent-dir-ricochet/api.sock").connect(ClientOptions.defaults()));

        assertTrue(e.getMessage().startsWith("cannot connect to the Ricochet daemon at "
                + "unix:/nonexistent-dir-ricochet/api.sock: "), e.getMessage());
    }
}
