package io.ricochet.bench.rx;

/** A way of reading datagrams from one multicast socket into byte arrays, counting them. */
interface RxPath extends AutoCloseable {
    /** Datagrams read and copied out so far (any thread). */
    long received();

    /** CPU time of the reading thread so far, ns. */
    long threadCpuNs();

    @Override
    void close() throws Exception;
}
