package dev.flowform.model;

/** An object as read from the cluster, named by its {@link ObjectRef}. */
public interface LiveObject {

    /** @return the object: API version, kind, namespace and name */
    ObjectRef ref();

    /** @return the object name ({@code metadata.name}) */
    default String name() {
        return ref().name();
    }

    /** @return the namespace ({@code metadata.namespace}) */
    default String namespace() {
        return ref().namespace();
    }
}
