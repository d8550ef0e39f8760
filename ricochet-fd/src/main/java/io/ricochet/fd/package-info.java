/**
 * Rack-level failure detectors (paper, section 4.2.4): one per rack pings the daemons of its rack and reports
 * failures and recoveries to every GMS partition; a top-level chain watches the rack detectors. Not built yet.
 */
package io.ricochet.fd;
