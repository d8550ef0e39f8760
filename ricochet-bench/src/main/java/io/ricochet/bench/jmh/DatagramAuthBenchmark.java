package io.ricochet.bench.jmh;

import io.ricochet.auth.AesPmac;
import io.ricochet.auth.ClusterKeys;
import io.ricochet.auth.DatagramAuth;
import io.ricochet.auth.DatagramClock;
import io.ricochet.auth.FrameGuard;
import io.ricochet.auth.ReplayFilter;
import io.ricochet.wire.Bytes;
import io.ricochet.wire.DataFlyweight;
import io.ricochet.wire.FrameType;
import io.ricochet.wire.HeaderFlyweight;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
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
 * The candidate MACs for authenticating every datagram (docs/design/security.md, "Cost"): sealing and opening a DATA
 * frame with a 256-bit key, at two sizes ({@link #payload}): a 1 KB payload (a 1052-byte frame) and the largest
 * frame whose datagram fills a 1500-byte IP packet (a 1419-byte payload: a 1447-byte frame, a 1472-byte UDP payload
 * with the 25-byte trailer). Every candidate's trailer is {@code key id (1) | counter (8) | tag (16)} and its MAC
 * covers the frame, the key id and the counter; the nonce-based ones take (source id from the frame header,
 * counter) as their nonce, as a deployment would.
 *
 * <ul>
 *   <li>HMAC_SHA256_DIGEST: HMAC-SHA256/128 (RFC 2104) over two reused {@code MessageDigest}s (no nonce).</li>
 *   <li>AES_GMAC: AES-256-GCM through the JDK with the frame as AAD only, no plaintext.</li>
 *   <li>AES_GCM_SCRATCH: AES-256-GCM through the JDK with the frame as plaintext, its ciphertext written to a
 *       scratch buffer and dropped; the tag is GHASH over that ciphertext, which the receiver recomputes by
 *       encrypting the received frame again (the ciphertext is a bijection of the frame under a given nonce).</li>
 *   <li>CHACHA20_POLY1305: the JDK's ChaCha20-Poly1305 with the frame as AAD only.</li>
 *   <li>POLY1305_AES: Bernstein's Poly1305-AES: r fixed per key, s = AES-256(nonce) through the JDK
 *       ({@code AES/ECB/NoPadding}), Poly1305 being {@link Poly1305} (64-bit limbs).</li>
 *   <li>POLY1305_AES_ONETIME: both r and s drawn per datagram, r | s = AES-256(nonce | 0) | AES-256(nonce | 1) (two
 *       blocks in one JDK call), then {@link Poly1305}: a repeated nonce exposes one datagram's key, never r.</li>
 *   <li>AES_PMAC: PMAC over AES-256 ({@link AesPmac}; deterministic, no nonce): every block but the last through
 *       one JDK {@code AES/ECB/NoPadding} call, which the JIT runs on the CPU's AES instructions many blocks at a
 *       time.</li>
 *   <li>DATAGRAM_AUTH: what ships, {@link DatagramAuth} (AES_PMAC under a key derived from the cluster key), with
 *       the process's clock on seal and, on open, the receiving process's clock-skew check and replay window.</li>
 *   <li>DATAGRAM_AUTH_ENCRYPT: {@link DatagramAuth} with {@code encrypt on}: the same, and the frame after its header
 *       encrypted with AES-256-CTR under the tag as IV (over one JDK {@code AES/ECB} call, {@code AesCtr}). Its
 *       {@link #open} decrypts the datagram in place, so every other call of it sees bytes that do not verify:
 *       read {@link #sealAndOpen} for it.</li>
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
    static final int KEY_ID = 1;
    static final int COUNTER = 8;
    static final int TAG = 16;
    static final int TRAILER = 1 + COUNTER + TAG;
    static final int SOURCE = 7;

    @Param({"HMAC_SHA256_DIGEST", "AES_GMAC", "AES_GCM_SCRATCH", "CHACHA20_POLY1305", "POLY1305_AES",
            "POLY1305_AES_ONETIME", "AES_PMAC", "DATAGRAM_AUTH", "DATAGRAM_AUTH_ENCRYPT"})
    public String candidate;

    /** Payload bytes: 1024 (a 1052-byte frame), or 1419 (a 1447-byte frame, its datagram 1472 bytes). */
    @Param({"1024", "1419"})
    public int payload;

    private int frame;
    private Candidate auth;
    /** Opens what {@link #auth} seals in {@link #sealAndOpen}: the receiving side. */
    private Candidate peer;
    private byte[] work;
    private byte[] toSeal;
    /** Two sealed datagrams, opened in turn: the JDK's ChaCha20 and GCM refuse the same nonce twice in a row. */
    private byte[][] sealed;
    private int sealedLength;
    private int next;

    @Setup
    public void setUp() throws GeneralSecurityException {
        frame = DataFlyweight.DATA_HEADER_LENGTH + payload;
        work = new byte[frame + TRAILER];
        toSeal = new byte[frame + TRAILER];
        sealed = new byte[2][frame + TRAILER];
        SplittableRandom random = new SplittableRandom(Memberships.SEED);
        byte[] key = new byte[32];
        random.nextBytes(key);
        byte[] bytes = new byte[payload];
        random.nextBytes(bytes);
        new DataFlyweight().wrap(toSeal, 0).write(FrameType.DATA, SOURCE, SOURCE, 1234, 987_654_321L, bytes, 0,
                payload);
        ClusterKeys keys = ClusterKeys.generate(new SecureRandom(), KEY_ID);
        Candidate sender = create(candidate, key, keys);
        auth = create(candidate, key, keys);
        peer = create(candidate, key, keys);
        for (byte[] datagram : sealed) {
            System.arraycopy(toSeal, 0, datagram, 0, frame);
            sealedLength = sender.seal(datagram, 0, frame);
            if (auth.open(datagram, 0, sealedLength) != frame) {
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
        return auth.seal(toSeal, 0, frame);
    }

    /** Seal a copy of the frame, then open it on the receiving side: what one datagram costs its two ends. */
    @Benchmark
    public int sealAndOpen() throws GeneralSecurityException {
        System.arraycopy(toSeal, 0, work, 0, frame);
        int datagram = auth.seal(work, 0, frame);
        int opened = peer.open(work, 0, datagram);
        if (opened != frame) {
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
    static Candidate create(String name, byte[] key, ClusterKeys keys) throws GeneralSecurityException {
        switch (name) {
            case "HMAC_SHA256_DIGEST":
                return new HmacDigest(key);
            case "AES_GMAC":
                return new Aead("AES/GCM/NoPadding", new SecretKeySpec(key, "AES"), false);
            case "AES_GCM_SCRATCH":
                return new Aead("AES/GCM/NoPadding", new SecretKeySpec(key, "AES"), true);
            case "CHACHA20_POLY1305":
                return new Aead("ChaCha20-Poly1305", new SecretKeySpec(key, "ChaCha20"), false);
            case "POLY1305_AES":
                return new PolyAes(key, false);
            case "POLY1305_AES_ONETIME":
                return new PolyAes(key, true);
            case "AES_PMAC":
                return new Pmac(key);
            case "DATAGRAM_AUTH":
                return new Shipped(new DatagramAuth(keys));
            case "DATAGRAM_AUTH_ENCRYPT":
                return new Shipped(new DatagramAuth(keys, DatagramClock.system(),
                        new ReplayFilter(ReplayFilter.DEFAULT_MAX_CLOCK_SKEW_MS, System::currentTimeMillis),
                        FrameGuard.NO_DESTINATION, true));
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

    /** Writes the trailer's key id and the next counter after the frame; returns the trailer's offset. */
    static int startTrailer(byte[] buf, int offset, int frameLength, long counter) {
        int trailer = offset + frameLength;
        buf[trailer] = KEY_ID;
        Bytes.putLong(buf, trailer + 1, counter);
        return trailer;
    }

    /** HMAC-SHA256 / 16 (RFC 2104) over two {@link MessageDigest}s of frame | key id | counter. */
    static final class HmacDigest implements Candidate {
        private final MessageDigest inner;
        private final MessageDigest outer;
        private final byte[] innerPad = new byte[64];
        private final byte[] outerPad = new byte[64];
        private final byte[] full = new byte[32];
        private long counter;

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
            int trailer = startTrailer(buf, offset, frameLength, ++counter);
            tag(buf, offset, frameLength + 1 + COUNTER);
            System.arraycopy(full, 0, buf, trailer + 1 + COUNTER, TAG);
            return frameLength + TRAILER;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - TRAILER;
            tag(buf, offset, frameLength + 1 + COUNTER);
            return equal(full, 0, buf, offset + frameLength + 1 + COUNTER, TAG) ? frameLength : -1;
        }
    }

    /**
     * An AEAD cipher of the JDK, 12-byte nonce = source id | counter. With {@code scratch}, the frame is the
     * plaintext (its ciphertext goes to a scratch buffer) and the key id and counter the AAD; without, all of
     * frame | key id | counter is AAD and there is no plaintext.
     */
    static final class Aead implements Candidate {
        static final int NONCE = 12;
        private final Cipher cipher;
        private final SecretKeySpec key;
        private final boolean gcm;
        private final boolean scratch;
        private final byte[] nonce = new byte[NONCE];
        private final byte[] out = new byte[70_000];
        private final byte[] empty = new byte[0];
        private long counter;

        Aead(String transformation, SecretKeySpec key, boolean scratch) throws GeneralSecurityException {
            this.cipher = Cipher.getInstance(transformation);
            this.key = key;
            this.gcm = transformation.startsWith("AES");
            this.scratch = scratch;
        }

        private void init(int mode, byte[] buf, int offset, int trailer) throws GeneralSecurityException {
            System.arraycopy(buf, offset + HeaderFlyweight.SOURCE_OFFSET, nonce, 0, 4);
            System.arraycopy(buf, trailer + 1, nonce, 4, COUNTER);
            cipher.init(mode, key, gcm ? new GCMParameterSpec(TAG * 8, nonce) : new IvParameterSpec(nonce));
        }

        /** The tag of the datagram whose trailer starts at {@code trailer}, into {@link #out}'s last 16 bytes. */
        private int tag(byte[] buf, int offset, int frameLength, int trailer) throws GeneralSecurityException {
            if (scratch) {
                cipher.updateAAD(buf, trailer, 1 + COUNTER);
                return cipher.doFinal(buf, offset, frameLength, out, 0) - TAG;
            }
            cipher.updateAAD(buf, offset, frameLength + 1 + COUNTER);
            return cipher.doFinal(empty, 0, 0, out, 0) - TAG;
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException {
            int trailer = startTrailer(buf, offset, frameLength, ++counter);
            init(Cipher.ENCRYPT_MODE, buf, offset, trailer);
            int at = tag(buf, offset, frameLength, trailer);
            System.arraycopy(out, at, buf, trailer + 1 + COUNTER, TAG);
            return frameLength + TRAILER;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - TRAILER;
            int trailer = offset + frameLength;
            if (scratch) {
                // Recompute the tag by encrypting the received frame again under its nonce.
                init(Cipher.ENCRYPT_MODE, buf, offset, trailer);
                int at = tag(buf, offset, frameLength, trailer);
                return equal(out, at, buf, trailer + 1 + COUNTER, TAG) ? frameLength : -1;
            }
            init(Cipher.DECRYPT_MODE, buf, offset, trailer);
            cipher.updateAAD(buf, offset, frameLength + 1 + COUNTER);
            try {
                cipher.doFinal(buf, trailer + 1 + COUNTER, TAG, empty, 0);
                return frameLength;
            } catch (javax.crypto.AEADBadTagException e) {
                return -1;
            }
        }
    }

    /**
     * Poly1305-AES over frame | key id | counter, nonce = counter | source id | frame type (15 bytes) | block. With
     * {@code oneTime}, r | s = AES(nonce | 0) | AES(nonce | 1); else r is fixed (the key's second half, clamped) and
     * s = AES(nonce | 0), as in Bernstein's Poly1305-AES.
     */
    static final class PolyAes implements Candidate {
        private final Cipher aes;
        private final boolean oneTime;
        private final Poly1305 poly = new Poly1305();
        private final byte[] nonces = new byte[32];
        private final byte[] oneTimeKey = new byte[32];
        private final byte[] tag = new byte[TAG];
        private long counter;

        PolyAes(byte[] key, boolean oneTime) throws GeneralSecurityException {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            this.oneTime = oneTime;
            nonces[31] = 1;
            if (!oneTime) {
                byte[] r = aes.doFinal(new byte[16]); // a fixed r, drawn from the key once
                System.arraycopy(r, 0, oneTimeKey, 0, 16);
            }
        }

        private void tag(byte[] buf, int offset, int frameLength, int trailer) throws GeneralSecurityException {
            for (int block = 0; block < 32; block += 16) {
                System.arraycopy(buf, trailer + 1, nonces, block, COUNTER);
                System.arraycopy(buf, offset + HeaderFlyweight.SOURCE_OFFSET, nonces, block + 8, 4);
                nonces[block + 12] = buf[offset + HeaderFlyweight.TYPE_OFFSET];
            }
            if (oneTime) {
                aes.update(nonces, 0, 32, oneTimeKey, 0);
            } else {
                aes.update(nonces, 0, 16, oneTimeKey, 16);
            }
            poly.init(oneTimeKey, 0).update(buf, offset, frameLength + 1 + COUNTER).finish(tag, 0);
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) throws GeneralSecurityException {
            int trailer = startTrailer(buf, offset, frameLength, ++counter);
            tag(buf, offset, frameLength, trailer);
            System.arraycopy(tag, 0, buf, trailer + 1 + COUNTER, TAG);
            return frameLength + TRAILER;
        }

        @Override
        public int open(byte[] buf, int offset, int length) throws GeneralSecurityException {
            int frameLength = length - TRAILER;
            int trailer = offset + frameLength;
            tag(buf, offset, frameLength, trailer);
            return equal(tag, 0, buf, trailer + 1 + COUNTER, TAG) ? frameLength : -1;
        }
    }

    /** PMAC-AES-256 over frame | key id | counter. */
    static final class Pmac implements Candidate {
        private final AesPmac pmac;
        private final byte[] tag = new byte[TAG];
        private long counter;

        Pmac(byte[] key) {
            pmac = new AesPmac(key, HeaderFlyweight.MAX_FRAME_LENGTH + 1 + COUNTER);
        }

        @Override
        public int seal(byte[] buf, int offset, int frameLength) {
            int trailer = startTrailer(buf, offset, frameLength, ++counter);
            pmac.mac(buf, offset, frameLength + 1 + COUNTER, buf, trailer + 1 + COUNTER);
            return frameLength + TRAILER;
        }

        @Override
        public int open(byte[] buf, int offset, int length) {
            int frameLength = length - TRAILER;
            pmac.mac(buf, offset, frameLength + 1 + COUNTER, tag, 0);
            return equal(tag, 0, buf, offset + frameLength + 1 + COUNTER, TAG) ? frameLength : -1;
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
