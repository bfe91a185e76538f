import BGKBModel

/// A loop's turns after the first, folded (`TraceFolding`): the chart draws the first turn and,
/// where the rest would be, a break mark on the loop's row with how many turns it stands for;
/// the list gives the first turn and one item that says the same in words.
extension TimelineSVG.Layout {
    /// One fold per folded run, on the row of the first event of its turn that has one (a
    /// thread's, a task's), else on the App row.
    static func folds(_ runs: [RepeatedRun], events: [TraceEvent], eventX: [Double], lanes: Lanes) -> [Fold] {
        var folds: [Fold] = []
        for (number, run) in runs.enumerated() where run.isFolded {
            var row = 0
            for index in run.shown {
                if let found = lanes.threadRow(events[index].lane) ?? events[index].subject.flatMap(lanes.taskRow) {
                    row = found
                    break
                }
            }
            folds.append(Fold(x: eventX[run.folded.lowerBound], endX: eventX[run.folded.upperBound - 1],
                              y: laneY(row), run: number))
        }
        return folds
    }

    /// What a folded run stands for, in words: `the same 3 steps 997 more times, until 12 s`.
    func foldSentence(_ run: RepeatedRun) -> String {
        let steps = run.shown.allSatisfy { events[$0].kind == .step }
        let what = run.length == 1 ? (steps ? "step" : "event") : "\(run.length) \(steps ? "steps" : "events")"
        var text = "the same \(what) \(run.turns - 1) more times"
        if !run.exact { text += " (only their numbers differ)" }
        text += ", until " + Format.seconds(events[run.all.upperBound - 1].time)
        return text
    }

    /// The break marks, each with a dotted span to where its last folded turn ends and a count.
    func writeFolds(into w: inout HTMLWriter) {
        for fold in folds {
            let run = runs[fold.run]
            w.markup("<g class=\"tl-fold\"><title>folded: "); w.text(foldSentence(run)); w.markup("</title>\n")
            if fold.endX - fold.x >= 8 {
                w.markup("<line class=\"tl-fold-span\" x1=\""); w.coordinate(fold.x + 6); w.markup("\" y1=\""); w.coordinate(fold.y + TimelineSVG.laneHeight / 2)
                w.markup("\" x2=\""); w.coordinate(fold.endX); w.markup("\" y2=\""); w.coordinate(fold.y + TimelineSVG.laneHeight / 2)
                w.markup("\" stroke=\"#666\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/>\n")
            }
            // Two slanted strokes across the row, as the axis break draws them across the axis.
            w.markup("<path class=\"tl-fold-mark\" d=\"M"); w.coordinate(fold.x - 5); w.markup(" "); w.coordinate(fold.y + TimelineSVG.laneHeight - 4)
            w.markup(" l6 -22 m4 22 l6 -22\" stroke=\"#666\" stroke-width=\"2\" fill=\"none\"/>\n")
            // The count sits above the row's dots, after the mark, or before it near the right edge.
            let nearRight = fold.x > TimelineSVG.width - TimelineSVG.rightPadding - 70
            w.markup("<text class=\"tl-fold-count\" x=\""); w.coordinate(nearRight ? fold.x - 7 : fold.x + 10); w.markup("\" y=\"")
            w.coordinate(fold.y + 10); w.markup(nearRight ? "\" text-anchor=\"end" : ""); w.markup("\" fill=\"#666\">×")
            w.text(String(run.turns - 1)); w.markup(" more</text></g>\n")
        }
    }

    /// One list item for a run's folded turns.
    func writeFoldItem(_ run: RepeatedRun, into w: inout HTMLWriter) {
        w.markup("<li class=\"tl-fold\">…"); w.text(foldSentence(run)); w.markup(".</li>\n")
    }
}
