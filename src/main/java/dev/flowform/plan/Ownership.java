package dev.flowform.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The ownership marks flowform writes on every object it manages: annotations {@value #ENVIRONMENT_ANNOTATION} and
 * {@value #LINEAGE_ANNOTATION} (the state's lineage), and on objects it creates the label
 * {@link Planner#ENVIRONMENT_LABEL}. Never labels on an existing KafkaConnect: Strimzi copies them to the pods, which
 * would roll them (docs/operations.md, "Ownership on the cluster"). Pure.
 *
 * @param environment the environment named by the marks, or null when none
 * @param lineage     the state lineage named by the marks, or null when none
 */
public record Ownership(String environment, String lineage) {

    /** Annotation naming the flowform environment that manages an object. */
    public static final String ENVIRONMENT_ANNOTATION = "flowform.dev/environment";
    /** Annotation naming the lineage of the state that manages an object. */
    public static final String LINEAGE_ANNOTATION = "flowform.dev/lineage";

    /** No marks at all: an object flowform never managed (brownfield), adoptable. */
    public static final Ownership NONE = new Ownership(null, null);

    /** @return the marks of an object by its labels and annotations: environment (annotation, else label), lineage */
    public static Ownership of(Map<String, String> labels, Map<String, String> annotations) {
        String env = annotations.get(ENVIRONMENT_ANNOTATION);
        if (env == null) {
            env = labels.get(Planner.ENVIRONMENT_LABEL);
        }
        return new Ownership(env, annotations.get(LINEAGE_ANNOTATION));
    }

    /** @return true when the object carries no mark: no state has claimed it */
    public boolean unmarked() {
        return environment == null && lineage == null;
    }

    /** @return true when the marks name another environment or lineage (a null {@code ourLineage} is not compared) */
    public boolean foreign(String ourEnvironment, String ourLineage) {
        return (environment != null && !environment.equals(ourEnvironment))
                || (lineage != null && ourLineage != null && !lineage.equals(ourLineage));
    }

    /** @return how the owner reads in messages: {@code environment "staging" (lineage 1234…)} */
    public String describe() {
        if (unmarked()) {
            return "no flowform environment (no ownership marks)";
        }
        return "environment " + (environment == null ? "(not named)" : "\"" + environment + "\"")
                + " (lineage " + (lineage == null ? "not recorded" : lineage) + ")";
    }

    /**
     * The annotation edits that make an object, with these labels and annotations now, carry our marks.
     *
     * @param relabel     true to also rewrite a {@link Planner#ENVIRONMENT_LABEL} that names another environment
     *                    (KafkaConnectors only: see the class comment for why never on a KafkaConnect)
     * @return the edits, empty when the object carries our marks already
     */
    public static List<FieldEdit> edits(Map<String, String> labels, Map<String, String> annotations, String environment,
                                        String lineage, boolean relabel) {
        List<FieldEdit> out = new ArrayList<>();
        if (!environment.equals(annotations.get(ENVIRONMENT_ANNOTATION))) {
            out.add(FieldEdit.set(List.of("metadata", "annotations", ENVIRONMENT_ANNOTATION), environment, false));
        }
        if (!lineage.equals(annotations.get(LINEAGE_ANNOTATION))) {
            out.add(FieldEdit.set(List.of("metadata", "annotations", LINEAGE_ANNOTATION), lineage, false));
        }
        String label = labels.get(Planner.ENVIRONMENT_LABEL);
        if (relabel && label != null && !label.equals(environment)) {
            out.add(FieldEdit.set(List.of("metadata", "labels", Planner.ENVIRONMENT_LABEL), environment, false));
        }
        return out;
    }

    /** @return the attribute changes the plan shows for {@code edits} made by {@link #edits} */
    public static List<AttributeChange> attributes(List<FieldEdit> edits, Map<String, String> labels,
                                                   Map<String, String> annotations) {
        List<AttributeChange> out = new ArrayList<>();
        for (FieldEdit e : edits) {
            String where = e.path().get(1);
            String before = ("labels".equals(where) ? labels : annotations).get(e.key());
            out.add(new AttributeChange("metadata." + where + "." + Json.render(e.key()),
                    before == null ? null : Json.render(before), Json.render(Objects.toString(e.value())), false));
        }
        return out;
    }

    /** @return true when a field path from the object root is one of the marks {@link #edits} writes */
    public static boolean isMark(List<String> path) {
        return path.size() == 3 && path.get(0).equals("metadata")
                && ((path.get(1).equals("annotations") && (path.get(2).equals(ENVIRONMENT_ANNOTATION)
                        || path.get(2).equals(LINEAGE_ANNOTATION)))
                || (path.get(1).equals("labels") && path.get(2).equals(Planner.ENVIRONMENT_LABEL)));
    }
}
