package dev.flowform.config;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import dev.flowform.config.syntax.Suggestions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Decodes the root folder's {@code backend} blocks into a {@link StateBackend}: at most one block, of type
 * {@code local}, with an optional literal {@code path} (default {@value StateBackend#DEFAULT_FOLDER}) relative to
 * the declaring file's folder. Shared by the full decoding and by the quick look-up of commands that read only
 * state ({@link ConfigLoader#backend}).
 */
final class BackendDecoder {

    /** Backend types other configuration tools know, with why flowform refuses them. */
    private static final Map<String, String> NOT_YET = Map.of(
            "pg", "The \"pg\" backend (state in PostgreSQL) is not supported yet.",
            "s3", "The \"s3\" backend is not supported.",
            "remote", "The \"remote\" backend is not supported.");

    private static final Blocks.Schema LOCAL = new Blocks.Schema("backend \"local\"", List.of("path"), List.of(), Map.of());

    private BackendDecoder() {
    }

    /**
     * @param blocks    the {@code backend} blocks of the root folder, in file order
     * @param configDir the configuration folder (absolute), for the default
     * @param sink      receives the problems
     * @return the backend (the default when there is no usable block)
     */
    static StateBackend decode(List<Blocks.Block> blocks, Path configDir, Sink sink) {
        StateBackend backend = StateBackend.defaultFor(configDir);
        Blocks.Block first = null;
        for (Blocks.Block b : blocks) {
            if (first != null) {
                sink.error("Duplicate backend block", "A backend block was already declared at " + first.labelRange()
                        + "; a configuration keeps its state in one place, so only one is allowed.", b.labelRange());
                continue;
            }
            first = b;
            if (!b.name().equals(StateBackend.LOCAL)) {
                String known = NOT_YET.getOrDefault(b.name(), "");
                sink.error("Unsupported backend type", "Backend type \"" + Names.abbreviate(b.name()) + "\" is not supported. "
                        + (known.isEmpty() ? "" : known + " ") + "The supported backend type is \"local\": "
                        + "{\"backend\": {\"local\": {\"path\": \"state\"}}}, a state folder relative to this file."
                        + Suggestions.didYouMean(b.name(), List.of(StateBackend.LOCAL)), b.labelRange());
                continue;
            }
            Blocks.Content content = Blocks.decode(b, LOCAL, sink);
            Arguments args = new Arguments(content, n -> Evaluator.literal(n, "a backend block", sink), sink);
            String text = args.strictString("path", "a folder path");
            if (text == null) {
                if (args.has("path") && !args.unset("path")) {
                    continue;
                }
                text = StateBackend.DEFAULT_FOLDER;
            }
            if (text.isBlank()) {
                sink.error("Invalid backend path", "The state folder path is empty; write a folder, e.g. \"state\".",
                        args.valueRange("path"));
                continue;
            }
            Path base = b.file().baseDir() != null ? b.file().baseDir() : configDir;
            try {
                Path p = Path.of(text);
                backend = new StateBackend(StateBackend.LOCAL, (p.isAbsolute() ? p : base.resolve(p)).normalize(),
                        b.labelRange());
            } catch (InvalidPathException e) {
                sink.error("Invalid backend path", "\"" + Names.abbreviate(text) + "\" is not a valid path: " + e.getReason()
                        + ".", args.valueRange("path"));
            }
        }
        return backend;
    }
}
