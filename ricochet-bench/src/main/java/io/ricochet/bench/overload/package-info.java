/**
 * The overload experiment's report ({@code scripts/experiments/daemon-overload}, {@code bench overload-report}):
 * the per-interval timeline of offered load, the daemon's receptions, drops and NAKs, and the sink's deliveries and
 * loss notices around a phase of overload, and the verdict on it (issue 12, point 6: no collapse, clean delivery
 * again soon after the load falls, every message delivered or reported lost). The arithmetic is pure and unit
 * tested; the command reads the sink's and the generators' JSON reports and writes JSON, markdown and a PNG.
 */
package io.ricochet.bench.overload;
