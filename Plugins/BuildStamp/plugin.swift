import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` before every build: the commit the package is built from, with
/// `+dirty` when its code (Package.swift, Sources, Plugins) differs from it, or `unknown` outside a git checkout. The file is
/// rewritten only when its text changes, so an unchanged commit compiles nothing again.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "stamp")
        let script = """
            root="$1"; directory="$2"; file="$directory/BuildCommit.swift"
            commit=$(git -C "$root" rev-parse HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && ! git -C "$root" diff --quiet HEAD -- Package.swift Sources Plugins 2>/dev/null; then
              commit="$commit+dirty"
            fi
            text="/// The commit this build was made from (written by the BuildStamp plugin).
            let buildCommit = \\"$commit\\""
            mkdir -p "$directory"
            if [ ! -f "$file" ] || [ "$(cat "$file")" != "$text" ]; then printf '%s\\n' "$text" > "$file"; fi
            """
        return [
            .prebuildCommand(
                displayName: "Stamping the build with its commit",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script, "stamp", context.package.directoryURL.path(), output.path()],
                outputFilesDirectory: output)
        ]
    }
}
