package io.ricochet.bench.experiment;

import java.util.List;

/**
 * One figure of the paper's evaluation (section 5), or one of our side-by-side comparisons: which settings it
 * simulates, and how their runs become a CSV, a plot and a table.
 */
public interface Figure {
    /** The name {@code --figure} takes: "8" .. "15", or "compare". */
    String id();

    /** The caption, e.g. "Figure 12: Impact of Loss Rate on LEC". */
    String title();

    /** The paper's "Experiment Setup" line for this figure, or what we compare. */
    String setup();

    /** What the paper's text says of this figure (or "no figure in the paper"), quoted beside our numbers. */
    String paperSays();

    /** Every setting to simulate, each for every seed of the scale. */
    List<Setting> settings();

    /**
     * Builds the figure's outputs from the runs of {@link #settings()} (already run by {@code runner}). A figure
     * may measure more here (Figure 11 times the engine with JMH).
     */
    FigureOutput complete(TrialRunner runner) throws ExperimentException;
}
