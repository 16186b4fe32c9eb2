import Foundation

extension ImageHeader {
    /// A RAW: its size and orientation as LibRaw works them out (the developed picture's, which
    /// is not the sensor's: masked borders are cut, some sensors' pixels stretched). Its EXIF is
    /// read as a TIFF's where the file is one (DNG, CR2, NEF, ARW, PEF), the rest from LibRaw. One
    /// whose sensor data (in a TIFF structure) runs past the file's end was cut short.
    static func readRAW(_ data: Data) throws -> ImageHeader {
        let bytes = ByteReader(data)
        if let end = TIFFDirectory.sensorData(in: bytes)?.dataEnd(in: bytes), end > data.count {
            throw ImagingError.corrupt(.raw, detail: "cut short: its sensor data ends \(end - data.count) bytes past the end of the file")
        }
        let facts = try RAWDecoder(data).facts()
        let exif = TIFFDirectory.first(in: bytes).flatMap { compactExif($0, bytes) }
        return ImageHeader(format: .raw, width: facts.width, height: facts.height, exif: exif,
                           orientation: facts.orientation, rawExif: facts.exif)
    }
}

extension ExifFields {
    /// These fields, each one missing taken from `other`.
    func filled(from other: ExifFields) -> ExifFields {
        var filled = self
        filled.orientation = orientation ?? other.orientation
        filled.dateTimeOriginal = dateTimeOriginal ?? other.dateTimeOriginal
        filled.dateTime = dateTime ?? other.dateTime
        filled.make = make ?? other.make
        filled.model = model ?? other.model
        filled.lensModel = lensModel ?? other.lensModel
        filled.artist = artist ?? other.artist
        filled.exposureTime = exposureTime ?? other.exposureTime
        filled.fNumber = fNumber ?? other.fNumber
        filled.isoSpeed = isoSpeed ?? other.isoSpeed
        filled.focalLength = focalLength ?? other.focalLength
        if gpsLatitude.isEmpty || gpsLongitude.isEmpty {
            (filled.gpsLatitude, filled.gpsLatitudeRef) = (other.gpsLatitude, other.gpsLatitudeRef)
            (filled.gpsLongitude, filled.gpsLongitudeRef) = (other.gpsLongitude, other.gpsLongitudeRef)
            filled.gpsStatus = other.gpsStatus
        }
        filled.colorSpace = colorSpace ?? other.colorSpace
        filled.interoperabilityIndex = interoperabilityIndex ?? other.interoperabilityIndex
        return filled
    }
}
