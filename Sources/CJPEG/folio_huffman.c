/* Optimised Huffman tables for a one-scan JPEG, without libjpeg's second pass.

   libjpeg optimises tables by keeping every block's coefficients, counting the symbols a pass
   over them would write, building the tables (jpeg_gen_optimal_table looks for the two rarest
   symbols by going over all 257 each time), then encoding. For a thumbnail that is two and a
   half to four times the work of an encode with the standard tables. Here the encode with the
   standard tables is read back instead: its symbols decoded and counted, the tables built by
   the same procedure (ITU T.81 K.2, with the same order among equal counts, and K.3's limit of
   16 bits) from a heap, and the same symbols written again with the new codes. The result is
   the file libjpeg's own optimisation writes, byte for byte (the tests hold it to that). */

#include "folio_huffman.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct huffman_table {
    int present;
    uint8_t counts[17]; /* codes of each length, 1 to 16 */
    uint8_t symbols[256];
    int total;
};

/* Decoding a table: the first LOOKAHEAD bits give the symbol of any code that short at once. */
#define LOOKAHEAD 9
struct huffman_decoder {
    uint16_t fast[1 << LOOKAHEAD]; /* length << 8 | symbol; 0 for a longer code */
    int32_t maxcode[17];           /* the largest code of each length, -1 for none */
    int32_t offset[17];            /* a code of length l is symbols[offset[l] + code] */
    const uint8_t *symbols;
};

static int build_decoder(const struct huffman_table *table, struct huffman_decoder *decoder) {
    memset(decoder->fast, 0, sizeof decoder->fast);
    decoder->symbols = table->symbols;
    int32_t code = 0;
    int index = 0;
    for (int length = 1; length <= 16; length++) {
        int count = table->counts[length];
        decoder->offset[length] = index - code;
        decoder->maxcode[length] = count > 0 ? code + count - 1 : -1;
        for (int i = 0; i < count; i++, code++, index++) {
            if (length <= LOOKAHEAD) {
                int shift = LOOKAHEAD - length;
                for (int j = 0; j < (1 << shift); j++) {
                    decoder->fast[(code << shift) | j] = (uint16_t)(length << 8 | table->symbols[index]);
                }
            }
        }
        if (code > (1 << length)) return -1; /* more codes than the length has */
        code <<= 1;
    }
    return index == table->total ? 0 : -1;
}

/* Bits from the entropy-coded data with its stuffed zero bytes taken out, most significant
   first; past the end, ones (what a writer pads the last byte with). */
struct bit_reader {
    const uint8_t *data;
    size_t size;
    size_t position;
    uint64_t bits; /* the next `count` bits, at the top */
    int count;
};

static inline void reader_fill(struct bit_reader *reader) {
    if (reader->count > 56) return;
    if (reader->position + 8 <= reader->size) {
        /* Eight bytes at once. The bits past those counted are the data's next bits, loaded
           again to the same places by the next fill: the same bits, so or-ing them is harmless. */
        uint64_t next;
        memcpy(&next, reader->data + reader->position, 8);
        reader->bits |= __builtin_bswap64(next) >> reader->count;
        int bytes = (63 - reader->count) >> 3;
        reader->position += (size_t)bytes;
        reader->count += bytes * 8;
        return;
    }
    while (reader->count <= 56) {
        uint64_t byte = reader->position < reader->size ? reader->data[reader->position] : 0xFF;
        reader->position++;
        reader->bits |= byte << (56 - reader->count);
        reader->count += 8;
    }
}

static inline uint32_t reader_take(struct bit_reader *reader, int count) {
    if (count == 0) return 0;
    uint32_t value = (uint32_t)(reader->bits >> (64 - count));
    reader->bits <<= count;
    reader->count -= count;
    return value;
}

