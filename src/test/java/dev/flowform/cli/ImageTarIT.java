package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opens the container image {@code mvn package} built with Jib ({@code target/flowform-image.tar}, the layout of
 * {@code docker save}: manifest.json, the config JSON, one tar.gz per layer) without a container engine, and checks
 * what a Kubernetes Job relies on: the entrypoint is the launcher, the user is not root, and the layers hold the
 * launcher, the jar, a Java runtime, the shell the launcher runs on and the libraries they load.
 */
class ImageTarIT {
    /** Set by the failsafe configuration in pom.xml; absent when surefire picks this class up (-Dtest=...). */
    private static final String BUILD_DIR = System.getProperty("flowform.build.dir");
    private static final Path TARGET = Path.of(BUILD_DIR == null ? "target" : BUILD_DIR);
    private static final Path IMAGE = TARGET.resolve("flowform-image.tar");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One file of a layer: its mode bits, size, and SHA-256 for the files this test compares. */
    private record LayerFile(int mode, long size, String sha256, String text) {
    }

    private static final Map<String, byte[]> TOP = new HashMap<>();
    private static final Map<String, LayerFile> FILES = new HashMap<>();

    @BeforeAll
    static void read() throws IOException {
        assumeTrue(BUILD_DIR != null, "runs under failsafe, after the package phase");
        assumeTrue(Files.isRegularFile(IMAGE), "needs target/flowform-image.tar (profile image: Linux, not -Djib.skip)");
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(IMAGE)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                if (e.getName().endsWith(".tar.gz")) {
                    readLayer(tar);
                    TOP.put(e.getName(), new byte[0]);
                } else {
                    TOP.put(e.getName(), tar.readAllBytes());
                }
            }
        }
    }

    /** Reads one layer; a later layer's file replaces an earlier one's, as in the container's file system. */
    private static void readLayer(InputStream layer) throws IOException {
        TarArchiveInputStream files = new TarArchiveInputStream(new GzipCompressorInputStream(layer));
        for (TarArchiveEntry f = files.getNextEntry(); f != null; f = files.getNextEntry()) {
            String name = "/" + f.getName().replaceFirst("^\\./", "").replaceFirst("^/", "");
            if (f.isDirectory()) {
                FILES.put(name.replaceFirst("/$", ""), new LayerFile(f.getMode(), 0, "", ""));
                continue;
            }
            MessageDigest sha = sha256();
            byte[] buffer = new byte[1 << 16];
            long size = 0;
            StringBuilder text = new StringBuilder();
            for (int n = files.read(buffer); n > 0; n = files.read(buffer)) {
                sha.update(buffer, 0, n);
                size += n;
                if (name.startsWith("/etc/") || name.equals("/opt/java/release") || name.endsWith(".jvm")) {
                    text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
            FILES.put(name, new LayerFile(f.getMode(), size, HexFormat.of().formatHex(sha.digest()), text.toString()));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static JsonNode config() {
        JsonNode manifest = JSON.readTree(TOP.get("manifest.json"));
        return JSON.readTree(TOP.get(manifest.get(0).get("Config").asString()));
    }

    @Test
    void manifestNamesTheConfigAndLayersInTheTar() {
        assertThat(TOP).containsKey("manifest.json");
        JsonNode manifest = JSON.readTree(TOP.get("manifest.json"));

        assertThat(manifest.isArray()).isTrue();
        assertThat(manifest.size()).isEqualTo(1);
        JsonNode image = manifest.get(0);
        assertThat(TOP).containsKey(image.get("Config").asString());
        assertThat(image.get("RepoTags").get(0).asString()).startsWith("flowform:");
        List<String> layers = new ArrayList<>();
        image.get("Layers").forEach(l -> layers.add(l.asString()));
        assertThat(layers).isNotEmpty();
        assertThat(TOP.keySet()).containsAll(layers);
        assertThat(config().get("rootfs").get("diff_ids").size()).isEqualTo(layers.size());
    }

    @Test
    void entrypointIsTheLauncherFoundAsFlowformOnPath() {
        JsonNode c = config().get("config");

        assertThat(c.get("Entrypoint").size()).isEqualTo(1);
        assertThat(c.get("Entrypoint").get(0).asString()).isEqualTo("/opt/flowform/bin/flowform");
        List<String> env = new ArrayList<>();
        c.get("Env").forEach(e -> env.add(e.asString()));
        assertThat(env).contains("JAVA_HOME=/opt/java").anyMatch(e -> e.matches("PATH=(.*:)?/opt/flowform/bin(:.*)?"));
        assertThat(config().get("os").asString()).isEqualTo("linux");
    }

    @Test
    void runsAsAnUnprivilegedUserTheImageNames() {
        String user = config().get("config").get("User").asString();

        assertThat(user).matches("[0-9]+:[0-9]+");
        String uid = user.substring(0, user.indexOf(':'));
        assertThat(Integer.parseInt(uid)).isPositive();
        assertThat(FILES.get("/etc/passwd").text()).containsPattern("(?m)^flowform:x:" + uid + ":[0-9]+:[^:]*:/home/flowform:");
        // Jib writes every file as root: the user's home and /tmp must be writable by others
        assertThat(FILES.get("/home/flowform").mode() & 0777).isEqualTo(0777);
        assertThat(FILES.get("/tmp").mode() & 0777).isEqualTo(0777);
    }

    @Test
    void layersHoldTheLauncherTheJarAndWhatTheyRunOn() throws IOException {
        assertThat(FILES.get("/opt/flowform/bin/flowform").mode() & 0111).isEqualTo(0111);
        LayerFile jar = FILES.get("/opt/flowform/lib/flowform.jar");
        assertThat(jar).isNotNull();
        assertThat(jar.sha256()).as("the image's jar is the built one").isEqualTo(sha256(TARGET.resolve("flowform.jar")));
        assertThat(FILES.get("/opt/flowform/bin/flowform").sha256()).as("the launcher")
                .isEqualTo(sha256(Path.of("src", "dist", "bin", "flowform")));
        for (String exe : List.of("/opt/java/bin/java", "/bin/sh")) {
            assertThat(FILES.get(exe)).as(exe).isNotNull();
            assertThat(FILES.get(exe).mode() & 0111).as(exe).isEqualTo(0111);
        }
        assertThat(FILES).containsKeys("/opt/java/lib/server/libjvm.so", "/opt/java/lib/modules", "/opt/flowform/completion/flowform.bash");
        assertThat(FILES.keySet()).anyMatch(f -> f.matches("/lib(64)?/.*ld-linux.*\\.so\\.[0-9]+"))
                .anyMatch(f -> f.matches("/lib.*/libc\\.so\\.6"));
        // a Java 25+ runtime comes with its AOT cache and the stamp the launcher checks it by (Java 17: neither)
        String release = FILES.get("/opt/java/release").text();
        boolean java25 = !release.contains("JAVA_VERSION=\"17");
        assertThat(FILES.containsKey("/opt/flowform/lib/flowform.aot")).as(release).isEqualTo(java25);
        if (java25) {
            assertThat(FILES.get("/opt/flowform/lib/flowform.aot.jvm").text().lines().sorted().toList())
                    .isEqualTo(release.lines().filter(l -> l.matches("(IMPLEMENTOR|JAVA_RUNTIME_VERSION)=.*")).sorted().toList())
                    .hasSize(2);
        }
        // no copy of the project's classes and dependencies in Jib's /app: the image runs the shaded jar only
        assertThat(FILES.keySet()).noneMatch(f -> f.startsWith("/app/"));
    }
}
