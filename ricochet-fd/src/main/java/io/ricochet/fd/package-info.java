/**
 * Rack-level hierarchical failure detectors (paper, section 4.2.4; {@code docs/design/failure-detection.md}). A
 * rack detector pings the daemons of its rack and reports failures and recoveries to every GMS partition; a
 * top-level chain of detectors watches the rack detectors and each other. {@link io.ricochet.fd.FailureDetector}
 * is the sans-I/O core, {@link io.ricochet.fd.FdServer} its Netty driver and {@link io.ricochet.fd.FdMain} the
 * command.
 */
package io.ricochet.fd;