static inline int reader_symbol(struct bit_reader *reader, const struct huffman_decoder *decoder) {
    reader_fill(reader);
    uint16_t fast = decoder->fast[reader->bits >> (64 - LOOKAHEAD)];
    if (fast != 0) {
        reader_take(reader, fast >> 8);
        return fast & 0xFF;
    }
    for (int length = LOOKAHEAD + 1; length <= 16; length++) {
        int32_t code = (int32_t)(reader->bits >> (64 - length));
        if (code <= decoder->maxcode[length]) {
            reader_take(reader, length);
            return decoder->symbols[decoder->offset[length] + code];
        }
    }
    return -1;
}

/* Symbols by how often they occur, the rarest on top, the higher symbol first among equal
   counts: the order in which jpeg_gen_optimal_table picks them. */
struct symbol_heap {
    const int64_t *frequency;
    int symbols[257];
    int count;
};

static inline int heap_rarer(const struct symbol_heap *heap, int a, int b) {
    const int64_t *frequency = heap->frequency;
    return frequency[a] < frequency[b] || (frequency[a] == frequency[b] && a > b);
}

static void heap_push(struct symbol_heap *heap, int symbol) {
    int at = heap->count++;
    heap->symbols[at] = symbol;
    while (at > 0 && heap_rarer(heap, heap->symbols[at], heap->symbols[(at - 1) / 2])) {
        int parent = (at - 1) / 2, swap = heap->symbols[at];
        heap->symbols[at] = heap->symbols[parent];
        heap->symbols[parent] = swap;
        at = parent;
    }
}

static int heap_pop(struct symbol_heap *heap) {
    int top = heap->symbols[0];
    heap->symbols[0] = heap->symbols[--heap->count];
    int at = 0;
    for (;;) {
        int left = 2 * at + 1, right = left + 1, least = at;
        if (left < heap->count && heap_rarer(heap, heap->symbols[left], heap->symbols[least])) least = left;
        if (right < heap->count && heap_rarer(heap, heap->symbols[right], heap->symbols[least])) least = right;
        if (least == at) return top;
        int swap = heap->symbols[at];
        heap->symbols[at] = heap->symbols[least];
        heap->symbols[least] = swap;
        at = least;
    }
}

/* The table K.2 builds for `counted` (the counts of symbols 0 to 255), as libjpeg builds it:
   the two rarest go together first. */
static int build_optimal(const uint32_t counted[256], struct huffman_table *table) {
    int64_t frequency[257];
    int codesize[257];
    int others[257];
    for (int i = 0; i < 256; i++) frequency[i] = counted[i];
    frequency[256] = 1; /* a reserved symbol: no code is all ones */
    struct symbol_heap heap = {.frequency = frequency, .count = 0};
    for (int i = 0; i < 257; i++) {
        codesize[i] = 0;
        others[i] = -1;
        if (frequency[i] > 0) heap_push(&heap, i);
    }
    while (heap.count >= 2) {
        int first = heap_pop(&heap), second = heap_pop(&heap);
        frequency[first] += frequency[second];
        frequency[second] = 0;
        /* Every symbol under either branch is one bit longer; the second's chain joins the first's. */
        int c = first;
        codesize[c]++;
        while (others[c] >= 0) {
            c = others[c];
            codesize[c]++;
        }
        others[c] = second;
        c = second;
        codesize[c]++;
        while (others[c] >= 0) {
            c = others[c];
            codesize[c]++;
        }
        /* The merged branch goes back in under the first's symbol and new count. */
        heap_push(&heap, first);
    }
    int bits[33] = {0};
    for (int i = 0; i < 257; i++) {
        if (codesize[i] == 0) continue;
        if (codesize[i] > 32) return -1;
        bits[codesize[i]]++;
    }
    /* K.3: no code longer than 16 bits. */
    for (int i = 32; i > 16; i--) {
        while (bits[i] > 0) {
            int j = i - 2;
            while (bits[j] == 0) j--;
            bits[i] -= 2;
            bits[i - 1]++;
            bits[j + 1] += 2;
            bits[j]--;
        }
    }
    /* The reserved symbol's code goes: one fewer of the longest length. */
    int longest = 16;
    while (longest > 0 && bits[longest] == 0) longest--;
    if (longest == 0) return -1;
    bits[longest]--;
    memset(table, 0, sizeof *table);
    table->present = 1;
    for (int i = 1; i <= 16; i++) table->counts[i] = (uint8_t)bits[i];
    /* The symbols by code length, then by value: counted into place in one pass, not a pass
       over all 256 for each of 32 lengths. */
    int start[34] = {0};
    for (int symbol = 0; symbol < 256; symbol++) start[codesize[symbol] + 1]++;
    start[1] = 0; /* symbols without a code are left out */
    for (int length = 2; length <= 33; length++) start[length] += start[length - 1];
    for (int symbol = 0; symbol < 256; symbol++) {
        if (codesize[symbol] > 0) table->symbols[start[codesize[symbol]]++] = (uint8_t)symbol;
    }
    table->total = start[32];
    return 0;
}

