/**
 * The experiment harness ({@code scripts/bench experiment}): the Ricochet paper's evaluation figures (section 5,
 * Figures 8 - 15) and our LEC / SRM / FEC comparison, run in the deterministic simulator over five seeds per
 * point. {@link io.ricochet.bench.experiment.Figures} is the catalogue of settings;
 * {@link io.ricochet.bench.experiment.TrialRunner} runs them in parallel; each figure turns its runs into a CSV, a
 * PNG ({@link io.ricochet.bench.experiment.Plots}, XChart) and a markdown table, which
 * {@link io.ricochet.bench.experiment.ReportWriter} writes to {@code docs/figures/} and its marked section of
 * {@code docs/results.md}.
 */
package io.ricochet.bench.experiment;
