package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The root command line builds only the subcommand the arguments run, none for a lone version option, and all of them
 * when it cannot tell which.
 */
class SubcommandRegistrationTest {

    @Test
    void aSubcommandNamedFirstIsTheOnlyOneBuilt() {
        CommandLine cl = Main.commandLine(CliRunner.unattended(), "plan", "--dir", "x");
        assertThat(cl.getSubcommands().keySet()).containsExactly("plan");
        assertThat(Main.commandLine(CliRunner.unattended(), "force-unlock", "1").getSubcommands().keySet())
                .containsExactly("force-unlock");
    }

    @Test
    void helpCompletionOptionsAndUnknownNamesGetEverySubcommandInHelpOrder() {
        for (String[] args : new String[][] {{}, {"--help"}, {"-V", "plan"}, {"help", "plan"}, {"completion", "bash"}, {"pln"}}) {
            CommandLine cl = Main.commandLine(CliRunner.unattended(), args);
            assertThat(cl.getSubcommands().keySet()).as(String.join(" ", args))
                    .containsExactlyElementsOf(FlowformCommand.SUBCOMMANDS.keySet());
        }
        assertThat(FlowformCommand.SUBCOMMANDS.keySet()).startsWith("plan", "apply").contains("cluster", "import", "help");
    }

    @Test
    void aLoneVersionOptionBuildsNoSubcommandAndStillPrintsTheVersion() {
        for (String option : new String[] {"--version", "-V"}) {
            assertThat(Main.commandLine(CliRunner.unattended(), option).getSubcommands()).as(option).isEmpty();
            CliRunner.Result r = CliRunner.fast().run(option);
            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).startsWith("flowform ");
        }
    }

    @Test
    void aMisspelledSubcommandIsStillSuggested() {
        CliRunner.Result r = CliRunner.fast().run("pln");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("Did you mean").contains("plan");
    }
}
