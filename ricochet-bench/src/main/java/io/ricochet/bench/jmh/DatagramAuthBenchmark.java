package io.ricochet.bench.jmh;

import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The candidate MACs for authenticating every datagram (docs/design/security.md, "Cost"): sealing and opening a
 * 1 KB DATA frame (1052 bytes) with a 256-bit key. The trailer is {@code key id, [nonce], tag}; the MAC covers
 * the frame and the key id.
 *
 * <ul>
 *   <li>HMAC_SHA256_MAC: HMAC-SHA256 through {@code javax.crypto.Mac}, tag truncated to 16 bytes.</li>
 *   <li>HMAC_SHA256_DIGEST: the same HMAC (RFC 2104) over two {@code MessageDigest}s, which allocate nothing.</li>
 *   <li>AES_GMAC: AES-256-GCM with the frame as AAD only; 12-byte nonce = 4 random bytes + 8-byte counter.</li>
 *   <li>CHACHA20_POLY1305: ChaCha20-Poly1305 with the frame as AAD only; the same nonce rule.</li>
 *   <li>DATAGRAM_AUTH: what ships, {@link DatagramAuth} (the winner, HMAC_SHA256_DIGEST), with its 25-byte
 *       trailer (key id, counter, tag) and, on open, the replay window of the receiving process.</li>
 * </ul>
 *
 * {@link #sealAndOpen} is the whole path of one datagram: a fresh frame sealed by one instance and opened by
 * another (for DATAGRAM_AUTH, another process's guard: its own clock check and replay window, which takes the new
 * counter). {@link #open} opens the same two datagrams again and again: for DATAGRAM_AUTH that measures the MAC and
 * the window's refusal of a replay; the other candidates have no replay check.
 *
 * Run with {@code -prof gc} to see the bytes each call allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DatagramAuthBenchmark {
    static final int PAYLOAD = 1024;
    static final int FRAME = DataFlyweight.DATA_HEADER_LENGTH + PAYLOAD;
    static final int KEY_ID = 1;

    @Param({"HMAC_SHA256_MAC", "HMAC_SHA256_DIGEST", "AES_GMAC", "CHACHA20_POLY1305", "DATAGRAM_AUTH"})
    public String candidate;

    private Candidate auth;
    /** Opens what {@link #auth} seals in {@link #sealAndOpen}: the receiving side. */
    private Candidate peer;
    private final byte[] work = new byte[FRAME + 64];
    private final byte[] toSeal = new byte[FRAME + 64];
    /** Two sealed datagrams, opened in turn: the JDK's ChaCha20 refuses the same nonce twice in a row. */
    private final byte[][] sealed = new byte[2][FRAME + 64];
    private int sealedLength;
    private int next;

    @Setup
    public void setUp() throws GeneralSecurityException {
        SplittableRandom random = new SplittableRandom(Memberships.SEED);
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] payload = new byte[PAYLOAD];
        random.nextBytes(payload);
        new DataFlyweight().wrap(toSeal, 0).write(FrameType.DATA, 7, 7, 1234, 987_654_321L, payload, 0, PAYLOAD);
        int noncePrefix = random.nextInt();
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), KEY_ID);
        Candidate sender = create(candidate, key, noncePrefix, keys);
        auth = create(candidate, key, noncePrefix, keys);
        peer = create(candidate, key, noncePrefix, keys);
        for (byte[] datagram : sealed) {
            System.arraycopy(toSeal, 0, datagram, 0, FRAME);
            sealedLength = sender.seal(datagram, 0, FRAME);
            if (auth.open(datagram, 0, sealedLength) != FRAME) {
                throw new IllegalStateException(candidate + " does not open what it sealed");
            }
        }
        sealed[0][3] ^= 1;
        if (auth.open(sealed[0], 0, sealedLength) >= 0) {
            throw new IllegalStateException(candidate + " opens a forged frame");
        }
        sealed[0][3] ^= 1;
        auth.open(sealed[1], 0, sealedLength);
        next = 0;
    }

    @Benchmark
    public int seal() throws GeneralSecurityException {
        return auth.seal(toSeal, 0, FRAME);
    }

    /** Seal a copy of the frame, then open it on the receiving side: what one datagram costs its two ends. */
    @Benchmark
    public int sealAndOpen() throws GeneralSecurityException {
        System.arraycopy(toSeal, 0, work, 0, FRAME);
        int datagram = auth.seal(work, 0, FRAME);
        int opened = peer.open(work, 0, datagram);
        if (opened != FRAME) {
            throw new IllegalStateException(candidate + " refused a fresh datagram: " + opened);
        }
        return opened;
    }

    @Benchmark
    public int open() throws GeneralSecurityException {
        byte[] datagram = sealed[next];
        next ^= 1;
        return auth.open(datagram, 0, sealedLength);
    }

    /** The candidate {@code name} with {@code key}; DATAGRAM_AUTH uses {@code keys} instead. */
    static Candidate create(String name, byte[] key, int noncePrefix, ClusterKeys keys)
            throws GeneralSecurityException {
        switch (name) {
            case "HMAC_SHA256_MAC":
                return new HmacMac(key);
            case "HMAC_SHA256_DIGEST":
                return new HmacDigest(key);
            case "AES_GMAC":
                return new AeadAadOnly("AES/GCM/NoPadding", new SecretKeySpec(key, "AES"), noncePrefix);
            case "CHACHA20_POLY1305":
                return new AeadAadOnly("ChaCha20-Poly1305", new SecretKeySpec(key, "ChaCha20"), noncePrefix);
            case "DATAGRAM_AUTH":
                return new Shipped(new DatagramAuth(keys));
            default:
                throw new IllegalArgumentException("unknown candidate " + name);
        }
    }

    /** Seals a frame in place (appending the trailer) and opens a datagram; open returns -1 if it fails. */
    interface Candidate {
        int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException;

        int open(byte[] buf, int offset, int length) throws GeneralSecurityException;
    }

    /** Constant-time equality of {@code n} bytes. */
    static boolean equal(byte[] a, int aOffset, byte[] b, int bOffset, int n) {
        int diff = 0;
        for (int i = 0; i < n; i++) {
            diff |= a[aOffset + i] ^ b[bOffset + i];
        }
        return diff == 0;
    }

    /** HMAC-SHA256 / 16 through {@link Mac}: trailer = key id, tag. */
    static final class HmacMac implements Candidate {
        static final int TAG = 16;
        private final Mac mac;
        private final byte[] full = new byte[32];

        HmacMac(byte[] key) throws GeneralSecurityException {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException {
            buf[offset + frameLength] = KEY_ID;
            mac.update(buf, offset, frameLength + 1);
            mac.doFinal(full, 0);
            System.arraycopy(full, 0, buf, offset + frameLength + 1, TAG);
            return frameLength + 1 + TAG;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - 1 - TAG;
            mac.update(buf, offset, frameLength + 1);
            mac.doFinal(full, 0);
            return equal(full, 0, buf, offset + frameLength + 1, TAG) ? frameLength : -1;
        }
    }

    /** HMAC-SHA256 / 16 (RFC 2104) over two {@link MessageDigest}s: trailer = key id, tag. */
    static final class HmacDigest implements Candidate {
        static final int TAG = 16;
        private final MessageDigest inner;
        private final MessageDigest outer;
        private final byte[] innerPad = new byte[64];
        private final byte[] outerPad = new byte[64];
        private final byte[] full = new byte[32];

        HmacDigest(byte[] key) throws GeneralSecurityException {
            inner = MessageDigest.getInstance("SHA-256");
            outer = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < 64; i++) {
                byte k = i < key.length ? key[i] : 0;
                innerPad[i] = (byte) (k ^ 0x36);
                outerPad[i] = (byte) (k ^ 0x5c);
            }
        }

        private void tag(byte[] buf, int offset, int length) throws GeneralSecurityException {
            inner.update(innerPad);
            inner.update(buf, offset, length);
            inner.digest(full, 0, 32);
            outer.update(outerPad);
            outer.update(full, 0, 32);
            outer.digest(full, 0, 32);
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException {
            buf[offset + frameLength] = KEY_ID;
            tag(buf, offset, frameLength + 1);
            System.arraycopy(full, 0, buf, offset + frameLength + 1, TAG);
            return frameLength + 1 + TAG;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - 1 - TAG;
            tag(buf, offset, frameLength + 1);
            return equal(full, 0, buf, offset + frameLength + 1, TAG) ? frameLength : -1;
        }
    }

    /** An AEAD cipher authenticating the frame as AAD, with no plaintext: trailer = key id, nonce, tag. */
    static final class AeadAadOnly implements Candidate {
        static final int NONCE = 12;
        static final int TAG = 16;
        private final Cipher cipher;
        private final SecretKeySpec key;
        private final boolean gcm;
        private final byte[] nonce = new byte[NONCE];
        private final byte[] empty = new byte[0];
        private long counter;

        AeadAadOnly(String transformation, SecretKeySpec key, int noncePrefix) throws GeneralSecurityException {
            this.cipher = Cipher.getInstance(transformation);
            this.key = key;
            this.gcm = transformation.startsWith("AES");
            for (int i = 0; i < 4; i++) {
                nonce[i] = (byte) (noncePrefix >>> (24 - 8 * i));
            }
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException {
            long c = counter++;
            for (int i = 0; i < 8; i++) {
                nonce[4 + i] = (byte) (c >>> (56 - 8 * i));
            }
            int trailer = offset + frameLength;
            buf[trailer] = KEY_ID;
            System.arraycopy(nonce, 0, buf, trailer + 1, NONCE);
            cipher.init(Cipher.ENCRYPT_MODE, key,
                    gcm ? new GCMParameterSpec(TAG * 8, nonce) : new IvParameterSpec(nonce));
            cipher.updateAAD(buf, offset, frameLength + 1 + NONCE);
            cipher.doFinal(buf, trailer + 1 + NONCE);
            return frameLength + 1 + NONCE + TAG;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - 1 - NONCE - TAG;
            int trailer = offset + frameLength;
            cipher.init(Cipher.DECRYPT_MODE, key, gcm ? new GCMParameterSpec(TAG * 8, buf, trailer + 1, NONCE)
                    : new IvParameterSpec(buf, trailer + 1, NONCE));
            cipher.updateAAD(buf, offset, frameLength + 1 + NONCE);
            try {
                cipher.doFinal(buf, trailer + 1 + NONCE, TAG, empty, 0);
                return frameLength;
            } catch (javax.crypto.AEADBadTagException e) {
                return -1;
            }
        }
    }

    /** {@link DatagramAuth} itself; a negative open result is a failure. */
    static final class Shipped implements Candidate {
        private final DatagramAuth auth;

        Shipped(DatagramAuth auth) {
            this.auth = auth;
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) {
            return auth.seal(buf, offset, frameLength);
        }

        @Override
        public int open(byte[] buf, int offset, int length) {
            return auth.open(buf, offset, length);
        }
    }
}
