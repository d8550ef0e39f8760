package io.ricochet.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
    @Test
    void aNewSectionIsAppendedUnderTheGeneratedHeadingOnce() {
        String once = ReportWriter.replaceSection("# Results\n\nOurs.", "9", "NINE\n");
        assertTrue(once.startsWith("# Results\n\nOurs.\n\n" + ReportWriter.GENERATED_HEADING));
        assertTrue(once.endsWith(ReportWriter.begin("9") + "\nNINE\n" + ReportWriter.end("9") + "\n"));
        String twice = ReportWriter.replaceSection(once, "10", "TEN\n");
        assertEquals(1, twice.split(Pattern.quote(ReportWriter.GENERATED_HEADING), -1).length - 1);
        assertTrue(twice.indexOf("NINE") < twice.indexOf("TEN"));
    }

    @Test
    void anExistingSectionIsReplacedInPlace() {
        String text = "# R\n" + ReportWriter.begin("8") + "\nold\n" + ReportWriter.end("8") + "\nafter\n";
        String out = ReportWriter.replaceSection(text, "8", "new\n");
        assertEquals("# R\n" + ReportWriter.begin("8") + "\nnew\n" + ReportWriter.end("8") + "\nafter\n", out);
    }

    @Test
    void aSectionWithoutItsEndMarkerIsAnErrorNotATruncation() {
        String text = "# R\n" + ReportWriter.begin("8") + "\nold\n";
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ReportWriter.replaceSection(text, "8", "new\n"));
        assertTrue(e.getMessage().contains("end marker"));
    }

    @Test
    void csvQuotesFieldsWithCommas() {
        FigureOutput out = new FigureOutput(List.of("a", "b"), List.of(List.of("x,y", "say \"hi\"")), List.of(),
                "");
        assertEquals("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n", ReportWriter.csvText(out));
    }

    @Test
    void statsLeaveOutRunsWithoutAValue() {
        Stat s = Stat.of(List.of(1.0, Double.NaN, 3.0));
        assertEquals(2, s.n());
        assertEquals(2.0, s.mean());
        assertEquals(Math.sqrt(2), s.sd(), 1e-12);
        assertEquals("–", Stat.of(List.of(Double.NaN)).format(2));
        assertEquals("2.00 ± 1.41", s.format(2));
    }
}
