package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The generator against the RFC 8439 test vectors (exact bytes), its fast-key-erasure structure,
 * and a statistical sanity check. False-failure probability of the statistical test: below 1e-6.
 */
class ChaCha20RandomSourceTest {
    private static final HexFormat HEX = HexFormat.of();

    /** Key 00:01:02:...:1f, used by RFC 8439 §2.3.2 and §2.4.2. */
    private static int[] rfcKey() {
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) {
            key[i] = (byte) i;
        }
        return words(key);
    }

    private static int[] words(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] words = new int[bytes.length / 4];
        for (int i = 0; i < words.length; i++) {
            words[i] = buffer.getInt();
        }
        return words;
    }

    private static long[] blocksFrom(int[] key, int firstCounter, int[] nonce) {
        int blocks = ChaCha20RandomSource.BLOCKS_PER_REFILL;
        long[] out = new long[blocks * 8];
        int[][] lanes = new int[16][blocks];
        ChaCha20RandomSource.blocks(key, firstCounter, nonce, lanes, out);
        for (int[] lane : lanes) {
            assertThat(lane).as("lanes erased").containsOnly(0);
        }
        return out;
    }

    private static byte[] serialize(long[] longs) {
        ByteBuffer buffer = ByteBuffer.allocate(longs.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long l : longs) {
            buffer.putLong(l);
        }
        return buffer.array();
    }

    @Test
    void blockFunctionMatchesRfc8439Section232() {
        int[] nonce = words(HEX.parseHex("000000090000004a00000000"));
        long[] out = blocksFrom(rfcKey(), 1, nonce);
        assertThat(HEX.formatHex(serialize(Arrays.copyOf(out, 8))))
                .isEqualTo(
                        "10f1e7e4d13b5915500fdd1fa32071c4"
                                + "c7d1f4c733c068030422aa9ac3d46c4e"
                                + "d2826446079faa0914c2d705d98b02a2"
                                + "b5129cd1de164eb9cbd083e8a2503c4e");
    }

    @Test
    void keystreamMatchesRfc8439Section242() {
        int[] nonce = words(HEX.parseHex("000000000000004a00000000"));
        byte[] plaintext =
                ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip"
                                + " for the future, sunscreen would be it.")
                        .getBytes(StandardCharsets.US_ASCII);
        byte[] expected =
                HEX.parseHex(
                        "6e2e359a2568f98041ba0728dd0d6981"
                                + "e97e7aec1d4360c20a27afccfd9fae0b"
                                + "f91b65c5524733ab8f593dabcd62b357"
                                + "1639d624e65152ab8f530c359f0861d8"
                                + "07ca0dbf500d6a6156a38e088a22b65e"
                                + "52bc514d16ccf806818ce91ab7793736"
                                + "5af90bbf74a35be6b40b8eedf2785e42"
                                + "874d");
        byte[] keystream = serialize(blocksFrom(rfcKey(), 1, nonce));
        byte[] ciphertext = new byte[plaintext.length];
        for (int i = 0; i < plaintext.length; i++) {
            ciphertext[i] = (byte) (plaintext[i] ^ keystream[i]);
        }
        assertThat(HEX.formatHex(ciphertext)).isEqualTo(HEX.formatHex(expected));
    }

    @Test
    void outputsKeystreamAfterTheNextKeyAndRekeysFromIt() {
        byte[] material = new byte[44];
        for (int i = 0; i < material.length; i++) {
            material[i] = (byte) (3 * i + 1);
        }
        ChaCha20RandomSource source = new ChaCha20RandomSource(new FixedBytes(material));
        int[] key = words(Arrays.copyOfRange(material, 0, 32));
        int[] nonce = words(Arrays.copyOfRange(material, 32, 44));
        for (int refill = 0; refill < 3; refill++) {
            long[] expected = blocksFrom(key, 0, nonce);
            // Block j of the batch is the single block with counter j.
            assertThat(Arrays.copyOfRange(blocksFrom(key, 5, nonce), 0, 8))
                    .isEqualTo(Arrays.copyOfRange(expected, 40, 48));
            // The first 256 bits are the next key and never leave the generator.
            for (int i = 4; i < expected.length; i++) {
                assertThat(source.nextLong())
                        .as("refill %d, long %d", refill, i)
                        .isEqualTo(expected[i]);
            }
            key = words(Arrays.copyOfRange(serialize(expected), 0, 32));
        }
    }

    @Test
    void foldsFreshSeedMaterialIntoTheKeyEvery2To20Blocks() {
        // Nonzero initial and fresh material: an XOR with zeros would leave the key unchanged, so
        // a reseed that did nothing would pass. The expected stream is computed from the block
        // function: after REFILLS_PER_RESEED refills the key (already erased forward to the last
        // refill's first 256 bits) is XORed with the fresh 32 bytes, and the next refill uses it.
        byte[] initial = new byte[44];
        byte[] fresh = new byte[32];
        for (int i = 0; i < initial.length; i++) {
            initial[i] = (byte) (7 * i + 5);
        }
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = (byte) (0xA5 ^ (13 * i + 1));
        }
        FixedBytes seeder = new FixedBytes(initial, fresh);
        ChaCha20RandomSource source = new ChaCha20RandomSource(seeder);
        assertThat(seeder.calls).isEqualTo(1);

        int[] key = words(Arrays.copyOfRange(initial, 0, 32));
        int[] nonce = words(Arrays.copyOfRange(initial, 32, 44));
        long longsPerRefill = ChaCha20RandomSource.BLOCKS_PER_REFILL * 8 - 4;
        for (int refill = 0; refill < ChaCha20RandomSource.REFILLS_PER_RESEED; refill++) {
            long[] block = blocksFrom(key, 0, nonce);
            key = words(Arrays.copyOfRange(serialize(block), 0, 32));
            for (int i = 4; i < block.length; i++) {
                long got = source.nextLong();
                if (got != block[i]) {
                    assertThat(got).as("refill %d, long %d", refill, i).isEqualTo(block[i]);
                }
            }
        }
        assertThat(seeder.calls).as("reseeded after 2^20 blocks").isEqualTo(2);
        assertThat(seeder.lastLength).as("256 fresh bits").isEqualTo(32);
        assertThat(ChaCha20RandomSource.REFILLS_PER_RESEED * ChaCha20RandomSource.BLOCKS_PER_REFILL)
                .isEqualTo(1 << 20);

        int[] freshWords = words(fresh);
        int[] reseeded = key.clone();
        for (int i = 0; i < 8; i++) {
            reseeded[i] ^= freshWords[i];
        }
        long[] expected = blocksFrom(reseeded, 0, nonce);
        long[] withoutReseed = blocksFrom(key, 0, nonce);
        long[] got = new long[(int) longsPerRefill];
        for (int i = 0; i < got.length; i++) {
            got[i] = source.nextLong();
        }
        assertThat(got).isEqualTo(Arrays.copyOfRange(expected, 4, expected.length));
        assertThat(got).isNotEqualTo(Arrays.copyOfRange(withoutReseed, 4, withoutReseed.length));
    }

    @Test
    void twoInstancesDiffer() {
        ChaCha20RandomSource a = new ChaCha20RandomSource();
        ChaCha20RandomSource b = new ChaCha20RandomSource();
        // Equal first four longs need equal 256-bit outputs: probability 2^-256.
        long[] first = {a.nextLong(), a.nextLong(), a.nextLong(), a.nextLong()};
        long[] second = {b.nextLong(), b.nextLong(), b.nextLong(), b.nextLong()};
        assertThat(first).isNotEqualTo(second);
    }

    /**
     * Each of the 64 bit positions over 2^20 longs is set in Binomial(2^20, 1/2) of them: within 6
     * standard deviations with probability 1 − 2e-9 each (1.3e-7 for all 64). The top byte's 256
     * values (4,096 expected each, no pooling) pass a chi-square(255) test at its exact 1e-7
     * quantile. Together: false failure below 2.3e-7.
     */
    @Test
    void bitsAndBytesLookUniform() {
        ChaCha20RandomSource source = new ChaCha20RandomSource();
        int n = 1 << 20;
        long[] ones = new long[64];
        long[] topByte = new long[256];
        for (int i = 0; i < n; i++) {
            long bits = source.nextLong();
            for (int j = 0; j < 64; j++) {
                ones[j] += (bits >>> j) & 1;
            }
            topByte[(int) (bits >>> 56)]++;
        }
        double sd = Math.sqrt(n / 4.0);
        for (int j = 0; j < 64; j++) {
            assertThat(Math.abs(ones[j] - n / 2.0)).as("bit %d", j).isLessThan(6 * sd);
        }
        double[] uniform = new double[256];
        Arrays.fill(uniform, 1 / 256.0);
        GoodnessOfFit.Result result = GoodnessOfFit.test(topByte, uniform, 1e-7);
        assertThat(result.degrees()).isEqualTo(255);
        assertThat(result.accepts()).as("%s", result).isTrue();
    }

    @Test
    void rejectsNullSeeder() {
        assertThatThrownBy(() -> new ChaCha20RandomSource(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("seeder must not be null");
    }

    /**
     * A SecureRandom that returns fixed bytes, to pin the key, the nonce and the reseed material:
     * call i gets chunk i (the last chunk again once they run out).
     */
    private static final class FixedBytes extends SecureRandom {
        private final byte[][] chunks;
        int calls;
        int lastLength;

        FixedBytes(byte[]... chunks) {
            this.chunks = chunks;
        }

        @Override
        public void nextBytes(byte[] out) {
            byte[] chunk = chunks[Math.min(calls, chunks.length - 1)];
            calls++;
            lastLength = out.length;
            System.arraycopy(chunk, 0, out, 0, out.length);
        }
    }
}
