/// A shell `backoff completion` writes a script for, and the script: every command, each
/// command's options (a sweep's own and its swept command's), and the values an option offers
/// (``OptionSpec/completions``, files for a `file` value), all from the declarations.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// One command's completion: its name, one line about it and its options.
    struct Entry {
        let name: String
        let abstract: String
        let specs: [OptionSpec]
    }

    /// Every command, in help's order.
    static var entries: [Entry] {
        Commands.all.map { Entry(name: $0.name, abstract: $0.abstract, specs: $0.specs) }
    }

    /// The words after `backoff help`.
    static var helpTopics: [String] { Commands.all.map { $0.name } + ["servers"] }

    /// The script.
    var script: String {
        switch self {
        case .bash: Self.bashScript
        case .zsh: Self.zshScript
        case .fish: Self.fishScript
        }
    }

    /// The options a word after `command` may be: a sweep's own and those of the command it sweeps
    /// (read at completion time from the word after `sweep`).
    private static func optionWords(_ specs: [OptionSpec]) -> String {
        (specs.map { "--\($0.name)" } + ["--help"]).joined(separator: " ")
    }

    // MARK: bash

    private static var bashScript: String {
        var text = """
            # bash completion for backoff (written by 'backoff completion bash'; source it, or install it
            # as bash-completion/completions/backoff).
            _backoff() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
              if [ "$COMP_CWORD" -eq 1 ]; then
                COMPREPLY=($(compgen -W "\(entries.map(\.name).joined(separator: " ")) help --help --version" -- "$cur"))
                return
              fi
              local command="${COMP_WORDS[1]}" swept=""
              if [ "$command" = help ]; then
                [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "\(helpTopics.joined(separator: " "))" -- "$cur"))
                return
              fi
              if [ "$command" = sweep ]; then
                if [ "$COMP_CWORD" -eq 2 ]; then
                  COMPREPLY=($(compgen -W "\(SweepCommand.sweptCommands.map { $0.name }.joined(separator: " "))" -- "$cur"))
                  return
                fi
                swept="${COMP_WORDS[2]}"
              fi
              case "$prev" in
                --*)
                  local values
                  values="$(_backoff_values "$command" "$prev")"
                  [ -z "$values" ] && [ -n "$swept" ] && values="$(_backoff_values "$swept" "$prev")"
                  case "$values" in
                    @file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                    @free) COMPREPLY=(); return ;;
                    "") ;;
                    *) COMPREPLY=($(compgen -W "$values" -- "$cur")); return ;;
                  esac
                  ;;
              esac
              COMPREPLY=($(compgen -W "$(_backoff_options "$command") $(_backoff_options "$swept")" -- "$cur"))
            }

            """
        text += lookupFunctions
        text += """

            complete -F _backoff backoff

            """
        return text
    }

    /// The two functions the bash and zsh scripts look options and values up with (the same
    /// syntax in both shells): `_backoff_options COMMAND` and `_backoff_values COMMAND --OPTION`,
    /// which prints the option's values, `@file`, `@free` (a value to type) or nothing (a flag).
    private static var lookupFunctions: String {
        var text = "_backoff_options() {\n  case \"$1\" in\n"
        for entry in entries {
            text += "    \(entry.name)) echo \"\(optionWords(entry.specs))\" ;;\n"
        }
        text += "  esac\n}\n\n_backoff_values() {\n  case \"$1 $2\" in\n"
        for entry in entries {
            for spec in entry.specs where !spec.isFlag {
                text += "    \"\(entry.name) --\(spec.name)\") echo \"\(valueWord(spec))\" ;;\n"
            }
        }
        return text + "  esac\n}\n"
    }

    /// What the bash and zsh scripts say follows an option: its values, `@file` or `@free`.
    private static func valueWord(_ spec: OptionSpec) -> String {
        if !spec.completions.isEmpty { return spec.completions.joined(separator: " ") }
        return spec.placeholder == "file" ? "@file" : "@free"
    }

    // MARK: zsh

    private static var zshScript: String {
        var text = """
            #compdef backoff
            # zsh completion for backoff (written by 'backoff completion zsh'; install it as _backoff in a
            # directory of $fpath).
            _backoff() {
              local -a commands
              commands=(

            """
        for entry in entries {
            text += "    \(zshQuoted("\(entry.name):\(entry.abstract)"))\n"
        }
        text += """
                help:'Show help for a command'
              )
              if (( CURRENT == 2 )); then
                _describe -t commands 'backoff command' commands
                compadd -- --help --version
                return
              fi
              local command=$words[2] swept=""
              if [[ $command == help ]]; then
                (( CURRENT == 3 )) && compadd -- \(helpTopics.joined(separator: " "))
                return
              fi
              if [[ $command == sweep ]]; then
                if (( CURRENT == 3 )); then
                  compadd -- \(SweepCommand.sweptCommands.map { $0.name }.joined(separator: " "))
                  return
                fi
                swept=$words[3]
              fi
              local prev=$words[CURRENT-1] values
              if [[ $prev == --* ]]; then
                values=$(_backoff_values $command $prev)
                [[ -z $values && -n $swept ]] && values=$(_backoff_values $swept $prev)
                case $values in
                  @file) _files; return ;;
                  @free) _message 'value'; return ;;
                  '') ;;
                  *) compadd -- ${=values}; return ;;
                esac
              fi
              compadd -- ${=$(_backoff_options $command)} ${=$(_backoff_options $swept)}
            }

            """
        text += lookupFunctions
        text += """

            _backoff "$@"

            """
        return text
    }

    private static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    private static var fishScript: String {
        var text = """
            # fish completion for backoff (written by 'backoff completion fish'; install it as
            # backoff.fish in a directory of $fish_complete_path).
            complete -c backoff -f
            complete -c backoff -n __fish_use_subcommand -l help -d 'Show help'
            complete -c backoff -n __fish_use_subcommand -l version -d 'Show the version'
            complete -c backoff -n '__fish_seen_subcommand_from help' -a '\(helpTopics.joined(separator: " "))'

            """
        let sweptNames = SweepCommand.sweptCommands.map { $0.name }.joined(separator: " ")
        for entry in entries {
            text += "complete -c backoff -n __fish_use_subcommand -a \(entry.name) -d \(fishQuoted(entry.abstract))\n"
        }
        text += "complete -c backoff -n '__fish_seen_subcommand_from sweep; and not __fish_seen_subcommand_from "
        text += "\(sweptNames)' -a '\(sweptNames)'\n"
        for entry in entries {
            for spec in entry.specs {
                var line = "complete -c backoff -n '__fish_seen_subcommand_from \(entry.name)' -l \(spec.name)"
                if !spec.isFlag {
                    line += " -r"
                    if !spec.completions.isEmpty {
                        line += " -a \(fishQuoted(spec.completions.joined(separator: " ")))"
                    } else if spec.placeholder == "file" {
                        line += " -F"
                    }
                }
                text += line + " -d \(fishQuoted(String(spec.help.prefix { $0 != "." && $0 != ":" })))\n"
            }
        }
        return text
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
