package dev.flowform.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
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
 * 40% less. Built by one {@code flowform plan} of the quickstart under the build folder, in a folder named by a digest
 * of the class path, the options and the size and time of every class file: the test JVMs of one run (surefire
 * forks) share it, the first to need it building it under a file lock while the others wait, and a later run on
 * unchanged classes reuses it. Archiving costs about three times a child's start (about 14 s of CPU against 4 s on
 * the 2-core build machine), so building it once instead of once per test JVM saves that much per extra fork.
 * Folders of other digests are removed when nobody holds their lock.
 *
 * <p>The JVM archives classes from jar files only, so the class path's folders ({@code target/classes},
 * {@code target/test-classes}) are first copied into jars. When anything fails (no base archive in this JDK, a
 * read-only build folder), children run as before, without an archive: it only saves time.
 */
final class ChildClassData {

    /** The archiving run is one plan of the quickstart; past this something is wrong and children go without. */
    private static final java.time.Duration DUMP_LIMIT = java.time.Duration.ofMinutes(5);
    private static final String LOCK = "lock";
    private static final String ARCHIVE = "flowform.jsa";

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
            Path dir = Files.createDirectories(folder.resolve("child-cds-" + digest(classPath, baseOptions)));
            try (FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = ch.lock()) {
                removeOthers(folder, dir);
                Path ready = dir.resolve("ready");
                if (!Files.exists(ready)) {
                    String jars = dump(classPath, baseOptions, dir);
                    if (jars != null) {
                        Files.writeString(ready, jars);
                    }
                }
                return Files.exists(ready) ? new Setup(Files.readString(ready), List.of("-XX:SharedArchiveFile="
                        + dir.resolve(ARCHIVE), "-Xlog:disable")) : none;
            }
        } catch (IOException | UncheckedIOException | OverlappingFileLockException e) {
            return none;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return none;
        }
    }

    /** Jars the class path's folders into {@code dir} and archives one plan there; @return the jars' class path, or null. */
    private static String dump(String classPath, List<String> baseOptions, Path dir) throws IOException, InterruptedException {
        List<String> entries = new ArrayList<>();
        for (String e : classPath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            entries.add(Files.isDirectory(p) ? jar(p, dir.resolve(p.getFileName() + ".jar")).toString() : e);
        }
        String jars = String.join(File.pathSeparator, entries);
        Path archive = dir.resolve(ARCHIVE);
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
            return null;
        }
        return p.exitValue() == 0 && Files.isRegularFile(archive) ? jars : null;
    }

    /**
     * @return a digest of the class path, the options and the path, size and modification time of every file in the
     *         class path's folders: it changes whenever the children would run other classes
     */
    private static String digest(String classPath, List<String> options) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder sb = new StringBuilder(classPath).append('\n').append(options).append('\n');
        for (String e : classPath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.walk(p)) {
                    for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                        sb.append(f).append(' ').append(Files.size(f)).append(' ')
                                .append(Files.getLastModifiedTime(f).toMillis()).append('\n');
                    }
                }
            }
        }
        return HexFormat.of().formatHex(md.digest(sb.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
    }

    /** Deletes the archive folders of other digests that no test JVM holds (a run on older classes left them). */
    private static void removeOthers(Path folder, Path keep) throws IOException {
        try (Stream<Path> dirs = Files.list(folder)) {
            for (Path d : (Iterable<Path>) dirs.filter(d -> d.getFileName().toString().startsWith("child-cds-")
                    && !d.equals(keep) && Files.isDirectory(d))::iterator) {
                if (!Files.exists(d.resolve(LOCK))) {
                    deleteQuietly(d);
                    continue;
                }
                try (FileChannel ch = FileChannel.open(d.resolve(LOCK), StandardOpenOption.WRITE); FileLock l = ch.tryLock()) {
                    if (l != null) {
                        deleteQuietly(d);
                    }
                } catch (IOException | OverlappingFileLockException e) {
                    // in use or gone: leave it
                }
            }
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
