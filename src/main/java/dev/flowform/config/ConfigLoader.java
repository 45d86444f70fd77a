package dev.flowform.config;

import dev.flowform.config.module.ModuleReader;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Loads a configuration folder: the entry point of this package and the only class that reads files (the
 * {@code *.flow.json} files of the folder in name order, {@code --var-file} files, module folders). Bad input never
 * throws: every problem is a diagnostic located at {@code file:line:column}, file names relative to the folder;
 * syntax errors stop loading after parsing (docs/configuration.md).
 */
public final class ConfigLoader {

    /** File name suffix of configuration files. */
    public static final String SUFFIX = ".flow.json";

    /** Largest configuration or variable file accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 8L * 1024 * 1024;
    /** The summary of the error for {@code -e NAME} naming an environment no file declares. */
    public static final String UNKNOWN_ENVIRONMENT = "Unknown environment";

    /** Creates a loader; it holds no state, so one instance may be reused. */
    public ConfigLoader() {
    }

    /** {@link #loadWith} with {@code --var name=value} values only (by variable name; null: none). */
    public LoadResult load(Path dir, String environment, Map<String, String> cliVars) {
        return loadWith(dir, environment, VariableInputs.ofVars(cliVars));
    }

    /**
     * Loads and resolves the configuration in {@code dir} for one environment.
     *
     * @param dir         the configuration folder
     * @param environment the environment to use ({@code --env}), or null to use the only one declared
     * @param inputs      variable values from outside the files ({@code FLOWFORM_VAR_*}, {@code --var-file}, {@code --var})
     * @return the configuration (null when there are errors) and the diagnostics, sorted
     */
    public LoadResult loadWith(Path dir, String environment, VariableInputs inputs) {
        Reading reading = new Reading();
        Diagnostics diagnostics = new Diagnostics();
        Configuration configuration = null;
        try {
            Prepared prepared = reading.prepare(dir, inputs == null ? VariableInputs.NONE : inputs, diagnostics);
            if (prepared != null) {
                LoadResult result = prepared.decode(environment);
                diagnostics.addAll(result.diagnostics());
                configuration = result.configuration();
            }
        } catch (RuntimeException e) {
            diagnostics.add(internalError(e));
            configuration = null;
        }
        Diagnostics sorted = sorted(diagnostics);
        return new LoadResult(sorted.hasErrors() ? null : configuration, sorted, reading.sources);
    }

    /**
     * Checks the configuration in {@code dir} offline, for {@code flowform validate}: decodes it for
     * {@code environment}, or for every declared environment when it is null, and runs the semantic
     * checks of {@link DesiredStateFactory} on each. Reads no cluster and no state.
     *
     * @return the merged diagnostics of every environment checked
     */
    public ValidationResult validate(Path dir, String environment, VariableInputs inputs) {
        Reading reading = new Reading();
        Diagnostics diagnostics = new Diagnostics();
        List<String> checked = new ArrayList<>();
        try {
            Prepared prepared = reading.prepare(dir, inputs == null ? VariableInputs.NONE : inputs, diagnostics);
            if (prepared != null) {
                List<String> names = environment != null ? List.of(environment) : prepared.environmentNames();
                Map<String, Diagnostics> runs = new LinkedHashMap<>();
                for (String name : names.isEmpty() ? java.util.Collections.<String>singletonList(null) : names) {
                    LoadResult result = prepared.decode(name);
                    Diagnostics run = new Diagnostics().addAll(result.diagnostics());
                    if (result.configuration() != null) {
                        DesiredStateFactory.build(result.configuration(), run);
                    }
                    runs.put(name == null ? "" : name, run);
                    if (name != null) {
                        checked.add(name);
                    }
                }
                diagnostics.addAll(merge(runs));
            }
        } catch (RuntimeException e) {
            diagnostics.add(internalError(e));
        }
        return new ValidationResult(sorted(diagnostics), reading.sources, checked);
    }

