package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/} and the container image the build defines agree: the Job runs the tag Jib gives the image, as the
 * image's non-root user, through its entrypoint, without mounting over the folders flowform runs from, and its
 * paths, environment, variables and service account exist in the other documents, and the configuration it mounts is
 * valid for the arguments each container passes. Every kind of disagreement is reported when planted in a copy of
 * {@code job.yaml}. {@code DeployImageIT} checks the same against the built tar.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class DeployImageTest {

    static final Path POM = Path.of("pom.xml");
    static final Path ROOTFS = Path.of("src", "image", "rootfs.sh");
    static final Path JOB = Path.of("deploy", "job.yaml");

    @TempDir
    Path tmp;

    @Test
    void the_job_fits_the_image_the_build_defines() throws Exception {
        DeployImageCheck.ImageSpec image = DeployImageCheck.fromBuild(POM, ROOTFS);

        assertThat(image.tags()).contains("flowform:" + version());
        assertThat(image.home()).isEqualTo(image.workingDir());
        assertThat(DeployImageCheck.disagreements(image, deploy(JOB))).isEmpty();
    }

    @Test
    void the_configuration_the_job_mounts_is_valid_for_the_arguments_each_container_passes() throws IOException {
        List<HasMetadata> deploy = deploy(JOB);
        ConfigMap cm = deploy.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast).findFirst().orElseThrow();
        Path dir = Files.createDirectories(tmp.resolve("config"));
        cm.getData().forEach((k, v) -> write(dir.resolve(k), v));
        Job job = deploy.stream().filter(Job.class::isInstance).map(Job.class::cast).findFirst().orElseThrow();
        List<Container> containers = new ArrayList<>(job.getSpec().getTemplate().getSpec().getInitContainers());
        containers.addAll(job.getSpec().getTemplate().getSpec().getContainers());

        for (Container c : containers) {
            List<String> args = new ArrayList<>(List.of("validate", "--dir", dir.toString(), "--no-color"));
            for (int i = 1; i + 1 < c.getArgs().size(); i++) {
                if (List.of("-e", "--var").contains(c.getArgs().get(i))) {
                    args.addAll(List.of(c.getArgs().get(i), c.getArgs().get(i + 1).replaceAll("\\$\\([A-Z_]+\\)", "team-a")));
                }
            }
            CliRunner.Result r = CliRunner.fast().run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as("container %s: %s\n%s", c.getName(), args, r).isZero();
        }
    }

    @Test
    void each_kind_of_disagreement_is_reported() throws Exception {
        DeployImageCheck.ImageSpec image = DeployImageCheck.fromBuild(POM, ROOTFS);
        String tag = "flowform:" + version();

        assertThat(planted(image, t -> t.replace("image: " + tag, "image: flowform:latest")))
                .anyMatch(d -> d.contains("runs image flowform:latest, but the image is tagged only"))
                .anyMatch(d -> d.contains("always pulls its image"));
        assertThat(planted(image, t -> t.replace("runAsUser: 65532", "runAsUser: 1000")))
                .anyMatch(d -> d.contains("runAsUser 1000 is not the image's user"));
        assertThat(planted(image, t -> t.replace("runAsNonRoot: true", "runAsNonRoot: false")))
                .anyMatch(d -> d.contains("does not require runAsNonRoot"));
        assertThat(planted(image, t -> t.replace("mountPath: /plan}", "mountPath: /opt/flowform}")))
                .anyMatch(d -> d.contains("over /opt/flowform"));
        assertThat(planted(image, t -> t.replace("{name: plan, mountPath: /plan}", "{name: plan, mountPath: /plans}")))
                .anyMatch(d -> d.contains("writes --out /plan/prod.plan outside a writable volume"))
                .anyMatch(d -> d.contains("applies /plan/prod.plan, which is on no volume"));
        assertThat(planted(image, t -> t.replace("-e, prod,", "-e, production,")))
                .anyMatch(d -> d.contains("selects environment production"));
        assertThat(planted(image, t -> t.replace("--dir, /config,", "--dir, /conf,")))
                .anyMatch(d -> d.contains("reads --dir /conf, where no ConfigMap is mounted"));
        assertThat(planted(image, t -> t.replace("name: POD_NAMESPACE", "name: NAMESPACE")))
                .anyMatch(d -> d.contains("passes $(POD_NAMESPACE) but sets no such variable"));
    }

    private List<String> planted(DeployImageCheck.ImageSpec image, UnaryOperator<String> edit) throws IOException {
        String original = Files.readString(JOB);
        String changed = edit.apply(original);
        assertThat(changed).as("the edit applies to job.yaml").isNotEqualTo(original);
        Path job = tmp.resolve("job-" + System.nanoTime() + ".yaml");
        Files.writeString(job, changed);
        return DeployImageCheck.disagreements(image, deploy(job));
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return the documents of {@code deploy/}, with {@code job} in place of {@code deploy/job.yaml} */
    static List<HasMetadata> deploy(Path job) {
        List<HasMetadata> docs = new ArrayList<>(RbacCheck.read(Path.of("deploy", "rbac.yaml")));
        docs.addAll(RbacCheck.read(Path.of("deploy", "configmap.yaml")));
        List<HasMetadata> jobs = RbacCheck.read(job);
        assertThat(jobs).hasAtLeastOneElementOfType(Job.class);
        docs.addAll(jobs);
        return docs;
    }

    private static String version() throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<artifactId>flowform</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(POM));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
