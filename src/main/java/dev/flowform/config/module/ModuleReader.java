package dev.flowform.config.module;

import dev.flowform.config.syntax.ParsedFile;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the files of a module folder for the decoder, which reads no files itself.
 * {@link dev.flowform.config.ConfigLoader} implements it on the file system; tests may implement it on maps.
 */
public interface ModuleReader {

    /**
     * A module folder as read.
     *
     * @param key     identifies the folder for cycle detection (its real path), or null when it cannot be read
     * @param display the folder as messages show it, relative to the configuration folder
     * @param files   its {@code *.flow.json} files in name order, parsed (possibly with syntax errors)
     * @param problem why the folder cannot be used (missing, not a folder, no files, unreadable), or null
     */
    public record Folder(String key, String display, List<ParsedFile> files, String problem) {
        /** Copies the files. */
        public Folder {
            files = files == null ? List.of() : List.of(files.toArray(ParsedFile[]::new));
        }
    }

    /** @return the files of {@code folder} (absolute, normalised), or the reason it cannot be used */
    Folder read(Path folder);
}
