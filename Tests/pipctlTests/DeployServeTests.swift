import Foundation
import Testing
@testable import pipctl

/// `deploy/`'s files for `pipctl serve`, checked against pipctl itself and what Kubernetes documents: the
/// Deployment's arguments parse with `serve`'s own parser, its paths are under the volumes they must be on, its
/// probes and Service reach the port it listens on, the autoscaler targets it; and the image installs every shared
/// library the binary needs. (nginx's file is run for real by ServingTests' `ServeNginxTests`.)
@Suite struct DeployServeTests {
    typealias Manifest = DeployManifestTests

    /// The Deployment's one container, its pod spec, and the serve options it passes, parsed by pipctl's parser.
    struct Serve {
        var documents: [[String: Any]]
        var deployment: [String: Any]
        var pod: [String: Any]
        var container: [String: Any]
        var options: ServeCommand.Options

        init() throws {
            documents = try Manifest.yamlDocuments("kubernetes/pipctl-serve.yaml")
            deployment = try Manifest.document(documents, kind: "Deployment")
            pod = Manifest.value(deployment, "spec.template.spec") as? [String: Any] ?? [:]
            let containers = pod["containers"] as? [[String: Any]] ?? []
            try #require(containers.count == 1, "the Deployment has \(containers.count) containers")
            container = containers[0]
            let args = container["args"] as? [String] ?? []
            try #require(args.first == "serve", "\(args)")
            let parser = ArgumentParser(command: "pipctl serve", definition: ServeCommand.definition)
            guard case .arguments(let parsed) = try parser.parse(Array(args.dropFirst())) else {
                throw Manifest.Failure(description: "the arguments ask for help")
            }
            options = ServeCommand.Options(parsed)
        }

        /// The volume mounted at the mount that holds `path`, and that mount.
        func volume(holding path: String) throws -> (volume: [String: Any], mount: [String: Any]) {
            let mounts = container["volumeMounts"] as? [[String: Any]] ?? []
            let mount = try #require(mounts.filter { path == $0["mountPath"] as? String || path.hasPrefix(($0["mountPath"] as? String ?? "?") + "/") }
                .max { ($0["mountPath"] as? String ?? "").count < ($1["mountPath"] as? String ?? "").count }, "no mount holds \(path)")
            let volumes = pod["volumes"] as? [[String: Any]] ?? []
            return (try #require(volumes.first { $0["name"] as? String == mount["name"] as? String }), mount)
        }
    }

    @Test func theDeploymentRunsServeWithArgumentsPipctlAcceptsOnTheSharedVolume() throws {
        let serve = try Serve()
        #expect(serve.deployment["apiVersion"] as? String == "apps/v1")
        #expect(Manifest.value(serve.deployment, "spec.replicas") as? Int ?? 0 >= 2)
        // Every pod shares the cache on one ReadWriteMany claim, and the secret.
        let cache = try #require(serve.options.cache)
        let (cacheVolume, cacheMount) = try serve.volume(holding: cache)
        #expect(cacheMount["readOnly"] as? Bool != true)
        let claimName = Manifest.value(cacheVolume, "persistentVolumeClaim.claimName") as? String
        let claims = serve.documents.filter { $0["kind"] as? String == "PersistentVolumeClaim" }
        let claim = try #require(claims.first { Manifest.value($0, "metadata.name") as? String == claimName }, "no claim \(claimName ?? "?")")
        #expect((Manifest.value(claim, "spec.accessModes") as? [String] ?? []).contains("ReadWriteMany"))
        let secretFile = try #require(serve.options.secretFile)
        let (secretVolume, _) = try serve.volume(holding: secretFile)
        let secretName = try #require(Manifest.value(secretVolume, "secret.secretName") as? String)
        #expect(!secretName.isEmpty)
        // The file inside it is the Secret's key `secret`, mounted for its owner, which `--secret-file` accepts (an
        // fsGroup then adds the group's read, which it accepts too).
        #expect(secretFile.hasSuffix("/secret"))
        let mode = try #require(Manifest.value(secretVolume, "secret.defaultMode") as? Int)
        #expect(mode & 0o037 == 0, "defaultMode \(String(mode, radix: 8))")
        // The origin is read-only, and the user is the image's.
        let (_, originMount) = try serve.volume(holding: serve.options.origin)
        #expect(originMount["readOnly"] as? Bool == true)
        #expect(Manifest.value(serve.pod, "securityContext.runAsUser") as? Int == 10001)
        #expect(Manifest.value(serve.container, "securityContext.readOnlyRootFilesystem") as? Bool == true)
        // Everything the server writes is on a volume: the cache, and /tmp (the media cache's downloads).
        _ = try serve.volume(holding: "/tmp")
        #expect(!serve.options.trustedProxies.isEmpty)
    }

