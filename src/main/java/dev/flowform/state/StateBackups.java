package dev.flowform.state;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Backups of an environment's H2 state, taken before every apply: {@code <stateDir>/<env>/backups/<serial>-<UTC
 * time>.zip} ({@code BACKUP TO}), once per serial, the newest {@value #KEEP} kept. {@link #restore} puts one in place,
 * keeping the current file as {@code flowform.mv.db.replaced-<UTC time>}, with no process holding the database.
 */
public final class StateBackups {

    /** Folder under the environment's state folder that holds the backups. */
    public static final String FOLDER = "backups";

    /** How many backups are kept: the newest 3. */
    public static final int KEEP = 3;

    private static final Pattern NAME = Pattern.compile("(\\d+)-(\\d{8}T\\d{6}(?:\\d{3})?Z)\\.zip");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private StateBackups() {
    }

    /**
     * One backup file.
     *
     * @param file   the zip
     * @param serial the state serial it holds
     * @param stamp  when it was taken, as in its name (UTC)
     */
    public record Backup(Path file, long serial, String stamp) {
    }

    /**
     * @param stateDir    the state folder
     * @param environment a valid environment name
     * @return {@code <stateDir>/<env>/backups}, absolute
     */
    public static Path folder(Path stateDir, String environment) {
        return StateStore.databaseFile(stateDir, environment).getParent().resolve(FOLDER);
    }

    /**
     * Backs up {@code store} unless a backup of its current serial exists, then deletes all but the newest
     * {@value #KEEP}.
     *
     * @param store    the open (writable) state
     * @param stateDir the state folder it was opened from
     * @param clock    for the backup's name
     * @return the backup written, or empty when this serial was backed up already
     * @throws StateStoreException when the backup cannot be written
     */
    public static Optional<Backup> backup(StateStore store, Path stateDir, Clock clock) {
        long serial = store.stateRef().serial();
        Path folder = folder(stateDir, store.environmentName());
        List<Backup> existing = list(stateDir, store.environmentName());
        if (existing.stream().anyMatch(b -> b.serial() == serial)) {
            return Optional.empty();
        }
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new StateStoreException("cannot create the backup folder " + folder + ": " + e.getMessage(), e);
        }
        String stamp = STAMP.format(clock.instant());
        Path file = folder.resolve(serial + "-" + stamp + ".zip");
        store.backupTo(file);
        Backup made = new Backup(file, serial, stamp);
        List<Backup> all = list(stateDir, store.environmentName());
        for (Backup old : all.subList(Math.min(KEEP, all.size()), all.size())) {
            try {
                Files.deleteIfExists(old.file());
            } catch (IOException e) {
                // an old backup left behind is harmless; the next backup tries again
            }
        }
        return Optional.of(made);
    }

    /**
     * @param stateDir    the state folder
     * @param environment a valid environment name
     * @return the environment's backups, newest (highest serial, then latest) first; empty when there are none
     */
    public static List<Backup> list(Path stateDir, String environment) {
        Path folder = folder(stateDir, environment);
        List<Backup> out = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return out;
        }
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.toList()) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (m.matches()) {
                    out.add(new Backup(f, Long.parseLong(m.group(1)), m.group(2)));
                }
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(Comparator.comparingLong(Backup::serial).thenComparing(Backup::stamp).reversed());
        return out;
    }

    /**
     * Puts {@code backup}'s database in place of the environment's current database file, keeping the current file
     * (when there is one) as {@code flowform.mv.db.replaced-<UTC time>}. No process may have the database open.
     *
     * @param stateDir    the state folder
     * @param environment a valid environment name
     * @param backup      the backup zip to restore
     * @param clock       for the name of the replaced file
     * @return where the replaced file was moved, or empty when there was none
     * @throws StateStoreException when the backup cannot be read or holds no database
     */
    public static Optional<Path> restore(Path stateDir, String environment, Path backup, Clock clock) {
        Path db = StateStore.databaseFile(stateDir, environment);
        Path tmp;
        try {
            Files.createDirectories(db.getParent());
            tmp = Files.createTempFile(db.getParent(), ".flowform-restore", ".tmp");
        } catch (IOException e) {
            throw new StateStoreException("cannot write in " + db.getParent() + ": " + e.getMessage(), e);
        }
        try {
            boolean found = false;
            try (InputStream in = Files.newInputStream(backup); ZipInputStream zip = new ZipInputStream(in)) {
                for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                    if (e.getName().equals(db.getFileName().toString())) {
                        Files.copy(zip, tmp, StandardCopyOption.REPLACE_EXISTING);
                        found = true;
                        break;
                    }
                }
            }
            if (!found) {
                throw new StateStoreException("the backup " + backup + " holds no " + db.getFileName(), null);
            }
            Optional<Path> replaced = Optional.empty();
            if (Files.exists(db)) {
                Path aside = db.resolveSibling(db.getFileName() + ".replaced-" + STAMP.format(clock.instant()));
                Files.move(db, aside);
                replaced = Optional.of(aside);
            }
            Files.move(tmp, db);
            return replaced;
        } catch (IOException e) {
            throw new StateStoreException("cannot restore " + backup + " to " + db + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }
}
