package dev.flowform.cli;

/** Asks the user a question on the terminal (the apply approval). Injected so tests can answer. */
public interface Prompter {

    /** @return true when there is a terminal to ask on */
    boolean interactive();

    /**
     * @param prompt the question, printed without a newline
     * @return the answer line, or null at end of input
     */
    String ask(String prompt);

    /** The process's console ({@link System#console()}); not interactive when there is none (CI, pipes). */
    static Prompter system() {
        return new Prompter() {
            @Override
            public boolean interactive() {
                return System.console() != null;
            }

            @Override
            public String ask(String prompt) {
                return System.console() == null ? null : System.console().readLine("%s", prompt);
            }
        };
    }
}
