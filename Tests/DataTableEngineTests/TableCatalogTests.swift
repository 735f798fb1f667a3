import DataTableEngine
import Testing

@Suite struct TableCatalogTests {
    @Test func aNewCatalogHoldsNoTables() {
        let catalog = TableCatalog()
        #expect(catalog.tableCount == 0)
        #expect(catalog.rowCount == 0)
        #expect(catalog.tableNames.isEmpty)
    }
}
