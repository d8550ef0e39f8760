package io.ricochet.bench.experiment;

/**
 * One point of a figure: the line it belongs to ({@code series}, as in the paper's legend), its x value and the
 * setting simulated there.
 */
public record Point(String series, double x, Setting setting) {
}
