import BGKBContent
import BGKBModel
import BGKBScan
import Testing

/// The list of checked rules that the site reads (`ScanChecks`, in BGKBModel) and the scanner's
/// families agree, and every rule it names exists in Content.
@Suite struct ScanChecksTests {
    @Test func theScannersFamiliesAreTheListsFamilies() {
        #expect(Family.allCases.map(\.rawValue) == ScanChecks.all.map(\.family))
        for family in Family.allCases {
            #expect(ScanChecks.rule(ofFamily: family.rawValue) == family.rule)
        }
    }

    @Test func everyCheckedRuleIsInContent() throws {
        let loaded = try ContentLoader.load(directory: repositoryRoot + "/Content")
        let ids = Set(loaded.corpus.rules.map(\.id))
        for check in ScanChecks.all {
            #expect(ids.contains(check.rule), "\(check.family) names \(check.rule), which Content does not have")
        }
    }
}
