import Foundation

/// The CRC-32 that PNG chunks carry (ISO 3309, as in zlib).
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    package static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { bytes in
            table.withUnsafeBufferPointer { table in
                var crc: UInt32 = 0xFFFF_FFFF
                for byte in bytes {
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                }
                return ~crc
            }
        }
    }
}
