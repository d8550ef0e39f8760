package io.ricochet.api.server;

import io.ricochet.api.protocol.ApiProtocol;

/**
 * Settings of the local API server, validated on construction. Defaults: loopback only, port 7400, frames of up to
 * 64 KiB, and a write buffer of 1 MiB / 4 MiB per connection (low / high water mark) beyond which deliveries to a
 * slow subscriber are dropped (docs/api.md, "Backpressure").
 *
 * @param bindAddress              address to listen on; anything but loopback exposes the daemon to the network
 * @param port                     TCP port; 0 picks a free one ({@link ApiServer#boundPort()})
 * @param maxFrameLength           largest length field accepted from a client (bytes after the length prefix)
 * @param writeBufferLowWaterMark  pending outbound bytes under which a full connection is writable again
 * @param writeBufferHighWaterMark pending outbound bytes above which deliveries to the connection are dropped
 */
public record ApiConfig(String bindAddress, int port, int maxFrameLength, int writeBufferLowWaterMark,
        int writeBufferHighWaterMark) {

    /** Loopback: only applications on this blade may connect. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** Smallest accepted max frame length: room for a 1 KiB payload and then some. */
    public static final int MIN_FRAME_LENGTH = 1024;
    private static final int MIB = 1024 * 1024;

    public ApiConfig {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bind address must be given");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + ": must be in 0..65535");
        }
        if (maxFrameLength < MIN_FRAME_LENGTH || maxFrameLength > ApiProtocol.MAX_INBOUND_FRAME_LENGTH) {
            throw new IllegalArgumentException("max frame length " + maxFrameLength + ": must be in "
                    + MIN_FRAME_LENGTH + ".." + ApiProtocol.MAX_INBOUND_FRAME_LENGTH);
        }
        if (writeBufferLowWaterMark < 1 || writeBufferHighWaterMark < writeBufferLowWaterMark) {
            throw new IllegalArgumentException("write buffer water marks " + writeBufferLowWaterMark + " / "
                    + writeBufferHighWaterMark + ": need 1 <= low <= high");
        }
    }

    /** The defaults described above. */
    public static ApiConfig defaults() {
        return new ApiConfig(DEFAULT_BIND_ADDRESS, ApiProtocol.DEFAULT_PORT, ApiProtocol.DEFAULT_MAX_FRAME_LENGTH,
                MIB, 4 * MIB);
    }

    public ApiConfig withBindAddress(String address) {
        return new ApiConfig(address, port, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark);
    }

    public ApiConfig withPort(int newPort) {
        return new ApiConfig(bindAddress, newPort, maxFrameLength, writeBufferLowWaterMark, writeBufferHighWaterMark);
    }

    public ApiConfig withMaxFrameLength(int length) {
        return new ApiConfig(bindAddress, port, length, writeBufferLowWaterMark, writeBufferHighWaterMark);
    }

    public ApiConfig withWriteBufferWaterMarks(int low, int high) {
        return new ApiConfig(bindAddress, port, maxFrameLength, low, high);
    }
}
