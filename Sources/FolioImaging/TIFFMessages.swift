import CTIFF

/// The only Swift code that calls libtiff (libgd decodes TIFF through it): libtiff's messages
/// are switched off once, before the first TIFF is decoded, as libgd's own are.
enum TIFFMessages {
    static let silenced: Void = folio_tiff_silence_messages()
}
