// Which members of a request go together: each request's `validate()`.

extension AddRequest {
    public func validate() throws(ResponseError) {
        guard row != nil || rows != nil else {
            throw .invalidParams("Give row (one object) or rows (an array).", field: "params.row")
        }
        guard row == nil || rows == nil else {
            throw .invalidParams("Give row or rows, not both.", field: "params.rows")
        }
    }
}

extension DeleteRequest {
    public func validate() throws(ResponseError) {
        guard (ids == nil) != (selection != true) else {
            throw .invalidParams("Give ids or selection: true (one of them).", field: "params.ids")
        }
    }
}

extension LoadRequest {
    public func validate() throws(ResponseError) {
        guard [path != nil, text != nil, upload == true].filter({ $0 }).count == 1 else {
            throw .invalidParams("Give path, text or upload: true (one of them).", field: "params.path")
        }
    }
}

extension ExportRequest {
    public func validate() throws(ResponseError) {
        guard path == nil || stream != true else {
            throw .invalidParams("Give path or stream: true, not both.", field: "params.stream")
        }
    }
}

extension ChmodRequest {
    public func validate() throws(ResponseError) {
        guard mode != nil || group != nil || owner != nil else {
            throw .invalidParams("Give mode, group or owner (or several).", field: "params.mode")
        }
    }
}
