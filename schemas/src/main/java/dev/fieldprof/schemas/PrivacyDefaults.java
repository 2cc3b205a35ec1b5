package dev.fieldprof.schemas;

import java.time.Duration;

/**
 * The privacy a device gets when nobody chose otherwise: the one definition that {@code fieldprof
 * analyze}, {@code fieldprof instrument}, the device agent and the embedded client SDK ({@code
 * ClientConfig.builder()}, a {@code client.properties} without the keys) all use. A report protects
 * the device's whole epoch at ε = ln 9 (the user-level mode: one sampled event through the
 * subset-selection oracle), and a device spends at most ln 9 of user-level ε a day over all its
 * apps, so it sends at most one report a day. Having no budget is only ever asked for by name
 * ({@value #NO_BUDGET}).
 */
public final class PrivacyDefaults {
    /** The user-level mode: each report costs its ε of user-level privacy, no more. */
    public static final PrivacyMode MODE = PrivacyMode.USER_LEVEL;

    /** ε of each report, as the options write it. */
    public static final String EPSILON_TEXT = "ln(9)";

    /** ε of each report: ln 9, the value of {@link #EPSILON_TEXT}. */
    public static final double EPSILON = Math.log(9);

    /** User-level ε a device may spend per {@link #BUDGET_PERIOD}, as the options write it. */
    public static final String BUDGET_TEXT = "ln(9)";

    /**
     * User-level ε a device may spend per {@link #BUDGET_PERIOD}: one report at {@link #EPSILON}.
     */
    public static final double BUDGET = Math.log(9);

    /** The rolling period of the budget: a day. */
    public static final Duration BUDGET_PERIOD = Duration.ofDays(1);

    /**
     * How a setting asks for no budget at all ({@code privacy.budget=none}, {@code --budget none}).
     */
    public static final String NO_BUDGET = "none";

    private PrivacyDefaults() {}
}
