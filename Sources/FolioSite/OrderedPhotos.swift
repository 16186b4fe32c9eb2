import FolioModel

/// A site's photos in its order, as the builder's layout reads them: a held library's array, or
/// its `PhotoRows`. The layout is made for each (`SiteBuilder.Layout`): read through `PhotoRows`'
/// lending subscript, every held photo a pass takes would be copied whole.
protocol OrderedPhotos: RandomAccessCollection<GalleryPhoto>, Sendable where Index == Int {}

extension Array: OrderedPhotos where Element == GalleryPhoto {}

extension PhotoRows: OrderedPhotos {}