    /**
     * Where the configuration in {@code dir} keeps its state, for commands that read only state ({@code history},
     * {@code state}, {@code show}, {@code output}): reads the root folder's files and decodes their {@code backend}
     * blocks only, so a problem elsewhere in the configuration never stands between the user and the state. A folder
     * that does not exist or holds no configuration files has the default backend ({@code <dir>/state}).
     *
     * @return the backend (null when there are errors) and the problems found
     */
    public BackendLookup backend(Path dir) {
        Diagnostics diagnostics = new Diagnostics();
        Reading reading = new Reading();
        Path abs = absolute(dir, diagnostics);
        if (abs == null) {
            return new BackendLookup(null, diagnostics, Map.of());
        }
        if (!Files.isDirectory(abs)) {
            return new BackendLookup(StateBackend.defaultFor(abs), diagnostics, Map.of());
        }
        reading.root = abs;
        List<ParsedFile> files = List.of();
        try {
            files = reading.readAll(reading.list(abs), diagnostics);
        } catch (IOException | RuntimeException e) {
            diagnostics.add(Diagnostic.error("Cannot read configuration folder", "Listing " + shown(dir) + " failed: "
                    + e.getMessage()));
        }
        if (diagnostics.hasErrors()) {
            return new BackendLookup(null, sorted(diagnostics), reading.sources);
        }
        Sink sink = new Sink(diagnostics);
        List<Blocks.Block> blocks = new ArrayList<>();
        for (ParsedFile f : files) {
            for (ConfigNode.Entry e : f.root().entries()) {
                if (e.key().equals("backend")) {
                    blocks.addAll(Blocks.expand(e, 1, f, sink));
                }
            }
        }
        StateBackend backend = BackendDecoder.decode(blocks, abs, sink);
        return new BackendLookup(diagnostics.hasErrors() ? null : backend, sorted(diagnostics), reading.sources);
    }

    /** What {@link #backend} finds: the backend (null on errors), the problems sorted, file name to text for snippets. */
    public record BackendLookup(StateBackend backend, Diagnostics diagnostics, Map<String, String> sources) {
        /** Copies the sources. */
        public BackendLookup {
            sources = Map.copyOf(sources);
        }
    }

    /**
     * Merges the diagnostics of several environments: identical ones once, and those that occur in
     * some environments only with the environments named at the end of the detail.
     */
    private static Diagnostics merge(Map<String, Diagnostics> runs) {
        Map<Diagnostic, List<String>> seen = new LinkedHashMap<>();
        runs.forEach((env, diags) -> {
            for (Diagnostic d : new LinkedHashSet<>(diags.list())) {
                seen.computeIfAbsent(d, k -> new ArrayList<>()).add(env);
            }
        });
        Diagnostics out = new Diagnostics();
        seen.forEach((d, envs) -> {
            if (runs.size() > 1 && envs.size() < runs.size()) {
                List<String> quoted = envs.stream().map(e -> "\"" + e + "\"").toList();
                String where = (envs.size() == 1 ? "In environment " : "In environments ") + String.join(", ", quoted) + ".";
                out.add(new Diagnostic(d.severity(), d.summary(), d.detail().isEmpty() ? where : d.detail() + "\n\n" + where,
                        d.range(), d.address()));
            } else {
                out.add(d);
            }
        });
        return out;
    }

    /** @return {@code dir} absolute and normalised, or null after adding why it cannot be used */
    private static Path absolute(Path dir, Diagnostics diagnostics) {
        try {
            return dir.toAbsolutePath().normalize();
        } catch (InvalidPathException | java.io.IOError e) {
            diagnostics.add(Diagnostic.error("Invalid configuration folder", "The path " + dir + " cannot be used: "
                    + e.getMessage()));
            return null;
        }
    }

    /** @return a path as the user gave it, for messages */
    private static String shown(Path path) {
        String s = path.toString();
        return s.isEmpty() ? "." : s;
    }

    private static Diagnostics sorted(Diagnostics diagnostics) {
        Diagnostics sorted = new Diagnostics();
        sorted.addAll(new LinkedHashSet<>(diagnostics.sorted()));
        return sorted;
    }

