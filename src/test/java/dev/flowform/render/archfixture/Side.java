package dev.flowform.render.archfixture;

/** The other side of a package cycle (render -> diag -> render), with the same simple name. Never run. */
public final class Side {

    private Side() {
    }

    /** @return the other side's name, so this package depends on diag */
    static String other() {
        return dev.flowform.diag.archfixture.Side.class.getName();
    }
}
