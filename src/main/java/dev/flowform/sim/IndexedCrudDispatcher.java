package dev.flowform.sim;

import io.fabric8.kubernetes.client.server.mock.CustomResourceDefinitionProcessor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesResponseComposer;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * fabric8's CRUD mock with its store indexed ({@link IndexedObjectMap}), so a GET of one object or one namespace's
 * list tests only the objects it could match; answers stay the mock's own, byte for byte. The store is swapped in
 * through reflection; with other mock internals a warning is logged and the mock behaves as it is.
 */
final class IndexedCrudDispatcher extends KubernetesCrudDispatcher {
    private static final Logger LOG = Logger.getLogger(IndexedCrudDispatcher.class.getName());

    private final IndexedObjectMap objects;
    private final Lock readLock;
    private final AtomicLong resourceVersion;
    private final CustomResourceDefinitionProcessor crds;

    IndexedCrudDispatcher() {
        IndexedObjectMap installed = null;
        Lock read = null;
        AtomicLong version = null;
        CustomResourceDefinitionProcessor processor = null;
        try {
            Field store = CrudDispatcher.class.getDeclaredField("map");
            Field lock = KubernetesCrudDispatcher.class.getDeclaredField("lock");
            Field rv = KubernetesCrudDispatcher.class.getDeclaredField("resourceVersion");
            Field crdProcessor = KubernetesCrudDispatcher.class.getDeclaredField("crdProcessor");
            store.setAccessible(true);
            lock.setAccessible(true);
            rv.setAccessible(true);
            crdProcessor.setAccessible(true);
            read = ((ReadWriteLock) lock.get(this)).readLock();
            version = (AtomicLong) rv.get(this);
            processor = (CustomResourceDefinitionProcessor) crdProcessor.get(this);
            installed = new IndexedObjectMap();
            store.set(this, installed);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "could not index the mock API server's object store; lists scan every object", e);
            installed = null;
        }
        this.objects = installed;
        this.readLock = read;
        this.resourceVersion = version;
        this.crds = processor;
    }

    /** @return whether the indexed store is in place (false only when the mock's internals were not as expected) */
    boolean indexed() {
        return objects != null && getMap() == objects;
    }

    @Override
    public MockResponse handleGet(String path) {
        MockResponse narrowed = indexed() && !path.contains("watch=true") ? narrowedGet(path) : null;
        return narrowed != null ? narrowed : super.handleGet(path);
    }

    /** The mock's answer to a GET computed from the index, or null when the mock must answer it itself. */
    private MockResponse narrowedGet(String path) {
        AttributeSet query = attributeExtractor.fromPath(path);
        List<String> items = new ArrayList<>();
        readLock.lock();
        try {
            List<Map.Entry<AttributeSet, String>> candidates = objects.candidates(query);
            if (candidates == null) {
                return null;
            }
            for (Map.Entry<AttributeSet, String> e : candidates) {
                if (e.getKey().matches(query)) {
                    items.add(e.getValue());
                }
            }
            if (query.containsKey(IndexedObjectMap.NAME)) {
                return items.isEmpty() ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
                        : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(items.get(0));
            }
            // as the mock: an empty answer to a custom resource group's discovery path is the group's resource list
            String discovery = items.isEmpty() ? crds.getApiResources(path) : null;
            String body = discovery != null ? discovery
                    : ((KubernetesResponseComposer) responseComposer).compose(items, String.valueOf(resourceVersion.get()));
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(body);
        } finally {
            readLock.unlock();
        }
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
        List<Map.Entry<AttributeSet, String>> candidates = indexed() ? objects.candidates(attributes) : null;
        if (candidates == null) {
            return super.findResource(attributes);
        }
        for (Map.Entry<AttributeSet, String> e : candidates) {
            if (e.getKey().matches(attributes)) {
                return e;
            }
        }
        return null;
    }
}