    @Test func probesAndTheServiceReachThePortServeListensOn() throws {
        let serve = try Serve()
        let ports = serve.container["ports"] as? [[String: Any]] ?? []
        let http = try #require(ports.first { $0["containerPort"] as? Int == serve.options.listen.port })
        #expect(serve.options.listen.host == "0.0.0.0")
        for probe in ["readinessProbe", "livenessProbe"] {
            #expect(Manifest.value(serve.container, "\(probe).httpGet.path") as? String == "/healthz")
            let port = Manifest.value(serve.container, "\(probe).httpGet.port")
            #expect(port as? String == http["name"] as? String || port as? Int == serve.options.listen.port, "\(probe)")
        }
        let service = try Manifest.document(serve.documents, kind: "Service")
        let selector = Manifest.value(service, "spec.selector") as? [String: String]
        #expect(selector != nil && selector == Manifest.value(serve.deployment, "spec.template.metadata.labels") as? [String: String])
        let target = (Manifest.value(service, "spec.ports") as? [[String: Any]])?.first?["targetPort"]
        #expect(target as? String == http["name"] as? String || target as? Int == serve.options.listen.port)
        // The drain (10 s) fits in the grace period.
        #expect(Manifest.value(serve.pod, "terminationGracePeriodSeconds") as? Int ?? 0 > 10)
    }

    @Test func theAutoscalerScalesTheDeploymentOnCPU() throws {
        let serve = try Serve()
        let autoscaler = try Manifest.document(serve.documents, kind: "HorizontalPodAutoscaler")
        #expect(autoscaler["apiVersion"] as? String == "autoscaling/v2")
        #expect(Manifest.value(autoscaler, "spec.scaleTargetRef.kind") as? String == "Deployment")
        #expect(Manifest.value(autoscaler, "spec.scaleTargetRef.name") as? String == Manifest.value(serve.deployment, "metadata.name") as? String)
        let metric = (Manifest.value(autoscaler, "spec.metrics") as? [[String: Any]])?.first
        #expect(Manifest.value(metric, "resource.name") as? String == "cpu")
        // Utilisation is relative to the request, so the container must ask for CPU.
        #expect(Manifest.value(serve.container, "resources.requests.cpu") != nil)
        let minimum = Manifest.value(autoscaler, "spec.minReplicas") as? Int ?? 0
        #expect(minimum >= 2 && Manifest.value(autoscaler, "spec.maxReplicas") as? Int ?? 0 > minimum)
    }

    /// Runs `executable` with `arguments` and returns its standard output.
    static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theImageInstallsEveryDebianLibraryPipctlLinks() throws {
        let binary = try PipctlProcess.executable().path
        // The binary's own NEEDED entries (readelf, binutils), each soname's Debian package (dpkg -S).
        let needed = try Self.output("/usr/bin/readelf", ["-d", binary]).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libmicrohttpd.so.12") && needed.contains("libavcodec.so.59"), "\(needed)")
        let text = try String(contentsOf: Manifest.deploy.appendingPathComponent("Containerfile"), encoding: .utf8)
        let runtime = text.components(separatedBy: "FROM ${RUNTIME_IMAGE}").last ?? ""
        for soname in needed {
            let owner = try Self.output("/usr/bin/dpkg", ["-S", "*/\(soname)"]).split(separator: ":").first.map(String.init)
            guard let package = owner, !package.isEmpty else {
                // Not Debian's: the Swift runtime, which the image copies from the build stage.
                #expect(soname.hasPrefix("libswift") || soname.hasPrefix("libFoundation") || ["libdispatch.so", "libBlocksRuntime.so"].contains(soname), "\(soname)")
                continue
            }
            if package == "libc6" { continue }
            #expect(runtime.contains(" \(package) ") || runtime.contains(" \(package)\n") || runtime.contains(" \(package) \\"),
                    "the runtime image does not install \(package) (for \(soname))")
        }
    }
}
