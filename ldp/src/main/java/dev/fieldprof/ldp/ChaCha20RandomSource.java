package dev.fieldprof.ldp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Cryptographically secure randomness from the ChaCha20 block function (RFC 8439 §2.3, 20 rounds)
 * run as a fast-key-erasure generator: keyed once from the JDK's {@code DRBG}, it then costs a
 * fraction of the DRBG per byte, which is most of a report's randomization budget.
 */
public final class ChaCha20RandomSource implements RandomSource {
    /** "expand 32-byte k" as four little-endian words (RFC 8439 §2.3). */
    private static final int C0 = 0x61707865;

    private static final int C1 = 0x3320646e;
    private static final int C2 = 0x79622d32;
    private static final int C3 = 0x6b206574;

    /** Blocks per refill: 1 KB, of which 32 bytes become the next key and 992 are output. */
    static final int BLOCKS_PER_REFILL = 16;

    /** Longs of each refill that become the next key (256 bits) and are never output. */
    private static final int KEY_LONGS = 4;

    /**
     * Refills between folds of fresh DRBG output into the key: every 2^20 blocks (64 MB), so that
     * an attacker who once read the state loses track of the generator again.
     */
    static final int REFILLS_PER_RESEED = (1 << 20) / BLOCKS_PER_REFILL;

    private final SecureRandom seeder;
    private final int[] key = new int[8];
    private final int[] nonce = new int[3];
    private final long[] buffer = new long[BLOCKS_PER_REFILL * 8];
    private final int[][] lanes = new int[16][BLOCKS_PER_REFILL];
    private int position;
    private int refillsSinceReseed;

    /**
     * Creates a generator keyed with 256 bits and a 96-bit nonce from the platform's strong DRBG.
     * Not thread-safe, like {@link SecureRandomSource}: give each device runtime (which draws only
     * while it holds its own lock) or each thread its own instance.
     *
     * <pre>{@code
     * RandomSource random = new ChaCha20RandomSource();
     * long bits = random.nextLong();
     * }</pre>
     */
    public ChaCha20RandomSource() {
        this(defaultSeeder());
    }

