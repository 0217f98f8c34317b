import Testing

@testable import BackoffPolicies

/// An AWS shared config read as botocore reads it: configparser's INI rules, botocore's profiles,
/// and the retry settings' forms. scripts/conformance compares the same reading with botocore's own
/// loader on a corpus of files; these tests pin each rule by hand.
@Suite struct AWSSharedConfigTests {
    private func read(_ text: String, profile: String? = nil) throws(AWSSharedConfig.Invalid) -> AWSSharedConfig {
        try AWSSharedConfig(bytes: Array(text.utf8), profile: profile)
    }

    private func error(_ text: String, profile: String? = nil) -> String? {
        do {
            _ = try read(text, profile: profile)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aProfilesModeAndAttemptsMakeThePreset() throws {
        let config = try read(
            """
            [default]
            region = us-east-1

            [profile batch]
            retry_mode = adaptive
            max_attempts = 10
            output = json
            """, profile: "batch")
        #expect(config.retryMode == .adaptive && config.maxAttempts == 10)
        #expect(config.preset.name == "aws-sdk-adaptive" && config.preset.adaptiveRateLimiter != nil)
        #expect(config.preset.policy.budget == .maxAttempts(10))
        #expect(config.preset.throttlingPolicy?.budget == .maxAttempts(10))
        #expect(config.sources[.maxAttempts] == "[profile batch] max_attempts, line 6")
        #expect(config.otherKeys == ["output"])
    }

    /// botocore's defaults: standard with 3 attempts, legacy with 5; `default` when none is asked
    /// for, and no error when the file has no `[default]`.
    @Test func botocoresDefaultsFillWhatTheProfileLeavesOut() throws {
        let standard = try read("[default]\nregion = eu-west-1\n")
        #expect(standard.retryMode == .standard && standard.maxAttempts == 3 && standard.sources.isEmpty)
        #expect(standard.preset.policy == Preset.awsSDKStandard.policy)
        let none = try read("[profile other]\nretry_mode = legacy\n")
        #expect(none.section == nil && none.retryMode == .standard && none.maxAttempts == 3)
        let legacy = try read("[profile other]\nretry_mode = legacy\n", profile: "other")
        #expect(legacy.maxAttempts == 5 && legacy.preset.policy == Preset.awsSDKLegacy.policy)
        #expect(legacy.preset.budget == nil && legacy.preset.policy.cap == nil)
    }

    /// configparser's rules: keys lowercased, `:` as a delimiter, `[DEFAULT]` inherited, a value
    /// continued on deeper lines, full-line comments only.
    @Test func theFileIsReadAsConfigparserReadsIt() throws {
        let text = """
            ; comment
            [DEFAULT]
            retry_mode = adaptive

            [profile a]
            MAX_ATTEMPTS: 7
              # a comment inside a value is dropped from it
            [profile b]
            retry_mode = standard
            """
        let a = try read(text, profile: "a")
        #expect(a.retryMode == .adaptive && a.maxAttempts == 7)
        #expect(a.sources[.retryMode] == "[DEFAULT] retry_mode, line 3")
        #expect(try read(text, profile: "b").retryMode == .standard)
        // An inline '#' is part of the value, as configparser has it by default.
        #expect(error("[default]\nmax_attempts = 5 # five\n")?.contains("got '5 # five'") == true)
        // A deeper line continues the value: "5\n6" is no integer.
        #expect(error("[default]\nmax_attempts = 5\n  6\n") != nil)
        #expect(try read("[default]\nmax_attempts =\n\n[profile x]\n", profile: "x").maxAttempts == 3)
    }

    /// botocore's profile names: shell words after `profile`, the last section of a name winning.
    @Test func profileNamesAreSplitAsBotocoreSplitsThem() throws {
        #expect(try read("[profile \"my name\"]\nmax_attempts = 4\n", profile: "my name").maxAttempts == 4)
        #expect(try read("[profilex a]\nmax_attempts = 4\n", profile: "a").maxAttempts == 4)
        #expect(error("[profile a b]\nmax_attempts = 4\n", profile: "a")?.contains("no profile 'a'") == true)
        #expect(error("[profile 'open]\n", profile: "open")?.contains("it has none") == true)
        let twice = "[profile default]\nmax_attempts = 4\n[default]\nmax_attempts = 6\n"
        #expect(try read(twice).maxAttempts == 6)
        #expect(ShellWords.split(#"profile "a\"b" c\d 'e\f'"#) == ["profile", #"a"b"#, "cd", #"e\f"#])
        #expect(ShellWords.split("profile ''") == ["profile", ""])
        #expect(ShellWords.split("profile \"x") == nil && ShellWords.split("profile x\\") == nil)
    }

    /// A missing profile is told from a broken file by the error itself, not by its wording.
    @Test func aMissingProfileIsToldFromABrokenFile() {
        #expect(throws: AWSSharedConfig.Invalid.self) { try read("[default]\n", profile: "prod") }
        do {
            _ = try read("[default]\n", profile: "prod")
        } catch {
            #expect(error.isMissingProfile)
        }
        do {
            _ = try read("[default]\nmax_attempts = 0\n", profile: "default")
        } catch {
            #expect(!error.isMissingProfile && error.description.contains("max_attempts"))
        }
    }

    /// Every file botocore refuses is refused, naming the line.
    @Test(arguments: [
        ("region = x\n[default]\n", "line 1: 'region = x' comes before the first [section]"),
        ("\u{FEFF}[default]\n", "byte-order mark"),
        ("[default]\n[default]\n", "line 2: section '[default]' appears twice"),
        ("[default]\na = 1\nA = 2\n", "line 3: key 'a' appears twice in '[default]'"),
        ("[default]\njust words\n", "line 2: expected 'key = value'"),
        ("[default]\n= 5\n", "line 2: a value without a key"),
        ("[default]\ns3 =\n  addressing_style\n", "'s3' starts a block of 'key = value' lines"),
        ("[default]\nretry_mode = Standard\n", "expected standard, adaptive or legacy"),
        ("[default]\nretry_mode =\n", "got ''"),
        ("[default]\ndefaults_mode = fast\n", "expected one of legacy, auto"),
        ("[default]\nmax_attempts = 0\n", "got 0 (botocore needs at least 1)"),
        ("[default]\nmax_attempts = -1\n", "got -1"),
        ("[default]\nmax_attempts = 3.0\n", "got '3.0'"),
        ("[default]\nmax_attempts = 1__0\n", "got '1__0'"),
        ("[default]\nmax_attempts = 99999999999999999999999\n", "more than the model takes"),
        ("[default]\nmax_attempts = nan\n", "got 'nan'"),
    ])
    func whatBotocoreRefusesIsRefused(text: String, message: String) {
        let description = error(text)
        #expect(description?.contains(message) == true, "\(description ?? "accepted")")
    }

    /// Python's int(): whitespace, a sign, underscores between digits, any script's digits.
    @Test func attemptsAreReadAsPythonsIntReadsThem() throws {
        #expect(AWSSharedConfig.pythonInteger(" +7 ") == 7)
        #expect(AWSSharedConfig.pythonInteger("1_0") == 10)
        #expect(AWSSharedConfig.pythonInteger("007") == 7)
        #expect(AWSSharedConfig.pythonInteger("\u{0664}") == 4)  // ARABIC-INDIC DIGIT FOUR
        #expect(AWSSharedConfig.pythonInteger("_1") == nil && AWSSharedConfig.pythonInteger("1_") == nil)
        #expect(AWSSharedConfig.pythonInteger("") == nil && AWSSharedConfig.pythonInteger("+") == nil)
        #expect(AWSSharedConfig.pythonInteger("0x10") == nil && AWSSharedConfig.pythonInteger("²") == nil)
    }

    /// Control characters from the file are escaped in messages, and long text is cut.
    @Test func messagesShowTheFilesTextSafely() {
        let description = error("[default]\nretry_mode = \u{1B}[31mred\n") ?? ""
        #expect(description.contains("\\u{1B}[31mred") && !description.contains("\u{1B}"))
        let long = error("[default]\nretry_mode = " + String(repeating: "x", count: 500) + "\n") ?? ""
        #expect(long.count < 300 && long.contains("..."))
    }

    /// Lines end at \n, \r\n or \r alike.
    @Test func everyLineEndIsALineEnd() throws {
        for end in ["\n", "\r\n", "\r"] {
            let text = ["[profile p]", "retry_mode = legacy", "max_attempts = 2"].joined(separator: end)
            let config = try read(text, profile: "p")
            #expect(config.retryMode == .legacy && config.maxAttempts == 2, "line end \(Array(end.utf8))")
        }
    }
}
