import FolioImaging
import Foundation

extension PhotoTools {
    /// A RAW developed by rawpy (LibRaw in its own build, a newer release than Debian's) as a
    /// camera would: its white balance as shot, in sRGB, eight bits, turned as the file says.
    /// The reference Folio's development is compared with.
    public static func rawpyPixels(of raw: Data, fileExtension: String) throws -> PixelBuffer {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("photo.\(fileExtension)"), png = folder.appendingPathComponent("developed.png")
            try raw.write(to: input)
            try python("""
                import sys
                import rawpy
                from PIL import Image
                source, output = sys.argv[1:3]
                with rawpy.imread(source) as raw:
                    Image.fromarray(raw.postprocess(use_camera_wb=True, output_bps=8)).save(output)
                """, [input.path, png.path])
            return try pillowPixels(of: try Data(contentsOf: png))
        }
    }

    /// The JPEG preview a camera embedded in its RAW, as `exiftool -b -PreviewImage` extracts it.
    public static func embeddedPreview(of raw: Data, fileExtension: String) throws -> Data {
        try inTemporaryFolder { folder in
            let input = folder.appendingPathComponent("photo.\(fileExtension)"), jpeg = folder.appendingPathComponent("preview.jpg")
            try raw.write(to: input)
            try run("sh", ["-c", "exiftool -b -PreviewImage \"$1\" > \"$2\"", "sh", input.path, jpeg.path])
            return try Data(contentsOf: jpeg)
        }
    }
}
