package dev.flowform.config;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Loads a configuration folder: the public entry point of this package, and the only place it reads files.
 *
 * <p>Reads every {@code *.flow.json} file directly in the folder (not in subfolders), in file name
 * order, parses each into a located tree ({@link JsonSourceParser}), then decodes and evaluates the
 * blocks for the chosen environment. Bad input never throws: every problem, in every file, comes
 * back as a diagnostic with {@code file:line:column} where it has one. Syntax errors stop loading
 * after parsing (decoding a partial file would only add confusing follow-on errors); all other
 * problems are collected together. See the package documentation for the language.
 */
public final class ConfigLoader {

    /** File name suffix of configuration files. */
    public static final String SUFFIX = ".flow.json";

    /** Largest configuration file accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 8L * 1024 * 1024;

    /** Creates a loader; it holds no state, so one instance may be reused. */
    public ConfigLoader() {
    }

    /**
     * Loads and resolves the configuration in {@code dir} for one environment.
     *
     * @param dir         the configuration folder
     * @param environment the environment to use ({@code --env}), or null to use the only one declared
     * @param cliVars     {@code --var name=value} values by variable name (converted to each variable's type), or null
     * @return the configuration (null when there are errors) and the diagnostics, sorted
     */
    public LoadResult load(Path dir, String environment, Map<String, String> cliVars) {
        Diagnostics diagnostics = new Diagnostics();
        Configuration configuration = null;
        Map<String, String> sources = new java.util.TreeMap<>();
        try {
            LoadResult result = loadUnsorted(dir, environment, cliVars == null ? Map.of() : cliVars, sources);
            diagnostics.addAll(result.diagnostics());
            configuration = result.configuration();
        } catch (RuntimeException e) {
            diagnostics.add(Diagnostic.error("Internal error while loading the configuration",
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ". This is a bug in flowform; please report it with the configuration that caused it."));
            configuration = null;
        }
        Diagnostics sorted = new Diagnostics();
        sorted.addAll(new LinkedHashSet<>(diagnostics.sorted()));
        return new LoadResult(sorted.hasErrors() ? null : configuration, sorted, sources);
    }

    private LoadResult loadUnsorted(Path dir, String environment, Map<String, String> cliVars, Map<String, String> sources) {
        Diagnostics diagnostics = new Diagnostics();
        if (dir == null) {
            diagnostics.add(Diagnostic.error("No configuration folder", "A configuration folder is required."));
            return new LoadResult(null, diagnostics);
        }
        Path abs;
        try {
            abs = dir.toAbsolutePath().normalize();
        } catch (InvalidPathException | java.io.IOError e) {
            diagnostics.add(Diagnostic.error("Invalid configuration folder", "The path " + dir + " cannot be used: " + e.getMessage()));
            return new LoadResult(null, diagnostics);
        }
        if (!Files.exists(abs)) {
            diagnostics.add(Diagnostic.error("Configuration folder not found", "The folder " + abs + " does not exist."));
            return new LoadResult(null, diagnostics);
        }
        if (!Files.isDirectory(abs)) {
            diagnostics.add(Diagnostic.error("Configuration folder not found", abs + " is a file, not a folder: pass the folder "
                    + "that holds the *" + SUFFIX + " files."));
            return new LoadResult(null, diagnostics);
        }
        List<Path> paths;
        try (Stream<Path> listing = Files.list(abs)) {
            paths = listing.filter(p -> p.getFileName().toString().endsWith(SUFFIX) && Files.isRegularFile(p))
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        } catch (IOException | RuntimeException e) {
            diagnostics.add(Diagnostic.error("Cannot read configuration folder", "Listing " + abs + " failed: " + e.getMessage()));
            return new LoadResult(null, diagnostics);
        }
        if (paths.isEmpty()) {
            diagnostics.add(Diagnostic.error("No configuration files", "The folder " + abs + " contains no *" + SUFFIX
                    + " files; configuration is written in Terraform's JSON syntax in files such as main" + SUFFIX + "."));
            return new LoadResult(null, diagnostics);
        }

        List<ParsedFile> files = new ArrayList<>();
        for (Path path : paths) {
            String filename = abs.relativize(path).toString();
            try {
                long size = Files.size(path);
                if (size > MAX_FILE_BYTES) {
                    diagnostics.add(Diagnostic.error("Configuration file too large", filename + " has " + size
                            + " bytes; at most " + MAX_FILE_BYTES + " are accepted."));
                    continue;
                }
                ParsedFile parsed = JsonSourceParser.parse(filename, path.getParent(), Files.readAllBytes(path));
                diagnostics.addAll(parsed.diagnostics());
                files.add(parsed);
                if (parsed.text() != null && parsed.text().text() != null) {
                    sources.put(filename, parsed.text().text());
                }
            } catch (IOException e) {
                diagnostics.add(Diagnostic.error("Cannot read configuration file", filename + ": " + e.getMessage()));
            }
        }
        if (diagnostics.hasErrors()) {
            return new LoadResult(null, diagnostics);
        }
        LoadResult decoded = ConfigDecoder.decode(abs, files, environment, cliVars, Files::isDirectory);
        diagnostics.addAll(decoded.diagnostics());
        return new LoadResult(diagnostics.hasErrors() ? null : decoded.configuration(), diagnostics);
    }
}
