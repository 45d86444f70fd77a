package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/} fits the image {@code mvn package} built ({@code target/flowform-image.tar}): its tags, user,
 * entrypoint, working directory and folders, read from the tar, are the ones the build defines, and the Job agrees
 * with them ({@link DeployImageCheck}).
 */
class DeployImageIT {
    /** Set by the failsafe configuration in pom.xml; absent when surefire picks this class up (-Dtest=...). */
    private static final String BUILD_DIR = System.getProperty("flowform.build.dir");

    @Test
    void the_job_fits_the_built_image() throws Exception {
        assumeTrue(BUILD_DIR != null, "runs under failsafe, after the package phase");
        Path tar = Path.of(BUILD_DIR, "flowform-image.tar");
        assumeTrue(Files.isRegularFile(tar), "needs target/flowform-image.tar (profile image: Linux, not -Djib.skip)");

        DeployImageCheck.ImageSpec built = DeployImageCheck.fromTar(tar);
        DeployImageCheck.ImageSpec defined = DeployImageCheck.fromBuild(DeployImageTest.POM, DeployImageTest.ROOTFS);

        assertThat(built.tags()).containsExactlyInAnyOrderElementsOf(defined.tags());
        assertThat(built.user()).isEqualTo(defined.user());
        assertThat(built.entrypoint()).isEqualTo(defined.entrypoint());
        assertThat(built.workingDir()).isEqualTo(defined.workingDir());
        assertThat(built.home()).isEqualTo(defined.home());
        assertThat(built.env()).containsAllEntriesOf(defined.env());
        assertThat(DeployImageCheck.disagreements(built, DeployImageTest.deploy(DeployImageTest.JOB))).isEmpty();
    }
}
