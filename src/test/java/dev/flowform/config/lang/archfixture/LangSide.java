package dev.flowform.config.lang.archfixture;

import dev.flowform.config.syntax.archfixture.SyntaxSide;

/** config.lang using config.syntax, as it may; with {@link SyntaxSide} it closes a cycle. Never run. */
public final class LangSide {

    private LangSide() {
    }

    /** @return the syntax side's name, so config.lang depends on config.syntax */
    static String other() {
        return SyntaxSide.class.getName();
    }
}
