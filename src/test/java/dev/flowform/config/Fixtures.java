package dev.flowform.config;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Helpers shared by the loader tests: writing configuration folders and rendering diagnostics. */
final class Fixtures {

    private Fixtures() {
    }

    /** @return a checked-in example folder under {@code src/test/resources/config/} */
    static Path example(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/config/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code files} (name to UTF-8 content) into {@code dir}. @return dir */
    static Path write(Path dir, Map<String, String> files) {
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> f : files.entrySet()) {
                Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes one file called {@code main.flow.json}. @return dir */
    static Path writeMain(Path dir, String json) {
        return write(dir, Map.of("main.flow.json", json));
    }

    /** @return a map from alternating keys and values */
    static Map<String, String> vars(String... keysAndValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    /** @return one line per diagnostic: {@code file:line:col: Summary: detail}, or {@code Summary: detail} */
    static List<String> lines(Diagnostics diagnostics) {
        List<String> out = new ArrayList<>();
        for (Diagnostic d : diagnostics) {
            out.add(line(d));
        }
        return out;
    }

    /** @return {@code file:line:col: Summary: detail} (the location is left out for sourceless diagnostics) */
    static String line(Diagnostic d) {
        return (d.range() == null ? "" : d.range() + ": ") + d.summary() + ": " + d.detail();
    }

    /** @return the lines of the errors only */
    static List<String> errors(LoadResult result) {
        List<String> out = new ArrayList<>();
        for (Diagnostic d : result.diagnostics()) {
            if (d.isError()) {
                out.add(line(d));
            }
        }
        return out;
    }
}
