package dev.flowform.diag.archfixture;

/** One side of a package cycle (diag -> render -> diag), with a simple name the other side has too. Never run. */
public final class Side {

    private Side() {
    }

    /** @return the other side's name, so this package depends on render */
    static String other() {
        return dev.flowform.render.archfixture.Side.class.getName();
    }
}
