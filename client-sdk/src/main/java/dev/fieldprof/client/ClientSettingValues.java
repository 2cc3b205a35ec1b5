package dev.fieldprof.client;

import java.util.HashMap;
import java.util.Map;

/**
 * A value (or null, unset) for each declared {@link ClientSetting}, typed by its declaration: what
 * a {@link ClientConfig.Builder} collects and a {@link ClientConfig} keeps. Not thread-safe.
 */
final class ClientSettingValues {
    private final Map<ClientSetting<?>, Object> values;

    private ClientSettingValues(Map<ClientSetting<?>, Object> values) {
        this.values = values;
    }

    /** Every setting of {@link ClientSettings#ALL} at its default. */
    static ClientSettingValues defaults() {
        Map<ClientSetting<?>, Object> values = new HashMap<>();
        for (ClientSetting<?> setting : ClientSettings.ALL) {
            values.put(setting, setting.defaultValue());
        }
        return new ClientSettingValues(values);
    }

    ClientSettingValues copy() {
        return new ClientSettingValues(new HashMap<>(values));
    }

    /** Takes every value of {@code other}. */
    void copyFrom(ClientSettingValues other) {
        values.putAll(other.values);
    }

    @SuppressWarnings("unchecked") // set() only stores a ClientSetting<T>'s T
    <T> T get(ClientSetting<T> setting) {
        return (T) values.get(setting);
    }

    <T> void set(ClientSetting<T> setting, T value) {
        values.put(setting, value);
    }

    /**
     * Replaces the value of {@code setting} with the one it keeps after its checks.
     *
     * @throws IllegalArgumentException naming the setting and the value it refuses
     */
    <T> void validate(ClientSetting<T> setting) {
        set(setting, setting.validated(get(setting)));
    }
}
