package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The README stays a page a user scans: at most {@value #MAX_LINES} lines, exactly two set-up commands (plan then
 * apply of an example on the embedded demo cluster; the test command, which {@code .ci/run} runs too), and a map
 * that links every page of {@code docs/}. Every relative link of the README and the docs pages reaches a file, and
 * a heading when it names one; every {@code flowform} command of their shell blocks (and of the examples' READMEs)
 * parses; no sentence of a {@code package-info.java} Javadoc repeats one of the pages.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ReadmeTest {

    static final int MAX_LINES = 250;
    private static final Path README = Path.of("README.md");
    private static final Path DOCS = Path.of("docs");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern SH_BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @Test
    void the_readme_is_at_most_250_lines_and_links_every_docs_page() throws IOException {
        List<String> lines = Files.readAllLines(README);
        assertThat(lines.size()).as("lines of README.md").isLessThanOrEqualTo(MAX_LINES);

        Set<String> linked = new TreeSet<>();
        Matcher m = LINK.matcher(String.join("\n", lines));
        while (m.find()) {
            linked.add(m.group(1).replaceFirst("#.*", ""));
        }
        assertThat(linked).containsAll(pages().stream().map(p -> "docs/" + p.getFileName()).toList());
    }

    @Test
    void set_up_is_two_commands_and_the_second_is_what_ci_runs() throws IOException {
        String readme = Files.readString(README);
        String setUp = readme.substring(readme.indexOf("\n## Set up\n"), readme.indexOf("\n## ", readme.indexOf("\n## Set up\n") + 1));
        List<String> commands = new ArrayList<>();
        Matcher m = SH_BLOCK.matcher(setUp);
        while (m.find()) {
            commands.add(m.group(1).strip());
        }

        assertThat(commands).hasSize(2).allMatch(c -> !c.contains("\n"));
        assertThat(commands.get(0)).containsPattern("flowform plan --dir (examples/\\S+) .*flowform apply --dir \\1 ");
        String example = commands.get(0).replaceFirst(".*flowform plan --dir (\\S+).*", "$1");
        assertThat(Files.readString(Path.of(example, "main.flow.json"))).as("the example runs on the embedded demo cluster")
                .contains("\"embedded\"");
        List<String> ci = Files.readAllLines(Path.of(".ci", "run")).stream().map(String::strip)
                .filter(l -> l.startsWith("mvn ") && !l.startsWith("mvn -version")).toList();
        assertThat(ci).as(".ci/run runs the README's test command").containsExactly(commands.get(1));
    }

    @Test
    void every_flowform_command_of_the_readme_and_the_docs_parses() throws IOException {
        List<Path> files = new ArrayList<>(pages());
        files.add(README);
        try (Stream<Path> examples = Files.walk(Path.of("examples"))) {
            files.addAll(examples.filter(p -> p.getFileName().toString().equals("README.md")).sorted().toList());
        }
        List<String> refused = new ArrayList<>();
        int parsed = 0;
        for (Path f : files) {
            Matcher block = SH_BLOCK.matcher(Files.readString(f));
            while (block.find()) {
                for (String line : block.group(1).split("\n")) {
                    for (String command : line.split("&&|\\|")) {
                        List<String> words = words(command);
                        if (words.size() < 2 || !words.get(0).endsWith("flowform")
                                || words.stream().anyMatch(w -> w.startsWith("["))) {
                            continue; // not flowform, or a synopsis ("flowform plan [--out FILE] ...")
                        }
                        String[] args = words.subList(1, words.size()).toArray(String[]::new);
                        try {
                            Main.commandLine(CliContext.system(), args).parseArgs(args);
                            parsed++;
                        } catch (picocli.CommandLine.ParameterException e) {
                            refused.add(f + ": " + command.strip() + " -> " + e.getMessage());
                        }
                    }
                }
            }
        }
        assertThat(refused).as("commands a user would copy").isEmpty();
        assertThat(parsed).as("flowform commands found").isGreaterThan(30);
    }

    /**
     * @return the words of one shell command as the shell splits them: quotes kept together and removed, a trailing
     *         {@code # comment} and redirections ({@code > file}) dropped; {@code $VAR} and {@code "$(...)"} stay words
     */
    private static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    out.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break;
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            out.add(word.toString());
        }
        int redirect = out.indexOf(">");
        return redirect < 0 ? out : out.subList(0, redirect);
    }

    @Test
    void every_relative_link_of_the_readme_and_the_docs_reaches_its_file_and_heading() throws IOException {
        List<Path> files = new ArrayList<>(pages());
        files.add(README);
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            Matcher m = LINK.matcher(withoutCode(Files.readString(file)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue;
                }
                String path = target.replaceFirst("#.*", "");
                Path resolved = path.isEmpty() ? file : file.resolveSibling(path).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(file + ": " + target + " (no such file)");
                } else if (target.contains("#") && !anchors(resolved).contains(target.substring(target.indexOf('#') + 1))) {
                    broken.add(file + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void no_package_info_javadoc_repeats_a_sentence_of_the_pages() throws IOException {
        StringBuilder pages = new StringBuilder(plain(Files.readString(README)));
        for (Path p : pages()) {
            pages.append(' ').append(plain(Files.readString(p)));
        }
        List<String> repeated = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().equals("package-info.java")).toList()) {
                String javadoc = plain(Files.readString(f).replaceAll("(?m)^\\s*/?\\*+/?", "")
                        .replaceAll("\\{@(?:code|link|linkplain|value) ([^}]*)}", "$1").replaceAll("<[^>]+>", ""));
                for (String sentence : javadoc.split("(?<=[.;:])\\s")) {
                    if (sentence.strip().length() >= 60 && pages.indexOf(sentence.strip()) >= 0) {
                        repeated.add(f + ": " + sentence.strip());
                    }
                }
            }
        }
        assertThat(repeated).as("write it in one place: the docs page for users, the Javadoc for the code").isEmpty();
    }

    /** @return the Markdown pages of {@code docs/} */
    private static List<Path> pages() throws IOException {
        try (Stream<Path> s = Files.list(DOCS)) {
            return s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
    }

    /** @return Markdown without its code blocks and code spans, where brackets are no links */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "").replaceAll("`[^`\\n]*`", "");
    }

    /** @return text with Markdown code marks removed and white space collapsed */
    private static String plain(String text) {
        return text.replace("`", "").replaceAll("\\s+", " ");
    }

    /** @return the anchors GitHub gives the headings of a Markdown file (lower case, punctuation dropped, blanks to -) */
    private static Set<String> anchors(Path file) throws IOException {
        Set<String> out = new TreeSet<>();
        if (!file.toString().endsWith(".md")) {
            return out;
        }
        boolean code = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                out.add(line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return out;
    }
}