    private static Diagnostic internalError(RuntimeException e) {
        return Diagnostic.error("Internal error while loading the configuration",
                e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                        + ". This is a bug in flowform; please report it with the configuration that caused it.");
    }

    /** The configuration folder and variable files, parsed, ready to decode for any environment. */
    private record Prepared(Path dir, String rootKey, List<ParsedFile> files, ConfigDecoder.Inputs inputs,
                            ModuleReader reader) {

        LoadResult decode(String environment) {
            return ConfigDecoder.decode(dir, rootKey, files, environment, inputs, Files::isDirectory, reader);
        }

        /** @return the names of the environments declared at the root, sorted (problems are left to decoding) */
        List<String> environmentNames() {
            TreeSet<String> names = new TreeSet<>();
            Sink ignored = new Sink(new Diagnostics());
            for (ParsedFile f : files) {
                for (ConfigNode.Entry e : f.root().entries()) {
                    if (e.key().equals("environment")) {
                        Blocks.expand(e, 1, f, ignored).forEach(b -> names.add(b.name()));
                    }
                }
            }
            return List.copyOf(names);
        }
    }

    /** The file reading of one load: the source texts read so far and the module folders by path. */
    private final class Reading {
        private final Map<String, String> sources = new TreeMap<>();
        private final Map<Path, ModuleReader.Folder> folders = new HashMap<>();
        private Path root;

        /** @return the parsed inputs, or null after adding why loading cannot go on */
        Prepared prepare(Path dir, VariableInputs inputs, Diagnostics diagnostics) {
            if (dir == null) {
                diagnostics.add(Diagnostic.error("No configuration folder", "A configuration folder is required."));
                return null;
            }
            Path abs = absolute(dir, diagnostics);
            if (abs == null) {
                return null;
            }
            if (!Files.exists(abs)) {
                diagnostics.add(Diagnostic.error("Configuration folder not found", "The folder " + shown(dir) + " does not exist."));
                return null;
            }
            if (!Files.isDirectory(abs)) {
                diagnostics.add(Diagnostic.error("Configuration folder not found", shown(dir) + " is a file, not a folder: pass the "
                        + "folder that holds the *" + SUFFIX + " files."));
                return null;
            }
            String rootKey;
            try {
                rootKey = abs.toRealPath().toString();
            } catch (IOException e) {
                rootKey = abs.toString();
            }
            root = abs;
            List<Path> paths;
            try {
                paths = list(abs);
            } catch (IOException | RuntimeException e) {
                diagnostics.add(Diagnostic.error("Cannot read configuration folder", "Listing " + shown(dir) + " failed: "
                        + e.getMessage()));
                return null;
            }
            if (paths.isEmpty()) {
                diagnostics.add(Diagnostic.error("No configuration files", "The folder " + shown(dir) + " contains no *" + SUFFIX
                        + " files; configuration is written in Terraform's JSON syntax in files such as main" + SUFFIX + "."));
                return null;
            }
            List<ParsedFile> files = readAll(paths, diagnostics);
            List<ParsedFile> varFiles = new ArrayList<>();
            for (Path given : inputs.varFiles()) {
                ParsedFile parsed = readVarFile(given, diagnostics);
                if (parsed != null) {
                    diagnostics.addAll(parsed.diagnostics());
                    varFiles.add(parsed);
                }
            }
            if (diagnostics.hasErrors()) {
                return null;
            }
            ConfigDecoder.Inputs decoderInputs = new ConfigDecoder.Inputs(varFiles, inputs.processEnvironment(), inputs.vars(),
                    Path.of("").toAbsolutePath());
            return new Prepared(abs, rootKey, files, decoderInputs, this::readModule);
        }

        /** @return the configuration files parsed, their syntax errors added to {@code diagnostics} */
        private List<ParsedFile> readAll(List<Path> paths, Diagnostics diagnostics) {
            List<ParsedFile> files = new ArrayList<>();
            for (Path path : paths) {
                ParsedFile parsed = readFile(path, display(path), JsonSourceParser.CONFIGURATION_ROOT, diagnostics);
                if (parsed != null) {
                    diagnostics.addAll(parsed.diagnostics());
                    files.add(parsed);
                }
            }
            return files;
        }

