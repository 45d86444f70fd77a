package dev.flowform.config.syntax.archfixture;

import dev.flowform.config.lang.archfixture.LangSide;

/** config.syntax reaching up into config.lang, which reaches back: a cycle between config's parts. Never run. */
public final class SyntaxSide {

    private SyntaxSide() {
    }

    /** @return the lang side's name, so config.syntax depends on config.lang */
    static String other() {
        return LangSide.class.getName();
    }
}
