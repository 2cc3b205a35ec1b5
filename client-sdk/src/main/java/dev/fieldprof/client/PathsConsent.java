package dev.fieldprof.client;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * Path tracing is the machine's user's to turn on, never the program's: path reports are not
 * randomized, they share the paths the traced methods took. So {@link
 * ClientConfig#KEY_PATHS_ENABLED} and {@link ClientConfig#KEY_PATHS_DEBUG} count only from a switch
 * the user sets, the first of:
 *
 * <ol>
 *   <li>a system property, {@code -Dfieldprof.paths.enabled=true} ({@code -Dfieldprof.paths.debug=
 *       true} for the raw events);
 *   <li>the device agent's {@code paths} option on the command line;
 *   <li>the file {@value #FILE} in the user's state directory ({@code -Dfieldprof.state.dir}, else
 *       {@code ~/.fieldprof}), holding {@code paths.enabled=true} (and {@code paths.debug=true}).
 * </ol>
 *
 * <p>The same keys in the program's own settings (an instrumented jar's {@value
 * ClientConfig#RESOURCE}, which its vendor writes) are ignored; that the program asked is kept, to
 * say why tracing is off. The consent file is looked for only where the user's own settings put the
 * state directory: a {@code state.dir} in the program's settings could name a directory the vendor
 * ships. An unreadable or invalid consent file consents to nothing.
 */
public final class PathsConsent {
    /** The consent file in the user's state directory. */
    public static final String FILE = "consent.properties";

    private PathsConsent() {}

    /**
     * Removes the consent keys from the program's settings.
     *
     * @return whether the program asked for path tracing
     */
    static boolean stripFromProgram(Properties program) {
        Object enabled = program.remove(ClientConfig.KEY_PATHS_ENABLED);
        program.remove(ClientConfig.KEY_PATHS_DEBUG);
        return enabled != null && "true".equalsIgnoreCase(enabled.toString().trim());
    }

    /**
     * Fills in the consent keys that neither a system property nor the command line set (both
     * already in {@code merged}) from the consent file of the user's state directory.
     */
    static void fromUserFile(Properties merged) {
        if (merged.getProperty(ClientConfig.KEY_PATHS_ENABLED) != null
                && merged.getProperty(ClientConfig.KEY_PATHS_DEBUG) != null) {
            return;
        }
        Properties file = read(userStateDir());
        for (String key :
                new String[] {ClientConfig.KEY_PATHS_ENABLED, ClientConfig.KEY_PATHS_DEBUG}) {
            String value = file.getProperty(key);
            if (merged.getProperty(key) == null
                    && value != null
                    && (value.trim().equalsIgnoreCase("true")
                            || value.trim().equalsIgnoreCase("false"))) {
                merged.setProperty(key, value.trim());
            }
        }
    }

    /** The state directory as the user's own settings give it, or null if there is no home. */
    public static Path userStateDir() {
        String configured =
                System.getProperty(ClientConfig.SYSTEM_PREFIX + ClientConfig.KEY_STATE_DIR);
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured.trim());
        }
        String home = System.getProperty("user.home");
        return home == null ? null : Paths.get(home, ".fieldprof");
    }

    /**
     * Writes the user's consent file in {@code stateDir} (created if missing, readable by the user
     * only), replacing any earlier one atomically: path tracing on or off, and with it the raw
     * events of debug mode (never on without tracing).
     *
     * @return the file written
     */
    public static Path write(Path stateDir, boolean enabled, boolean debug) throws IOException {
        if (debug && !enabled) {
            throw new IllegalArgumentException("debug mode needs path tracing on");
        }
        String text =
                "# fieldprof: path tracing, the machine's user's choice (path reports are not"
                        + " randomized)\n"
                        + ClientConfig.KEY_PATHS_ENABLED
                        + "="
                        + enabled
                        + "\n"
                        + ClientConfig.KEY_PATHS_DEBUG
                        + "="
                        + debug
                        + "\n";
        dev.fieldprof.client.state.AtomicFiles.createPrivateDirectories(stateDir);
        Path file = stateDir.resolve(FILE);
        dev.fieldprof.client.state.AtomicFiles.write(file, text.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static Properties read(Path stateDir) {
        Properties p = new Properties();
        if (stateDir == null) {
            return p;
        }
        try (Reader in = Files.newBufferedReader(stateDir.resolve(FILE), StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException | RuntimeException e) {
            return new Properties(); // no file, or not one we can read: no consent
        }
        return p;
    }
}