        private List<Path> list(Path folder) throws IOException {
            try (Stream<Path> listing = Files.list(folder)) {
                return listing.filter(p -> p.getFileName().toString().endsWith(SUFFIX) && Files.isRegularFile(p))
                        .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                        .toList();
            }
        }

        /** @return {@code path} relative to the configuration folder, with {@code /} separators */
        private String display(Path path) {
            String shown;
            try {
                shown = root.relativize(path).toString();
            } catch (IllegalArgumentException e) {
                shown = path.toString();
            }
            shown = shown.replace('\\', '/');
            return shown.isEmpty() ? "." : shown;
        }

        /** @return the parsed file (possibly with syntax errors), or null after adding why it cannot be read */
        private ParsedFile readFile(Path path, String filename, String rootHolds, Diagnostics diagnostics) {
            try {
                long size = Files.size(path);
                if (size > MAX_FILE_BYTES) {
                    diagnostics.add(Diagnostic.error("Configuration file too large", filename + " has " + size
                            + " bytes; at most " + MAX_FILE_BYTES + " are accepted."));
                    return null;
                }
                ParsedFile parsed = JsonSourceParser.parse(filename, path.toAbsolutePath().getParent(), Files.readAllBytes(path),
                        rootHolds);
                if (parsed.text() != null && parsed.text().text() != null) {
                    sources.put(filename, parsed.text().text());
                } else {
                    // not UTF-8: a lossy decoding still shows where the bad bytes are
                    sources.put(filename, new String(Files.readAllBytes(path), java.nio.charset.StandardCharsets.UTF_8));
                }
                return parsed;
            } catch (IOException | RuntimeException e) {
                diagnostics.add(Diagnostic.error("Cannot read configuration file", filename + ": " + e.getMessage()));
                return null;
            }
        }

        private ParsedFile readVarFile(Path given, Diagnostics diagnostics) {
            String filename = given.toString().replace('\\', '/');
            if (!Files.isRegularFile(given)) {
                diagnostics.add(Diagnostic.error("Variable file not found", "The file " + filename + " given with --var-file "
                        + (Files.exists(given) ? "is not a regular file." : "does not exist.")
                        + " A relative path is relative to the working directory."));
                return null;
            }
            return readFile(given, filename, "whose properties are variable names", diagnostics);
        }

        /** The {@link ModuleReader} of this load: reads each module folder once. */
        private ModuleReader.Folder readModule(Path folder) {
            return folders.computeIfAbsent(folder, f -> {
                String shown = display(f);
                if (!Files.exists(f)) {
                    return new ModuleReader.Folder(null, shown, List.of(), "the folder does not exist");
                }
                if (!Files.isDirectory(f)) {
                    return new ModuleReader.Folder(null, shown, List.of(), "it is a file, not a folder");
                }
                String key;
                List<Path> paths;
                try {
                    key = f.toRealPath().toString();
                    paths = list(f);
                } catch (IOException | RuntimeException e) {
                    return new ModuleReader.Folder(null, shown, List.of(), "the folder cannot be read (" + e.getMessage() + ")");
                }
                if (paths.isEmpty()) {
                    return new ModuleReader.Folder(null, shown, List.of(), "the folder contains no *" + SUFFIX + " files");
                }
                List<ParsedFile> files = new ArrayList<>();
                Diagnostics problems = new Diagnostics();
                for (Path p : paths) {
                    ParsedFile parsed = readFile(p, display(p), JsonSourceParser.CONFIGURATION_ROOT, problems);
                    if (parsed != null) {
                        files.add(parsed);
                    }
                }
                if (problems.hasErrors()) {
                    return new ModuleReader.Folder(null, shown, List.of(), problems.list().get(0).detail());
                }
                return new ModuleReader.Folder(key, shown, files, null);
            });
        }
    }
}
