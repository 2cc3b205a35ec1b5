package dev.fieldprof.ldp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * Cryptographically secure randomness for the randomizer (docs/architecture.md, "The privacy
 * contract"): a {@link SecureRandom} (the JDK's NIST SP 800-90A {@code DRBG} when available) read
 * in blocks, because one bulk {@code nextBytes} call costs far less than thousands of small ones
 * and a report needs tens of thousands of draws. Buffering does not weaken the generator: every
 * byte still comes from it, and each byte is used once. The SDK's default is the faster {@link
 * ChaCha20RandomSource}, keyed from this same DRBG.
 */
public final class SecureRandomSource implements RandomSource {
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final SecureRandom random;
    private final byte[] buffer;
    private int position;

    /**
     * Creates a source over the platform's default strong DRBG, seeded by the operating system. Not
     * thread-safe: give each thread (each device runtime) its own instance.
     *
     * <pre>{@code
     * RandomSource random = new SecureRandomSource();
     * long bits = random.nextLong();
     * }</pre>
     */
    public SecureRandomSource() {
        this(defaultGenerator(), 4096);
    }

    /**
     * Creates a source over the given generator, read {@code bufferBytes} at a time.
     *
     * @param random the generator; must be cryptographically secure for production use
     * @param bufferBytes block size, a multiple of 8 in [8, 1048576]
     */
    public SecureRandomSource(SecureRandom random, int bufferBytes) {
        if (random == null) {
            throw new IllegalArgumentException("random must not be null");
        }
        if (bufferBytes < 8 || bufferBytes > (1 << 20) || bufferBytes % 8 != 0) {
            throw new IllegalArgumentException(
                    "bufferBytes must be a multiple of 8 in [8, 1048576], got " + bufferBytes);
        }
        this.random = random;
        this.buffer = new byte[bufferBytes];
        this.position = bufferBytes;
    }

    private static SecureRandom defaultGenerator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    @Override
    public long nextLong() {
        if (position == buffer.length) {
            random.nextBytes(buffer);
            position = 0;
        }
        long bits = (long) LONGS.get(buffer, position);
        position += 8;
        return bits;
    }
}
