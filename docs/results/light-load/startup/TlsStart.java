import io.ricochet.control.tls.TlsSettings;
import java.nio.file.Path;

/** Times the first TlsSettings.from of a fresh JVM (the daemon's start-up path), and a client handler. */
public class TlsStart {
    public static void main(String[] args) throws Exception {
        Path d = Path.of(args[0]);
        long t0 = System.nanoTime();
        TlsSettings tls = TlsSettings.from(d.resolve("node-1.pem"), d.resolve("node-1.key"), d.resolve("ca.pem"),
                false, "--", "--insecure");
        tls.newClientHandler(io.netty.buffer.ByteBufAllocator.DEFAULT, new java.net.InetSocketAddress("127.0.0.1", 1));
        long t1 = System.nanoTime();
        System.out.printf("%.1f%n", (t1 - t0) / 1e6);
    }
}
