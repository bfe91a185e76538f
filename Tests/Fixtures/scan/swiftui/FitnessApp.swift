import SwiftUI
import BackgroundTasks
import HealthKit

@main
struct FitnessApp: App {
    @StateObject private var workouts = WorkoutStore()

    var body: some Scene {
        WindowGroup {
            DashboardView()
                .environmentObject(workouts)
                .onAppear {
                    registerBackgroundTasks()
                    scheduleSummaryRefresh()
                }
        }
    }

    private func registerBackgroundTasks() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.fitness.summary", using: nil) { task in // expect-finding: late-registration
            let work = Task { await workouts.rebuildWeeklySummary() }
            task.expirationHandler = {
                work.cancel()
            }
            Task {
                _ = await work.value
                task.setTaskCompleted(success: !work.isCancelled)
            }
        }
    }

    private func scheduleSummaryRefresh() {
        let request = BGProcessingTaskRequest(identifier: "com.example.fitness.summary")
        request.requiresExternalPower = true
        request.earliestBeginDate = Calendar.current.date(byAdding: .hour, value: 12, to: .now)
        try? BGTaskScheduler.shared.submit(request)
    }
}

@MainActor
final class WorkoutStore: ObservableObject {
    @Published var weeklyMinutes: Double = 0
    private let healthStore = HKHealthStore()

    func rebuildWeeklySummary() async {
        let start = Calendar.current.date(byAdding: .day, value: -7, to: .now)!
        let predicate = HKQuery.predicateForSamples(withStart: start, end: .now)
        let minutes: Double = await withCheckedContinuation { continuation in
            let query = HKSampleQuery(sampleType: .workoutType(), predicate: predicate,
                                      limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, _ in
                let total = (samples as? [HKWorkout])?.reduce(0) { $0 + $1.duration } ?? 0
                continuation.resume(returning: total / 60)
            }
            healthStore.execute(query)
        }
        weeklyMinutes = minutes
    }
}

struct DashboardView: View {
    @EnvironmentObject private var workouts: WorkoutStore

    var body: some View {
        VStack(spacing: 12) {
            Text("This week")
                .font(.headline)
            Text("\(Int(workouts.weeklyMinutes)) min")
                .font(.largeTitle.bold())
        }
        .padding()
    }
}
