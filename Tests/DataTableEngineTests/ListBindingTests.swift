import Testing

@testable import DataTableEngine

/// FUIGridTableViewCell's default bindings for the compact list report.
@Suite struct ListBindingTests {
    static func bind(_ kinds: String, explicit: [Int: ListBinding] = [:]) -> [String] {
        let columns = kinds.enumerated().map { (isImage: $0.element == "i", binding: explicit[$0.offset]) }
        return ListBinding.bind(columns).map { "\($0.0.rawValue)=\($0.1)" }
    }

    @Test func theFirstThreeTextsAreHeadlineSubheadlineFootnoteAndLaterOnesTakeTheStatuses() {
        #expect(Self.bind("ttttt") == ["headline=0", "subheadline=1", "footnote=2", "status=3", "substatus=4"])
    }

    @Test func theFirstImageIsTheDetailImage() {
        #expect(
            Self.bind("titti")
                == ["headline=0", "subheadline=2", "footnote=3", "detailImage=1", "statusImage=4"]
        )
    }

    /// The fourth text takes status, so the image after it gets substatusImage, not statusImage.
    @Test func statusAndStatusImageShareOnePlace() {
        #expect(
            Self.bind("tttiti")
                == ["headline=0", "subheadline=1", "footnote=2", "detailImage=3", "status=4", "substatusImage=5"]
        )
    }

    /// Eight texts: five places; four images: detail, status, substatus; never the icon; at
    /// most six fields.
    @Test func neverTheIconAndAtMostSixFields() {
        #expect(Self.bind("tttttttt").count == 5)
        #expect(Self.bind("iiii") == ["detailImage=0", "statusImage=1", "substatusImage=2"])
        let all = Self.bind("ttttiiitt")
        #expect(all.count == 6)
        #expect(!all.contains { $0.hasPrefix("icon") })
    }

    /// Any explicit binding means only bound columns are shown (the icon too, when asked for).
    @Test func explicitBindingsOverrideTheDefaults() {
        #expect(Self.bind("ttti", explicit: [2: .headline, 3: .icon]) == ["headline=2", "icon=3"])
        // The sync-status column is not part of the list.
        #expect(Self.bind("tt", explicit: [1: .syncStatus]) == ["headline=0"])
    }
}
