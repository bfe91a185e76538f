import UIKit

/// One playlist download, started when the job is made. Progress is reported to the library as
/// each track lands on disk.
final class PlaylistDownloadJob {
    private let backgroundTask: UIBackgroundTaskIdentifier
    private let tracks: [URL]
    private let library: MusicLibrary

    init(tracks: [URL], library: MusicLibrary) {
        self.tracks = tracks
        self.library = library
        backgroundTask = UIApplication.shared.beginBackgroundTask(withName: "Playlist download") { // expect-finding: never-ended
            library.markInterrupted()
        }
    }

    func start() {
        for track in tracks {
            URLSession.shared.downloadTask(with: track) { [library] location, _, error in
                guard let location, error == nil else { return }
                library.importTrack(at: location)
            }.resume()
        }
    }
}

final class MusicLibrary {
    private let folder = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]

    func importTrack(at location: URL) {
        let destination = folder.appendingPathComponent(location.lastPathComponent)
        try? FileManager.default.moveItem(at: location, to: destination)
    }

    func markInterrupted() {
        UserDefaults.standard.set(true, forKey: "playlistInterrupted")
    }
}
