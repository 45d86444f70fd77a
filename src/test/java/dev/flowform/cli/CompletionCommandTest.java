package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code flowform completion bash|zsh}: the script names every subcommand and their options, and bash parses it. */
class CompletionCommandTest {

    private static CliRunner.Result run(String... args) {
        CommandLine cl = Main.commandLine(CliRunner.unattended());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRunner.Result(code, out.toString(), err.toString());
    }

    @Test
    void bashScriptCompletesEverySubcommandAndItsOptions() {
        CliRunner.Result r = run("completion", "bash");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        String script = r.out();
        assertThat(script).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_flowform");
        CommandLine root = Main.commandLine(CliRunner.unattended());
        assertThat(root.getSubcommands().keySet()).contains("plan", "apply", "force-unlock", "completion");
        for (String sub : root.getSubcommands().keySet()) {
            assertThat(script).as("subcommand " + sub).contains(sub);
        }
        // options of several subcommands, and the values of an enum-typed parameter
        assertThat(script).contains("--detailed-exitcode", "--refresh-only", "--auto-approve", "--lock-timeout",
                "--state-dir", "--json");
        assertThat(script).contains("BASH", "ZSH");
    }

    @Test
    void zshScriptIsTheBashScriptLoadingBashcompinit() {
        String bash = run("completion", "bash").out();
        CliRunner.Result r = run("completion", "zsh");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("#!/usr/bin/env bash\n" + CompletionCommand.ZSH_NOTE)
                .contains("autoload -U +X bashcompinit && bashcompinit");
        assertThat(r.out().replace(CompletionCommand.ZSH_NOTE, "")).isEqualTo(bash);
    }

    @Test
    void bashAcceptsTheScript(@TempDir Path dir) throws IOException, InterruptedException {
        Path bash = Path.of("/bin/bash");
        assumeTrue(Files.isExecutable(bash), "needs bash");
        Path script = dir.resolve("flowform.bash");
        Files.writeString(script, run("completion", "bash").out(), StandardCharsets.UTF_8);

        Process check = new ProcessBuilder(bash.toString(), "-n", script.toString()).redirectErrorStream(true).start();
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.exitValue()).as(output).isZero();

        // sourced, it registers the completion function for flowform
        Process source = new ProcessBuilder(bash.toString(), "-c", "source \"$1\" && complete -p flowform", "x",
                script.toString()).redirectErrorStream(true).start();
        assertThat(source.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String registered = new String(source.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(source.exitValue()).as(registered).isZero();
        assertThat(registered).contains("-F _complete_flowform").contains("flowform");
    }

    @Test
    void unknownShellIsAUsageError() {
        CliRunner.Result r = run("completion", "fish");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("fish").contains("BASH, ZSH").doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }
}
