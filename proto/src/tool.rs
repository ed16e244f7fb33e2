//! The `terminal_exec` tool as agent runtimes see it: one definition of its input and output
//! schemas and its description, used by `paw-client schema` (and the MCP bridge to come).

use serde_json::{Value, json};

use crate::CommandInfo;

/// The tool's name (function names may not contain dots, so not `terminal.exec`).
pub const TOOL_NAME: &str = "terminal_exec";

/// JSON Schema of the tool's input: the params of `terminal.exec`.
pub fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "description": "One command line from the whitelist, e.g. `rss news --limit 5`. No shell: no pipes, redirections, `;`, `&&` or `$(...)`.",
                "minLength": 1,
                "maxLength": 1024
            },
            "stdin": {"type": "string", "description": "Text given to the command as its standard input."},
            "timeout_ms": {"type": "integer", "minimum": 1, "description": "Time limit for this call in milliseconds (capped by the daemon)."},
            "session_id": {"type": "string", "description": "The session to run in (its IRC connection and read cursors); default: `default`."}
        },
        "required": ["command"],
        "additionalProperties": false
    })
}

/// JSON Schema of the tool's output: the exec outcome.
pub fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "run_id": {"type": "string"},
            "session_id": {"type": "string"},
            "exit_code": {"type": "integer", "description": "0 success; 1 CommandFailed; 2 command errors; 124 Timeout; 127 UnknownCommand; 130 Cancelled"},
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "duration_ms": {"type": "integer", "minimum": 0},
            "error_code": {"type": ["string", "null"]},
            "error_message": {"type": ["string", "null"]},
            "result": {"description": "The command's structured result."},
            "artifacts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": {"type": "string"},
                        "mime": {"type": "string"},
                        "description": {"type": "string"}
                    },
                    "required": ["path", "mime", "description"]
                }
            },
            "argv": {"type": "array", "items": {"type": "string"}},
            "truncated": {
                "type": "object",
                "properties": {"stdout": {"type": "boolean"}, "stderr": {"type": "boolean"}},
                "required": ["stdout", "stderr"]
            },
            "notices": {
                "type": "object",
                "description": "What waits for this session (absent when nothing): unread IRC messages per channel (irc pull), feed items not yet given (rss news --new).",
                "properties": {
                    "irc": {
                        "type": "object",
                        "properties": {
                            "unread": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "more_channels": {"type": "integer"}
                        }
                    },
                    "rss": {
                        "type": "object",
                        "properties": {
                            "new": {"type": "integer"},
                            "categories": {"type": "object", "additionalProperties": {"type": "integer"}},
                            "more_categories": {"type": "integer"}
                        }
                    }
                }
            }
        },
        "required": ["run_id", "session_id", "exit_code", "stdout", "stderr", "duration_ms", "error_code", "error_message", "result", "artifacts", "argv", "truncated"]
    })
}

/// The tool's description, listing the commands the daemon offers.
pub fn description(commands: &[CommandInfo]) -> String {
    let mut d = String::from(
        "Run one command in paw's pseudo-terminal: a whitelist of built-in commands (never a shell). \
         Returns exit_code, stdout, stderr, a structured result and artifact files. Commands:\n",
    );
    for c in commands {
        d.push_str(&format!("- {}: {}", c.usage, c.summary));
        d.push('\n');
        for s in &c.subcommands {
            d.push_str(&format!("  - {}: {}\n", s.usage, s.summary));
        }
    }
    d
}

/// The tool definition in one runtime's format: `openai`, `anthropic` or `mcp`.
pub fn definition(format: &str, commands: &[CommandInfo]) -> Option<Value> {
    let desc = description(commands);
    Some(match format {
        "openai" => json!({
            "type": "function",
            "function": {"name": TOOL_NAME, "description": desc, "parameters": input_schema()}
        }),
        "anthropic" => {
            json!({"name": TOOL_NAME, "description": desc, "input_schema": input_schema()})
        }
        "mcp" => json!({
            "name": TOOL_NAME,
            "description": desc,
            "inputSchema": input_schema(),
            "outputSchema": output_schema(),
            "annotations": {"title": "paw terminal", "openWorldHint": true, "destructiveHint": false}
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_schema_names_exactly_the_exec_params() {
        let schema = input_schema();
        let mut props: Vec<&String> = schema["properties"]
            .as_object()
            .expect("props")
            .keys()
            .collect();
        props.sort();
        assert_eq!(props, vec!["command", "session_id", "stdin", "timeout_ms"]);
        // Every property round-trips through ExecParams.
        let p: crate::ExecParams = serde_json::from_value(json!({
            "command": "hello", "stdin": "x", "timeout_ms": 5, "session_id": "s"
        }))
        .expect("params");
        assert_eq!(p.command, "hello");
    }

    #[test]
    fn formats() {
        assert!(definition("openai", &[]).is_some_and(|v| v["function"]["name"] == TOOL_NAME));
        assert!(
            definition("anthropic", &[]).is_some_and(|v| v["input_schema"]["type"] == "object")
        );
        assert!(definition("mcp", &[]).is_some_and(|v| v["outputSchema"]["type"] == "object"));
        assert!(definition("other", &[]).is_none());
    }
}
