package dev.flowform.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Commands flowform prints for the user to run next, written so they work pasted into the same shell: the program as
 * it was started (the launcher's path, {@code java -jar ...}, or {@code flowform}), then the arguments as the user gave
 * them, quoted for a POSIX shell where needed.
 */
final class CommandHint {

    /**
     * System property {@code bin/flowform} sets to how it was started: {@code flowform} when the shell's PATH finds
     * that very launcher, else the path it was started by.
     */
    static final String PROGRAM_PROPERTY = "flowform.program";

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private CommandHint() {
    }

    /**
     * @return how this process was started, to start flowform again: what the launcher passed in
     *         {@value #PROGRAM_PROPERTY} (quoted), {@code java -jar <jar>}, or {@code flowform}
     */
    static String program() {
        String launcher = System.getProperty(PROGRAM_PROPERTY, "");
        if (!launcher.isBlank()) {
            return quote(launcher);
        }
        String command = System.getProperty("sun.java.command", "");
        String first = command.isBlank() ? "" : command.trim().split("\\s+")[0];
        return first.endsWith(".jar") && isThisJar(first) ? "java -jar " + quote(first) : "flowform";
    }

    /** @return true when {@code jar} is the file flowform's own classes were loaded from (not, say, a test runner's jar) */
    private static boolean isThisJar(String jar) {
        try {
            java.security.CodeSource source = CommandHint.class.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return false;
            }
            Path ours = Path.of(source.getLocation().toURI());
            return java.nio.file.Files.isRegularFile(ours) && java.nio.file.Files.isSameFile(ours, Path.of(jar));
        } catch (java.net.URISyntaxException | java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** @return the command line of {@code subcommand} ({@code apply}) and its unquoted arguments, quoted for a shell */
    static String command(String subcommand, List<String> arguments) {
        StringBuilder sb = new StringBuilder(program()).append(' ').append(subcommand);
        arguments.forEach(a -> sb.append(' ').append(quote(a)));
        return sb.toString();
    }

    /**
     * The options that select the same configuration, environment and state again: {@code --dir} unless it is the
     * working directory, {@code -e} when given or {@code environment} (null: unknown) is, {@code --state-dir} when
     * given; unquoted.
     */
    static List<String> selecting(CommonOptions common, String environment) {
        List<String> out = new ArrayList<>();
        Path dir = common.dir();
        if (dir != null && !dir.toString().isEmpty() && !dir.normalize().toString().isEmpty()) {
            out.add("--dir");
            out.add(dir.toString());
        }
        String env = environment != null ? environment : common.environment;
        if (env != null) {
            out.add("-e");
            out.add(env);
        }
        if (common.stateDirOption() != null) {
            out.add("--state-dir");
            out.add(common.stateDirOption().toString());
        }
        return out;
    }

    /**
     * @return {@link #selecting} and the variable files ({@code --var-file}, which a saved plan does not record; its
     *         {@code --var} values it does), unquoted: what a printed {@code plan} or {@code apply} needs to run alike
     */
    static List<String> selectingWithVarFiles(CommonOptions common, String environment) {
        List<String> out = selecting(common, environment);
        for (Path f : common.varFiles) {
            out.add("--var-file");
            out.add(f.toString());
        }
        return out;
    }

    /** @return {@code s} as one word of a POSIX shell: unchanged when safe, else in single quotes */
    static String quote(String s) {
        if (!s.isEmpty() && SAFE.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }
}
