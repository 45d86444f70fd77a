package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The program name in printed commands: what {@code bin/flowform} says it was started as, quoted for a shell. */
class CommandHintTest {

    @AfterEach
    void clear() {
        System.clearProperty(CommandHint.PROGRAM_PROPERTY);
    }

    @Test
    void launcherFoundOnPathIsPrintedAsFlowform() {
        System.setProperty(CommandHint.PROGRAM_PROPERTY, "flowform");

        assertThat(CommandHint.command("apply", List.of("plan file.json", "-e", "demo")))
                .isEqualTo("flowform apply 'plan file.json' -e demo");
    }

    @Test
    void launcherStartedByPathIsPrintedAsThatPathQuoted() {
        System.setProperty(CommandHint.PROGRAM_PROPERTY, "/opt/my tools/bin/flowform");

        assertThat(CommandHint.command("force-unlock", List.of("abc")))
                .isEqualTo("'/opt/my tools/bin/flowform' force-unlock abc");
    }

    @Test
    void withoutTheLauncherTheTestRunnerIsNotAJarOfFlowform() {
        assertThat(CommandHint.program()).isEqualTo("flowform");
    }
}
