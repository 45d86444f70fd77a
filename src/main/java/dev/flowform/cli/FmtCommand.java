package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.syntax.Formatter;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.diag.Diagnostic;
import dev.flowform.render.UnifiedDiff;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flowform fmt}: rewrites {@code *.flow.json} files in {@link Formatter}'s canonical layout (Terraform's
 * {@code fmt}); {@code --check}, {@code --diff} and {@code --recursive} as Terraform's. Exit 0 when nothing needed
 * formatting or all was rewritten, 3 with {@code --check} when a file would change, 2 for a file that is not valid
 * JSON, 1 for other errors.
 */
@Command(name = "fmt", mixinStandardHelpOptions = true,
        description = "Rewrite *.flow.json files in the canonical layout (two-space indent, key order kept).")
public final class FmtCommand implements Callable<Integer> {

    /** Exit code of {@code --check} when a file would change. */
    public static final int EXIT_WOULD_CHANGE = 3;

    /** Exit code when a file is not valid JSON. */
    public static final int EXIT_PARSE_ERROR = 2;

    @Spec
    CommandSpec spec;

    @Option(names = {"--check", "-check"}, description = "Change nothing; exit 3 when a file is not formatted.")
    boolean check;

    @Option(names = {"--diff", "-diff"}, description = "Print the changes as a unified diff.")
    boolean diff;

    @Option(names = {"--recursive", "-recursive"}, description = "Also format files in subfolders.")
    boolean recursive;

    @Option(names = {"--no-color", "-no-color"}, description = "Do not colour the output.")
    boolean noColor;

    @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = ".",
            description = "A *.flow.json file, or a folder of them (default: the current folder).")
    Path target;

    /** What formatting the files found, for the exit code. */
    private static final class Outcome {
        boolean parseError;
        boolean otherError;
        boolean changed;
    }

    /**
     * Formats the files {@code target} names.
     *
     * @return 0, {@link #EXIT_WOULD_CHANGE}, {@link #EXIT_PARSE_ERROR} or 1 (see the class comment)
     */
    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, noColor);
        List<Path> files;
        try {
            files = files(target, recursive ? Integer.MAX_VALUE : 1);
        } catch (IOException | InvalidPathException e) {
            term.error("Cannot read " + target, String.valueOf(e.getMessage()));
            return 1;
        }
        if (files == null) {
            term.error("No file or folder at " + target, "fmt takes a *" + ConfigLoader.SUFFIX + " file or a folder of them.");
            return 1;
        }
        if (files.isEmpty()) {
            warnNoFiles(term);
        }
        Outcome outcome = new Outcome();
        for (Path file : files) {
            format(file, term, outcome);
        }
        if (outcome.parseError) {
            return EXIT_PARSE_ERROR;
        }
        if (outcome.otherError) {
            return 1;
        }
        return check && outcome.changed ? EXIT_WOULD_CHANGE : 0;
    }

    /** Formats one file: reports it when it changes, shows the diff with {@code --diff}, rewrites it unless {@code --check}. */
    private void format(Path file, Terminal term, Outcome outcome) {
        String name = file.normalize().toString().replace('\\', '/');
        byte[] bytes = read(file, name, term);
        if (bytes == null) {
            outcome.otherError = true;
            return;
        }
        ParsedFile parsed = JsonSourceParser.parse(name, null, bytes);
        if (!parsed.ok()) {
            if (parsed.text() != null) {
                term.addSources(java.util.Map.of(name, parsed.text().text()));
            }
            List<Diagnostic> diags = parsed.diagnostics().sorted();
            term.diagnostics(diags);
            outcome.parseError = true;
            return;
        }
        String before = new String(bytes, StandardCharsets.UTF_8);
        String after = Formatter.format(parsed.root());
        if (before.equals(after)) {
            return;
        }
        outcome.changed = true;
        term.println(name);
        if (diff) {
            term.print(UnifiedDiff.diff(name, before, after));
        }
        if (!check) {
            try {
                Files.writeString(file, after, StandardCharsets.UTF_8);
            } catch (IOException e) {
                term.error("Cannot write " + name, String.valueOf(e.getMessage()));
                outcome.otherError = true;
            }
        }
    }

    /**
     * Warns that a folder holds no configuration file, naming {@code --recursive} when its subfolders hold some: a
     * {@code fmt --check} in CI that finds nothing to check would otherwise pass silently forever. The exit code stays
     * 0, as Terraform's {@code fmt} on a folder without files.
     */
    private void warnNoFiles(Terminal term) {
        long below = 0;
        if (!recursive) {
            try {
                below = files(target, Integer.MAX_VALUE).size();
            } catch (IOException | RuntimeException e) {
                below = 0; // only a hint: an unreadable subfolder just leaves it out
            }
        }
        term.diagnostics(List.of(Diagnostic.warning("No configuration files in " + target, "The folder holds no *"
                + ConfigLoader.SUFFIX + " file" + (below > 0 ? "; its subfolders hold " + below + ": add --recursive to "
                + "check them." : ", so there was nothing to " + (check ? "check." : "format.")))));
    }

    /** @return the file's bytes, or null after reporting why they cannot be read */
    private static byte[] read(Path file, String name, Terminal term) {
        try {
            if (Files.size(file) > ConfigLoader.MAX_FILE_BYTES) {
                term.error("File too large", name + " has more than " + ConfigLoader.MAX_FILE_BYTES + " bytes.");
                return null;
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            term.error("Cannot read " + name, String.valueOf(e.getMessage()));
            return null;
        }
    }

    /**
     * @param depth how deep to look into a folder (1: the folder itself)
     * @return the files to format, in path order, or null when {@code target} does not exist
     */
    private static List<Path> files(Path path, int depth) throws IOException {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            return null;
        }
        List<Path> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(path, depth)) {
            for (Path p : walk.sorted().toList()) {
                if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(ConfigLoader.SUFFIX) && !hidden(path, p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** @return true when a folder between {@code root} and {@code file} has a name starting with a dot */
    private static boolean hidden(Path root, Path file) {
        Path relative = root.relativize(file.getParent() == null ? file : file.getParent());
        for (Path part : relative) {
            String n = part.toString();
            if (n.startsWith(".") && !n.equals(".") && !n.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
