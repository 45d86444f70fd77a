package dev.flowform.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flowform completion bash|zsh}: a completion script made by picocli's {@link AutoComplete#bash(String,
 * picocli.CommandLine)} from the command tree itself, so it never lags behind; zsh runs it through
 * {@code bashcompinit}, which the script loads itself.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a shell completion script for flowform's subcommands and options.", "",
                "bash:  source <(flowform completion bash)    (or save it in ~/.local/share/bash-completion/completions/flowform)",
                "zsh:   source <(flowform completion zsh)     (bash-style completion: the script runs",
                "       'autoload -U +X bashcompinit && bashcompinit' itself, zsh's emulation of bash completion)"})
public final class CompletionCommand implements Callable<Integer> {

    /** The shells a script can be printed for. */
    enum Shell {
        /** bash 4+, programmable completion. */
        BASH,
        /** zsh, through {@code bashcompinit}. */
        ZSH
    }

    /** Put below the script's first line for zsh: the same script, run through zsh's bash completion emulation. */
    static final String ZSH_NOTE = "# zsh: this is the bash completion script; sourced by zsh it loads bashcompinit, "
            + "zsh's emulation of bash completion.\n";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh.")
    Shell shell;

    @Override
    public Integer call() {
        String script = AutoComplete.bash("flowform", spec.root().commandLine());
        if (shell == Shell.ZSH) {
            int eol = script.indexOf('\n') + 1;
            script = script.substring(0, eol) + ZSH_NOTE + script.substring(eol);
        }
        java.io.PrintWriter out = spec.commandLine().getOut();
        out.print(script);
        out.flush();
        return 0;
    }
}
