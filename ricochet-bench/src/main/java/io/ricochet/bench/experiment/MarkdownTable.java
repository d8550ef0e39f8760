package io.ricochet.bench.experiment;

import java.util.ArrayList;
import java.util.List;

/** A markdown table built row by row; '|' in a cell is escaped. */
public final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    public MarkdownTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException(cells.size() + " cells under " + header.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        line(out, header);
        line(out, header.stream().map(h -> "---").toList());
        rows.forEach(r -> line(out, r));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append('|');
        for (String cell : cells) {
            out.append(' ').append(cell.replace("|", "\\|")).append(" |");
        }
        out.append('\n');
    }
}
