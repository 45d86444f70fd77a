package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import dev.flowform.state.pg.PgConnection;
import dev.flowform.testing.PgServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Where the state-contract tests keep their state: an H2 file folder or a PostgreSQL schema, fresh for every test
 * invocation. The contract tests take one as a parameter ({@code @MethodSource("dev.flowform.state.StatePlace#both")}),
 * so the same assertions run against both backends. Stores opened on one place share its data (two stores of the same
 * environment see each other's rows and locks, as two processes would).
 */
public abstract class StatePlace {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static PgServer.Database shared;

    /**
     * @param environment the environment
     * @param clock       the store's clock
     * @return a store of that environment at this place
     */
    public abstract StateStore open(String environment, Clock clock);

    /** @return an H2 place and a PostgreSQL place, each fresh */
    public static Stream<StatePlace> both() {
        return Stream.of(h2(), postgres());
    }

    /** @return a new folder of H2 files */
    public static StatePlace h2() {
        return new StatePlace() {
            private Path dir;

            @Override
            public synchronized StateStore open(String environment, Clock clock) {
                if (dir == null) {
                    try {
                        dir = Files.createTempDirectory("flowform-contract");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return StateStore.open(dir, environment, clock);
            }

            @Override
            public String toString() {
                return "h2";
            }
        };
    }

    /** @return a new schema in the test JVM's shared PostgreSQL database */
    public static StatePlace postgres() {
        String schema = "contract_" + SCHEMAS.incrementAndGet();
        return new StatePlace() {
            @Override
            public StateStore open(String environment, Clock clock) {
                return StateStore.openPostgres(settings(), schema, environment, clock, Sleeper.SYSTEM, true);
            }

            @Override
            public String toString() {
                return "postgresql";
            }
        };
    }

    /** @return the connection settings of the shared test database (created on first use) */
    public static synchronized PgConnection settings() {
        if (shared == null) {
            shared = PgServer.get().freshDatabase("contract");
        }
        return PgConnection.resolve(shared.keywordConnStr(), Map.of());
    }
}
