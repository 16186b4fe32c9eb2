import Foundation

extension ImageHeader {
    static func readJPEG(_ data: Data) throws -> ImageHeader {
        let size = try TurboJPEGDecoder().header(of: data)
        return ImageHeader(format: .jpeg, width: size.width, height: size.height, exif: JPEGSegments.exifPayload(data),
                           channels: size.channels)
    }
}
