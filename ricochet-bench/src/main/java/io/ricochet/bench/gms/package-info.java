/**
 * {@code bench gms}: the replicated GMS measured with real replica processes on loopback: membership changes one
 * partition commits per second with one and with three replicas, and, with three, the time from killing the
 * leader (SIGKILL) to the first committed change and until every client is served again.
 */
package io.ricochet.bench.gms;
