package dev.flowform.cli;

import dev.flowform.sim.SimSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** Runs flowform in-process with captured stdout/stderr (kcctl's KcctlCommandContext idea). */
final class CliRunner {

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    private final CliContext context;

    CliRunner(CliContext context) {
        this.context = context;
    }

    /** A runner with fast simulated-operator timings, no terminal and the given answers to prompts. */
    static CliRunner fast(String... answers) {
        List<String> queue = new java.util.ArrayList<>(List.of(answers));
        Prompter prompter = new Prompter() {
            @Override
            public boolean interactive() {
                return answers.length > 0;
            }

            @Override
            public String ask(String prompt) {
                return queue.isEmpty() ? null : queue.remove(0);
            }
        };
        return new CliRunner(new CliContext(Clock.systemUTC(), prompter, Map.of(), SimSettings.fast(), Duration.ofSeconds(10)));
    }

    /** A context like the real process's (demo timings, 10 s progress) without a terminal to ask on. */
    static CliContext unattended() {
        return new CliContext(Clock.systemUTC(), new Prompter() {
            @Override
            public boolean interactive() {
                return false;
            }

            @Override
            public String ask(String prompt) {
                return null;
            }
        }, Map.of(), null, Duration.ofSeconds(10));
    }

    Result run(String... args) {
        return run(new StringWriter(), new StringWriter(), args);
    }

    /** Runs with the caller's writers, so another thread can watch the output while the command runs. */
    Result run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine(context, args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