    /**
     * Creates a generator keyed from {@code seeder}, which also supplies fresh key material every
     * 2^20 blocks.
     *
     * @param seeder a cryptographically secure generator (a seeded one makes the output
     *     predictable)
     */
    public ChaCha20RandomSource(SecureRandom seeder) {
        if (seeder == null) {
            throw new IllegalArgumentException("seeder must not be null");
        }
        this.seeder = seeder;
        byte[] material = new byte[32 + 12];
        seeder.nextBytes(material);
        ByteBuffer words = ByteBuffer.wrap(material).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 8; i++) {
            key[i] = words.getInt();
        }
        for (int i = 0; i < 3; i++) {
            nonce[i] = words.getInt();
        }
        Arrays.fill(material, (byte) 0);
        this.position = buffer.length;
    }

    private static SecureRandom defaultSeeder() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    @Override
    public long nextLong() {
        if (position == buffer.length) {
            refill();
        }
        long bits = buffer[position];
        // Erase what has been handed out, so the state never holds past outputs.
        buffer[position++] = 0;
        return bits;
    }

    /**
     * Fast key erasure (Bernstein, "Fast-key-erasure random-number generators", 2017): the first
     * 256 bits of each refill replace the key before anything is output, so reading the state later
     * reveals nothing about earlier outputs. The key changes every refill, so the block counter
     * restarts at 0 and (key, nonce, counter) never repeats.
     */
    private void refill() {
        blocks(key, 0, nonce, lanes, buffer);
        for (int i = 0; i < KEY_LONGS; i++) {
            long word = buffer[i];
            key[2 * i] = (int) word;
            key[2 * i + 1] = (int) (word >>> 32);
            buffer[i] = 0;
        }
        position = KEY_LONGS;
        if (++refillsSinceReseed == REFILLS_PER_RESEED) {
            reseed();
        }
    }

    /** Folds 256 fresh bits from the DRBG into the key (XOR keeps whatever entropy either has). */
    private void reseed() {
        refillsSinceReseed = 0;
        byte[] fresh = new byte[32];
        seeder.nextBytes(fresh);
        ByteBuffer words = ByteBuffer.wrap(fresh).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 8; i++) {
            key[i] ^= words.getInt();
        }
        Arrays.fill(fresh, (byte) 0);
    }

    /**
     * The ChaCha20 block function (RFC 8439 §2.3: 10 column and 10 diagonal rounds, then the input
     * added word by word) for {@link #BLOCKS_PER_REFILL} consecutive counters from {@code
     * firstCounter}. Block j's 16 words go to {@code out[8j..8j+8)} two per long, the lower-indexed
     * word in the low half, so that the longs' little-endian bytes are the RFC's serialized blocks.
     *
     * <p>The blocks are computed side by side, word i of block j in {@code lanes[i][j]}: the inner
     * loop over j then does the same operation on independent blocks, which C2 turns into SIMD
     * instructions, about twice as fast as one block at a time on this project's machine. {@code
     * lanes} (16 arrays of {@link #BLOCKS_PER_REFILL}) is zeroed before returning: the permuted
     * state can be run backwards to the key, so leaving it would undo the key erasure.
     */
    static void blocks(int[] key, int firstCounter, int[] nonce, int[][] lanes, long[] out) {
        final int[] a0 = lanes[0], a1 = lanes[1], a2 = lanes[2], a3 = lanes[3];
        final int[] a4 = lanes[4], a5 = lanes[5], a6 = lanes[6], a7 = lanes[7];
        final int[] a8 = lanes[8], a9 = lanes[9], a10 = lanes[10], a11 = lanes[11];
        final int[] a12 = lanes[12], a13 = lanes[13], a14 = lanes[14], a15 = lanes[15];
        final int n = BLOCKS_PER_REFILL;
        for (int j = 0; j < n; j++) {
            a0[j] = C0;
            a1[j] = C1;
            a2[j] = C2;
            a3[j] = C3;
            a4[j] = key[0];
            a5[j] = key[1];
            a6[j] = key[2];
            a7[j] = key[3];
            a8[j] = key[4];
            a9[j] = key[5];
            a10[j] = key[6];
            a11[j] = key[7];
            a12[j] = firstCounter + j;
            a13[j] = nonce[0];
            a14[j] = nonce[1];
            a15[j] = nonce[2];
        }
        for (int round = 0; round < 10; round++) {
            for (int j = 0; j < n; j++) {
                int x0 = a0[j], x1 = a1[j], x2 = a2[j], x3 = a3[j];
                int x4 = a4[j], x5 = a5[j], x6 = a6[j], x7 = a7[j];
                int x8 = a8[j], x9 = a9[j], x10 = a10[j], x11 = a11[j];
                int x12 = a12[j], x13 = a13[j], x14 = a14[j], x15 = a15[j];

                // Column round (§2.2): QR(0,4,8,12) QR(1,5,9,13) QR(2,6,10,14) QR(3,7,11,15),
                // each quarter round (§2.1) written out because Java has no multiple returns.
                x0 += x4;
                x12 = Integer.rotateLeft(x12 ^ x0, 16);
                x8 += x12;
                x4 = Integer.rotateLeft(x4 ^ x8, 12);
                x0 += x4;
                x12 = Integer.rotateLeft(x12 ^ x0, 8);
                x8 += x12;
                x4 = Integer.rotateLeft(x4 ^ x8, 7);

                x1 += x5;
                x13 = Integer.rotateLeft(x13 ^ x1, 16);
                x9 += x13;
                x5 = Integer.rotateLeft(x5 ^ x9, 12);
                x1 += x5;
                x13 = Integer.rotateLeft(x13 ^ x1, 8);
                x9 += x13;
                x5 = Integer.rotateLeft(x5 ^ x9, 7);

                x2 += x6;
                x14 = Integer.rotateLeft(x14 ^ x2, 16);
                x10 += x14;
                x6 = Integer.rotateLeft(x6 ^ x10, 12);
                x2 += x6;
                x14 = Integer.rotateLeft(x14 ^ x2, 8);
                x10 += x14;
                x6 = Integer.rotateLeft(x6 ^ x10, 7);

                x3 += x7;
                x15 = Integer.rotateLeft(x15 ^ x3, 16);
                x11 += x15;
                x7 = Integer.rotateLeft(x7 ^ x11, 12);
                x3 += x7;
                x15 = Integer.rotateLeft(x15 ^ x3, 8);
                x11 += x15;
                x7 = Integer.rotateLeft(x7 ^ x11, 7);

                // Diagonal round: QR(0,5,10,15) QR(1,6,11,12) QR(2,7,8,13) QR(3,4,9,14).
                x0 += x5;
                x15 = Integer.rotateLeft(x15 ^ x0, 16);
                x10 += x15;
                x5 = Integer.rotateLeft(x5 ^ x10, 12);
                x0 += x5;
                x15 = Integer.rotateLeft(x15 ^ x0, 8);
                x10 += x15;
                x5 = Integer.rotateLeft(x5 ^ x10, 7);

                x1 += x6;
                x12 = Integer.rotateLeft(x12 ^ x1, 16);
                x11 += x12;
                x6 = Integer.rotateLeft(x6 ^ x11, 12);
                x1 += x6;
                x12 = Integer.rotateLeft(x12 ^ x1, 8);
                x11 += x12;
                x6 = Integer.rotateLeft(x6 ^ x11, 7);

                x2 += x7;
                x13 = Integer.rotateLeft(x13 ^ x2, 16);
                x8 += x13;
                x7 = Integer.rotateLeft(x7 ^ x8, 12);
                x2 += x7;
                x13 = Integer.rotateLeft(x13 ^ x2, 8);
                x8 += x13;
                x7 = Integer.rotateLeft(x7 ^ x8, 7);

                x3 += x4;
                x14 = Integer.rotateLeft(x14 ^ x3, 16);
                x9 += x14;
                x4 = Integer.rotateLeft(x4 ^ x9, 12);
                x3 += x4;
                x14 = Integer.rotateLeft(x14 ^ x3, 8);
                x9 += x14;
                x4 = Integer.rotateLeft(x4 ^ x9, 7);

                a0[j] = x0;
                a1[j] = x1;
                a2[j] = x2;
                a3[j] = x3;
                a4[j] = x4;
                a5[j] = x5;
                a6[j] = x6;
                a7[j] = x7;
                a8[j] = x8;
                a9[j] = x9;
                a10[j] = x10;
                a11[j] = x11;
                a12[j] = x12;
                a13[j] = x13;
                a14[j] = x14;
                a15[j] = x15;
            }
        }
        for (int j = 0; j < n; j++) {
            int o = 8 * j;
            out[o] = pack(a0[j] + C0, a1[j] + C1);
            out[o + 1] = pack(a2[j] + C2, a3[j] + C3);
            out[o + 2] = pack(a4[j] + key[0], a5[j] + key[1]);
            out[o + 3] = pack(a6[j] + key[2], a7[j] + key[3]);
            out[o + 4] = pack(a8[j] + key[4], a9[j] + key[5]);
            out[o + 5] = pack(a10[j] + key[6], a11[j] + key[7]);
            out[o + 6] = pack(a12[j] + firstCounter + j, a13[j] + nonce[0]);
            out[o + 7] = pack(a14[j] + nonce[1], a15[j] + nonce[2]);
        }
        for (int[] lane : lanes) {
            Arrays.fill(lane, 0);
        }
    }

    private static long pack(int low, int high) {
        return (low & 0xFFFFFFFFL) | ((long) high << 32);
    }
}
