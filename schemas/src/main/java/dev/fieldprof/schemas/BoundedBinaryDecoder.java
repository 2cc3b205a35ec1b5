package dev.fieldprof.schemas;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * Avro binary decoding over one byte array that refuses any length or count the remaining bytes
 * cannot hold, before anything is allocated for it.
 *
 * <p>Avro's own decoder trusts a record's claims: an array block that says it holds 2·10⁹ items
 * makes the reader allocate room for them before reading the first, and a string length of 2·10⁹
 * allocates 2 GB; both end in an OutOfMemoryError however few bytes follow. Here:
 *
 * <ul>
 *   <li>a string, bytes or fixed value may not be longer than the bytes left;
 *   <li>an array or map block may not claim more items than the bytes left, which is sound because
 *       every item of every schema this decoder is used with takes at least one byte (see {@link
 *       #zeroByteItem}: a schema that could write an item in zero bytes is refused up front);
 *   <li>a block with a byte size (a negative count) may not claim more bytes than are left.
 * </ul>
 *
 * So whatever a record claims, what is allocated for it stays within a small multiple of its own
 * length. A violation is an {@link IOException} naming the kind of value, what it claimed and the
 * bytes left; {@link RecordCodec} turns it into a {@link RecordDecodingException}.
 *
 * <p>Avro's global limits ({@code org.apache.avro.limits.*} system properties) would do part of
 * this too, but they are JVM-wide: set by the SDK, they would change every other Avro user in the
 * host program.
 *
 * <p>Not thread-safe: one instance reads one record.
 */
final class BoundedBinaryDecoder extends Decoder {
    private final byte[] bytes;
    private int position;

    BoundedBinaryDecoder(byte[] bytes, int offset) {
        this.bytes = bytes;
        this.position = offset;
    }

    /** Bytes not yet read. */
    int remaining() {
        return bytes.length - position;
    }

    @Override
    public void readNull() {}

    @Override
    public boolean readBoolean() throws IOException {
        require(1, "boolean");
        return bytes[position++] == 1;
    }

    @Override
    public int readInt() throws IOException {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            require(1, "int");
            int b = bytes[position++] & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new IOException("malformed int: more than 5 bytes");
    }

    @Override
    public long readLong() throws IOException {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            require(1, "long");
            long b = bytes[position++] & 0xFF;
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (value >>> 1) ^ -(value & 1);
            }
        }
        throw new IOException("malformed long: more than 10 bytes");
    }

    @Override
    public float readFloat() throws IOException {
        require(4, "float");
        int bits = 0;
        for (int i = 3; i >= 0; i--) {
            bits = (bits << 8) | (bytes[position + i] & 0xFF);
        }
        position += 4;
        return Float.intBitsToFloat(bits);
    }

    @Override
    public double readDouble() throws IOException {
        require(8, "double");
        long bits = 0;
        for (int i = 7; i >= 0; i--) {
            bits = (bits << 8) | (bytes[position + i] & 0xFF);
        }
        position += 8;
        return Double.longBitsToDouble(bits);
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = length("string");
        Utf8 result = old != null ? old : new Utf8();
        result.setByteLength(length);
        System.arraycopy(bytes, position, result.getBytes(), 0, length);
        position += length;
        return result;
    }

    @Override
    public String readString() throws IOException {
        int length = length("string");
        String value = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    @Override
    public void skipString() throws IOException {
        position += length("string");
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int length = length("bytes");
        ByteBuffer result;
        if (old != null && old.capacity() >= length) {
            result = old;
            result.clear();
        } else {
            result = ByteBuffer.allocate(length);
        }
        result.put(bytes, position, length);
        result.flip();
        position += length;
        return result;
    }

    @Override
    public void skipBytes() throws IOException {
        position += length("bytes");
    }

    @Override
    public void readFixed(byte[] target, int start, int length) throws IOException {
        require(length, "fixed");
        System.arraycopy(bytes, position, target, start, length);
        position += length;
    }

    @Override
    public void skipFixed(int length) throws IOException {
        require(length, "fixed");
        position += length;
    }

    @Override
    public int readEnum() throws IOException {
        return readInt();
    }

    @Override
    public long readArrayStart() throws IOException {
        return blockCount("array");
    }

    @Override
    public long arrayNext() throws IOException {
        return blockCount("array");
    }

    @Override
    public long skipArray() throws IOException {
        return skipSizedBlocks("array");
    }

    @Override
    public long readMapStart() throws IOException {
        return blockCount("map");
    }

    @Override
    public long mapNext() throws IOException {
        return blockCount("map");
    }

    @Override
    public long skipMap() throws IOException {
        return skipSizedBlocks("map");
    }

    @Override
    public int readIndex() throws IOException {
        return readInt();
    }

    /** A string or bytes length, refused when negative or longer than the bytes left. */
    private int length(String kind) throws IOException {
        long claimed = readLong();
        if (claimed < 0 || claimed > remaining()) {
            throw new IOException(
                    kind + " claims " + claimed + " bytes but " + remaining() + " bytes are left");
        }
        return (int) claimed;
    }

    /**
     * The item count of the next block (0 ends the array or map). A negative count is followed by
     * the block's size in bytes, which must fit in what is left; either way at most one item per
     * byte left.
     */
    private long blockCount(String kind) throws IOException {
        long count = readLong();
        if (count < 0) {
            if (count == Long.MIN_VALUE) {
                throw new IOException(kind + " block claims " + count + " items");
            }
            count = -count;
            long size = readLong();
            if (size < 0 || size > remaining()) {
                throw new IOException(
                        kind
                                + " block claims "
                                + size
                                + " bytes but "
                                + remaining()
                                + " bytes are left");
            }
        }
        if (count > remaining()) {
            throw new IOException(
                    kind
                            + " block claims "
                            + count
                            + " items but "
                            + remaining()
                            + " bytes are left (every item takes at least one)");
        }
        return count;
    }

    /**
     * Skips the blocks that carry their byte size and returns the item count of the next block
     * without one, which the caller skips item by item (0 ends the array or map).
     */
    private long skipSizedBlocks(String kind) throws IOException {
        while (true) {
            long count = readLong();
            if (count >= 0) {
                if (count > remaining()) {
                    throw new IOException(
                            kind
                                    + " block claims "
                                    + count
                                    + " items but "
                                    + remaining()
                                    + " bytes are left (every item takes at least one)");
                }
                return count;
            }
            long size = readLong();
            if (count == Long.MIN_VALUE || size < 0 || size > remaining()) {
                throw new IOException(
                        kind
                                + " block claims "
                                + size
                                + " bytes but "
                                + remaining()
                                + " bytes are left");
            }
            position += (int) size;
        }
    }

    private void require(int length, String kind) throws EOFException {
        if (length < 0 || length > remaining()) {
            throw new EOFException(
                    "truncated: "
                            + kind
                            + " needs "
                            + length
                            + " bytes but "
                            + remaining()
                            + " are left");
        }
    }

    /**
     * A description of an array item or map value type of {@code schema} that Avro can write in
     * zero bytes (null, a record of such fields, an empty fixed), or null when there is none. The
     * item bound above holds only for schemas without one.
     */
    static String zeroByteItem(Schema schema) {
        return zeroByteItem(schema, new HashSet<>());
    }

    private static String zeroByteItem(Schema schema, Set<String> visited) {
        switch (schema.getType()) {
            case RECORD:
                if (!visited.add(schema.getFullName())) {
                    return null;
                }
                for (Schema.Field field : schema.getFields()) {
                    String found = zeroByteItem(field.schema(), visited);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            case ARRAY:
                if (canBeEmpty(schema.getElementType(), new HashSet<>())) {
                    return "array of " + schema.getElementType();
                }
                return zeroByteItem(schema.getElementType(), visited);
            case MAP:
                // A map entry always has its key, a string of at least its length byte.
                return zeroByteItem(schema.getValueType(), visited);
            case UNION:
                for (Schema branch : schema.getTypes()) {
                    String found = zeroByteItem(branch, visited);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            default:
                return null;
        }
    }

    private static boolean canBeEmpty(Schema schema, Set<String> visited) {
        switch (schema.getType()) {
            case NULL:
                return true;
            case FIXED:
                return schema.getFixedSize() == 0;
            case RECORD:
                if (!visited.add(schema.getFullName())) {
                    return false;
                }
                for (Schema.Field field : schema.getFields()) {
                    if (!canBeEmpty(field.schema(), visited)) {
                        return false;
                    }
                }
                return true;
            default:
                // Numbers, booleans, enums, union indexes, lengths and block counts: >= 1 byte.
                return false;
        }
    }
}
