package dev.fieldprof.client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The default state directory of an app: {@code <home>/.fieldprof/apps/<app>}, where {@code <app>}
 * is the part of {@code app:version} before its last ':' as a safe file name. The device id, the
 * privacy budget, the ledger and the epoch state live in the state directory, so by default each
 * app has its own: two vendors' apps on one machine report under different device ids, which the
 * collector cannot join. Per app and not per version, so an upgrade keeps its device id, its report
 * numbers and the budget already spent (a new version must not start with a fresh budget).
 *
 * <p>The name keeps ASCII letters, digits, '.', '_' and '-' and replaces any other character by
 * '_'; a name so changed, or empty, "." or "..", or longer than 64 characters, is cut to 64
 * characters and gets '-' and the first 16 hex digits of the SHA-256 of the original app name, so
 * two apps whose names differ only in replaced characters still get two directories.
 */
final class AppStateDirectory {
    private static final int MAX_NAME = 64;

    private AppStateDirectory() {}

    /** The user's fieldprof directory, {@code <home>/.fieldprof}, or null without a home. */
    static Path userDirectory(String home) {
        return home == null || home.isBlank() ? null : Paths.get(home, ".fieldprof");
    }

    /** {@code <home>/.fieldprof/apps/<app>} for {@code appVersion}; null without a home. */
    static Path of(String home, String appVersion) {
        Path user = userDirectory(home);
        return user == null ? null : user.resolve("apps").resolve(fileName(appName(appVersion)));
    }

    /** The part of {@code app:version} before its last ':' (all of it if there is none). */
    static String appName(String appVersion) {
        String trimmed = appVersion.trim();
        int colon = trimmed.lastIndexOf(':');
        return colon < 0 ? trimmed : trimmed.substring(0, colon);
    }

    /** {@code app} as a file name safe on every file system, distinct for distinct apps. */
    static String fileName(String app) {
        StringBuilder safe = new StringBuilder(app.length());
        for (int i = 0; i < app.length(); i++) {
            char c = app.charAt(i);
            boolean kept =
                    (c >= 'a' && c <= 'z')
                            || (c >= 'A' && c <= 'Z')
                            || (c >= '0' && c <= '9')
                            || c == '.'
                            || c == '_'
                            || c == '-';
            safe.append(kept ? c : '_');
        }
        String name = safe.toString();
        boolean unchanged =
                name.equals(app)
                        && !name.isEmpty()
                        && !name.equals(".")
                        && !name.equals("..")
                        && name.length() <= MAX_NAME;
        if (unchanged) {
            return name;
        }
        String cut = name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
        return cut + "-" + sha256Prefix(app);
    }

    private static String sha256Prefix(String text) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
