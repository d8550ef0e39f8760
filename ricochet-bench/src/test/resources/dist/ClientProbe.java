import io.ricochet.api.NodeStats;
import io.ricochet.client.Delivery;
import io.ricochet.client.RicochetClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Run by ClientJarSystemTest as a single source file, with only the client jar and slf4j-api on the class path:
 * proves the jar is all a Java application needs. Arguments: API host, port, group. Prints what it saw.
 */
public final class ClientProbe {
    private ClientProbe() {
    }

    public static void main(String[] args) throws Exception {
        for (String absent : new String[] {"io.netty.buffer.ByteBuf", "com.fasterxml.jackson.databind.ObjectMapper",
                "ch.qos.logback.classic.Logger", "picocli.CommandLine", "com.google.common.base.Preconditions"}) {
            try {
                Class.forName(absent);
                System.out.println("FAILED: " + absent + " is on the class path");
                System.exit(1);
            } catch (ClassNotFoundException expected) {
                // the class path is the client jar and slf4j-api alone
            }
        }
        int group = Integer.parseInt(args[2]);
        try (RicochetClient client = RicochetClient.connect(args[0], Integer.parseInt(args[1]))) {
            client.join(group);
            long id = client.send(group, "probe".getBytes(StandardCharsets.UTF_8));
            Delivery delivery = client.poll(10, TimeUnit.SECONDS);
            if (delivery == null || delivery.isLost() || delivery.seqno() != id) {
                System.out.println("FAILED: my message did not come back: " + delivery);
                System.exit(1);
            }
            System.out.println("received " + new String(delivery.payload(), StandardCharsets.UTF_8) + " from node "
                    + delivery.origin());
            // A message of 1 MiB: the daemon cuts it into datagrams and it comes back whole.
            byte[] large = new byte[1 << 20];
            new java.util.Random(41).nextBytes(large);
            long largeId = client.send(group, large);
            Delivery whole = client.poll(30, TimeUnit.SECONDS);
            if (whole == null || whole.isLost() || whole.seqno() != largeId
                    || !java.util.Arrays.equals(large, whole.payload())) {
                System.out.println("FAILED: my 1 MiB message did not come back whole: " + whole);
                System.exit(1);
            }
            System.out.println("received " + whole.payload().length + " bytes whole from node " + whole.origin());
            NodeStats stats = client.stats();
            System.out.println("stats of node " + stats.node() + ", groups " + stats.groups());
        }
    }
}