/* A growing output buffer, with a bit writer that stuffs a zero after every 0xFF. */
struct writer {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
    uint64_t bits; /* `count` pending bits, in the low bits */
    int count;
};

/* Room for `count` more bytes: at least twice what there was, so that appends stay cheap. */
static void writer_reserve(struct writer *writer, size_t count) {
    if (writer->failed || writer->size + count <= writer->capacity) return;
    size_t capacity = writer->capacity * 2 > writer->size + count ? writer->capacity * 2 : writer->size + count;
    uint8_t *grown = realloc(writer->data, capacity);
    if (grown == NULL) {
        writer->failed = 1;
        return;
    }
    writer->data = grown;
    writer->capacity = capacity;
}

static void writer_bytes(struct writer *writer, const uint8_t *bytes, size_t count) {
    writer_reserve(writer, count);
    if (writer->failed) return;
    memcpy(writer->data + writer->size, bytes, count);
    writer->size += count;
}

/* Writes `count` bits (at most 32 at once), stuffing a zero after each 0xFF byte. The room
   for the data must have been made (`writer_reserve`): no check per byte. */
static inline void writer_bits(struct writer *writer, uint32_t value, int count) {
    writer->bits = (writer->bits << count) | (value & (uint32_t)((1ull << count) - 1));
    writer->count += count;
    if (writer->count < 32) return;
    writer->count -= 32;
    uint32_t word = (uint32_t)(writer->bits >> writer->count);
    uint8_t *out = writer->data + writer->size;
    uint32_t inverse = ~word;
    if (((inverse - 0x01010101u) & ~inverse & 0x80808080u) == 0) {
        /* No 0xFF among the four bytes: most words. */
        out[0] = (uint8_t)(word >> 24);
        out[1] = (uint8_t)(word >> 16);
        out[2] = (uint8_t)(word >> 8);
        out[3] = (uint8_t)word;
        writer->size += 4;
        return;
    }
    for (int shift = 24; shift >= 0; shift -= 8) {
        uint8_t byte = (uint8_t)(word >> shift);
        out[0] = byte;
        out++;
        writer->size++;
        if (byte == 0xFF) {
            out[0] = 0;
            out++;
            writer->size++;
        }
    }
}

/* The bits left over, a byte at a time, the last byte filled with ones (libjpeg's padding);
   bits that do not fill a byte go. */
static void writer_finish(struct writer *writer) {
    writer->bits = (writer->bits << 7) | 0x7F;
    writer->count += 7;
    while (writer->count >= 8) {
        writer->count -= 8;
        uint8_t byte = (uint8_t)(writer->bits >> writer->count);
        writer->data[writer->size++] = byte;
        if (byte == 0xFF) writer->data[writer->size++] = 0;
    }
    writer->count = 0;
}

static uint16_t read16(const uint8_t *at) { return (uint16_t)(at[0] << 8 | at[1]); }

/* One decoded symbol: its table (class * 4 + id), the symbol, and the bits that follow it. */
#define ENTRY(slot, symbol, extra) ((uint32_t)(slot) | (uint32_t)(symbol) << 3 | (uint32_t)(extra) << 11)

