import Synchronization

/// Opens fonts once and keeps them: by family and style through fontconfig, or by file.
/// Safe to use from any thread.
public final class FontLibrary: Sendable {
    private let faces = Mutex<[String: FontFace]>([:])

    /// An empty library; faces are opened when first asked for.
    public init() {}

    /// The face fontconfig finds for `family` in `style`.
    public func face(family: String, style: String) throws(FontError) -> FontFace {
        let name = "\(family.lowercased()):\(style.lowercased())"
        return try faces.withLock { faces throws(FontError) in
            if let face = faces[name] { return face }
            let located = try FontLocator.locate(family: family, style: style)
            let face = try openFace(
                path: located.path,
                index: located.index,
                family: located.family,
                style: located.style,
                in: &faces
            )
            faces[name] = face
            return face
        }
    }

    /// Face `index` of the font file at `path`.
    public func face(path: String, index: Int = 0) throws(FontError) -> FontFace {
        try faces.withLock { faces throws(FontError) in
            try openFace(path: path, index: index, family: nil, style: nil, in: &faces)
        }
    }

    private func openFace(
        path: String,
        index: Int,
        family: String?,
        style: String?,
        in faces: inout [String: FontFace]
    ) throws(FontError) -> FontFace {
        // The names are part of the identity: a face found by name reports fontconfig's family
        // and style for it (a face opened by file, none), whoever opened the file first.
        let identity = "\(path)#\(index)#\(family ?? "")#\(style ?? "")"
        if let face = faces[identity] { return face }
        let face = try FontFace(path: path, index: index, family: family, style: style)
        faces[identity] = face
        return face
    }
}
