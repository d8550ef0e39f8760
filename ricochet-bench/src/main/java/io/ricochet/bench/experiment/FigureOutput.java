package io.ricochet.bench.experiment;

import java.util.List;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What one figure produces: the CSV (header and rows), the graphs drawn side by side into one PNG, and the
 * markdown table of {@code docs/results.md} (ours beside the paper's).
 */
public record FigureOutput(List<String> csvHeader, List<List<String>> csvRows, List<Chart<?, ?>> panels,
                           String table) {
    public FigureOutput {
        csvHeader = List.copyOf(csvHeader);
        csvRows = List.copyOf(csvRows);
        panels = List.copyOf(panels);
        for (List<String> row : csvRows) {
            if (row.size() != csvHeader.size()) {
                throw new IllegalArgumentException("CSV row of " + row.size() + " fields under a header of "
                        + csvHeader.size() + ": " + row);
            }
        }
    }
}
