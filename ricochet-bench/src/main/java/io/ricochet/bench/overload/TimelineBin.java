package io.ricochet.bench.overload;

/**
 * One interval between two consecutive samples of the sink, with rates per second over it. A rate the run did not
 * measure (e.g. no daemon counters) is NaN, written as null.
 *
 * @param t              the interval's start, in seconds from the moment the load fell (negative before)
 * @param seconds        its length
 * @param phase          the phase every generator was in throughout: {@code warm-up}, {@code overload},
 *                       {@code after}; {@code change} if it spans a phase change, {@code idle} before the first
 *                       packet or after the last
 * @param offered        packets/s the generators sent, over all of them
 * @param received       DATA packets/s the daemon received
 * @param delivered      packets/s the sink was handed
 * @param lost           loss notices/s the sink was handed
 * @param kernelDrops    datagrams/s the host's kernel dropped for full socket buffers (RcvbufErrors)
 * @param rxRandomDrops  packets/s the daemon's receive buffer dropped at random (section 4.2.6)
 * @param naksSent       NAKs/s the daemon sent
 * @param daemonCpu      the daemon's CPU time, in percent of one core
 */
public record TimelineBin(double t, double seconds, String phase, double offered, double received, double delivered,
                          double lost, double kernelDrops, double rxRandomDrops, double naksSent, double daemonCpu) {
}