unsigned char *folio_huffman_optimise(const unsigned char *jpeg, size_t length, size_t *size) {
    *size = 0;
    if (length < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return NULL;

    struct huffman_table tables[8]; /* DC 0-3, then AC 0-3 */
    memset(tables, 0, sizeof tables);
    int width = 0, height = 0, frame_components = 0;
    int component_ids[4], horizontal[4], vertical[4];
    int scan_components = 0, scan_index[4], scan_dc[4], scan_ac[4];
    size_t data_start = 0;

    /* The segments up to the scan: tables, frame, scan header. */
    size_t position = 2;
    while (data_start == 0) {
        if (position + 4 > length || jpeg[position] != 0xFF) return NULL;
        uint8_t marker = jpeg[position + 1];
        size_t segment = read16(jpeg + position + 2);
        if (segment < 2 || position + 2 + segment > length) return NULL;
        const uint8_t *body = jpeg + position + 4;
        size_t body_length = segment - 2;
        switch (marker) {
        case 0xC4: { /* DHT */
            size_t at = 0;
            while (at < body_length) {
                if (at + 17 > body_length) return NULL;
                int class = body[at] >> 4, id = body[at] & 15;
                if (class > 1 || id > 3) return NULL;
                struct huffman_table *table = &tables[class * 4 + id];
                memset(table, 0, sizeof *table);
                table->present = 1;
                for (int i = 1; i <= 16; i++) {
                    table->counts[i] = body[at + i];
                    table->total += body[at + i];
                }
                if (table->total > 256 || at + 17 + table->total > body_length) return NULL;
                memcpy(table->symbols, body + at + 17, table->total);
                at += 17 + table->total;
            }
            break;
        }
        case 0xC0: case 0xC1: { /* sequential frame, Huffman coded */
            if (body_length < 6 || body[0] != 8) return NULL;
            height = read16(body + 1);
            width = read16(body + 3);
            frame_components = body[5];
            if (frame_components < 1 || frame_components > 4 || body_length < 6 + 3 * (size_t)frame_components) return NULL;
            for (int i = 0; i < frame_components; i++) {
                component_ids[i] = body[6 + 3 * i];
                horizontal[i] = body[7 + 3 * i] >> 4;
                vertical[i] = body[7 + 3 * i] & 15;
                if (horizontal[i] < 1 || horizontal[i] > 4 || vertical[i] < 1 || vertical[i] > 4) return NULL;
            }
            break;
        }
        case 0xDD: /* DRI: restart markers in the data are not read here */
            if (body_length < 2 || read16(body) != 0) return NULL;
            break;
        case 0xDA: { /* SOS */
            if (frame_components == 0 || body_length < 1) return NULL;
            scan_components = body[0];
            /* One interleaved scan of every component, the whole spectrum at once. */
            if (scan_components != frame_components || scan_components < 2 || body_length != 4 + 2 * (size_t)scan_components) return NULL;
            for (int i = 0; i < scan_components; i++) {
                int id = body[1 + 2 * i], index = -1;
                for (int j = 0; j < frame_components; j++) {
                    if (component_ids[j] == id) index = j;
                }
                if (index < 0) return NULL;
                scan_index[i] = index;
                scan_dc[i] = body[2 + 2 * i] >> 4;
                scan_ac[i] = body[2 + 2 * i] & 15;
                if (scan_dc[i] > 3 || scan_ac[i] > 3 || !tables[scan_dc[i]].present || !tables[4 + scan_ac[i]].present) return NULL;
            }
            const uint8_t *spectral = body + 1 + 2 * scan_components;
            if (spectral[0] != 0 || spectral[1] != 63 || spectral[2] != 0) return NULL;
            data_start = position + 2 + segment;
            break;
        }
        case 0xC2: case 0xC3: case 0xC5: case 0xC6: case 0xC7: case 0xC9: case 0xCA: case 0xCB:
        case 0xCD: case 0xCE: case 0xCF: case 0xD8: case 0xD9:
            return NULL; /* another kind of JPEG, or none */
        default:
            break;
        }
        position += 2 + segment;
    }
    if (width == 0 || height == 0) return NULL;

    /* Every table defined is used by the scan: libjpeg's optimised file has only those. */
    int used[8] = {0};
    for (int i = 0; i < scan_components; i++) {
        used[scan_dc[i]] = 1;
        used[4 + scan_ac[i]] = 1;
    }
    for (int slot = 0; slot < 8; slot++) {
        if (tables[slot].present && !used[slot]) return NULL;
    }

    /* The entropy-coded data, its stuffed zeros out, up to the marker that ends it. */
    size_t data_end = data_start;
    for (;;) {
        const uint8_t *mark = data_end < length ? memchr(jpeg + data_end, 0xFF, length - data_end) : NULL;
        if (mark == NULL) return NULL;
        data_end = (size_t)(mark - jpeg);
        if (data_end + 1 >= length || jpeg[data_end + 1] != 0x00) break;
        data_end += 2;
    }
    if (data_end + 1 >= length || jpeg[data_end + 1] != 0xD9) return NULL;
    uint8_t *data = malloc(data_end - data_start + 1);
    struct huffman_decoder *decoders = malloc(sizeof(struct huffman_decoder) * 8);
    size_t capacity = (data_end - data_start) * 3 + 1024;
    uint32_t *entries = malloc(capacity * sizeof(uint32_t));
    struct writer writer = {0};
    unsigned char *result = NULL;
    if (data == NULL || decoders == NULL || entries == NULL) goto done;
    size_t data_size = 0;
    for (size_t at = data_start; at < data_end;) {
        const uint8_t *mark = memchr(jpeg + at, 0xFF, data_end - at);
        size_t run = mark == NULL ? data_end - at : (size_t)(mark - jpeg) + 1 - at;
        memcpy(data + data_size, jpeg + at, run);
        data_size += run;
        at += run + (mark == NULL ? 0 : 1); /* past an 0xFF's stuffed zero */
    }
    for (int slot = 0; slot < 8; slot++) {
        if (tables[slot].present && build_decoder(&tables[slot], &decoders[slot]) != 0) goto done;
    }

    /* Decode every block, counting each table's symbols. */
    int max_h = 1, max_v = 1;
    for (int i = 0; i < frame_components; i++) {
        if (horizontal[i] > max_h) max_h = horizontal[i];
        if (vertical[i] > max_v) max_v = vertical[i];
    }
    long mcus = (long)((width + 8 * max_h - 1) / (8 * max_h)) * (long)((height + 8 * max_v - 1) / (8 * max_v));
    uint32_t frequency[8][256];
    memset(frequency, 0, sizeof frequency);
    struct bit_reader reader = {data, data_size, 0, 0, 0};
    size_t count = 0;
    for (long mcu = 0; mcu < mcus; mcu++) {
        for (int i = 0; i < scan_components; i++) {
            int index = scan_index[i], blocks = horizontal[index] * vertical[index];
            int dc = scan_dc[i], ac = 4 + scan_ac[i];
            for (int block = 0; block < blocks; block++) {
                /* Damaged data can read on into the padding for ever: not past a few bytes of it. */
                if (reader.position > data_size + 16) goto done;
                if (count + 128 > capacity) {
                    capacity *= 2;
                    uint32_t *grown = realloc(entries, capacity * sizeof(uint32_t));
                    if (grown == NULL) goto done;
                    entries = grown;
                }
                int symbol = reader_symbol(&reader, &decoders[dc]);
                if (symbol < 0 || symbol > 11) goto done;
                /* The fill before the symbol left room for its bits: at most 16 + 11. */
                entries[count++] = ENTRY(dc, symbol, reader_take(&reader, symbol));
                frequency[dc][symbol]++;
                for (int k = 1; k < 64;) {
                    symbol = reader_symbol(&reader, &decoders[ac]);
                    if (symbol < 0) goto done;
                    int run = symbol >> 4, bits = symbol & 15;
                    frequency[ac][symbol]++;
                    if (bits == 0) {
                        entries[count++] = ENTRY(ac, symbol, 0);
                        if (run != 15) break; /* end of block */
                        k += 16;              /* sixteen zeros; a coefficient must follow */
                        if (k >= 64) goto done;
                        continue;
                    }
                    k += run;
                    if (k > 63 || bits > 10) goto done;
                    entries[count++] = ENTRY(ac, symbol, reader_take(&reader, bits));
                    k++;
                }
            }
        }
    }
    /* Every bit read was in the data, and no more than padding is left over. */
    size_t consumed = reader.position * 8 - (size_t)reader.count;
    if (consumed > data_size * 8 || data_size * 8 - consumed >= 8) goto done;

    /* The new tables, and each symbol's code under them. */
    struct huffman_table optimal[8];
    uint16_t codes[8][256];
    uint8_t lengths[8][256];
    memset(optimal, 0, sizeof optimal);
    memset(lengths, 0, sizeof lengths);
    for (int slot = 0; slot < 8; slot++) {
        if (!used[slot]) continue;
        if (build_optimal(frequency[slot], &optimal[slot]) != 0) goto done;
        uint32_t code = 0;
        int index = 0;
        for (int l = 1; l <= 16; l++) {
            for (int i = 0; i < optimal[slot].counts[l]; i++, index++, code++) {
                codes[slot][optimal[slot].symbols[index]] = (uint16_t)code;
                lengths[slot][optimal[slot].symbols[index]] = (uint8_t)l;
            }
            code <<= 1;
        }
    }

    /* The file again: each DHT segment with the new versions of its tables, then the data. */
    writer.capacity = length + 1024;
    writer.data = malloc(writer.capacity);
    if (writer.data == NULL) goto done;
    writer_bytes(&writer, jpeg, 2);
    for (position = 2; position < data_start;) {
        size_t segment = read16(jpeg + position + 2);
        if (jpeg[position + 1] != 0xC4) {
            writer_bytes(&writer, jpeg + position, 2 + segment);
        } else {
            const uint8_t *body = jpeg + position + 4;
            size_t at = 0, total = 2;
            while (at < segment - 2) {
                int slot = (body[at] >> 4) * 4 + (body[at] & 15), old = 0;
                for (int i = 1; i <= 16; i++) old += body[at + i];
                total += 17 + optimal[slot].total;
                at += 17 + old;
            }
            uint8_t header[4] = {0xFF, 0xC4, (uint8_t)(total >> 8), (uint8_t)total};
            writer_bytes(&writer, header, 4);
            for (at = 0; at < segment - 2;) {
                int slot = (body[at] >> 4) * 4 + (body[at] & 15), old = 0;
                for (int i = 1; i <= 16; i++) old += body[at + i];
                writer_bytes(&writer, body + at, 1);
                writer_bytes(&writer, optimal[slot].counts + 1, 16);
                writer_bytes(&writer, optimal[slot].symbols, (size_t)optimal[slot].total);
                at += 17 + old;
            }
        }
        position += 2 + segment;
    }
    /* The data's exact length in bits, so that room for it (every byte stuffed, at worst) is
       made once. */
    uint64_t total_bits = 7;
    for (int slot = 0; slot < 8; slot++) {
        if (!used[slot]) continue;
        for (int symbol = 0; symbol < 256; symbol++) {
            int extra = slot < 4 ? symbol : symbol & 15;
            total_bits += (uint64_t)frequency[slot][symbol] * (uint64_t)(lengths[slot][symbol] + extra);
        }
    }
    writer_reserve(&writer, (size_t)(total_bits / 8 + 8) * 2);
    if (writer.failed) goto done;
    for (size_t i = 0; i < count; i++) {
        uint32_t entry = entries[i];
        int slot = entry & 7, symbol = (entry >> 3) & 0xFF;
        int bits = slot < 4 ? symbol : symbol & 15;
        /* The code and the bits after it, at most 16 + 11, in one go. */
        writer_bits(&writer, (uint32_t)codes[slot][symbol] << bits | entry >> 11, lengths[slot][symbol] + bits);
    }
    writer_finish(&writer);
    writer_bytes(&writer, jpeg + data_end, length - data_end);
    if (!writer.failed) {
        result = writer.data;
        *size = writer.size;
        writer.data = NULL;
    }
done:
    free(writer.data);
    free(entries);
    free(decoders);
    free(data);
    return result;
}
