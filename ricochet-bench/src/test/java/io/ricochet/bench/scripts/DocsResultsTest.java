package io.ricochet.bench.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/results holds what the documents cite and nothing else (issue 35): every docs/results path that README.md,
 * docs/*.md or docs/design/*.md cites exists, every file under docs/results is cited (itself or through a folder
 * of it, docs/results itself apart), every link to a section of docs/results.md names a heading it has, and the
 * sections {@code bench experiment} rewrites keep their markers.
 */
class DocsResultsTest {
    /** A markdown link's target, up to a space, a closing parenthesis or an anchor. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]*)(#[^)\\s]*)?\\)");
    /** A path written out from the repository root, in code or prose. */
    private static final Pattern ROOT_PATH = Pattern.compile("docs/results/[A-Za-z0-9_./-]*");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);
    private static final List<String> GENERATED = List.of("8", "9", "10", "11", "12", "13", "14", "15", "compare");

    private static Path root() {
        return ScriptRun.root();
    }

    private static Path results() {
        return root().resolve("docs/results");
    }

    /** README.md, docs/*.md and docs/design/*.md. */
    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(root().resolve("README.md"));
        for (Path dir : List.of(root().resolve("docs"), root().resolve("docs/design"))) {
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
            }
        }
        return docs;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under docs/results (not docs/results itself) a document cites, with the documents citing it. */
    private static Map<Path, Set<String>> cited() throws IOException {
        Path results = results().normalize();
        Map<Path, Set<String>> cited = new TreeMap<>();
        for (Path doc : documents()) {
            String text = read(doc);
            String name = root().relativize(doc).toString();
            List<Path> targets = new ArrayList<>();
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                if (!link.group(1).isEmpty() && !link.group(1).contains(":")) {
                    targets.add(doc.getParent().resolve(link.group(1)).normalize());
                }
            }
            Matcher path = ROOT_PATH.matcher(text);
            while (path.find()) {
                targets.add(root().resolve(path.group().replaceAll("\\.+$", "")).normalize());
            }
            for (Path target : targets) {
                if (target.startsWith(results) && !target.equals(results)) {
                    cited.computeIfAbsent(target, t -> new TreeSet<>()).add(name);
                }
            }
        }
        return cited;
    }

    @Test
    void everyCitedResultsPathExists() throws IOException {
        List<String> missing = new ArrayList<>();
        cited().forEach((path, docs) -> {
            if (!Files.exists(path)) {
                missing.add(root().relativize(path) + " (cited by " + String.join(", ", docs) + ")");
            }
        });
        assertEquals(List.of(), missing, "docs cite paths under docs/results that do not exist");
    }

    @Test
    void everyFileUnderDocsResultsIsCited() throws IOException {
        Set<Path> cited = cited().keySet();
        List<String> uncited = new ArrayList<>();
        try (Stream<Path> files = Files.walk(results())) {
            // Logs are ignored by git (.gitignore: *.log): leftovers of a run in a working tree are not the repo's.
            files.filter(Files::isRegularFile).filter(file -> !file.getFileName().toString().endsWith(".log"))
                    .map(Path::normalize).sorted().forEach(file -> {
                if (cited.stream().noneMatch(file::startsWith)) {
                    uncited.add(root().relativize(file).toString());
                }
            });
        }
        assertEquals(List.of(), uncited, "files under docs/results that no document cites (cite them, or git rm "
                + "them: experiments write raw runs to runs/)");
    }

    /** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces to '-'. */
    static String anchor(String heading) {
        String text = heading.strip().toLowerCase(Locale.ROOT);
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c == ' ') {
                out.append('-');
            } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)) {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertEquals("lec-alone-at-the-papers-reference-point", anchor("LEC alone at the paper's reference point"));
        assertEquals("the-papers-evaluation-regenerated-bench-experiment",
                anchor("The paper's evaluation, regenerated (`bench experiment`)"));
        assertEquals("150-000-datagramss", anchor("150 000 datagrams/s"));
    }

    @Test
    void everyLinkToASectionOfResultsNamesOne() throws IOException {
        Path resultsMd = root().resolve("docs/results.md");
        Set<String> anchors = new TreeSet<>();
        Matcher heading = HEADING.matcher(read(resultsMd));
        while (heading.find()) {
            anchors.add(anchor(heading.group(1)));
        }
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher link = LINK.matcher(read(doc));
            while (link.find()) {
                if (link.group(2) == null) {
                    continue;
                }
                boolean toResults = link.group(1).isEmpty() ? doc.equals(resultsMd)
                        : doc.getParent().resolve(link.group(1)).normalize().equals(resultsMd);
                if (toResults && !anchors.contains(link.group(2).substring(1))) {
                    broken.add(root().relativize(doc) + ": " + link.group());
                }
            }
        }
        assertEquals(List.of(), broken, "links to sections docs/results.md does not have");
    }

    /**
     * A section of results.md named in prose: {@code docs/results.md`, "Title"} or
     * {@code [docs/results.md](results.md), "Title"}, the title possibly wrapped (in a comment too); one named
     * "at a8cff48" is in the old notebook.
     */
    private static final Pattern QUOTED = Pattern.compile(
            "results\\.md`?(?:\\]\\(results\\.md\\))?( at `?[0-9a-f]{7,40}`?)?,\\s+\"([^\"]+)\"");

    /** The text files that may name a section of results.md: the documents, the scripts and the main sources. */
    private static List<Path> namingFiles() throws IOException {
        List<Path> files = new ArrayList<>(documents());
        List<Path> trees = new ArrayList<>(List.of(root().resolve("scripts")));
        try (Stream<Path> modules = Files.list(root())) {
            modules.filter(m -> m.getFileName().toString().startsWith("ricochet-"))
                    .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).forEach(trees::add);
        }
        for (Path tree : trees) {
            try (Stream<Path> walk = Files.walk(tree)) {
                walk.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".jar")).sorted()
                        .forEach(files::add);
            }
        }
        return files;
    }

    @Test
    void everySectionOfResultsNamedInTheTreeIsThere() throws IOException {
        String results = read(root().resolve("docs/results.md"));
        List<String> headings = new ArrayList<>();
        Matcher heading = HEADING.matcher(results);
        while (heading.find()) {
            headings.add(heading.group(1));
        }
        List<String> missing = new ArrayList<>();
        for (Path file : namingFiles()) {
            String text;
            try {
                text = Files.readString(file);
            } catch (java.nio.charset.MalformedInputException binary) {
                continue;
            }
            Matcher quoted = QUOTED.matcher(text);
            while (quoted.find()) {
                if (quoted.group(1) != null) {
                    continue;
                }
                String title = quoted.group(2).replaceAll("\\s*\\R\\s*(\\*\\s*)?(#\\s*)?", " ");
                boolean found = headings.stream().anyMatch(h -> h.startsWith(title))
                        || results.contains("**" + title);
                if (!found) {
                    missing.add(root().relativize(file) + ": \"" + title + "\"");
                }
            }
        }
        assertEquals(List.of(), missing, "sections of docs/results.md named in the tree that it has no heading (or "
                + "bold paragraph) for; a superseded one is named with the commit of the old notebook: docs/results.md "
                + "at a8cff48, \"Title\"");
    }

    @Test
    void resultsOpensWithTheHeadlineAndKeepsTheGeneratedSections() {
        String text = read(root().resolve("docs/results.md"));
        int headline = text.indexOf("\n## Headline\n");
        assertTrue(headline > 0, "docs/results.md has a '## Headline' section");
        int table = text.indexOf("| figure | Ricochet | peer, same run | configuration | host | date | command |");
        assertTrue(table > headline && table < text.indexOf("\n## ", headline + 1),
                "the headline table, with its command column, in the Headline section");
        assertTrue(text.contains("\n## The paper's evaluation, regenerated (`bench experiment`)\n"),
                "the heading bench experiment appends its sections under");
        for (String id : GENERATED) {
            String begin = "<!-- BEGIN GENERATED figure-" + id + " ";
            String end = "<!-- END GENERATED figure-" + id + " -->";
            int from = text.indexOf(begin);
            assertTrue(from >= 0 && text.indexOf(end, from) > from, "figure " + id + "'s markers, in order");
            assertEquals(from, text.lastIndexOf(begin), "one section for figure " + id);
        }
    }
}
