package dev.flowform.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * A class-data-sharing archive (JDK 13+ dynamic AppCDS, {@code -XX:ArchiveClassesAtExit}) for the child JVMs of
 * {@link ChildFlowform}: every child loads and verifies the same few thousand classes (fabric8, the mock API server,
 * Jackson, H2, picocli), which costs it well over a second of CPU on a 2-core machine; mapped from the archive, about
 * 40% less. Built once per test JVM, on the first child, by one {@code flowform plan} of the quickstart.
 *
 * <p>The JVM archives classes from jar files only, so the class path's folders ({@code target/classes},
 * {@code target/test-classes}) are first copied into jars. When anything fails (no base archive in this JDK, a
 * read-only build folder), children run as before, without an archive: it only saves time.
 */
final class ChildClassData {

    /** The archiving run is one plan of the quickstart; past this something is wrong and children go without. */
    private static final java.time.Duration DUMP_LIMIT = java.time.Duration.ofMinutes(5);

    private static Setup setup;

    /**
     * @param classPath the class path the children would run with
     * @param options   JVM options the children run with (the archive must be made with the same)
     */
    private record Setup(String classPath, List<String> options) {
    }

    private ChildClassData() {
    }

    /**
     * @param classPath   the test JVM's class path
     * @param baseOptions the children's JVM options
     * @return the class path and extra JVM options for a child: with the archive, or {@code classPath} and none
     */
    static synchronized List<String> forChild(String classPath, List<String> baseOptions) {
        if (setup == null) {
            setup = build(classPath, baseOptions);
        }
        List<String> out = new ArrayList<>(setup.options());
        out.add("-cp");
        out.add(setup.classPath());
        return out;
    }

    private static Setup build(String classPath, List<String> baseOptions) {
        Setup none = new Setup(classPath, List.of());
        try {
            Path folder = buildFolder(classPath);
            if (folder == null) {
                return none;
            }
            Path dir = Files.createTempDirectory(folder, "child-cds-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir), "child-cds-cleanup"));
            List<String> entries = new ArrayList<>();
            for (String e : classPath.split(File.pathSeparator)) {
                Path p = Path.of(e);
                entries.add(Files.isDirectory(p) ? jar(p, dir.resolve(p.getFileName() + ".jar")).toString() : e);
            }
            String jars = String.join(File.pathSeparator, entries);
            Path archive = dir.resolve("flowform.jsa");
            Path qs = CliFiles.quickstart(dir.resolve("qs"));
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(baseOptions);
            cmd.addAll(List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:disable", "-cp", jars, Main.class.getName(),
                    "plan", "--dir", qs.toString(), "--state-dir", dir.resolve("state").toString(), "--no-color"));
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("archive.log").toFile()).start();
            if (!p.waitFor(DUMP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return none;
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(archive)) {
                return none;
            }
            return new Setup(jars, List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:disable"));
        } catch (IOException | UncheckedIOException e) {
            return none;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return none;
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // a leftover under target/ does no harm
        }
    }

    /** @return the build folder (the parent of {@code test-classes}), or null when the class path has none */
    private static Path buildFolder(String classPath) {
        for (String e : classPath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (Files.isDirectory(p) && p.getFileName() != null && p.getFileName().toString().equals("test-classes")) {
                return p.toAbsolutePath().getParent();
            }
        }
        return null;
    }

    /** Copies the files under {@code folder} into the jar {@code target}, uncompressed (it is read once). */
    private static Path jar(Path folder, Path target) throws IOException {
        try (OutputStream out = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(out);
             Stream<Path> files = Files.walk(folder)) {
            jar.setLevel(Deflater.NO_COMPRESSION);
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                String name = folder.relativize(f).toString().replace(File.separatorChar, '/');
                if (name.isEmpty()) {
                    continue;
                }
                if (Files.isDirectory(f)) {
                    jar.putNextEntry(new JarEntry(name + "/"));
                } else {
                    jar.putNextEntry(new JarEntry(name));
                    Files.copy(f, jar);
                }
                jar.closeEntry();
            }
        }
        return target;
    }
}
