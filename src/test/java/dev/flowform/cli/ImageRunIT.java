package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the container image without a container engine: its layers unpacked into a folder, {@code /proc} mounted and
 * the basic {@code /dev} files made as a container runtime would, then the image's entrypoint started with
 * {@code chroot} as the image's user. Shows that the runtime, the libraries copied for it and the launcher are
 * complete, with nothing of the build machine visible. Needs root and permission to mount and make device files
 * (skipped otherwise).
 */
@Tag("slow")
class ImageRunIT {
    private static final String BUILD_DIR = System.getProperty("flowform.build.dir");
    private static final Path IMAGE = Path.of(BUILD_DIR == null ? "target" : BUILD_DIR, "flowform-image.tar");
    private static final Path CHROOT = Path.of("/usr/sbin/chroot");

    @TempDir
    Path dir;

    private static int exec(List<String> command, Path output) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    private static void unpack(Path root) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(IMAGE)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                if (e.getName().endsWith(".tar.gz")) {
                    unpackLayer(new GzipCompressorInputStream(tar), root);
                }
            }
        }
    }

    private static void unpackLayer(InputStream layer, Path root) throws IOException {
        TarArchiveInputStream files = new TarArchiveInputStream(layer);
        for (TarArchiveEntry f = files.getNextEntry(); f != null; f = files.getNextEntry()) {
            Path target = root.resolve(f.getName()).normalize();
            assertThat(target.startsWith(root)).as(f.getName()).isTrue();
            if (f.isDirectory()) {
                Files.createDirectories(target);
            } else {
                Files.createDirectories(target.getParent());
                Files.copy(files, target);
            }
            Files.setPosixFilePermissions(target, permissions(f.getMode()));
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (0400 >> i)) != 0) {
                out.add(bits[i]);
            }
        }
        return out;
    }

    @Test
    void entrypointPlansTheQuickstartAsTheImageUser() throws Exception {
        assumeTrue(BUILD_DIR != null && Files.isRegularFile(IMAGE), "needs target/flowform-image.tar, under failsafe");
        assumeTrue(Files.isExecutable(CHROOT) && "root".equals(System.getProperty("user.name")), "needs root and chroot");
        Path root = dir.resolve("root").toAbsolutePath();
        unpack(root);
        CliFiles.quickstart(root.resolve("home/flowform/qs"));
        assertThat(exec(List.of("chmod", "-R", "a+rwX", root.resolve("home/flowform/qs").toString()), dir.resolve("chmod"))).isZero();
        Files.createDirectories(root.resolve("proc"));
        Files.createDirectories(root.resolve("dev"));
        // the device files a container runtime provides (made here, not bind-mounted: cleaning up the folder
        // must never reach the host's /dev)
        for (String[] dev : new String[][] {{"null", "3"}, {"zero", "5"}, {"random", "8"}, {"urandom", "9"}}) {
            assumeTrue(exec(List.of("mknod", "-m", "666", root.resolve("dev").resolve(dev[0]).toString(), "c", "1", dev[1]),
                    dir.resolve("mknod")) == 0, "may not make device files");
        }
        List<Path> mounted = new ArrayList<>();
        try {
            assumeTrue(exec(List.of("mount", "-t", "proc", "proc", root.resolve("proc").toString()), dir.resolve("m1")) == 0,
                    "may not mount");
            mounted.add(root.resolve("proc"));
            Path out = dir.resolve("out.txt");
            // the image's config: user 65532:65532, PATH and JAVA_HOME as set by Jib; sh -c as a Job's command runs
            int code = exec(List.of("env", "-i", "PATH=/opt/flowform/bin:/opt/java/bin:/bin", "JAVA_HOME=/opt/java",
                    "HOME=/home/flowform", CHROOT.toString(), "--userspec=65532:65532", root.toString(), "/bin/sh", "-c",
                    "cd /home/flowform && id=$(flowform --version) && echo \"$id\" && "
                            + "flowform plan --dir qs --state-dir /tmp/state --out /tmp/plan.json --no-color"), out);

            String printed = Files.readString(out);
            assertThat(code).as(printed).isZero();
            assertThat(printed).startsWith("flowform ").contains("Saved the plan to: /tmp/plan.json")
                    .contains("flowform apply /tmp/plan.json --dir qs -e demo --state-dir /tmp/state");
            assertThat(root.resolve("tmp/plan.json")).isRegularFile();
            if (Files.isRegularFile(root.resolve("opt/flowform/lib/flowform.aot"))) {
                // AOTMode=on: the JVM refuses to start unless it can use the cache, here at the image's own paths
                Path aot = dir.resolve("aot.txt");
                int aotCode = exec(List.of("env", "-i", "PATH=/opt/flowform/bin:/opt/java/bin:/bin", "JAVA_HOME=/opt/java",
                        "HOME=/home/flowform", "JAVA_OPTS=-XX:AOTMode=on", CHROOT.toString(), "--userspec=65532:65532",
                        root.toString(), "/bin/sh", "-c", "cd /home/flowform && flowform plan --dir qs --state-dir /tmp/state2 "
                                + "--no-color"), aot);
                assertThat(aotCode).as(Files.readString(aot)).isZero();
            }
        } finally {
            for (int i = mounted.size() - 1; i >= 0; i--) {
                exec(List.of("umount", mounted.get(i).toString()), dir.resolve("umount"));
            }
        }
    }
}
