package dev.flowform.cli;

/**
 * How {@code plan} and {@code show FILE} print a plan ({@code --format}): the terminal text, the versioned JSON
 * document ({@code --json}), or Markdown for a pull-request comment.
 */
enum PlanFormat {
    /** The terminal text, Terraform's layout. */
    TEXT,
    /** The versioned JSON document. */
    JSON,
    /** Markdown for a pull-request or merge-request comment. */
    MARKDOWN;

    /**
     * @return the format {@code --json} and {@code --format} (null: not given) select; {@code --json} is
     *         {@code --format json}
     * @throws IllegalArgumentException when {@code --json} and another {@code --format} are both given
     */
    static PlanFormat of(boolean json, PlanFormat format) {
        if (json && format != null && format != JSON) {
            throw new IllegalArgumentException("--json and --format " + format.name().toLowerCase(java.util.Locale.ROOT)
                    + " select different outputs; give one of them.");
        }
        return json ? JSON : format == null ? TEXT : format;
    }
}
