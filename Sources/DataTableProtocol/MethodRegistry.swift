/// Every method the protocol defines, in the order `help` lists them.
///
/// Adding a method: see "Adding a method" in protocol.md.
public enum MethodRegistry {
    /// Every method's request type, in the order `help` lists them.
    public static let all: [any DataTableRequest.Type] = [
        PingRequest.self,
        HelloRequest.self,
        HelpRequest.self,
        StatsRequest.self,
        CreateRequest.self,
        DropRequest.self,
        ChmodRequest.self,
        TablesRequest.self,
        DescribeRequest.self,
        AddRequest.self,
        EditRequest.self,
        RevertRequest.self,
        DeleteRequest.self,
        ClearRequest.self,
        AlterRequest.self,
        GetRequest.self,
        SelectRequest.self,
        SelectionRequest.self,
        CopyRequest.self,
        SortRequest.self,
        LayoutRequest.self,
        ScrollRequest.self,
        WatchRequest.self,
        UnwatchRequest.self,
        FilterRequest.self,
        DistinctRequest.self,
        CollapseRequest.self,
        ExpandRequest.self,
        ColumnStateRequest.self,
        SubscribeRequest.self,
        UnsubscribeRequest.self,
        UploadRequest.self,
        LoadRequest.self,
        AttachRequest.self,
        ExportRequest.self,
        UndoRequest.self,
        RedoRequest.self,
    ]

    /// The method type for a wire name.
    public static func type(named method: String) -> (any DataTableRequest.Type)? {
        byName[method]
    }

    private static let byName: [String: any DataTableRequest.Type] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.method, $0) }
    )
}
